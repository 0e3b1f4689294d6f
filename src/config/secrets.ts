// The secret values of a configuration, for redaction and for leak scans of reports and logs.
import type { TargetConfig, TargetSettings } from './types.ts';

export function secretValues(config: TargetConfig | TargetSettings): string[] {
  const values =
    'credentials' in config
      ? [
          config.credentials.clientSecret,
          config.credentials.apiKeySecret,
          config.credentials.pinnedApiKey?.secret,
        ]
      : [config.clientSecret, config.apiKeySecret, config.pinnedApiKeySecret];
  values.push(config.expiredAccessToken);
  return [...new Set(values.filter((v): v is string => typeof v === 'string' && v.length > 0))];
}
