// npm run reference-server -- [--port 4010] [--host 127.0.0.1] [--fault NAME ...] [--rate-limit N|off]
//   [--rate-window SECONDS] [--token-ttl SECONDS] [--session-expired-status N] [--latency MS]
//   [--extra-fields] [--customers N] [--pets N] [--choice NAME=VALUE ...] [--control] [--flag-window SECONDS]
//   [--flag-change SECONDS]
// npm run reference-server -- --list-faults [--markdown]
// npm run reference-server -- --list-choices [--markdown]
// Starts the embedded reference server and prints its base URLs and the credentials it accepts
// (the local demo values, printed on purpose). Bad arguments: one line, exit 2.
import { firstLine } from '../client/errors.ts';
import {
  CHOICES,
  DEFAULT_CREDENTIALS,
  FAULTS,
  PINNED_ADDRESS,
  type ReferenceServerOptions,
  startReferenceServer,
} from '../reference/index.ts';
import { type Command, parseCommand, USAGE } from './reference-server-args.ts';

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
