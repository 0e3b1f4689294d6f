import { describe, expect, it } from 'vitest';
import type { CheckContext } from '../../src/checks/define.ts';
import { shared } from '../../src/checks/shared.ts';
import type { TargetConfig } from '../../src/config/index.ts';
import { filesMatching } from '../support/sources.ts';

const config = (controlUrl?: string) =>
  ({
    target: 'local',
    apiBaseUrl: 'http://127.0.0.1:9/api/',
    petstoreBaseUrl: 'http://127.0.0.1:9/petstore/v1',
    credentials: {
      clientId: 'id',
      clientSecret: 'client-secret-x',
      apiKeyId: 'k',
      apiKeySecret: 'key-secret-x',
    },
    allowProductionWrites: false,
    requestTimeoutMs: 1000,
    strict: false,
    slow: false,
    ...(controlUrl ? { controlUrl } : {}),
  }) as TargetConfig;

const contextOf = (target: TargetConfig) =>
  ({ config: target, attach: () => undefined }) as unknown as CheckContext;

describe('shared work reaches the control API', () => {
  it('gets the target control client when the target offers one, once for every check', async () => {
    let runs = 0;
    const work = shared(async (_client, _config, control) => {
      runs++;
      return typeof control?.setFeature;
    });
    const t = contextOf(config('http://127.0.0.1:9/__control/'));
    expect(await work(t)).toBe('function');
    expect(await work(t)).toBe('function');
    expect(runs).toBe(1);
  });

  it('gets undefined for a target without a control API', async () => {
    const work = shared(async (_client, _config, control) => control);
    expect(await work(contextOf(config()))).toBeUndefined();
  });

  // Would fail if a suite (or check()) built its own control client again instead of controlOf().
  it('only src/checks/control.ts builds control clients', () => {
    expect(filesMatching(/createControlClient/, ['suites', 'src'], 'src/checks/control.ts')).toEqual([]);
  });
});

describe('shared work that fails', () => {
  // Each check that uses failed work gets its exchanges as evidence, not only the one that started it.
  it('attaches the exchanges to every check that awaits it, and rethrows to each', async () => {
    const work = shared(async (client) => {
      await client
        .request({ service: 'main', method: 'GET', path: 'v1/customers', auth: 'none' })
        .catch(() => undefined);
      throw new Error('the walk broke');
    });
    const attached: unknown[][] = [];
    const contextWith = () =>
      ({ config: config(), attach: (e: unknown[]) => attached.push(e) }) as unknown as CheckContext;
    await expect(work(contextWith())).rejects.toThrow('the walk broke');
    await expect(work(contextWith())).rejects.toThrow('the walk broke');
    expect(attached).toHaveLength(2);
    expect(attached[0]?.length).toBeGreaterThan(0);
    expect(attached[1]).toEqual(attached[0]);
  });
});

describe('shared work a check awaits twice', () => {
  // A suite's helper and the check itself may both await it: one copy of the evidence per check
  // (two doubled the reports), every check still holding it.
  it('attaches its exchanges once to each check, however often that check awaits it', async () => {
    const work = shared(async (client) => {
      await client
        .request({ service: 'main', method: 'GET', path: 'v1/customers', auth: 'none' })
        .catch(() => undefined);
      return 'done';
    });
    const attachedBy = new Map<string, unknown[][]>();
    const contextNamed = (name: string) =>
      ({
        config: config(),
        attach: (e: unknown[]) => attachedBy.set(name, [...(attachedBy.get(name) ?? []), e]),
      }) as unknown as CheckContext;
    const first = contextNamed('first');
    const second = contextNamed('second');
    expect(await work(first)).toBe('done');
    expect(await work(first)).toBe('done');
    expect(await work(second)).toBe('done');
    expect(attachedBy.get('first')).toHaveLength(1);
    expect(attachedBy.get('second')).toHaveLength(1);
    expect(attachedBy.get('first')?.[0]?.length).toBeGreaterThan(0);
  });
});
