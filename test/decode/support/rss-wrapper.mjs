// Runs the built CLI in this process and, on exit, writes the process's peak RSS (KiB, from
// process.resourceUsage) to the file named by the first argument, so a test can bound it without
// anything extra on stdout or stderr. Usage: node rss-wrapper.mjs RSS_FILE show --no-probe FILE
import { writeFileSync } from 'node:fs';

const [rssFile, ...args] = process.argv.slice(2);
const main = new URL('../../../dist/cli/main.js', import.meta.url);
process.argv = [process.argv[0], main.pathname, ...args];
process.on('exit', () => writeFileSync(rssFile, String(process.resourceUsage().maxRSS)));
await import(main.href);
