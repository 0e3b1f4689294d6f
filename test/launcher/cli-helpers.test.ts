// The load CLI's parts: arguments, k6's exit codes, the k6 environment, finding k6, the local
// server per script, and the reachability preflight.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { TargetConfig } from '../../src/config/index.ts';
import { LoadUsageError, parseLoadArgs } from '../../src/launcher/args.ts';
import { loadExit } from '../../src/launcher/exit-code.ts';
import { findK6, K6_INSTALL_HINT, onPath } from '../../src/launcher/find-k6.ts';
import { k6Environment, RESERVED_VARIABLES, reportDirFrom } from '../../src/launcher/k6-env.ts';
import { localServerPlan } from '../../src/launcher/local-server.ts';
import { targetUnreachable } from '../../src/launcher/preflight.ts';

describe('parseLoadArgs', () => {
  it('takes the script, --profile, and hands the rest to k6', () => {
    expect(parseLoadArgs(['release', '--profile', 'Soak', '--vus', '3', '--', '--profile', 'x'])).toEqual({
      script: 'release',
      profile: 'soak',
      k6Args: ['--vus', '3', '--profile', 'x'],
      help: false,
      live: false,
    });
    expect(parseLoadArgs(['release', '--live']).live).toBe(true);
    expect(parseLoadArgs(['flag-cache', '--profile=smoke']).profile).toBe('smoke');
    expect(parseLoadArgs(['rate-limit', '-h']).help).toBe(true);
  });

  it('refuses unknown scripts and profiles; --profile applies to every script', () => {
    expect(() => parseLoadArgs(['spike'])).toThrow(LoadUsageError);
    expect(() => parseLoadArgs([])).toThrow(/unknown load script ""/);
    expect(() => parseLoadArgs(['release', '--profile', 'spike'])).toThrow(/smoke, load, stress, soak/);
    expect(() => parseLoadArgs(['release', '--profile'])).toThrow(/--profile must be/);
    expect(parseLoadArgs(['rate-limit', '--profile', 'smoke']).profile).toBe('smoke');
  });

  it('keeps the target out of --env, before and after --, without repeating the value', () => {
    for (const args of [
      ['release', '--env', 'API_BASE_URL=https://prod.example.test/api/'],
      ['release', '-e', 'CONFORMANCE_TARGET=production'],
      ['release', '--env=ALLOW_PRODUCTION_WRITES=yes'],
      ['release', '--', '--env', 'CLIENT_SECRET=hunter2'],
      // k6's --env wins over its environment: a hand-over given there would replace the launcher's.
      ['release', '--env', 'LOAD_TARGET={"target":"production","allowProductionWrites":true}'],
    ]) {
      expect(() => parseLoadArgs(args)).toThrow(/is not allowed: set .* in \.env or the environment/);
    }
    // The profile travels with the target too: on the command line it is --profile.
    expect(() => parseLoadArgs(['release', '--env', 'LOAD_PROFILE=stress'])).toThrow(
      '--env LOAD_PROFILE=... is not allowed: use --profile NAME',
    );
    try {
      parseLoadArgs(['release', '--env', 'CLIENT_SECRET=hunter2']);
    } catch (error) {
      expect((error as Error).message).not.toContain('hunter2');
    }
    expect(parseLoadArgs(['release', '--env', 'RELEASE_VUS=4']).k6Args).toEqual(['--env', 'RELEASE_VUS=4']);
  });
});

describe('loadExit', () => {
  it('maps k6 exit codes', () => {
    expect(loadExit(0, null)).toEqual({ code: 0, message: 'passed (exit 0)' });
    expect(loadExit(99, null)).toEqual({
      code: 1,
      message: expect.stringMatching(/^failed \(k6 exit code 99\)/),
    });
    expect(loadExit(0, null, { verdict: 'failed' }).code).toBe(1);
    expect(loadExit(99, null, { verdict: 'inconclusive', verdictReason: 'never met' })).toEqual({
      code: 3,
      message: 'inconclusive (exit 3): never met',
    });
    expect(loadExit(105, null).code).toBe(130);
    expect(loadExit(105, null, { interruptedBy: 'SIGTERM' })).toEqual({
      code: 143,
      message: 'interrupted by SIGTERM: the reports are marked "interrupted"',
    });
    expect(loadExit(0, null, { interruptedBy: 'SIGINT', verdict: 'passed' }).code).toBe(130);
    expect(loadExit(107, null)).toEqual({
      code: 107,
      message: expect.stringMatching(/script threw an error/),
    });
    expect(loadExit(42, null)).toEqual({ code: 42, message: 'k6 exited with code 42' });
    // The script stopped the run (a token answer it could not read): the report's verdict decides.
    expect(
      loadExit(108, null, { verdict: 'inconclusive', verdictReason: 'no token answer could be read' }),
    ).toEqual({
      code: 3,
      message: 'inconclusive (exit 3): no token answer could be read',
    });
    expect(loadExit(108, null, { verdict: 'failed' }).code).toBe(1);
    expect(loadExit(108, null)).toEqual({
      code: 108,
      message: expect.stringMatching(/script aborted the test/),
    });
    expect(loadExit(null, 'SIGKILL')).toEqual({
      code: 130,
      message: 'interrupted by SIGKILL: the reports are marked "interrupted"',
    });
  });
});

const CONFIG: TargetConfig = {
  target: 'staging',
  apiBaseUrl: 'https://staging.example.test/api/',
  petstoreBaseUrl: 'https://pets.example.test/v1',
  credentials: { clientId: 'c', clientSecret: 'cs', apiKeyId: 'k', apiKeySecret: 'ks' },
  controlUrl: 'http://127.0.0.1:4010/__control/',
  allowProductionWrites: false,
  requestTimeoutMs: 5000,
  strict: false,
  slow: true,
};

describe('k6Environment', () => {
  const base = {
    PATH: '/bin',
    API_BASE_URL: 'https://elsewhere.test/api/',
    API_KEY_SECRET: 'leftover-secret-of-another-target',
    RATE_CEILING: '60',
    PETSTORE_BASE_URL: 'x',
    LOAD_TARGET: '{"target":"production"}',
    K6_REPORT_DIR: '/elsewhere',
  };
  const handedOver = (env: NodeJS.ProcessEnv) => JSON.parse(env.LOAD_TARGET ?? '{}');

  it('hands the resolved target over once, as LOAD_TARGET, and keeps load variables', () => {
    const env = k6Environment(CONFIG, {
      base,
      reportDir: 'out',
      petstore: true,
      control: true,
      profile: 'load',
    });
    expect(env).toMatchObject({ PATH: '/bin', RATE_CEILING: '60', K6_NO_USAGE_REPORT: 'true' });
    // The profile is handed over with the target, not set as LOAD_PROFILE for k6.
    expect(env.LOAD_PROFILE).toBeUndefined();
    expect(handedOver(env)).toEqual({
      target: 'staging',
      apiBaseUrl: CONFIG.apiBaseUrl,
      petstoreBaseUrl: CONFIG.petstoreBaseUrl,
      clientId: 'c',
      clientSecret: 'cs',
      apiKeyId: 'k',
      apiKeySecret: 'ks',
      allowProductionWrites: false,
      requestTimeoutMs: 5000,
      controlUrl: CONFIG.controlUrl,
      reportDir: 'out',
      profile: 'load',
    });
  });

  it("lets no variable of the user's environment describe the target beside the hand-over", () => {
    const env = k6Environment(CONFIG, { base, reportDir: 'out', petstore: true, control: true });
    for (const name of RESERVED_VARIABLES.filter((n) => n !== 'LOAD_TARGET'))
      expect(env[name], name).toBeUndefined();
    expect(JSON.stringify(env)).not.toContain('leftover-secret-of-another-target');
    expect(RESERVED_VARIABLES).toEqual(
      expect.arrayContaining(['API_BASE_URL', 'CLIENT_SECRET', 'LOAD_TARGET', 'K6_REPORT_DIR']),
    );
  });

  it('withholds the pet demo and the control API where the script or the target must not have them', () => {
    const env = k6Environment(CONFIG, { base, reportDir: 'r', petstore: false, control: false });
    expect(handedOver(env).petstoreBaseUrl).toBeUndefined();
    expect(handedOver(env).controlUrl).toBeUndefined();
    expect(env.LOAD_PROFILE).toBeUndefined();
    const prod = { ...CONFIG, target: 'production' as const, allowProductionWrites: true };
    const prodEnv = k6Environment(prod, { base, reportDir: 'r', petstore: true, control: true });
    expect(handedOver(prodEnv).petstoreBaseUrl).toBeUndefined();
    expect(handedOver(prodEnv).controlUrl).toBeUndefined();
    expect(handedOver(prodEnv).allowProductionWrites).toBe(true);
  });

  it('lets the user override the defaults it suggests', () => {
    const env = k6Environment(CONFIG, {
      base: { RATE_WINDOW: '9s', K6_NO_USAGE_REPORT: 'false' },
      reportDir: 'r',
      petstore: false,
      control: false,
      defaults: { RATE_WINDOW: '60s', RATE_EXPECTED_LIMIT: '600' },
    });
    expect(env).toMatchObject({ RATE_WINDOW: '9s', RATE_EXPECTED_LIMIT: '600', K6_NO_USAGE_REPORT: 'false' });
  });

  it('chooses the report directory', () => {
    expect(reportDirFrom({})).toBe('reports');
    expect(reportDirFrom({ CONFORMANCE_REPORTS_DIR: '/tmp/c/' })).toBe('/tmp/c');
    expect(reportDirFrom({ CONFORMANCE_REPORTS_DIR: '/tmp/c', K6_REPORT_DIR: ' /tmp/k ' })).toBe('/tmp/k');
  });
});

describe('findK6', () => {
  const exists = (paths: string[]) => (p: string) => paths.includes(p);

  it('prefers PATH, then the project build, then Go, then ~/go/bin', () => {
    const env = { PATH: '/a:/b' };
    const where = { env, home: '/h', projectDir: '/p/.tools/bin' };
    expect(findK6({ ...where, isExecutable: exists(['/b/k6', '/p/.tools/bin/k6', '/h/go/bin/k6']) })).toBe(
      '/b/k6',
    );
    expect(findK6({ ...where, isExecutable: exists(['/p/.tools/bin/k6', '/h/go/bin/k6']) })).toBe(
      '/p/.tools/bin/k6',
    );
    expect(findK6({ ...where, isExecutable: exists(['/h/go/bin/k6']) })).toBe('/h/go/bin/k6');
    expect(findK6({ ...where, isExecutable: exists([]) })).toBeUndefined();
    expect(onPath('k6', { env: { PATH: '' }, isExecutable: () => true })).toBeUndefined();
  });

  it('says how to install k6 in one line', () => {
    expect(K6_INSTALL_HINT).not.toMatch(/\n/);
    expect(K6_INSTALL_HINT).toContain('go install go.k6.io/k6@v1.7.0');
    expect(K6_INSTALL_HINT).toContain('https://grafana.com/docs/k6/latest/set-up/install-k6/');
  });
});

describe('localServerPlan', () => {
  it('turns the control API on for flag-cache only', () => {
    expect(localServerPlan('flag-cache', {}).options.control).toBe(true);
    expect(localServerPlan('rate-limit', {}).options.control).toBe(false);
    expect(localServerPlan('release', {}).options.control).toBe(false);
  });

  it('tells the rate probe nothing of the limiter: it measures what it meets (headers on by default)', () => {
    expect(localServerPlan('rate-limit', {})).toMatchObject({
      options: { rateLimit: { limit: 600, windowSeconds: 60 }, rateLimitHeaders: true },
      defaults: {},
    });
    expect(
      localServerPlan('rate-limit', {
        LOCAL_RATE_LIMIT: '25',
        LOCAL_RATE_SHAPE: 'token-bucket',
        LOCAL_RATE_REFILL: '5',
        LOCAL_RATE_HEADERS: 'off',
        LOCAL_TOKEN_TTL: '10',
        LOCAL_FAULTS: 'rate-limit-500, rate-limit-no-body',
      }),
    ).toMatchObject({
      options: {
        rateLimit: { limit: 25, windowSeconds: 60, shape: 'token-bucket', refillPerSecond: 5 },
        rateLimitHeaders: false,
        tokenTtlSeconds: 10,
        faults: ['rate-limit-500', 'rate-limit-no-body'],
      },
      description: expect.stringMatching(/token bucket of 25, 5\/s, tokens live 10 s, faults rate-limit-500/),
    });
    expect(localServerPlan('rate-limit', {}, 'smoke').options.rateLimit).toEqual({
      limit: 100,
      windowSeconds: 10,
    });
    expect(localServerPlan('release', {}, 'smoke').options.rateLimit).toBeNull();
    expect(() => localServerPlan('rate-limit', { LOCAL_RATE_SHAPE: 'leaky' })).toThrow(
      /LOCAL_RATE_SHAPE="leaky"/,
    );
    expect(() => localServerPlan('rate-limit', { LOCAL_RATE_REFILL: '0' })).toThrow(/LOCAL_RATE_REFILL="0"/);
    expect(
      localServerPlan('rate-limit', { LOCAL_RATE_LIMIT: '30', LOCAL_RATE_WINDOW: '5' }).options.rateLimit,
    ).toEqual({
      limit: 30,
      windowSeconds: 5,
    });
  });

  it('runs release without a limiter unless asked, and anything with LOCAL_RATE_LIMIT=off', () => {
    expect(localServerPlan('release', {}).options.rateLimit).toBeNull();
    expect(localServerPlan('release', { LOCAL_RATE_LIMIT: '100' }).options.rateLimit).toEqual({
      limit: 100,
      windowSeconds: 60,
    });
    expect(localServerPlan('rate-limit', { LOCAL_RATE_LIMIT: 'off' })).toMatchObject({
      options: { rateLimit: null },
      defaults: {},
    });
    expect(() => localServerPlan('rate-limit', { LOCAL_RATE_LIMIT: 'many' })).toThrow(
      /LOCAL_RATE_LIMIT="many"/,
    );
  });
});

describe('targetUnreachable', () => {
  const at = (port: number, requestTimeoutMs = 2000): TargetConfig => ({
    ...CONFIG,
    apiBaseUrl: `http://127.0.0.1:${port}/api/`,
    requestTimeoutMs,
  });

  it('accepts any HTTP answer and names the cause when there is none', async () => {
    const server = createServer((_, res) => res.writeHead(404).end('no'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      expect(await targetUnreachable(at(port))).toBeUndefined();
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    // The conformance run's words (src/client/errors.ts), not a table of the load CLI's own.
    expect(await targetUnreachable(at(port))).toBe(
      `cannot reach the target: connection refused by 127.0.0.1:${port}`,
    );
  });

  it('gives up after the timeout when the server never answers', async () => {
    const server = createServer(() => {});
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      expect(await targetUnreachable(at(port, 300))).toBe(
        `cannot reach the target: timed out: no response within 300 ms from GET http://127.0.0.1:${port}/api/`,
      );
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('a target that answers badly (a body over the cap) is reachable: the run will check it', async () => {
    const server = createServer((_, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('x'.repeat(6 * 1024 * 1024));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      expect(await targetUnreachable(at(port))).toBeUndefined();
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('k6 run flags that change the verdict or print traffic (issue 30)', () => {
  it('refuses --no-thresholds, --http-debug, --out and the like, before or after a second --, naming what each would do', () => {
    const cases: [string[], RegExp][] = [
      [['release', '--no-thresholds'], /--no-thresholds is not allowed: it turns off the thresholds/],
      [['release', '--', '--no-thresholds'], /--no-thresholds is not allowed/],
      [['release', '--http-debug=full'], /--http-debug is not allowed: it prints every request/],
      [['release', '-o', 'json=x'], /-o is not allowed: it sends every metric/],
      [['release', '--', '--out=cloud'], /--out is not allowed/],
      [['rate-limit', '--insecure-skip-tls-verify'], /--insecure-skip-tls-verify is not allowed/],
    ];
    for (const [argv, message] of cases) {
      expect(() => parseLoadArgs(argv), argv.join(' ')).toThrow(message);
    }
    expect(() => parseLoadArgs(['release', '--', '--out=cloud=token-x'])).not.toThrow(/token-x/);
    expect(parseLoadArgs(['release', '--quiet']).k6Args).toEqual(['--quiet']);
  });
});

describe('parseLoadArgs --runners', () => {
  it("splits the release run only, and keeps the runners' own flags to the launcher", () => {
    expect(parseLoadArgs(['release', '--runners', '4']).runners).toBe(4);
    expect(parseLoadArgs(['release', '--runners=2', '--quiet']).k6Args).toEqual(['--quiet']);
    expect(parseLoadArgs(['release']).runners).toBeUndefined();
    expect(() => parseLoadArgs(['release', '--runners', '0'])).toThrow(/from 1 to 64/);
    expect(() => parseLoadArgs(['release', '--runners', 'x'])).toThrow(/from 1 to 64/);
    expect(() => parseLoadArgs(['rate-limit', '--runners', '2'])).toThrow(/release only/);
    expect(() => parseLoadArgs(['release', '--runners', '2', '--live'])).toThrow(/--live/);
    for (const flag of ['--address=127.0.0.1:1', '--paused', '--execution-segment=0:1/2']) {
      expect(() => parseLoadArgs(['release', '--runners', '2', flag])).toThrow(/sets it for each runner/);
    }
  });
});
