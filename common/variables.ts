// Every configuration variable, once: name, when it is required, default, whether it is a secret,
// where it is read and what it means. The validator's secret list, the k6 hand-over, .env.example and
// the table of docs/configuration.md are made from (or checked against) it. k6-safe: data only.

export interface Variable {
  name: string;
  /**
   * The field holding its value in the validated settings (TargetSettings, src/config/) and, for
   * the k6 rows, in the hand-over and the scripts' LoadConfig. Unset: read elsewhere (not a setting).
   */
  key?: string;
  /** When it must be set, as the docs say it: no, unless local, with its id, ... */
  required: string;
  /** The value used when it is not set (written as the variable would hold it). */
  default?: string;
  /** Said instead of a default when there is none to write down. */
  defaultNote?: string;
  /** Never shown in a report or log. */
  secret: boolean;
  /** A load run's own variable (npm run load:*), read by the launcher and the k6 scripts. */
  loadRun?: boolean;
  /** For tests of the suite only (leave unset against a real environment). */
  testsOnly?: boolean;
  /**
   * Handed to k6 by the load CLI in the hand-over (LOAD_TARGET), under its key: what describes the
   * target (set from the validated configuration), and the run's profile. The user's own value never
   * reaches k6 otherwise.
   */
  k6: boolean;
  /** Markdown, as in the docs table. */
  meaning: string;
  example: string;
  /**
   * Its place in .env.example (npm run docs:variables writes the file): the comment lines above it,
   * a blank line before it (group: it starts a group), and its line, `NAME=default` (value) or
   * `# NAME=...` (commented: shown, not set). Unset: .env.example leaves it out.
   */
  dotenv?: { line: 'value' | 'commented'; group?: boolean; comment?: readonly string[] };
}

export const VARIABLES: readonly Variable[] = [
  {
    name: 'CONFORMANCE_TARGET',
    key: 'target',
    required: 'no',
    default: 'local',
    secret: false,
    k6: true,
    meaning:
      'which environment to check: `local` (the embedded reference server), `staging` or `production` (case does not matter)',
    example: 'staging',
    dotenv: {
      line: 'value',
      group: true,
      comment: [
        'Which environment to check: local (embedded reference server), staging or production.',
        'production is read-only unless ALLOW_PRODUCTION_WRITES=yes, and never touches the pet demo.',
      ],
    },
  },
  {
    name: 'API_BASE_URL',
    key: 'apiBaseUrl',
    required: 'unless local',
    secret: false,
    k6: true,
    meaning:
      'base address of the main service: an absolute http(s) URL ending with `/api/` (a missing final `/` is added), no credentials, query or fragment',
    example: 'https://staging.example.com/api/',
    dotenv: {
      line: 'value',
      group: true,
      comment: [
        'Base address of the main service; must end with /api/ (required unless the target is local).',
      ],
    },
  },
  {
    name: 'PETSTORE_BASE_URL',
    key: 'petstoreBaseUrl',
    required: 'unless local',
    secret: false,
    k6: true,
    meaning: 'base address of the demo pet interface: an http(s) URL ending with `/v1`',
    example: 'https://petstore.staging.example.com/v1',
    dotenv: {
      line: 'value',
      comment: [
        'Base address of the demo pet interface; must end with /v1 (required unless the target is local).',
      ],
    },
  },
  {
    name: 'CLIENT_ID',
    key: 'clientId',
    required: 'unless local',
    secret: false,
    k6: true,
    meaning: 'client id for `POST /v1/auth/token` (bearer tokens)',
    example: 'conformance-client',
    dotenv: {
      line: 'value',
      group: true,
      comment: [
        'Client credentials for POST /v1/auth/token (bearer tokens). CLIENT_SECRET is a secret.',
        'Secrets (and EXPIRED_ACCESS_TOKEN) must be at least 8 characters: shorter ones cannot be kept',
        'out of the reports.',
      ],
    },
  },
  {
    name: 'CLIENT_SECRET',
    key: 'clientSecret',
    required: 'unless local',
    secret: true,
    k6: true,
    meaning: 'its client secret (**secret**)',
    example: '',
    dotenv: { line: 'value' },
  },
  {
    name: 'API_KEY_ID',
    key: 'apiKeyId',
    required: 'unless local',
    secret: false,
    k6: true,
    meaning: 'id of an API key (`x-api-key-id`)',
    example: 'conformance-key',
    dotenv: {
      line: 'value',
      group: true,
      comment: ['API key scheme (x-api-key-id / x-api-key-secret). API_KEY_SECRET is a secret.'],
    },
  },
  {
    name: 'API_KEY_SECRET',
    key: 'apiKeySecret',
    required: 'unless local',
    secret: true,
    k6: true,
    meaning: "that key's secret, `x-api-key-secret` (**secret**)",
    example: '',
    dotenv: { line: 'value' },
  },
  {
    name: 'PINNED_API_KEY_ID',
    key: 'pinnedApiKeyId',
    required: 'with its secret',
    secret: false,
    k6: false,
    meaning: "a key pinned to an IP other than the runner's: the checks that a leaked key is refused use it",
    example: 'pinned-key',
    dotenv: {
      line: 'value',
      group: true,
      comment: [
        "Optional: a key pinned to an IP other than the runner's (checks that a leaked key is refused).",
      ],
    },
  },
  {
    name: 'PINNED_API_KEY_SECRET',
    key: 'pinnedApiKeySecret',
    required: 'with its id',
    secret: true,
    k6: false,
    meaning: "that pinned key's secret (**secret**); both pinned variables or neither",
    example: '',
    dotenv: { line: 'value' },
  },
  {
    name: 'CUSTOMERS_AUTH',
    key: 'customersAuth',
    required: 'no',
    defaultNote: "detected: a bearer token refused with 401/403 and the error body is the route's choice",
    secret: false,
    k6: false,
    meaning:
      'the schemes GET /v1/customers takes ("API key or bearer token as the route allows"): `api-key` or `both`; the API key is always required (its shown permission: administer customers)',
    example: 'api-key',
    dotenv: {
      line: 'commented',
      group: true,
      comment: [
        'Optional: the schemes GET /v1/customers takes, api-key or both (unset: detected;',
        'the API key is always required, a bearer token only where the route allows it).',
      ],
    },
  },
  {
    name: 'PINNED_API_KEY_ADDRESS',
    key: 'pinnedApiKeyAddress',
    required: 'no',
    secret: false,
    k6: false,
    meaning:
      'the IP address that pinned key is fixed to on the portal: the checks claim it in X-Forwarded-For, Forwarded, ... and expect the key still refused (unset: those claims run only with a control API)',
    example: '203.0.113.10',
    dotenv: { line: 'value' },
  },
  {
    name: 'DISABLED_FEATURE_ROUTE',
    key: 'disabledFeatureRoute',
    required: 'no',
    secret: false,
    k6: false,
    meaning:
      'a main-service GET route whose feature is disabled in that environment (`FEATURE_FLAG_DISABLED` checks)',
    example: '/v1/reports',
    dotenv: {
      line: 'value',
      group: true,
      comment: [
        'Optional: a main-service GET route whose feature is disabled in that environment, e.g. /v1/reports.',
      ],
    },
  },
  {
    name: 'EXPIRED_ACCESS_TOKEN',
    key: 'expiredAccessToken',
    required: 'no',
    secret: true,
    k6: false,
    meaning:
      'an access token known to have expired, so `SESSION_EXPIRED` is checked without waiting (**secret**)',
    example: '',
    dotenv: {
      line: 'value',
      comment: ['Optional: an access token known to have expired (checks SESSION_EXPIRED without waiting).'],
    },
  },
  {
    name: 'ALLOW_PRODUCTION_WRITES',
    key: 'allowProductionWrites',
    required: 'no',
    default: 'no',
    secret: false,
    k6: true,
    meaning:
      'a switch: on (`yes`) lets write and load checks run against production; off (`no`) keeps them off; any word other than the switch words is refused',
    example: 'no',
    dotenv: {
      line: 'value',
      group: true,
      comment: [
        'Optional: yes lets write and load checks run against production; no (default) skips them.',
        'Every switch takes 1/yes/true/on and 0/no/false/off; any other value is an error (exit 2).',
      ],
    },
  },
  {
    name: 'PRODUCTION_API_BASE_URL',
    key: 'productionApiBaseUrl',
    required: 'no',
    secret: false,
    k6: true,
    meaning:
      "production's main-service base address, declared once: a run whose API_BASE_URL or PETSTORE_BASE_URL has its host (any spelling: case, trailing dot, every IPv4 form) is production whatever CONFORMANCE_TARGET says",
    example: 'https://api.example.com/api/',
    dotenv: {
      line: 'commented',
      group: true,
      comment: [
        "Optional: production's addresses. A run against either host is treated as production",
        '(no writes, no load, no pet demo unless allowed) whatever CONFORMANCE_TARGET says.',
      ],
    },
  },
  {
    name: 'PRODUCTION_PETSTORE_BASE_URL',
    key: 'productionPetstoreBaseUrl',
    required: 'no',
    secret: false,
    k6: true,
    meaning: "production's pet demo base address, declared once (as PRODUCTION_API_BASE_URL)",
    example: 'https://petstore.example.com/v1',
    dotenv: { line: 'commented' },
  },
  {
    name: 'REQUEST_TIMEOUT_MS',
    key: 'requestTimeoutMs',
    required: 'no',
    default: '10000',
    secret: false,
    k6: true,
    meaning: 'timeout of every request, a whole number of milliseconds from 1 to 600000',
    example: '15000',
    dotenv: {
      line: 'value',
      comment: ['Optional: timeout of every request in milliseconds (default 10000).'],
    },
  },
  {
    name: 'CONFORMANCE_STRICT',
    key: 'strict',
    required: 'no',
    default: '0',
    secret: false,
    k6: false,
    meaning:
      'a switch: on (`1`, `yes`) makes a failed SHOULD rule fail the run; off (`0`, `no`): it is reported as non-strict',
    example: '1',
    dotenv: {
      line: 'value',
      group: true,
      comment: ['Optional: 1 makes failed SHOULD rules fail the run (default 0: reported as non-strict).'],
    },
  },
  {
    name: 'CONFORMANCE_SLOW',
    key: 'slow',
    required: 'no',
    default: '1',
    secret: false,
    k6: false,
    meaning:
      'a switch: off (`0`, `no`) skips the checks that must wait real time against a target without control API: the 160 s watch of the flag cache (`FLG-WINDOW`, `FLG-RENEW`), a token lifetime up to 120 s, a `Retry-After` up to 60 s ([which checks wait](conformance.md))',
    example: '0',
    dotenv: {
      line: 'value',
      comment: [
        'Optional: 0 (off) skips the checks that must wait real time against a remote target (the 160 s flag',
        'cache watch, a token lifetime, a Retry-After; see docs/conformance.md).',
      ],
    },
  },
  {
    name: 'CONFORMANCE_GENERATED',
    required: 'no',
    default: '300',
    secret: false,
    k6: false,
    meaning:
      'request budget of the generated requests (`suites/generated.test.ts`), spread over every operation; `0` switches them off ([generated requests](conformance.md#generated-requests))',
    example: '100',
  },
  {
    name: 'CONFORMANCE_SEED',
    required: 'no',
    defaultNote: 'drawn and printed',
    secret: false,
    k6: false,
    meaning: 'the seed of the generated requests: the seed a run printed replays it exactly',
    example: '20261124',
  },
  {
    name: 'CONFORMANCE_FLAG_WINDOW',
    key: 'flagWindowSeconds',
    required: 'no',
    default: '60',
    secret: false,
    testsOnly: true,
    k6: false,
    meaning:
      "for tests only: the flag cache window, in seconds (0.1 to 300), the suite judges, to match a reference server started with `--flag-window`; the spec's window is 60 s, so leave it unset against a real environment",
    example: '3',
    dotenv: {
      line: 'commented',
      comment: [
        'Tests only: the flag cache window (seconds) of a reference server started with --flag-window.',
        "Leave it unset against a real environment: the spec's window is 60 s.",
      ],
    },
  },
  {
    name: 'REFERENCE_CONTROL_URL',
    key: 'controlUrl',
    required: 'no',
    secret: false,
    k6: true,
    meaning:
      'control API of a reference server you started yourself with `--control`, for the checks that need it',
    example: 'http://127.0.0.1:8080/__control/',
    dotenv: {
      line: 'value',
      comment: ['Optional: control API of a reference server you started yourself with --control.'],
    },
  },
  {
    name: 'CONFORMANCE_REPORTS_DIR',
    required: 'no',
    default: 'reports',
    secret: false,
    k6: false,
    meaning:
      'folder of the reports; checked before the first request (created if need be, must be writable: else exit 2 and one line), and one run at a time per folder (docs/reports.md)',
    example: 'reports/nightly',
    dotenv: {
      line: 'commented',
      comment: ['Optional: folder of the reports (default reports).'],
    },
  },
  // The load runs (npm run load:*, docs/load.md). The scripts read their own when run directly
  // with k6 (then LOAD_PROFILE too, which the CLI hands over).
  load('LOAD_PROFILE', {
    key: 'profile',
    k6: true,
    defaultNote: 'by script',
    meaning:
      'load runs: the profile, `smoke`, `load`, `stress` or `soak` (`--profile` wins); each script says which apply and its default ([load](load.md))',
    example: 'smoke',
  }),
  load('K6_REPORT_DIR', {
    defaultNote: '`CONFORMANCE_REPORTS_DIR`, else `reports`',
    meaning: 'load runs: folder of the k6 reports (`k6-<script>.json/.md/.junit.xml`)',
    example: 'reports/load',
  }),
  load('K6_PROJECT_DIR', {
    defaultNote: "the project's own folder",
    meaning:
      "load runs and `npm test`: the folder of the project's own k6 build, searched after `PATH` ([installing k6](load.md#installing-k6))",
    example: '/opt/k6/bin',
  }),
  load('LOCAL_RATE_LIMIT', {
    defaultNote: '600 (rate-limit), 100 (its smoke profile), off (release)',
    meaning: "load runs, local target: the reference server's limit per credential and window, or `off`",
    example: '50',
  }),
  load('LOCAL_RATE_WINDOW', {
    defaultNote: '60 (10 in the rate-limit smoke profile)',
    meaning: "load runs, local target: the limiter's window in seconds",
    example: '10',
  }),
  load('LOCAL_RATE_SHAPE', {
    default: 'fixed-window',
    meaning:
      'load runs, local target: `fixed-window`, `sliding-window` or `token-bucket` (capacity `LOCAL_RATE_LIMIT`)',
    example: 'token-bucket',
  }),
  load('LOCAL_RATE_REFILL', {
    meaning: 'load runs, local target: tokens per second of a token bucket',
    example: '2',
  }),
  load('LOCAL_RATE_HEADERS', {
    defaultNote: 'on for rate-limit',
    meaning: 'load runs, local target: a switch, off (`off`, `0`, `no`) hides the IETF `RateLimit` headers',
    example: 'off',
  }),
  load('LOCAL_TOKEN_TTL', {
    default: '3600',
    meaning: 'load runs, local target: seconds a token lives (10 shows renewals under load)',
    example: '10',
  }),
  load('LOCAL_FAULTS', {
    meaning:
      'load runs, local target: comma-separated faults of the reference server (`npm run reference-server -- --list-faults`)',
    example: 'flags-not-cached',
  }),
  load('RATE_BUDGET', {
    defaultNote: 'by profile: 60s, 210s, 16m',
    meaning: 'load:rate-limit: wall time of the probe',
    example: '90s',
  }),
  load('RATE_MAX_BURST', {
    defaultNote: 'by profile: 2000, 20000, 100000',
    meaning: 'load:rate-limit: requests of one burst before "no limiter in reach"',
    example: '5000',
  }),
  load('RATE_BATCH', {
    default: '20',
    meaning: 'load:rate-limit: requests sent at once in a burst',
    example: '50',
  }),
  load('RATE_AUTH', {
    default: 'apikey',
    meaning: 'load:rate-limit: `apikey` or `bearer`, the credential probed',
    example: 'bearer',
  }),
  load('RATE_PATH', {
    default: 'v1/customers',
    meaning: 'load:rate-limit: the GET route probed, under `API_BASE_URL`',
    example: 'v1/user/me',
  }),
  load('RATE_EXPECTED_BURST', {
    meaning: 'load:rate-limit: the burst the target is said to allow (a verdict compares, 20 %)',
    example: '600',
  }),
  load('RATE_EXPECTED_RATE', {
    meaning:
      'load:rate-limit: the requests per second the target is said to allow (a verdict compares, 20 %)',
    example: '10',
  }),
  load('FLAG_VUS', {
    defaultNote: '3 (smoke), 5',
    meaning: 'load:flag-cache: users polling, each with its own token',
    example: '10',
  }),
  load('FLAG_POLL_INTERVAL', {
    defaultNote: '1s (smoke), 5s; the tick with a time lapse',
    meaning: 'load:flag-cache: time between two polls of one user',
    example: '2s',
  }),
  load('FLAG_DURATION', {
    defaultNote: 'two windows and 30 s (150s); 12s (smoke), 1h (soak)',
    meaning: 'load:flag-cache: how long the users poll',
    example: '5m',
  }),
  load('FLAG_WINDOW', {
    default: '60s',
    meaning: 'load:flag-cache: the cache window judged',
    example: '60s',
  }),
  load('FLAG_TOLERANCE_MS', {
    default: '1000',
    meaning: 'load:flag-cache: milliseconds allowed for clock differences',
    example: '500',
  }),
  load('FLAG_TICK', {
    defaultNote: '20s; 1s with a time lapse; reference server only',
    meaning: "load:flag-cache: how often the reference server's flags are switched (control API)",
    example: '5s',
  }),
  load('FLAG_TIME_LAPSE', {
    defaultNote: '12 (smoke, reference server), else 0',
    meaning: "load:flag-cache: seconds the reference server's clock jumps at each tick",
    example: '0',
  }),
  load('FLAG_TOGGLE_FEATURES', {
    default: 'new-dashboard,beta-exports,reports',
    meaning: 'load:flag-cache: the features switched at the ticks (reference server only)',
    example: 'beta-exports',
  }),
  load('RELEASE_VUS', {
    defaultNote: 'by profile: 2, 20, 50, 20',
    meaning: 'load:release: users at the peak',
    example: '5',
  }),
  load('RELEASE_DURATION', {
    defaultNote: 'by profile: 30s, 5m, 3m, 1h',
    meaning: 'load:release: time at the peak (each plateau for stress)',
    example: '2m',
  }),
  load('RELEASE_RAMP', {
    defaultNote: 'by profile: 0s, 60s, 2m, 2m',
    meaning: 'load:release: each ramp',
    example: '30s',
  }),
  load('RELEASE_P95_MS', {
    defaultNote: 'by profile: 1000, 500, 1500, 500',
    meaning: 'load:release: the p95 threshold in ms',
    example: '800',
  }),
  load('RELEASE_MAX_ERROR_RATE', {
    defaultNote: 'by profile: 0.01, 0.01, 0.05, 0.01',
    meaning: 'load:release: the highest rate of errors users saw (after renewals), 0 to 1',
    example: '0.02',
  }),
  load('RELEASE_THINK_TIME', {
    defaultNote: 'by profile: 0.5s, 1s',
    meaning: 'load:release: mean pause between two visits of one user (0.5 to 1.5 times it)',
    example: '2s',
  }),
  load('RELEASE_CREDENTIALS_FILE', {
    meaning:
      'load:release --runners N: a JSON array of `{ "clientId", "clientSecret" }`, one client per runner, so a per-credential limit counts each runner apart (unset: every runner uses CLIENT_ID and the report says the limiter saw their sum)',
    example: 'secrets/release-clients.json',
  }),
  load('RELEASE_PETS', {
    default: 'on',
    meaning:
      'load:release: a switch, off (`off`, `0`, `no`) lists no pets; needed against production, where the pet demo is never used (the CLI decides, and hands no pet address over then)',
    example: 'off',
  }),
];

/** A load-run variable: not a secret, not required. */
function load(
  name: string,
  row: Pick<Variable, 'meaning' | 'example'> &
    Partial<Pick<Variable, 'key' | 'k6' | 'default' | 'defaultNote'>>,
): Variable {
  return { name, required: 'no', secret: false, k6: false, loadRun: true, ...row };
}

/** The names of the variables a predicate picks, in table order. */
export function variableNames(pick: (v: Variable) => boolean): string[] {
  return VARIABLES.filter(pick).map((v) => v.name);
}

/** A variable's default as the table writes it; throws for a name the table does not hold (a typo). */
export function variableDefault(name: string): string | undefined {
  const variable = VARIABLES.find((v) => v.name === name);
  if (!variable) throw new Error(`${name} is not in the table of configuration variables`);
  return variable.default;
}

/** The row of docs/configuration.md's table for a variable. */
export function docsRow(v: Variable): string {
  const value = v.default !== undefined ? `\`${v.default}\`` : (v.defaultNote ?? '-');
  const example = v.example === '' ? '' : `\`${v.example}\``;
  return `| \`${v.name}\` | ${v.required} | ${value} | ${v.meaning} |${example === '' ? '' : ` ${example}`} |`;
}

/**
 * The secret values among settings, read through the secret rows' keys: the one list the suite
 * (src/config/secrets.ts) and the k6 scripts (load/lib/config.ts) both filter. A secret row added
 * here is filtered on both sides (test/load/shared/secrets.test.ts fails otherwise). Empty values
 * are left out, each value given once.
 */
export function secretValuesOf(values: object): string[] {
  const record = values as Readonly<Record<string, unknown>>;
  const found = VARIABLES.filter((v) => v.secret).map((v) =>
    v.key === undefined ? undefined : record[v.key],
  );
  return [...new Set(found.filter((s): s is string => typeof s === 'string' && s !== ''))];
}
