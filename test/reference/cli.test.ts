// The reference-server command (src/cli/reference-server.ts) as a user runs it: a child process.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { FAULTS } from '../../src/reference/index.ts';
import { call } from './helpers.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const children: ChildProcess[] = [];

function start(args: string[]): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/reference-server.ts', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return child;
}

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

async function finish(child: ChildProcess): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stdout, stderr };
}

/** Everything printed up to the "Ctrl+C" line, i.e. once the server listens. */
function banner(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout?.on('data', (d: Buffer) => {
      text += d.toString();
      if (text.includes('Ctrl+C stops it.')) resolve(text);
    });
    child.once('close', (code) => reject(new Error(`the server exited (${code}) before listening: ${text}`)));
  });
}

const value = (text: string, name: string) => new RegExp(`${name}=(\\S+)`).exec(text)?.[1] ?? '';

describe('npm run reference-server', { timeout: 120_000 }, () => {
  it('prints its URLs and credentials, serves them, and stops on SIGTERM', async () => {
    const child = start(['--port', '0', '--control', '--fault', 'page-size-20']);
    const text = await banner(child);
    const api = value(text, 'API_BASE_URL');
    expect(api).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/$/);
    expect(value(text, 'PETSTORE_BASE_URL')).toBe(`${new URL(api).origin}/petstore/v1`);
    expect(value(text, 'REFERENCE_CONTROL_URL')).toBe(`${new URL(api).origin}/__control/`);
    expect(text).toContain('faults: page-size-20');
    const headers = {
      'x-api-key-id': value(text, 'API_KEY_ID'),
      'x-api-key-secret': value(text, 'API_KEY_SECRET'),
    };
    const page = await call(`${api}v1/customers`, { headers });
    expect(page.status).toBe(200);
    expect((page.json as { data: unknown[] }).data).toHaveLength(20);
    expect((await call(value(text, 'REFERENCE_CONTROL_URL'))).status).toBe(200);
    const exit = once(child, 'close');
    child.kill('SIGTERM');
    expect((await exit)[0]).toBe(0);
  });

  it('--rate-shape token-bucket --rate-refill --rate-headers: a bucket of 2 that announces itself', async () => {
    const child = start([
      '--port',
      '0',
      '--rate-limit',
      '2',
      '--rate-shape',
      'token-bucket',
      '--rate-refill',
      // A token every 1000 s: the real time between the calls (seconds on a busy machine) refills
      // next to nothing, so the third call is refused whatever the load.
      '0.001',
      '--rate-headers',
    ]);
    const text = await banner(child);
    const url = `${value(text, 'API_BASE_URL')}v1/customers`;
    const headers = {
      'x-api-key-id': value(text, 'API_KEY_ID'),
      'x-api-key-secret': value(text, 'API_KEY_SECRET'),
    };
    const first = await call(url, { headers });
    expect(first.headers['ratelimit-policy']).toBe('"default";q=2;w=2000');
    expect(first.headers.ratelimit).toMatch(/^"default";r=1;t=\d+$/);
    expect((await call(url, { headers })).status).toBe(200);
    const refused = await call(url, { headers });
    expect(refused.status).toBe(429);
    // The next token in 1000 s, less the little that refilled while the calls were made.
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(990);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(1000);
  });

  it('--choice request-media-type=any: a text/plain body is read as JSON, and the banner says so', async () => {
    const child = start(['--port', '0', '--choice', 'request-media-type=any']);
    const text = await banner(child);
    expect(text).toContain('choice: request-media-type=any');
    const pets = `${value(text, 'PETSTORE_BASE_URL')}/pets`;
    const created = await call(pets, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '{"id": 9401, "name": "Rex"}',
    });
    expect(created.status).toBe(201);
    const exit = once(child, 'close');
    child.kill('SIGTERM');
    expect((await exit)[0]).toBe(0);
  });

  it('says the control API is off without --control', async () => {
    const child = start(['--port', '0']);
    const text = await banner(child);
    expect(text).toContain('control API off');
    expect((await call(`${new URL(value(text, 'API_BASE_URL')).origin}/__control/`)).status).toBe(404);
  });

  it.each([
    [['--port', 'abc'], /--port must be an integer/],
    [['--port', '70000'], /--port must be an integer from 0 to 65535/],
    [['--fault', 'no-such-fault'], /unknown fault no-such-fault/],
    [['--rate-limit', 'lots'], /--rate-limit/],
    [['--rate-shape', 'leaky'], /--rate-shape must be one of fixed-window, sliding-window, token-bucket/],
    [['--rate-shape', 'fixed-window', '--rate-refill', '3'], /--rate-refill needs --rate-shape token-bucket/],
    [['--rate-refill', '0'], /--rate-refill needs/],
    [['--token-ttl', '-3'], /token-ttl/],
    [['--session-expired-status', '200'], /--session-expired-status/],
    [['--what'], /Unknown option/],
    [
      ['--choice', 'limit-zero=maybe'],
      /--choice choice limit-zero must be one of refuse, empty, got "maybe"/,
    ],
    [['--choice', 'colour=red'], /--choice unknown choice "colour"/],
  ])('%j: one line on stderr, exit 2', async (args, message) => {
    const { code, stdout, stderr } = await finish(start(args));
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(message);
    expect(stderr.trim().split('\n')).toHaveLength(1);
  });

  it('--list-faults --markdown prints a table with every fault and its rule', async () => {
    const { code, stdout } = await finish(start(['--list-faults', '--markdown']));
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toBe('| fault | rule | what it breaks |');
    expect(lines[1]).toBe('|---|---|---|');
    expect(lines).toHaveLength(FAULTS.length + 2);
    for (const f of FAULTS) expect(stdout).toContain(`| \`${f.name}\` | ${f.rule} |`);
  });

  it("--list-choices prints every open choice with its values, this server's first", async () => {
    const { code, stdout } = await finish(start(['--list-choices']));
    expect(code).toBe(0);
    expect(stdout).toMatch(/^request-media-type\s+json-only\|any\s+request media types/m);
    expect(stdout).toMatch(/^page-below-one\s+400\|422\s/m);
  });

  it('--list-faults prints a plain table', async () => {
    const { code, stdout } = await finish(start(['--list-faults']));
    expect(code).toBe(0);
    expect(stdout.split('\n')[0]).toMatch(/^fault\s+rule\s+description$/);
    for (const f of FAULTS) expect(stdout).toMatch(new RegExp(`^${f.name}\\s+${f.rule}\\s+`, 'm'));
  });
});
