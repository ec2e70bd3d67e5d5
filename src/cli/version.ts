/**
 * The package's version, for `--version` and for recordings (`detect --record`): its own file, so
 * a command can name it without importing the dispatcher that loads the commands.
 */
import { readFileSync } from 'node:fs';

/** The package version, read from package.json next to the build. */
export function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}
