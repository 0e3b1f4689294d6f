// The embedded reference server's demo secrets, published in the docs. They open nothing but that
// server, so meeting them with a remote target means the .env was copied from an old example: the
// run stops instead of sending them to staging. (A test keeps this list equal to the server's.)
export const DEMO_SECRETS: Readonly<Record<string, string>> = {
  CLIENT_SECRET: 'local-client-secret-do-not-use-elsewhere',
  API_KEY_SECRET: 'local-api-key-secret-do-not-use-elsewhere',
  PINNED_API_KEY_SECRET: 'local-pinned-api-key-secret-do-not-use-elsewhere',
};
