// The mutation run's command (bench/stryker/isolated-run.ts): the reference server in a process of
// its own, judged as staging through what it prints, killed afterwards; a run past its bound fails.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ADDRESS_CHECKS,
  HANG_EXIT,
  hasIpv6Loopback,
  isolatedRun,
  printedVariables,
  runEnvironment,
} from '../../../bench/stryker/isolated-run.ts';

const PRINTED = [
  'reference server listening',
  '  API_BASE_URL=http://127.0.0.1:4599/api/',
  '  PETSTORE_BASE_URL=http://127.0.0.1:4599/petstore/v1',
  '  REFERENCE_CONTROL_URL=http://127.0.0.1:4599/__control/',
  'credentials it accepts (local demo values):',
  '  CLIENT_ID=id',
  '  CLIENT_SECRET=secret',
  '  API_KEY_ID=key',
  '  API_KEY_SECRET=key-secret',
  '  PINNED_API_KEY_ID=pinned   (pinned to 203.0.113.10: refused from here)',
  '  PINNED_API_KEY_SECRET=pinned-secret',
  'faults: none',
  'Ctrl+C stops it.',
  '',
].join('\n');

describe('what the server prints', () => {
  it('is read only once it says it listens, addresses, credentials and the pinned address', () => {
    expect(printedVariables(PRINTED.slice(0, 60))).toBeUndefined();
    expect(printedVariables(PRINTED)).toMatchObject({
      API_BASE_URL: 'http://127.0.0.1:4599/api/',
      REFERENCE_CONTROL_URL: 'http://127.0.0.1:4599/__control/',
      PINNED_API_KEY_ID: 'pinned',
      PINNED_API_KEY_ADDRESS: '203.0.113.10',
    });
  });

  it('becomes the environment of a staging run, replacing any address already set', () => {
    const env = runEnvironment(printedVariables(PRINTED) ?? {}, {
      API_BASE_URL: 'https://elsewhere.example/api/',
      CONFORMANCE_TARGET: 'production',
      CONFORMANCE_SEED: '7',
    });
    expect(env).toMatchObject({
      CONFORMANCE_TARGET: 'staging',
      API_BASE_URL: 'http://127.0.0.1:4599/api/',
      PETSTORE_BASE_URL: 'http://127.0.0.1:4599/petstore/v1',
      CONFORMANCE_SEED: '7',
    });
  });

  it('a missing address is an error, never a run against whatever the environment held', () => {
    const { REFERENCE_CONTROL_URL: _, ...without } = printedVariables(PRINTED) ?? {};
    expect(() => runEnvironment(without, {})).toThrow(/REFERENCE_CONTROL_URL/);
  });
});

describe('one run', () => {
  // A stand-in for the conformance run: appends what it was given (one JSON line per pass), asks the
  // server, then exits or hangs. `--` keeps the selection the wrapper appends away from node's options.
  const standIn = (out: string, then: string) => [
    process.execPath,
    '-e',
    `const fs=require('node:fs');const e=process.env;` +
      `fetch(e.PETSTORE_BASE_URL+'/pets?limit=1').then(async(r)=>{const pets=(await r.json()).length;` +
      `fs.appendFileSync(${JSON.stringify(out)},JSON.stringify({target:e.CONFORMANCE_TARGET,api:e.API_BASE_URL,control:e.REFERENCE_CONTROL_URL,status:r.status,pets,next:r.headers.get('x-next'),args:process.argv.slice(1)})+'\\n');${then}})`,
    '--',
  ];
  const passes = (out: string) =>
    readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
  const fresh = () => join(mkdtempSync(join(tmpdir(), 'isolated-run-')), 'seen.jsonl');

  it('judges a server started apart, on 127.0.0.1, and stops it afterwards', async () => {
    const out = fresh();
    const code = await isolatedRun({ boundMs: 60_000, run: standIn(out, 'process.exit(0)'), log: () => {} });
    expect(code).toBe(0);
    for (const seen of passes(out)) {
      expect(seen).toMatchObject({ target: 'staging', status: 200 });
      // Every address the run is given, and the link the server sends, is the loopback it connects
      // to, even on a dual-stack listener.
      expect(seen.api).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/$/);
      expect(seen.control).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/__control\/$/);
      expect(seen.next).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/petstore\/v1\/pets\?/);
      await expect(fetch(`${seen.api}v1/feature-flags`)).rejects.toThrow();
    }
  }, 90_000);

  it('a run that outlives its bound fails (a hang is never a pass), and the server is stopped', async () => {
    const out = fresh();
    const lines: string[] = [];
    const code = await isolatedRun({
      boundMs: 15_000,
      run: standIn(out, 'setInterval(()=>{},1000)'),
      log: (l) => lines.push(l),
    });
    expect(code).toBe(HANG_EXIT);
    expect(lines.join('\n')).toMatch(/no verdict within 15 s/);
    const [seen] = passes(out);
    await expect(fetch(`${seen.api}v1/feature-flags`)).rejects.toThrow();
  }, 90_000);

  it("starts the server with a variant's flags (a tolerance row's options)", async () => {
    const out = fresh();
    const run = standIn(out, 'process.exit(0)');
    expect(await isolatedRun({ boundMs: 60_000, run, serverArgs: ['--pets', '0'], log: () => {} })).toBe(0);
    for (const seen of passes(out)) expect(seen).toMatchObject({ status: 200, pets: 0 });
    const plain = fresh();
    expect(
      await isolatedRun({ boundMs: 60_000, run: standIn(plain, 'process.exit(0)'), log: () => {} }),
    ).toBe(0);
    for (const seen of passes(plain)) expect(seen).toMatchObject({ status: 200, pets: 1 });
  }, 90_000);

  it('a failing run is the verdict: no second pass', async () => {
    const out = fresh();
    expect(await isolatedRun({ boundMs: 60_000, run: standIn(out, 'process.exit(1)'), log: () => {} })).toBe(
      1,
    );
    expect(passes(out)).toHaveLength(1);
  }, 90_000);

  it('a server that never listens fails the run with its reason', async () => {
    const lines: string[] = [];
    const code = await isolatedRun({
      boundMs: 60_000,
      cwd: mkdtempSync(join(tmpdir(), 'isolated-run-empty-')),
      run: [process.execPath, '-e', 'process.exit(0)'],
      log: (l) => lines.push(l),
    });
    expect(code).toBe(1);
    expect(lines.join('\n')).toMatch(/the reference server did not start/);
  }, 90_000);

  it('dual-stack where the machine has IPv6 loopback, then the address checks on IPv4 only', async () => {
    const v6 = await hasIpv6Loopback();
    const out = fresh();
    const probe = [
      process.execPath,
      '-e',
      // Over IPv6 loopback only a dual-stack listener answers.
      `const fs=require('node:fs');const w=(x)=>fs.appendFileSync(${JSON.stringify(out)},JSON.stringify({family:x,args:process.argv.slice(1)})+'\\n');` +
        `fetch(process.env.PETSTORE_BASE_URL.replace('127.0.0.1','[::1]')+'/pets?limit=1').then(()=>w('v6'),()=>w('v4 only'))`,
      '--',
    ];
    expect(await isolatedRun({ boundMs: 60_000, run: probe, log: () => {} })).toBe(0);
    expect(passes(out)).toEqual(
      v6
        ? [
            { family: 'v6', args: [] },
            { family: 'v4 only', args: ['--check', ADDRESS_CHECKS] },
          ]
        : [{ family: 'v4 only', args: [] }],
    );
  }, 90_000);
});
