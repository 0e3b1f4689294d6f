// The secret values of a configuration, for redaction and for leak scans of reports and logs: the
// secret rows of the one table of variables, read by key (the k6 scripts read the same rows).
import { secretValuesOf } from '../../common/variables.ts';
import { targetValues } from './target.ts';
import type { TargetConfig, TargetSettings } from './types.ts';

export function secretValues(config: TargetConfig | TargetSettings): string[] {
  return secretValuesOf('credentials' in config ? targetValues(config) : config);
}
