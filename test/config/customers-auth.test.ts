// CUSTOMERS_AUTH says which schemes GET /v1/customers takes on a target ("API key or bearer token
// as the route allows"); the API key is always required (its shown permission), so `bearer` alone
// is no choice.
import { describe, expect, it } from 'vitest';
import { resolveTarget } from '../../src/config/index.ts';
import { load, problemsOf, STAGING, settingsOf } from './helpers.ts';

describe('CUSTOMERS_AUTH', () => {
  it.each(['api-key', 'both'] as const)('%s is read and reaches the checks', (value) => {
    const settings = settingsOf({ ...STAGING, CUSTOMERS_AUTH: value });
    expect(settings.customersAuth).toBe(value);
    expect(resolveTarget(settings).customersAuth).toBe(value);
  });

  it('unset: detected, nothing in the settings', () => {
    expect(settingsOf({ ...STAGING, CUSTOMERS_AUTH: '' }).customersAuth).toBeUndefined();
  });

  it.each(['bearer', 'API-KEY', 'none'])(
    '%s is refused, naming the variable and the required API key',
    (value) => {
      const [problem] = problemsOf({ ...STAGING, CUSTOMERS_AUTH: value });
      expect(problem?.variable).toBe('CUSTOMERS_AUTH');
      expect(problem?.expected).toContain('the API key is always required');
      expect(load({ ...STAGING, CUSTOMERS_AUTH: value }).ok).toBe(false);
    },
  );
});
