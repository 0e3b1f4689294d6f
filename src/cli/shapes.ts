// npx tsx src/cli/shapes.ts: writes src/contract/shapes.generated.ts from schemas/.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { shapesSource } from '../contract/shapes.ts';

const target = fileURLToPath(new URL('../contract/shapes.generated.ts', import.meta.url));
writeFileSync(target, shapesSource());
process.stdout.write(`wrote ${target}\n`);
