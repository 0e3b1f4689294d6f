// Completes package-lock.json after `npm install` on a machine whose registry mirror serves only
// this platform's native binaries: npm then leaves other platforms' optional packages (biome,
// rollup) out of the lock, and `npm ci` refuses the lock as out of sync. Each missing optional
// package gets an entry with its declared version; npm ci skips it where it does not apply.
// Usage: node .ci/complete-lockfile.mjs   (after any dependency change)
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const packages = lock.packages;
let added = 0;
for (const entry of Object.values({ ...packages })) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    if (packages[key]) continue;
    packages[key] = { version, ...(entry.dev ? { dev: true } : {}), optional: true };
    added += 1;
  }
}
const ordered = Object.entries(packages).sort(([a], [b]) =>
  a === '' ? -1 : b === '' ? 1 : a.localeCompare(b),
);
lock.packages = Object.fromEntries(ordered);
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: ${added} optional platform package(s) added`);
