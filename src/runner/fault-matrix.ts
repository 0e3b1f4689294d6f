// The fault matrix: the suites against the clean reference server, against every named fault (each
// breaks one rule) and against conformant servers that choose differently where the spec is silent.
// Every fault must be caught by a check of the rule it breaks; the clean and the other conformant
// servers must pass.
import { FAULTS } from '../reference/index.ts';
import { findRule } from '../rules/catalogue.ts';
import {
  type CheckOutcome,
  runVariants,
  TOLERANCE_VARIANTS,
  type Variant,
  type VariantOutcome,
} from './variants.ts';

export interface FaultRow {
  fault: string;
  rule: string;
  caughtBy: string[];
  otherFailures: string[];
}

export interface Matrix {
  clean: VariantOutcome;
  faults: FaultRow[];
  tolerance: VariantOutcome[];
  ok: boolean;
}

const failed = (checks: CheckOutcome[]) => checks.filter((c) => c.state === 'failed');

export async function buildMatrix(only: readonly string[] = []): Promise<Matrix> {
  const faults = FAULTS.filter((f) => only.length === 0 || only.includes(f.name));
  const variants: Variant[] = [
    { name: 'clean', reference: {} },
    // A fault only needs the suite of its rule's area: the check of that rule must catch it.
    ...faults.map((f) => {
      const area = findRule(f.rule)?.area;
      return { name: `fault:${f.name}`, reference: { faults: [f.name] }, ...(area ? { areas: [area] } : {}) };
    }),
    ...(only.length ? [] : TOLERANCE_VARIANTS),
  ];
  const outcomes = new Map((await runVariants(variants)).map((o) => [o.name, o]));
  const clean = outcomes.get('clean') ?? { name: 'clean', checks: [] };
  const rows = faults.map((f) => {
    const failures = failed(outcomes.get(`fault:${f.name}`)?.checks ?? []);
    return {
      fault: f.name,
      rule: f.rule,
      caughtBy: failures.filter((c) => c.rules.includes(f.rule)).map((c) => c.id),
      otherFailures: failures.filter((c) => !c.rules.includes(f.rule)).map((c) => c.id),
    };
  });
  const tolerance = TOLERANCE_VARIANTS.filter(() => only.length === 0).map(
    (v) => outcomes.get(v.name) ?? { name: v.name, checks: [] },
  );
  const ok =
    clean.checks.length > 0 &&
    failed(clean.checks).length === 0 &&
    rows.every((r) => r.caughtBy.length > 0) &&
    tolerance.every((v) => v.checks.length > 0 && failed(v.checks).length === 0);
  return { clean, faults: rows, tolerance, ok };
}

function count(checks: CheckOutcome[]): string {
  const n = (state: CheckOutcome['state']) => checks.filter((c) => c.state === state).length;
  return `${n('passed')} passed, ${n('failed')} failed, ${n('skipped')} skipped`;
}

export function renderMatrix(matrix: Matrix): string {
  const width = Math.max(5, ...matrix.faults.map((r) => r.fault.length));
  const lines = [`${'fault'.padEnd(width)}  rule     caught by`];
  for (const row of matrix.faults) {
    const caught = row.caughtBy.length ? row.caughtBy.join(', ') : 'NOT CAUGHT';
    lines.push(`${row.fault.padEnd(width)}  ${row.rule.padEnd(7)}  ${caught}`);
  }
  lines.push('', `clean server: ${count(matrix.clean.checks)}`);
  for (const c of failed(matrix.clean.checks)) lines.push(`  failed: ${c.id}: ${c.reason ?? ''}`);
  for (const v of matrix.tolerance) {
    lines.push(`${v.name}: ${count(v.checks)}`);
    for (const c of failed(v.checks)) lines.push(`  failed: ${c.id}: ${c.reason ?? ''}`);
  }
  const caught = matrix.faults.filter((r) => r.caughtBy.length > 0).length;
  lines.push(
    '',
    `${caught} of ${matrix.faults.length} faults caught by a check of their rule: ${matrix.ok ? 'OK' : 'NOT OK'}`,
  );
  return `${lines.join('\n')}\n`;
}
