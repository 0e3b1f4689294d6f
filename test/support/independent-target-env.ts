// The variables that name the independent server (test/support/independent-server/) as a staging
// target: its two base addresses and its client and API-key credentials. Tests add what their run
// needs beside (the optional variables, the reports folder). Kept outside the server's folder, which
// imports nothing but node: and itself.
import type { RunningIndependentServer } from './independent-server/server.ts';

export function independentTargetEnv(server: RunningIndependentServer): Record<string, string> {
  return {
    CONFORMANCE_TARGET: 'staging',
    API_BASE_URL: server.apiBaseUrl,
    PETSTORE_BASE_URL: server.petstoreBaseUrl,
    CLIENT_ID: server.clientId,
    CLIENT_SECRET: server.clientSecret,
    API_KEY_ID: server.apiKeyId,
    API_KEY_SECRET: server.apiKeySecret,
  };
}
