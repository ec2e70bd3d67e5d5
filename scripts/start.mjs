// `npm start`: the demo (the report of this terminal, then a sample picture). A fresh clone has no
// dist/ (the build runs on `npm pack`, not on `npm install`), so it is built first when missing.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const main = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(main)) {
  const built = spawnSync('npm', ['run', 'build'], { stdio: 'inherit', shell: process.platform === 'win32' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
process.argv = [process.argv[0], main.pathname, 'demo', ...process.argv.slice(2)];
await import(main.href);
