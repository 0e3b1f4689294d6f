// `npm test`'s pretest step: the real-k6 tests need the pinned k6, so a fresh machine with Go builds
// it here (build-k6.ts; `npm run load:*` does the same) into the git-ignored .tools/bin, which findK6
// searches. Where k6 is already found this does nothing; with neither k6 nor Go it says the tests
// will skip.
import { relative } from 'node:path';
import { buildPinnedK6 } from './build-k6.ts';
import { findK6 } from './find-k6.ts';

const say = (line: string) => process.stdout.write(`pretest: ${line}\n`);

async function main(): Promise<number> {
  const found = findK6();
  if (found) {
    say(`k6 found at ${relative(process.cwd(), found) || found}`);
    return 0;
  }
  const result = await buildPinnedK6(say);
  if ('noGo' in result) {
    say('neither k6 nor Go is installed: the real-k6 tests will be skipped (install Go or k6 to run them)');
    return 0;
  }
  if ('failed' in result) {
    process.stderr.write(`pretest: ${result.failed}\n`);
    return 2;
  }
  say(`k6 built in ${result.seconds} s`);
  return 0;
}

process.exitCode = await main();
