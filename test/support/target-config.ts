// The configuration of a staging run against a reference server started by a test (its demo
// credentials, no control API), for tests that build the suite's client or checks by hand.
import type { TargetConfig } from '../../src/config/index.ts';
import type { RunningReferenceServer } from '../../src/reference/index.ts';

export function stagingConfigOf(
  server: RunningReferenceServer,
  change: Partial<TargetConfig> = {},
): TargetConfig {
  const c = server.credentials;
  return {
    target: 'staging',
    apiBaseUrl: server.apiBaseUrl,
    petstoreBaseUrl: server.petstoreBaseUrl,
    credentials: {
      clientId: c.clientId,
      clientSecret: c.clientSecret,
      apiKeyId: c.apiKeyId,
      apiKeySecret: c.apiKeySecret,
    },
    allowProductionWrites: false,
    requestTimeoutMs: 5_000,
    strict: false,
    slow: false,
    ...change,
  };
}
