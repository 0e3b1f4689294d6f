// Child of exit.test.ts: prints BYTES characters and a newline, then exits with CODE.
import { exitAfterOutput } from '../../src/cli/exit.ts';

const [code = '0', bytes = '0'] = process.argv.slice(2);
process.stdout.write(`${'x'.repeat(Number(bytes))}\n`);
await exitAfterOutput(Number(code));
