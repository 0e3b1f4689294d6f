// npm run docs:variables: writes .env.example and the variable table of docs/configuration.md
// from the one table of variables (common/variables.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { envExampleText, withVariableTable } from '../config/variable-docs.ts';

const root = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));

writeFileSync(root('.env.example'), envExampleText());
const docs = root('docs/configuration.md');
writeFileSync(docs, withVariableTable(readFileSync(docs, 'utf8')));
process.stdout.write('wrote .env.example and the variable table of docs/configuration.md\n');
