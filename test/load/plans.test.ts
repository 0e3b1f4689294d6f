// The scripts' plans from the environment: the rate ramp, the flag poller and its clock model, and
// the release profiles, with one-line errors for bad values.
import { describe, expect, it } from 'vitest';
import { LoadConfigError } from '../../load/lib/env.ts';
import {
  featureStates,
  nextPollMs,
  pollRate,
  readFlagPlan,
  ticksBefore,
  virtualMs,
  virtualSeconds,
} from '../../load/lib/flag-plan.ts';
import { readRatePlan } from '../../load/lib/rate-plan.ts';
import {
  PROFILES,
  readReleasePlan,
  releaseEndpoints,
  releaseThresholds,
} from '../../load/lib/release-plan.ts';

describe('the rate plan', () => {
  it('defaults to the load profile: about three 60 s windows plus 30 s, over the API key', () => {
    const plan = readRatePlan({});
    expect(plan).toMatchObject({ profile: 'load', auth: 'apiKey', path: 'v1/customers', expected: {} });
    expect(plan.limits.budgetMs).toBe(210_000);
    expect(plan.limits.maxBurst).toBe(20_000);
  });

  it('takes the profile every script shares: smoke is 60 s, stress 16 min', () => {
    expect(readRatePlan({}, 'smoke').limits.budgetMs).toBe(60_000);
    expect(readRatePlan({}, 'stress').limits.budgetMs).toBe(960_000);
    expect(() => readRatePlan({}, 'soak')).toThrow(
      'LOAD_PROFILE="soak" does not apply to rate-limit: expected one of smoke, load, stress',
    );
  });

  it('reads every variable', () => {
    const plan = readRatePlan({
      RATE_AUTH: 'bearer',
      RATE_PATH: '/v1/user/me',
      RATE_BUDGET: '90s',
      RATE_MAX_BURST: '500',
      RATE_BATCH: '5',
      RATE_EXPECTED_BURST: '20',
      RATE_EXPECTED_RATE: '2.5',
    });
    expect(plan).toMatchObject({
      auth: 'bearer',
      path: 'v1/user/me',
      limits: { budgetMs: 90_000, maxBurst: 500, batch: 5 },
      expected: { burst: 20, ratePerSecond: 2.5 },
    });
  });

  it('refuses bad values with the variable and what was expected', () => {
    expect(() => readRatePlan({ RATE_BUDGET: 'soon' })).toThrow(LoadConfigError);
    expect(() => readRatePlan({ RATE_MAX_BURST: '2.5' })).toThrow(
      'RATE_MAX_BURST="2.5" is not valid: expected an integer from 10 to 10000000',
    );
    expect(() => readRatePlan({ RATE_AUTH: 'basic' })).toThrow('RATE_AUTH="basic" is not valid');
  });
});

describe('the flag plan', () => {
  it('runs for longer than the window in real time without a control API', () => {
    const plan = readFlagPlan({}, false);
    expect(plan).toMatchObject({
      vus: 5,
      pollSeconds: 5,
      durationSeconds: 150,
      tickSeconds: 0,
      lapseSeconds: 0,
    });
    expect(plan.durationSeconds).toBeGreaterThan(plan.windowSeconds);
    expect(plan.toggleFeatures).toEqual([]);
    expect(virtualMs(plan, 42_000)).toBe(42_000);
  });

  it('moves the reference server clock in smoke mode so 12 s cover more than two windows', () => {
    const plan = readFlagPlan({}, true, 'smoke');
    expect(plan).toMatchObject({
      vus: 3,
      pollSeconds: 1,
      durationSeconds: 12,
      tickSeconds: 1,
      lapseSeconds: 12,
    });
    expect(virtualSeconds(plan)).toBe(12 + 12 * 12);
    expect(virtualSeconds(plan)).toBeGreaterThan(2 * plan.windowSeconds);
    expect(ticksBefore(plan, 2500)).toBe(2);
    expect(virtualMs(plan, 2500)).toBe(2500 + 24_000);
  });

  it('polls half a tick after each tick, away from the clock jumps', () => {
    const plan = readFlagPlan({ FLAG_TICK: '2s', FLAG_POLL_INTERVAL: '4s' }, true, 'smoke');
    expect(nextPollMs(plan, 0, 0)).toBe(1000);
    expect(nextPollMs(plan, 2, 1001)).toBe(5000);
    const real = readFlagPlan({ FLAG_VUS: '4', FLAG_POLL_INTERVAL: '4s' }, false);
    expect([0, 1, 2, 3].map((vu) => nextPollMs(real, vu, 0))).toEqual([0, 1000, 2000, 3000]);
  });

  it('keeps the polling rate below the limiter by default', () => {
    expect(pollRate(readFlagPlan({}, false))).toBe(1);
    expect(pollRate(readFlagPlan({}, true, 'smoke'))).toBe(3);
  });

  it('switches features so that renewals bring new data', () => {
    const plan = readFlagPlan({ FLAG_TOGGLE_FEATURES: 'a, b' }, true, 'smoke');
    expect(featureStates(plan, 0)).toEqual([
      { feature: 'a', enabled: true },
      { feature: 'b', enabled: true },
    ]);
    expect(featureStates(plan, 3)).toEqual([
      { feature: 'a', enabled: false },
      { feature: 'b', enabled: false },
    ]);
  });

  it('refuses the smoke profile against a remote target, saying how long a conclusive run takes', () => {
    expect(() => readFlagPlan({}, false, 'smoke')).toThrow(
      "the smoke profile cannot judge the flag cache of a remote target: a conclusive run polls for two 60 s windows and more (at least 150 s, and the target's flags must change meanwhile); use --profile load (150 s) or set FLAG_DURATION",
    );
    expect(readFlagPlan({ FLAG_DURATION: '200s' }, false, 'smoke').durationSeconds).toBe(200);
    expect(readFlagPlan({}, false, 'soak').durationSeconds).toBe(3600);
  });

  it('refuses a time lapse without a control API and a poll interval out of step with the ticks', () => {
    expect(() => readFlagPlan({ FLAG_TIME_LAPSE: '10' }, false)).toThrow(
      /FLAG_TIME_LAPSE needs REFERENCE_CONTROL_URL/,
    );
    expect(() =>
      readFlagPlan({ FLAG_TIME_LAPSE: '10', FLAG_TICK: '2s', FLAG_POLL_INTERVAL: '3s' }, true),
    ).toThrow(/whole number of FLAG_TICK/);
    expect(() => readFlagPlan({ FLAG_VUS: '0' }, false)).toThrow(/FLAG_VUS="0"/);
  });
});

describe('the release profiles', () => {
  it.each([
    ['smoke', 2, 'constant-vus', 1000, 0.01],
    ['load', 20, 'ramping-vus', 500, 0.01],
    ['stress', 50, 'ramping-vus', 1500, 0.05],
    ['soak', 20, 'ramping-vus', 500, 0.01],
  ] as const)('%s: %i users, %s, p95 < %i ms, errors < %f', (profile, vus, executor, p95, errors) => {
    const plan = readReleasePlan({}, true, profile);
    expect(plan).toMatchObject({ profile, vus, p95Ms: p95, maxErrorRate: errors, pets: true });
    expect(plan.scenario.executor).toBe(executor);
  });

  it('has the soak profile hold for an hour, and stress go to twice the users', () => {
    expect(readReleasePlan({}, false, 'soak').holdSeconds).toBe(3600);
    const stress = readReleasePlan({}, false, 'stress').scenario;
    expect(stress.executor === 'ramping-vus' && Math.max(...stress.stages.map((s) => s.target))).toBe(100);
  });

  it('defaults to smoke and takes overrides', () => {
    const plan = readReleasePlan(
      { RELEASE_VUS: '3', RELEASE_DURATION: '5s', RELEASE_P95_MS: '250', RELEASE_THINK_TIME: '0' },
      true,
    );
    expect(plan).toMatchObject({ profile: 'smoke', vus: 3, holdSeconds: 5, p95Ms: 250, thinkSeconds: 0 });
    expect(plan.scenario).toMatchObject({ executor: 'constant-vus', vus: 3, duration: '5000ms' });
    expect(PROFILES).toEqual(['smoke', 'load', 'stress', 'soak']);
  });

  it('lists pets only where allowed (RELEASE_PETS=off is read once, with the configuration)', () => {
    expect(releaseEndpoints(readReleasePlan({}, true))).toContain('pets');
    expect(releaseEndpoints(readReleasePlan({}, false))).not.toContain('pets');
    // The plan does not read RELEASE_PETS again: the configuration withholds the pet address.
    expect(releaseEndpoints(readReleasePlan({ RELEASE_PETS: 'off' }, true))).toContain('pets');
  });

  it('puts p95 and error-rate thresholds on the whole run and on every endpoint', () => {
    const thresholds = releaseThresholds(readReleasePlan({}, false, 'load'));
    expect(thresholds).toEqual({
      // The users' requests only: setup's token and page count are not the load.
      'http_req_duration{scenario:users}': ['p(95)<500'],
      release_errors: ['rate<0.01'],
      'http_req_duration{endpoint:customers}': ['p(95)<500'],
      'release_errors{endpoint:customers}': ['rate<0.01'],
      'http_req_duration{endpoint:user-me}': ['p(95)<500'],
      'release_errors{endpoint:user-me}': ['rate<0.01'],
      'http_req_duration{endpoint:feature-flags}': ['p(95)<500'],
      'release_errors{endpoint:feature-flags}': ['rate<0.01'],
    });
  });

  it('refuses an unknown profile and bad overrides', () => {
    expect(() => readReleasePlan({}, true, 'spike')).toThrow(
      'LOAD_PROFILE="spike" is not valid: expected one of smoke, load, stress, soak',
    );
    expect(() => readReleasePlan({ RELEASE_MAX_ERROR_RATE: '2' }, true)).toThrow(/RELEASE_MAX_ERROR_RATE/);
    expect(() => readReleasePlan({ RELEASE_DURATION: '0s' }, true)).toThrow(/RELEASE_DURATION/);
  });
});
