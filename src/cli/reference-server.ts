// npm run reference-server -- [--port 4010] [--host 127.0.0.1] [--fault NAME ...] [--rate-limit N|off]
//   [--rate-window SECONDS] [--token-ttl SECONDS] [--session-expired-status N] [--latency MS]
//   [--extra-fields] [--choice NAME=VALUE ...] [--control] [--flag-window SECONDS] [--flag-change SECONDS]
// npm run reference-server -- --list-faults [--markdown]
// npm run reference-server -- --list-choices [--markdown]
// Starts the embedded reference server and prints its base URLs and the credentials it accepts
// (the local demo values, printed on purpose). Bad arguments: one line, exit 2.
import { parseArgs } from 'node:util';
import { firstLine } from '../client/errors.ts';
import {
  CHOICES,
  type Choices,
  checkChoice,
  DEFAULT_CREDENTIALS,
  FAULTS,
  PINNED_ADDRESS,
  RATE_LIMIT_SHAPES,
  type RateLimit,
  type ReferenceServerOptions,
  startReferenceServer,
} from '../reference/index.ts';

const USAGE =
  'usage: npm run reference-server -- [--port N] [--host H] [--fault NAME ...] [--rate-limit N|off] ' +
  '[--rate-window S] [--rate-shape fixed-window|sliding-window|token-bucket] [--rate-refill PER_S] ' +
  '[--rate-headers] [--token-ttl S] [--session-expired-status N] [--latency MS] [--extra-fields] ' +
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
  '  --control              the control API the suite uses against it (REFERENCE_CONTROL_URL)\n' +
  '  --flag-window S, --flag-change S   the flag cache window and when flags change\n' +
  '  --list-faults, --list-choices [--markdown]   the faults and choices, as text or Markdown\n' +
  'It reads no variable: it prints API_BASE_URL, PETSTORE_BASE_URL, REFERENCE_CONTROL_URL and the\n' +
  'demo credentials to set for a run against it.\n' +
  'exit codes: 0 stopped by Ctrl+C or SIGTERM, 1 it could not close cleanly, 2 bad arguments or it\n' +
  'could not start (the port taken)\n' +
  'docs: docs/reference-server.md';

class UsageError extends Error {}

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

/** The flag cache lines, only when it differs from the spec's 60 s window. */
function flagLines(options: ReferenceServerOptions): string[] {
  const lines: string[] = [];
  const window = options.flagWindowSeconds;
  if (window !== undefined && window !== 60) {
    lines.push(`flag cache window: ${window} s (the suite judges it with CONFORMANCE_FLAG_WINDOW=${window})`);
  }
  if (options.flagChangeSeconds) {
    lines.push(`new-dashboard and beta-exports change on their own every ${options.flagChangeSeconds} s`);
  }
  return lines;
}

function faultTable(markdown: boolean): string {
  if (markdown) {
    const rows = FAULTS.map((f) => `| \`${f.name}\` | ${f.rule} | ${f.description.replace(/\|/g, '\\|')} |`);
    return `| fault | rule | what it breaks |\n|---|---|---|\n${rows.join('\n')}\n`;
  }
  const width = Math.max(...FAULTS.map((f) => f.name.length));
  const rows = FAULTS.map((f) => `${f.name.padEnd(width)}  ${f.rule.padEnd(7)}  ${f.description}`);
  return `${'fault'.padEnd(width)}  ${'rule'.padEnd(7)}  description\n${rows.join('\n')}\n`;
}

/** The open choices the server can switch (CHOICES), this server's answer first. */
function choiceTable(markdown: boolean): string {
  if (markdown) {
    const rows = Object.entries(CHOICES).map(([name, c]) => `| \`${name}\` | ${c.notShown} | ${c.answers} |`);
    return `| choice | what the spec does not show | the answers (this server's first) |\n|---|---|---|\n${rows.join('\n')}\n`;
  }
  const width = Math.max(...Object.keys(CHOICES).map((n) => n.length));
  const rows = Object.entries(CHOICES).map(
    ([name, c]) => `${name.padEnd(width)}  ${c.values.join('|').padEnd(20)}  ${c.notShown.replace(/`/g, '')}`,
  );
  return `${'choice'.padEnd(width)}  ${'values'.padEnd(20)}  what the spec does not show\n${rows.join('\n')}\n`;
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

interface Command {
  listFaults: boolean;
  listChoices: boolean;
  markdown: boolean;
  options: ReferenceServerOptions;
}

function parseCommand(argv: string[]): Command {
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

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  // Asked for, the usage is an answer (stdout, exit 0), not a mistake.
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  let command: Command;
  try {
    command = parseCommand(argv);
  } catch (error) {
    process.stderr.write(`reference-server: ${(error as Error).message}\n`);
    process.exit(2);
  }
  if (command.listFaults) {
    process.stdout.write(faultTable(command.markdown));
    return;
  }
  if (command.listChoices) {
    process.stdout.write(choiceTable(command.markdown));
    return;
  }
  const server = await startReferenceServer(command.options).catch((error: Error) => {
    process.stderr.write(`${firstLine(error)}\n`);
    process.exit(2);
  });
  const c = DEFAULT_CREDENTIALS;
  const faults = command.options.faults ?? [];
  process.stdout.write(
    [
      'reference server listening',
      `  API_BASE_URL=${server.apiBaseUrl}`,
      `  PETSTORE_BASE_URL=${server.petstoreBaseUrl}`,
      server.controlUrl
        ? `  REFERENCE_CONTROL_URL=${server.controlUrl}`
        : '  control API off (start with --control)',
      'credentials it accepts (local demo values):',
      `  CLIENT_ID=${c.clientId}`,
      `  CLIENT_SECRET=${c.clientSecret}`,
      `  API_KEY_ID=${c.apiKeyId}`,
      `  API_KEY_SECRET=${c.apiKeySecret}`,
      `  PINNED_API_KEY_ID=${c.pinnedApiKeyId}   (pinned to ${PINNED_ADDRESS}: refused from here)`,
      `  PINNED_API_KEY_SECRET=${c.pinnedApiKeySecret}`,
      `faults: ${faults.length ? faults.join(', ') : 'none'}`,
      ...Object.entries(command.options.choices ?? {}).map(([name, value]) => `choice: ${name}=${value}`),
      ...flagLines(command.options),
      'Ctrl+C stops it.',
      '',
    ].join('\n'),
  );
  const stop = () => {
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`reference-server: ${firstLine(error)}\n`);
  process.exit(2);
});
