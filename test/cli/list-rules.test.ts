// The routes x rules table of --list-rules: a rule that governs a route and has no check there is
// MISSING; a rule that does not govern it is "-" (the pet operations' errors are not shown).
import { describe, expect, it } from 'vitest';
import { routeTable } from '../../src/cli/list-rules.ts';

const row = (text: string, route: string) => text.split('\n').find((l) => l.startsWith(`${route} `)) ?? '';

describe('routes x rules', () => {
  it('names every governed cell without a check, and only those', () => {
    const coverage = new Map([
      ['REN-01', ['REN-EXPIRED-getCurrentUser', 'REN-EXPIRED-listCustomers']],
      ['ERR-03', ['INV-ERROR-STATUS-CODE']],
    ]);
    const { text, missing } = routeTable(coverage);
    expect(missing).toContain('REN-01 on GET /v1/feature-flags');
    expect(missing).not.toContain('REN-01 on GET /v1/user/me');
    expect(missing).not.toContain('ERR-03 on GET /v1/customers');
    expect(missing.some((m) => m.endsWith('/pets') && m.startsWith('ERR-'))).toBe(false);
    expect(row(text, 'GET /v1/feature-flags')).toMatch(/MISSING/);
    expect(row(text, 'GET /pets')).not.toMatch(
      /MISSING\s+MISSING\s+MISSING\s+MISSING\s+MISSING\s+MISSING\s+MISSING/,
    );
  });
});
