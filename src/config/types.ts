// The shapes configuration produces: what .env / the environment say (TargetSettings), and the
// resolved description of one target the client and the checks use (TargetConfig).

import type { TargetName } from '../../common/config-rules.ts';

// The target names are a rule both halves share (common/config-rules.ts).
export { TARGETS, type TargetName } from '../../common/config-rules.ts';

/** "API key or bearer token as the route allows": the API key always, the bearer token maybe. */
export type CustomersAuth = 'api-key' | 'both';

export interface TargetSettings {
  target: TargetName;
  /** Required unless local. */
  apiBaseUrl?: string;
  petstoreBaseUrl?: string;
  clientId?: string;
  clientSecret?: string;
  apiKeyId?: string;
  apiKeySecret?: string;
  pinnedApiKeyId?: string;
  pinnedApiKeySecret?: string;
  /** PINNED_API_KEY_ADDRESS: the address that key is pinned to (configuration, never the target's word). */
  pinnedApiKeyAddress?: string | undefined;
  disabledFeatureRoute?: string;
  expiredAccessToken?: string;
  /** CUSTOMERS_AUTH: the schemes GET /v1/customers takes, when told (unset: detected). */
  customersAuth?: CustomersAuth;
  allowProductionWrites: boolean;
  /** PRODUCTION_API_BASE_URL / PRODUCTION_PETSTORE_BASE_URL: production's declared addresses. */
  productionApiBaseUrl?: string;
  productionPetstoreBaseUrl?: string;
  /** Default 10000. */
  requestTimeoutMs: number;
  /** CONFORMANCE_STRICT=1 */
  strict: boolean;
  /** CONFORMANCE_SLOW (default on; 0 switches real-time waits off). */
  slow: boolean;
  /** REFERENCE_CONTROL_URL: control API of a separately started reference server. */
  controlUrl?: string;
  /** CONFORMANCE_FLAG_WINDOW: the flag cache window the checks judge (unset: the spec's 60 s). */
  flagWindowSeconds?: number | undefined;
}

export interface ConfigProblem {
  variable: string;
  problem: string;
  expected: string;
}

/** warnings: one line per unknown variable that looks like ours (a slip such as API_KEY_SECRT). */
export type LoadResult = (
  | { ok: true; settings: TargetSettings }
  | { ok: false; problems: ConfigProblem[] }
) & { warnings?: string[] };

export interface TargetConfig {
  target: TargetName;
  apiBaseUrl: string;
  petstoreBaseUrl: string;
  credentials: {
    clientId: string;
    clientSecret: string;
    apiKeyId: string;
    apiKeySecret: string;
    pinnedApiKey?: { id: string; secret: string; address?: string };
  };
  /**
   * The address the target sees this run at, when the run knows it without asking the target (a
   * loopback connection comes from the loopback address it goes to).
   */
  callerAddress?: string;
  disabledFeatureRoute?: string;
  expiredAccessToken?: string;
  controlUrl?: string;
  /** Set by the setup diagnosis when the pet interface cannot be reached: the pet checks skip. */
  petstoreUnavailable?: string;
  /** CUSTOMERS_AUTH: the schemes GET /v1/customers takes, when told (unset: detected). */
  customersAuth?: CustomersAuth;
  allowProductionWrites: boolean;
  /** Production's declared addresses: a run against their hosts is production whatever its label. */
  productionApiBaseUrl?: string;
  productionPetstoreBaseUrl?: string;
  requestTimeoutMs: number;
  strict: boolean;
  slow: boolean;
  /** The flag cache window the checks judge, when not the spec's 60 s (tests only). */
  flagWindowSeconds?: number;
}

/**
 * What resolveTarget needs of a started reference server (plain data, so config does not depend on
 * src/reference): RunningReferenceServer satisfies it.
 */
export interface LocalServerInfo {
  apiBaseUrl: string;
  petstoreBaseUrl: string;
  controlUrl?: string | undefined;
  credentials: {
    clientId: string;
    clientSecret: string;
    apiKeyId: string;
    apiKeySecret: string;
    pinnedApiKeyId?: string;
    pinnedApiKeySecret?: string;
    /** The address the run pinned that key to when it started the server. */
    pinnedApiKeyAddress?: string;
  };
}
