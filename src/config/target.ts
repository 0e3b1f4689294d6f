// resolveTarget: settings (+ the started embedded server for the local target) -> TargetConfig.
import { isLoopbackHost, urlHost } from '../../common/config-rules.ts';
import type { LocalServerInfo, TargetConfig, TargetSettings } from './types.ts';

export function resolveTarget(settings: TargetSettings, localServer?: LocalServerInfo): TargetConfig {
  const common = {
    target: settings.target,
    allowProductionWrites: settings.allowProductionWrites,
    ...(settings.customersAuth ? { customersAuth: settings.customersAuth } : {}),
    ...(settings.productionApiBaseUrl ? { productionApiBaseUrl: settings.productionApiBaseUrl } : {}),
    ...(settings.productionPetstoreBaseUrl
      ? { productionPetstoreBaseUrl: settings.productionPetstoreBaseUrl }
      : {}),
    requestTimeoutMs: settings.requestTimeoutMs,
    strict: settings.strict,
    slow: settings.slow,
    ...(settings.flagWindowSeconds !== undefined ? { flagWindowSeconds: settings.flagWindowSeconds } : {}),
  };

  if (settings.target === 'local') {
    if (!localServer) throw new Error('the local target needs the started reference server');
    // Everything about the environment comes from the server we started: credentials or routes in
    // .env describe some other environment and would only mislead the checks.
    const { credentials: c } = localServer;
    const config: TargetConfig = {
      ...common,
      apiBaseUrl: localServer.apiBaseUrl,
      petstoreBaseUrl: localServer.petstoreBaseUrl,
      credentials: {
        clientId: c.clientId,
        clientSecret: c.clientSecret,
        apiKeyId: c.apiKeyId,
        apiKeySecret: c.apiKeySecret,
      },
    };
    if (c.pinnedApiKeyId && c.pinnedApiKeySecret) {
      config.credentials.pinnedApiKey = {
        id: c.pinnedApiKeyId,
        secret: c.pinnedApiKeySecret,
        ...(c.pinnedApiKeyAddress ? { address: c.pinnedApiKeyAddress } : {}),
      };
    }
    const caller = loopbackSource(config.apiBaseUrl);
    if (caller) config.callerAddress = caller;
    const controlUrl = localServer.controlUrl ?? settings.controlUrl;
    if (controlUrl) config.controlUrl = controlUrl;
    return config;
  }

  const { apiBaseUrl, petstoreBaseUrl, clientId, clientSecret, apiKeyId, apiKeySecret } = settings;
  if (!apiBaseUrl || !petstoreBaseUrl || !clientId || !clientSecret || !apiKeyId || !apiKeySecret) {
    // loadSettings refuses such settings; reaching this is a programming error.
    throw new Error(`settings for the ${settings.target} target are incomplete (use loadSettings)`);
  }
  const config: TargetConfig = {
    ...common,
    apiBaseUrl,
    petstoreBaseUrl,
    credentials: { clientId, clientSecret, apiKeyId, apiKeySecret },
  };
  if (settings.pinnedApiKeyId && settings.pinnedApiKeySecret) {
    config.credentials.pinnedApiKey = {
      id: settings.pinnedApiKeyId,
      secret: settings.pinnedApiKeySecret,
      ...(settings.pinnedApiKeyAddress ? { address: settings.pinnedApiKeyAddress } : {}),
    };
  }
  const caller = loopbackSource(config.apiBaseUrl);
  if (caller) config.callerAddress = caller;
  if (settings.disabledFeatureRoute) config.disabledFeatureRoute = settings.disabledFeatureRoute;
  if (settings.expiredAccessToken) config.expiredAccessToken = settings.expiredAccessToken;
  if (settings.controlUrl) config.controlUrl = settings.controlUrl;
  return config;
}

/**
 * A resolved target seen as settings again: every value under its settings key (the keys of the
 * table of variables), so what is read by key (the secret rows, the k6 hand-over) reads a
 * TargetConfig as it reads TargetSettings.
 */
export function targetValues(config: TargetConfig): Readonly<Record<string, unknown>> {
  const { credentials, ...rest } = config;
  const { pinnedApiKey, ...keys } = credentials;
  return {
    ...rest,
    ...keys,
    pinnedApiKeyId: pinnedApiKey?.id,
    pinnedApiKeySecret: pinnedApiKey?.secret,
    pinnedApiKeyAddress: pinnedApiKey?.address,
  };
}

/**
 * The address a connection to a literal loopback address comes from: that same address. Anything
 * else (a name, another host) the run cannot know without asking, and the target is not asked.
 */
export function loopbackSource(baseUrl: string): string | undefined {
  // An address, not a name: localhost may resolve to either family.
  const host = urlHost(baseUrl);
  if (host === undefined || !isLoopbackHost(host) || host === 'localhost' || host.endsWith('.localhost')) {
    return undefined;
  }
  return host.startsWith('[') ? host.slice(1, -1) : host;
}
