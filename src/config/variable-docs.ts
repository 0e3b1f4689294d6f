// .env.example and the variable table of docs/configuration.md, made from the one table of
// variables (common/variables.ts). `npm run docs:variables` writes them;
// test/load/shared/variables.test.ts fails when the committed files differ.
import { docsRow, VARIABLES, type Variable } from '../../common/variables.ts';

const ENV_EXAMPLE_HEADER = [
  '# Copy to .env and fill in. Real environment variables win over this file.',
  '# With nothing configured the suite runs against the embedded reference server (target "local"),',
  '# which brings its own demo credentials: leave the credentials below empty for it. For staging, fill',
  "# in that environment's credentials (the demo values are refused for any remote target).",
];

function envLine(v: Variable, line: 'value' | 'commented'): string {
  // Secrets are never written down, not even as an example; a commented line shows a value to try
  // (its example when tests only: unset already means the default), else the default.
  const value = v.secret ? '' : line === 'commented' && v.testsOnly ? v.example : (v.default ?? '');
  return `${line === 'commented' ? '# ' : ''}${v.name}=${value}`;
}

export function envExampleText(): string {
  const lines = [...ENV_EXAMPLE_HEADER];
  for (const v of VARIABLES) {
    if (!v.dotenv) continue;
    if (v.dotenv.group) lines.push('');
    lines.push(...(v.dotenv.comment ?? []).map((c) => `# ${c}`), envLine(v, v.dotenv.line));
  }
  return `${lines.join('\n')}\n`;
}

const TABLE_HEAD = ['| variable | required | default | meaning | example |', '|---|---|---|---|---|'];

/** The markdown table of every variable. */
export function variableTable(): string {
  return [...TABLE_HEAD, ...VARIABLES.map(docsRow)].join('\n');
}

/** A document with its variable table (from the head row to the last row) replaced by the table's. */
export function withVariableTable(markdown: string): string {
  const lines = markdown.split('\n');
  const start = lines.indexOf(TABLE_HEAD[0] as string);
  if (start < 0) throw new Error('no variable table (its head row) in the document');
  let end = start;
  while (end < lines.length && lines[end]?.startsWith('|')) end++;
  return [...lines.slice(0, start), variableTable(), ...lines.slice(end)].join('\n');
}
