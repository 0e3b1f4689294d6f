// The reference server's command line read and written (src/cli/reference-server-args.ts): every
// tolerance variant's options written as flags read back to the same options, so a mutant's variant
// run started in a process of its own serves the same server the in-process row does.
import { describe, expect, it } from 'vitest';
import { parseCommand, serverArgsOf, UsageError } from '../../src/cli/reference-server-args.ts';
import type { ReferenceServerOptions } from '../../src/reference/index.ts';
import { TOLERANCE_VARIANTS } from '../../src/runner/variants.ts';

/** What parseCommand gives for a command line that names nothing but these options. */
const withDefaults = (o: ReferenceServerOptions): ReferenceServerOptions => ({
  port: 4010,
  host: '127.0.0.1',
  faults: [],
  control: false,
  extraFields: false,
  ...o,
});

describe('the reference server command line', () => {
  it.each(TOLERANCE_VARIANTS.map((v) => [v.name, v.reference] as const))(
    '%s: its options as flags read back to the same options',
    (_name, reference) => {
      const options = { ...reference, port: 0, control: true };
      expect(parseCommand(serverArgsOf(options)).options).toEqual(withDefaults(options));
    },
  );

  it('writes every flag it reads', () => {
    const options: ReferenceServerOptions = {
      port: 0,
      host: '::',
      faults: ['created-pet-lost', 'pets-default-limit-10'],
      control: true,
      extraFields: true,
      rateLimit: { limit: 5, windowSeconds: 2, shape: 'token-bucket', refillPerSecond: 2.5 },
      rateLimitHeaders: true,
      tokenTtlSeconds: 30,
      sessionExpiredStatus: 419,
      latencyMs: 50,
      customers: 0,
      pets: 3,
      flagWindowSeconds: 2.5,
      flagChangeSeconds: 1,
      choices: { 'taken-pet-id': 'replace', 'pet-ids': 'int64' },
    };
    expect(parseCommand(serverArgsOf(options)).options).toEqual(options);
    expect(parseCommand(serverArgsOf({ rateLimit: null })).options.rateLimit).toBeNull();
  });

  it('names an option it has no flag for, rather than dropping it', () => {
    expect(() => serverArgsOf({ seed: 7 })).toThrow(/no flag for the option seed/);
    expect(() => serverArgsOf({ pageSize: 10 })).toThrow(/no flag for the option pageSize/);
  });

  it.each([
    ['--customers', 'x'],
    ['--customers', '1.5'],
    ['--pets', '100001'],
  ])('refuses %s %s in one line', (flag, value) => {
    expect(() => parseCommand([flag, value])).toThrow(UsageError);
    expect(() => parseCommand([flag, value])).toThrow(
      /^--(customers|pets) must be an integer from 0 to 100000/,
    );
  });
});
