// Defence in depth: exchanges arrive redacted, but every string a report writes goes through the
// one secret filter once more (configured secret values in every form a report can write them),
// so a leak elsewhere in the pipeline stops here.
export {
  createSecretFilter as createScrubber,
  type SecretFilter as Scrubber,
} from '../../load/lib/shared/secret-filter.ts';
