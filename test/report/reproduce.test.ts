// "Reproduce with": which exchange of a failed check is the one to repeat, and how it is named.
import { describe, expect, it } from 'vitest';
import type { RecordedExchange } from '../../src/client/index.ts';
import { failingExchange, failingExchangeText } from '../../src/report/reproduce.ts';
import type { CheckResult } from '../../src/report/types.ts';
import { apiKeyExchange } from '../support/exchange.ts';

const base: RecordedExchange = apiKeyExchange;

describe('failingExchange', () => {
  const check = (over: Partial<CheckResult>): CheckResult =>
    ({
      id: 'X',
      title: 't',
      area: 'errors',
      rules: [],
      level: 'MUST',
      status: 'failed',
      durationMs: 1,
      exchanges: [base, { ...base, status: 500 }],
      ...over,
    }) as CheckResult;

  it('is the one the check marked; else the last request before the failure, said to be so', () => {
    expect(failingExchange(check({ failedExchange: 1 }))).toMatchObject({ index: 1, known: true });
    const unknown = check({});
    const found = failingExchange(unknown);
    expect(found).toMatchObject({ index: 1, known: false });
    expect(found && failingExchangeText(unknown, found)).toBe(
      'exchange #2 of 2, the last before the failure: GET http://127.0.0.1:4010/api/v1/customers?page=2 -> HTTP 500',
    );
    const marked = check({ failedExchange: 1 });
    const second = failingExchange(marked);
    expect(second && failingExchangeText(marked, second)).toBe(
      'exchange #2 of 2 failed: GET http://127.0.0.1:4010/api/v1/customers?page=2 -> HTTP 500',
    );
    expect(failingExchange(check({ exchanges: [] }))).toBeUndefined();
  });
});
