// node --import tsx bench/stryker/variant-run.ts VARIANT
// One conformance run of the suites against the reference server of one tolerance variant
// (src/runner/variants.ts: another open choice, other sizes or statuses), invariants included, as
// `npm run faults` runs its tolerance rows, with the server in a process of its own as the default
// pass judges every mutant (isolated-run.ts, started with the variant's options as flags): a mutant
// that crashes or hangs the server fails the run's checks, never the run itself. The mutation bench
// runs it in a sandbox holding one mutant, for the survivors whose code only that variant reaches
// (bench/stryker/variants.ts). Exit: the conformance run's (0 every check passed, 1 a check failed),
// 124 no verdict within its bound, 2 an unknown variant or a run that could not be made.
import { serverArgsOf } from '../../src/cli/reference-server-args.ts';
import { TOLERANCE_VARIANTS } from '../../src/runner/variants.ts';
import { isolatedRun } from './isolated-run.ts';

/** Below the variant pass's own bound (variants.ts), so the run is stopped here, its servers with it. */
export const VARIANT_BOUND_MS = 170_000;

async function main(): Promise<void> {
  const name = process.argv[2];
  const variant = TOLERANCE_VARIANTS.find((v) => v.name === name);
  if (!variant) {
    process.stderr.write(`variant-run: unknown variant ${name ?? '(none)'}\n`);
    process.exit(2);
  }
  const code = await isolatedRun({
    boundMs: VARIANT_BOUND_MS,
    serverArgs: serverArgsOf(variant.reference),
    runArgs: (variant.areas ?? []).flatMap((area) => ['--area', area]),
  });
  // The conformance run's last line (its verdict and failed checks) stays the last line seen.
  process.exit(code);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    process.stderr.write(`variant-run: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  });
}
