// `npm run bench`: every benchmark in one process, each printing its table with ratios against
// its peers. Run one alone with `node bench/<name>.mjs`.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadLine } from './machine.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const SHARED = new Set(['run.mjs', 'images.mjs', 'quality.mjs', 'machine.mjs', 'profile.mjs']);
const names = readdirSync(here)
  .filter((f) => f.endsWith('.mjs') && !SHARED.has(f))
  .filter((f) => only.length === 0 || only.some((o) => f.startsWith(o)))
  .sort();

for (const name of names) {
  const mod = await import(pathToFileURL(join(here, name)).href);
  if (typeof mod.run !== 'function') continue;
  console.log(`\n## ${name.replace(/\.mjs$/, '')}\n`);
  console.log(`before: ${loadLine()}`);
  await mod.run((line = '') => console.log(line));
  console.log(`after: ${loadLine()}`);
}
