// npm run faults [-- --json] [--fault NAME ...] [--slice K/N]
// Prints the fault matrix (src/runner/fault-matrix.ts). Exit 0 when every fault is caught by a
// check of its rule, every check fails under some fault and every conformant server passes, 1 when
// not, 2 on bad arguments.
import { parseArgs } from 'node:util';
import { firstLine } from '../client/errors.ts';
import { FAULTS } from '../reference/index.ts';
import { buildMatrix, renderMatrix, type Slice } from '../runner/fault-matrix.ts';
import { exitAfterOutput } from './exit.ts';

const USAGE = `usage: npm run faults [-- --json] [--fault NAME ...] [--slice K/N]
  (no option)   run every suite against the reference server with each named fault, and against the
                conformant variants; print which check of which rule caught each fault,
                and for each check the faults under which it failed
  --fault NAME  only these faults (names: npm run reference-server -- --list-faults); a subset
                is not asked to fail every check
  --slice K/N   only the K-th of N parts of the faults and conformant variants (the self-test runs
                the parts side by side and merges them); a part is not asked to fail every check
  --json        the matrix as JSON
  -h, --help    this text
The suites run against reference servers this command starts: no variable of .env is read, and
no request leaves this machine.
exit code: 0 every fault caught, every check failed by some fault and every conformant server
passed, 1 not, 2 bad arguments
docs: docs/conformance.md (the fault matrix), docs/reference-server.md (the faults)`;

async function main(): Promise<void> {
  let values: { json: boolean; fault: string[]; help: boolean; slice?: string };
  try {
    values = parseArgs({
      options: {
        json: { type: 'boolean', default: false },
        fault: { type: 'string', multiple: true, default: [] },
        slice: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
    }).values;
  } catch (error) {
    process.stderr.write(`faults: ${firstLine(error)}\n${USAGE}\n`);
    process.exit(2);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const unknown = values.fault.filter((name) => !FAULTS.some((f) => f.name === name));
  if (unknown.length) {
    process.stderr.write(
      `faults: unknown fault ${unknown.join(', ')}; see npm run reference-server -- --list-faults\n`,
    );
    process.exit(2);
  }
  let slice: Slice | undefined;
  if (values.slice !== undefined) {
    const m = /^(\d+)\/(\d+)$/.exec(values.slice);
    const [index, of] = m ? [Number(m[1]), Number(m[2])] : [0, 0];
    if (!m || of < 1 || index < 1 || index > of) {
      process.stderr.write(`faults: --slice takes K/N with 1 <= K <= N, not ${values.slice}\n${USAGE}\n`);
      process.exit(2);
    }
    slice = { index, of };
  }
  const matrix = await buildMatrix(values.fault, slice);
  process.stdout.write(values.json ? `${JSON.stringify(matrix)}\n` : renderMatrix(matrix));
  // A pipe may not have taken the whole line yet; exiting now would cut the JSON short.
  await exitAfterOutput(matrix.ok ? 0 : 1);
}

main().catch((error: unknown) => {
  process.stderr.write(`faults: ${firstLine(error)}\n`);
  process.exit(2);
});
