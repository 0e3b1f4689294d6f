// The reference server's command line (src/cli/reference-server.ts): read into its options, and
// written from them (a mutant's variant run starts the server in a process of its own with them).
import { parseArgs } from 'node:util';
import { firstLine } from '../client/errors.ts';
import {
  CHOICES,
  type Choices,
  checkChoice,
  FAULTS,
  RATE_LIMIT_SHAPES,
  type RateLimit,
  type ReferenceServerOptions,
} from '../reference/index.ts';

export const USAGE =
  'usage: npm run reference-server -- [--port N] [--host H] [--fault NAME ...] [--rate-limit N|off] ' +
  '[--rate-window S] [--rate-shape fixed-window|sliding-window|token-bucket] [--rate-refill PER_S] ' +
  '[--rate-headers] [--token-ttl S] [--session-expired-status N] [--latency MS] [--extra-fields] ' +
  '[--customers N] [--pets N] ' +
  `[--choice NAME=VALUE ...] [--control] [--flag-window S] [--flag-change S] | --list-faults [--markdown] | --list-choices [--markdown]\n` +
  `choices where the spec is silent (the first value is the default): ${Object.entries(CHOICES)
    .map(([name, c]) => `${name}=${c.values.join('|')}`)
    .join(', ')}\n` +
  '  --port N, --host H     where to listen (default 127.0.0.1:4010; --port 0: a free port)\n' +
  '  --fault NAME           a fault to serve (several allowed; --list-faults names them)\n' +
  '  --rate-limit N|off, --rate-window S, --rate-shape, --rate-refill, --rate-headers\n' +
  '                         the limiter: requests per credential and window, its kind, its headers\n' +
  '  --token-ttl S, --session-expired-status N, --latency MS, --extra-fields, --choice NAME=VALUE\n' +
  '                         token lifetime, open choices of the spec, a slower or richer server\n' +
  '  --customers N, --pets N  how many customers and seeded pets it holds (default 137 and 120)\n' +
  '  --control              the control API the suite uses against it (REFERENCE_CONTROL_URL)\n' +
  '  --flag-window S, --flag-change S   the flag cache window and when flags change\n' +
  '  --list-faults, --list-choices [--markdown]   the faults and choices, as text or Markdown\n' +
  'It reads no variable: it prints API_BASE_URL, PETSTORE_BASE_URL, REFERENCE_CONTROL_URL and the\n' +
  'demo credentials to set for a run against it.\n' +
  'exit codes: 0 stopped by Ctrl+C or SIGTERM, 1 it could not close cleanly, 2 bad arguments or it\n' +
  'could not start (the port taken)\n' +
  'docs: docs/reference-server.md';

export class UsageError extends Error {}

function integerArg(name: string, raw: string | undefined, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined;
  const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  }
  return value;
}

/** Seconds with an optional fraction (--flag-window 2.5: tests run the flag cache in seconds). */
function secondsArg(name: string, raw: string | undefined, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined;
  const value = /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new UsageError(
      `--${name} must be a number of seconds from ${min} to ${max}, got ${JSON.stringify(raw)}`,
    );
  }
  return value;
}

/** --rate-shape fixed-window|sliding-window|token-bucket and --rate-refill (tokens per second). */
function limiterShape(
  shape: string | undefined,
  refill: string | undefined,
): Pick<RateLimit, 'shape' | 'refillPerSecond'> | undefined {
  if (shape === undefined && refill === undefined) return undefined;
  if (shape !== undefined && !(RATE_LIMIT_SHAPES as readonly string[]).includes(shape)) {
    throw new UsageError(
      `--rate-shape must be one of ${RATE_LIMIT_SHAPES.join(', ')}, got ${JSON.stringify(shape)}`,
    );
  }
  const chosen = (shape ?? 'token-bucket') as RateLimit['shape'];
  if (refill === undefined) return { shape: chosen };
  const rate = /^\d+(\.\d+)?$/.test(refill) ? Number(refill) : Number.NaN;
  if (chosen !== 'token-bucket' || !(rate > 0 && rate <= 1_000_000)) {
    throw new UsageError(
      `--rate-refill needs --rate-shape token-bucket and a number of tokens per second above 0, got ${JSON.stringify(refill)}`,
    );
  }
  return { shape: chosen, refillPerSecond: rate };
}

export interface Command {
  listFaults: boolean;
  listChoices: boolean;
  markdown: boolean;
  options: ReferenceServerOptions;
}

/** The command line read, or a UsageError naming what is wrong. */
export function parseCommand(argv: string[]): Command {
  let values: Record<string, string | boolean | string[] | undefined>;
  try {
    values = parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        fault: { type: 'string', multiple: true },
        'rate-limit': { type: 'string' },
        'rate-window': { type: 'string' },
        'rate-shape': { type: 'string' },
        'rate-refill': { type: 'string' },
        'rate-headers': { type: 'boolean' },
        'token-ttl': { type: 'string' },
        'session-expired-status': { type: 'string' },
        latency: { type: 'string' },
        'flag-window': { type: 'string' },
        'flag-change': { type: 'string' },
        'extra-fields': { type: 'boolean' },
        customers: { type: 'string' },
        pets: { type: 'string' },
        choice: { type: 'string', multiple: true },
        control: { type: 'boolean' },
        'list-faults': { type: 'boolean' },
        'list-choices': { type: 'boolean' },
        markdown: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    throw new UsageError(firstLine(error));
  }
  if (values.help) throw new UsageError(USAGE);
  const faults = (values.fault as string[] | undefined) ?? [];
  const unknown = faults.filter((name) => !FAULTS.some((f) => f.name === name));
  if (unknown.length > 0) {
    throw new UsageError(`unknown fault ${unknown.join(', ')}; see --list-faults`);
  }
  const rateRaw = values['rate-limit'] as string | undefined;
  const windowSeconds =
    integerArg('rate-window', values['rate-window'] as string | undefined, 1, 86_400) ?? 60;
  const rateLimit =
    rateRaw === undefined
      ? undefined
      : rateRaw === 'off'
        ? null
        : { limit: integerArg('rate-limit', rateRaw, 1, 1_000_000_000) ?? 600, windowSeconds };
  const options: ReferenceServerOptions = {
    port: integerArg('port', values.port as string | undefined, 0, 65_535) ?? 4010,
    host: (values.host as string | undefined) ?? '127.0.0.1',
    faults,
    control: values.control === true,
    extraFields: values['extra-fields'] === true,
  };
  if (rateLimit !== undefined) options.rateLimit = rateLimit;
  else if (values['rate-window'] !== undefined) options.rateLimit = { limit: 600, windowSeconds };
  const shaped = limiterShape(
    values['rate-shape'] as string | undefined,
    values['rate-refill'] as string | undefined,
  );
  if (shaped && options.rateLimit !== null) {
    options.rateLimit = { ...(options.rateLimit ?? { limit: 600, windowSeconds }), ...shaped };
  }
  if (values['rate-headers'] === true) options.rateLimitHeaders = true;
  const choices: Partial<Choices> = {};
  for (const given of (values.choice as string[] | undefined) ?? []) {
    const [name = '', value] = given.split('=', 2);
    try {
      const [checked, v] = checkChoice(name, value);
      (choices as Record<string, string>)[checked] = v;
    } catch (error) {
      throw new UsageError(`--choice ${firstLine(error).replace(/^reference server: /, '')}`);
    }
  }
  if (Object.keys(choices).length > 0) options.choices = choices;
  const ttl = integerArg('token-ttl', values['token-ttl'] as string | undefined, 0, 31_536_000);
  if (ttl !== undefined) options.tokenTtlSeconds = ttl;
  const expiredStatus = integerArg(
    'session-expired-status',
    values['session-expired-status'] as string | undefined,
    400,
    499,
  );
  if (expiredStatus !== undefined) options.sessionExpiredStatus = expiredStatus;
  const customers = integerArg('customers', values.customers as string | undefined, 0, 100_000);
  if (customers !== undefined) options.customers = customers;
  const pets = integerArg('pets', values.pets as string | undefined, 0, 100_000);
  if (pets !== undefined) options.pets = pets;
  const latency = integerArg('latency', values.latency as string | undefined, 0, 60_000);
  if (latency !== undefined) options.latencyMs = latency;
  const flagWindow = secondsArg('flag-window', values['flag-window'] as string | undefined, 0.1, 86_400);
  if (flagWindow !== undefined) options.flagWindowSeconds = flagWindow;
  const flagChange = secondsArg('flag-change', values['flag-change'] as string | undefined, 0.1, 86_400);
  if (flagChange !== undefined) options.flagChangeSeconds = flagChange;
  return {
    listFaults: values['list-faults'] === true,
    listChoices: values['list-choices'] === true,
    markdown: values.markdown === true,
    options,
  };
}

/**
 * The command line that starts a server with these options (`parseCommand` reads it back to them):
 * what a run in a process of its own is started with. An option with no flag is an error, so a
 * new option cannot be dropped without a word.
 */
export function serverArgsOf(options: ReferenceServerOptions): string[] {
  const args: string[] = [];
  const flag = (name: string, value: unknown) => args.push(`--${name}`, String(value));
  for (const [key, value] of Object.entries(options) as [keyof ReferenceServerOptions, unknown][]) {
    if (value === undefined || value === false) continue;
    if (key === 'port' || key === 'host' || key === 'customers' || key === 'pets') flag(key, value);
    else if (key === 'latencyMs') flag('latency', value);
    else if (key === 'tokenTtlSeconds') flag('token-ttl', value);
    else if (key === 'sessionExpiredStatus') flag('session-expired-status', value);
    else if (key === 'flagWindowSeconds') flag('flag-window', value);
    else if (key === 'flagChangeSeconds') flag('flag-change', value);
    else if (key === 'extraFields' || key === 'control' || key === 'rateLimitHeaders')
      args.push(
        `--${{ extraFields: 'extra-fields', control: 'control', rateLimitHeaders: 'rate-headers' }[key]}`,
      );
    else if (key === 'faults') for (const name of value as string[]) flag('fault', name);
    else if (key === 'choices')
      for (const [name, chosen] of Object.entries(value as object)) flag('choice', `${name}=${chosen}`);
    else if (key === 'rateLimit') {
      const limit = value as RateLimit | null;
      if (limit === null) flag('rate-limit', 'off');
      else {
        flag('rate-limit', limit.limit);
        flag('rate-window', limit.windowSeconds);
        if (limit.shape !== undefined) flag('rate-shape', limit.shape);
        if (limit.refillPerSecond !== undefined) flag('rate-refill', limit.refillPerSecond);
      }
    } else throw new Error(`the reference server's command line has no flag for the option ${key}`);
  }
  return args;
}
