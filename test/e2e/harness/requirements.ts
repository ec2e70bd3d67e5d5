/**
 * Whether this machine can run the end-to-end suite: the programs on PATH and the built CLI.
 */
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The programs every run needs besides the terminals: the X server, the screenshot tool, and x11-utils to read window titles. */
export const BASE_PROGRAMS = ['Xvfb', 'import', 'xwininfo', 'xprop'] as const;

/** Whether `program` is an executable file on `path`. */
export function onPath(program: string, path: string): boolean {
  return path.split(delimiter).some((dir) => {
    if (dir === '') return false;
    try {
      accessSync(join(dir, program), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** The reasons the suite cannot run here (empty when it can). */
export function missingRequirements(programs: readonly string[], path: string, cli: string): string[] {
  const reasons = [...new Set(programs)].filter((p) => !onPath(p, path)).map((p) => `${p} is not on PATH`);
  if (!existsSync(cli)) reasons.push(`${cli} does not exist (build the CLI: npx tsc -p tsconfig.build.json)`);
  return reasons;
}
