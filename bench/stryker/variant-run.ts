// node --import vitest/node --import tsx bench/stryker/variant-run.ts VARIANT
// One conformance run of the suites against the reference server of one tolerance variant
// (src/runner/variants.ts: another open choice, other sizes or statuses), invariants included, as
// `npm run faults` runs its tolerance rows. The mutation bench runs it in a sandbox holding one
// mutant, for the survivors whose code only that variant reaches (bench/stryker/variants.ts).
// Exit 0 every check passed, 1 a check failed (its ids on stdout), 2 an unknown variant or a run
// that could not be made.
import { runVariants, TOLERANCE_VARIANTS } from '../../src/runner/variants.ts';

async function main(): Promise<void> {
  const name = process.argv[2];
  const variant = TOLERANCE_VARIANTS.find((v) => v.name === name);
  if (!variant) {
    process.stderr.write(`variant-run: unknown variant ${name ?? '(none)'}\n`);
    process.exit(2);
  }
  const [outcome] = await runVariants([variant]);
  const checks = outcome?.checks ?? [];
  if (checks.length === 0) {
    process.stderr.write(`variant-run: ${variant.name}: no check ran\n`);
    process.exit(2);
  }
  const failed = checks.filter((c) => c.state === 'failed');
  for (const c of failed) process.stdout.write(`failed ${c.id}: ${c.reason ?? ''}\n`);
  process.stdout.write(`${variant.name}: ${failed.length} of ${checks.length} checks failed\n`);
  process.exit(failed.length ? 1 : 0);
}

main().catch((error: unknown) => {
  process.stderr.write(`variant-run: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
});
