// The environment that points \`npm run conformance\` at a reference server started by a benchmark,
// as a staging target would be configured (the server's own demo credentials, on loopback).
import type { RunningReferenceServer } from '../src/reference/index.ts';

export function targetEnv(server: RunningReferenceServer, reportsDir: string): NodeJS.ProcessEnv {
  const c = server.credentials;
  return {
    ...process.env,
    CONFORMANCE_TARGET: 'staging',
    API_BASE_URL: server.apiBaseUrl,
    PETSTORE_BASE_URL: server.petstoreBaseUrl,
    REFERENCE_CONTROL_URL: server.controlUrl,
    CLIENT_ID: c.clientId,
    CLIENT_SECRET: c.clientSecret,
    API_KEY_ID: c.apiKeyId,
    API_KEY_SECRET: c.apiKeySecret,
    PINNED_API_KEY_ID: c.pinnedApiKeyId,
    PINNED_API_KEY_SECRET: c.pinnedApiKeySecret,
    CONFORMANCE_REPORTS_DIR: reportsDir,
    // A developer's .env must not change what runs: the real environment wins over it.
    DISABLED_FEATURE_ROUTE: '',
    EXPIRED_ACCESS_TOKEN: '',
    CONFORMANCE_STRICT: '0',
  };
}
