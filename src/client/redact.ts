// Redaction of everything an exchange record carries is the one secret filter, shared with the
// reports and the k6 scripts (k6-safe, so it lives in load/lib/shared/).
export {
  createSecretFilter as createRedactor,
  REDACTED,
  type SecretFilter as Redactor,
} from '../../load/lib/shared/secret-filter.ts';
