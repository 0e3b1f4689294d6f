// The fault matrix: the suites against the clean reference server, against every named fault (each
// breaks one rule) and against conformant servers that choose differently where the spec is silent.
// Two requirements, both shown: every fault is caught by a check of the rule it breaks, and every
// check fails under at least one fault (a check that nothing can make fail proves nothing). The
// clean and the other conformant servers must pass.
import { FAULTS } from '../reference/index.ts';
import { AREAS, type Area, findRule } from '../rules/catalogue.ts';
import {
  type CheckOutcome,
  runVariants,
  TOLERANCE_VARIANTS,
  type Variant,
  type VariantOutcome,
} from './variants.ts';

/**
 * Areas whose checks cover every operation (each answer against its schema, generated requests):
 * a fault of any rule can show there, so every fault runs them beside its own rule's area.
 */
export const CROSS_CUTTING: readonly Area[] = ['operations', 'generated'];

const isArea = (name: string): name is Area => (AREAS as readonly string[]).includes(name);

export interface FaultRow {
  fault: string;
  rule: string;
  caughtBy: string[];
  /** Checks of a general rule the fault breaks too (FaultInfo.alsoBreaks): credited, not its catch. */
  alsoCaughtBy?: string[];
  otherFailures: string[];
}

/**
 * A check and the faults that fail it for its own reason: a fault of one of the check's rules
 * (none: nothing shows it can fail). Failures under other rules' faults (a broken token route
 * failing a user check's setup) are listed apart and prove nothing about the check.
 */
export interface CheckRow {
  id: string;
  rules: string[];
  failedBy: string[];
  alsoFailedBy: string[];
}

export interface Matrix {
  clean: VariantOutcome;
  faults: FaultRow[];
  checks: CheckRow[];
  tolerance: VariantOutcome[];
  ok: boolean;
  /** Only some faults ran (--fault): checks are not asked to fail, and the per-check table is left out. */
  subset?: boolean;
}

const failed = (checks: CheckOutcome[]) => checks.filter((c) => c.state === 'failed');

/** The areas a fault's suites run: its rule's area and the cross-cutting ones. */
export function areasOf(rule: string): Area[] {
  const own = findRule(rule)?.area;
  return [...new Set([...(own ? [own] : []), ...CROSS_CUTTING])];
}

/** Every check of the clean run, with the faults that made it fail, in the clean run's order. */
export function checkRows(clean: VariantOutcome, rows: readonly FaultRow[]): CheckRow[] {
  const own = new Map<string, string[]>();
  const other = new Map<string, string[]>();
  for (const row of rows) {
    for (const id of [...row.caughtBy, ...(row.alsoCaughtBy ?? [])])
      own.set(id, [...(own.get(id) ?? []), row.fault]);
    for (const id of row.otherFailures) other.set(id, [...(other.get(id) ?? []), row.fault]);
  }
  return clean.checks.map((c) => ({
    id: c.id,
    rules: c.rules,
    failedBy: own.get(c.id) ?? [],
    alsoFailedBy: other.get(c.id) ?? [],
  }));
}

/** One of `of` parts of the matrix (1-based): every `of`-th fault and conformant variant. */
export interface Slice {
  index: number;
  of: number;
}

const inSlice = (slice: Slice | undefined) => (_: unknown, i: number) =>
  slice === undefined || i % slice.of === slice.index - 1;

export async function buildMatrix(only: readonly string[] = [], slice?: Slice): Promise<Matrix> {
  const faults = FAULTS.filter((f) => only.length === 0 || only.includes(f.name)).filter(inSlice(slice));
  const toleranceRows = only.length ? [] : TOLERANCE_VARIANTS.filter(inSlice(slice));
  const variants: Variant[] = [
    { name: 'clean', reference: {} },
    // A fault judged over every exchange (src/checks/invariants.ts) names the suites whose answers show it too.
    ...faults.map((f) => ({
      name: `fault:${f.name}`,
      reference: { faults: [f.name] },
      areas: [...new Set([...areasOf(f.rule), ...(f.areas ?? []).filter(isArea)])],
    })),
    ...toleranceRows,
  ];
  const outcomes = new Map((await runVariants(variants)).map((o) => [o.name, o]));
  const clean = outcomes.get('clean') ?? { name: 'clean', checks: [] };
  const rows = faults.map((f) => {
    const failures = failed(outcomes.get(`fault:${f.name}`)?.checks ?? []);
    return {
      fault: f.name,
      rule: f.rule,
      caughtBy: failures.filter((c) => c.rules.includes(f.rule)).map((c) => c.id),
      alsoCaughtBy: failures
        .filter((c) => !c.rules.includes(f.rule) && c.rules.some((r) => f.alsoBreaks?.includes(r)))
        .map((c) => c.id),
      otherFailures: failures
        .filter((c) => !c.rules.includes(f.rule) && !c.rules.some((r) => f.alsoBreaks?.includes(r)))
        .map((c) => c.id),
    };
  });
  const checks = checkRows(clean, rows);
  const tolerance = toleranceRows.map((v) => outcomes.get(v.name) ?? { name: v.name, checks: [] });
  // With --fault or a slice, a part of the faults cannot be asked to fail every check.
  const subset = only.length > 0 || slice !== undefined;
  return judged({ clean, faults: rows, checks, tolerance, ok: false, ...(subset ? { subset: true } : {}) });
}

function judged(matrix: Matrix): Matrix {
  const ok =
    matrix.clean.checks.length > 0 &&
    failed(matrix.clean.checks).length === 0 &&
    matrix.faults.every((r) => r.caughtBy.length > 0) &&
    (matrix.subset === true || matrix.checks.every((c) => c.failedBy.length > 0)) &&
    matrix.tolerance.every((v) => v.checks.length > 0 && failed(v.checks).length === 0);
  return { ...matrix, ok };
}

/**
 * The whole matrix from its slices (run side by side, each well inside its own time limit): every
 * slice's clean run must pass, and each check is asked to fail under some fault of any slice.
 */
export function mergeSlices(parts: readonly Matrix[]): Matrix {
  const [first] = parts;
  if (!first) throw new Error('no slice of the fault matrix to merge');
  const faults = parts.flatMap((p) => p.faults);
  const broken = parts.find((p) => p.clean.checks.length === 0 || failed(p.clean.checks).length > 0);
  const clean = broken?.clean ?? first.clean;
  return judged({
    clean,
    faults,
    checks: checkRows(first.clean, faults),
    tolerance: parts.flatMap((p) => p.tolerance),
    ok: false,
  });
}

function count(checks: CheckOutcome[]): string {
  const n = (state: CheckOutcome['state']) => checks.filter((c) => c.state === state).length;
  return `${n('passed')} passed, ${n('failed')} failed, ${n('skipped')} skipped`;
}

/** At most `max` names, then how many more. */
function some(names: readonly string[], max: number): string {
  return names.length <= max
    ? names.join(', ')
    : `${names.slice(0, max).join(', ')} and ${names.length - max} more`;
}

export function renderMatrix(matrix: Matrix): string {
  const width = Math.max(5, ...matrix.faults.map((r) => r.fault.length));
  const lines = [`${'fault'.padEnd(width)}  rule     caught by`];
  for (const row of matrix.faults) {
    const caught = row.caughtBy.length ? row.caughtBy.join(', ') : 'NOT CAUGHT';
    lines.push(`${row.fault.padEnd(width)}  ${row.rule.padEnd(7)}  ${caught}`);
  }
  const none = matrix.subset ? [] : matrix.checks.filter((c) => c.failedBy.length === 0);
  if (!matrix.subset) {
    const checkWidth = Math.max(5, ...matrix.checks.map((c) => c.id.length));
    lines.push('', `${'check'.padEnd(checkWidth)}  failed for its own reason by (a fault of its rule)`);
    for (const c of matrix.checks) {
      const others = c.alsoFailedBy.length
        ? `; other rules' faults, not credited: ${c.alsoFailedBy.length}`
        : '';
      lines.push(
        `${c.id.padEnd(checkWidth)}  ${c.failedBy.length ? some(c.failedBy, 3) : 'NO FAULT OF ITS RULE FAILS IT'}${others}`,
      );
    }
    if (none.length)
      lines.push(
        '',
        `checks no fault of their rule fails (${none.length}): ${none.map((c) => c.id).join(', ')}`,
      );
  }
  lines.push('', `clean server: ${count(matrix.clean.checks)}`);
  for (const c of failed(matrix.clean.checks)) lines.push(`  failed: ${c.id}: ${c.reason ?? ''}`);
  for (const v of matrix.tolerance) {
    lines.push(`${v.name}: ${count(v.checks)}`);
    for (const c of failed(v.checks)) lines.push(`  failed: ${c.id}: ${c.reason ?? ''}`);
  }
  const caught = matrix.faults.filter((r) => r.caughtBy.length > 0).length;
  const perCheck = matrix.subset
    ? 'checks are not asked to fail (only part of the faults ran: --fault or --slice)'
    : `${none.length} of ${matrix.checks.length} checks without a fault of their rule that fails them`;
  lines.push(
    '',
    `${caught} of ${matrix.faults.length} faults caught by a check of their rule; ${perCheck}: ${matrix.ok ? 'OK' : 'NOT OK'}`,
  );
  return `${lines.join('\n')}\n`;
}
