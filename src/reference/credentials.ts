// The credentials the server accepts out of the box (local, non-secret demo values, refused by the
// suite for any remote target), so the suite runs against the server with no setup.
export const DEFAULT_CREDENTIALS = {
  clientId: 'local-conformance-client',
  clientSecret: 'local-client-secret-do-not-use-elsewhere',
  apiKeyId: 'local-api-key',
  apiKeySecret: 'local-api-key-secret-do-not-use-elsewhere',
  pinnedApiKeyId: 'local-pinned-api-key',
  pinnedApiKeySecret: 'local-pinned-api-key-secret-do-not-use-elsewhere',
} as const;

export type Credentials = { -readonly [K in keyof typeof DEFAULT_CREDENTIALS]: string };

/** TEST-NET-3 (RFC 5737): never loopback, so the pinned key is refused from the test machine. */
export const PINNED_ADDRESS = '203.0.113.10';

/** The user behind the client and the default API key; the pinned key belongs to another user. */
export const DEFAULT_USER_ID = 'usr_1';
export const PINNED_KEY_USER_ID = 'usr_2';
