/**
 * Where a cell's programs come from: the machine's own Debian (12 here), or the Debian 13 (trixie)
 * chroot that `.ci/run` builds (`.ci/trixie-chroot.sh`) and names in `TERMSIGHT_E2E_TRIXIE`. A
 * chroot shares the machine's processes, network and (bind-mounted) /tmp, /proc, /sys and /dev, so
 * its X clients talk to the suite's Xvfb through /tmp/.X11-unix, its files land in the session's
 * directory under /tmp, and the ProcessScope stops its processes like any other. Only the programs
 * differ: `chroot ROOT PROGRAM…` runs trixie's kitty, tmux, xterm. Pure but for `systemProblems`,
 * which looks at the files.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';

/** The Debian whose programs a cell runs: the machine's, or the Debian 13 chroot. */
export type System = 'host' | 'trixie';

/** The variable `.ci/run` sets to the Debian 13 chroot's root directory. */
export const TRIXIE_VARIABLE = 'TERMSIGHT_E2E_TRIXIE';

/** chroot(8), by absolute path: PATH may lack /usr/sbin. */
export const CHROOT = '/usr/sbin/chroot';

/** The directories searched for a program inside the chroot (its own PATH). */
const CHROOT_PATH = ['/usr/local/bin', '/usr/bin', '/bin', '/usr/sbin', '/sbin'];

/** The argv that runs `argv` in the system rooted at `root` (null: the machine itself). */
export function inSystem(root: string | null, argv: readonly string[]): string[] {
  return root === null ? [...argv] : [CHROOT, root, ...argv];
}

/** The root directory of `system` as the environment names it (null for the host; undefined when not set). */
export function systemRoot(system: System, env: NodeJS.ProcessEnv): string | null | undefined {
  if (system === 'host') return null;
  const root = env[TRIXIE_VARIABLE];
  return root === undefined || root === '' ? undefined : root;
}

/** Whether two paths are the same file (the same device and inode): a bind mount shows through. */
function sameFile(a: string, b: string): boolean {
  try {
    const x = statSync(a);
    const y = statSync(b);
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return false;
  }
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** What a chroot cell needs from the machine and the chroot. */
export interface ChrootNeeds {
  readonly root: string;
  /** The programs the cells run inside the chroot. */
  readonly programs: readonly string[];
  /** Paths that must be the same file inside and outside (the CLI, the node binary, the session directory). */
  readonly shared: readonly string[];
  /** Whether this process may chroot (root). */
  readonly privileged: boolean;
}

/** The reasons chroot cells cannot run (empty when they can), each naming what is missing. */
export function systemProblems(needs: ChrootNeeds): string[] {
  const { root } = needs;
  if (!exists(join(root, 'usr/bin'))) {
    return [`${TRIXIE_VARIABLE}=${root} is not a Debian root (no usr/bin); .ci/trixie-chroot.sh builds one`];
  }
  const problems: string[] = [];
  if (!needs.privileged) problems.push('chroot needs root privileges');
  if (!exists(CHROOT)) problems.push(`${CHROOT} does not exist`);
  for (const program of new Set(needs.programs)) {
    if (!CHROOT_PATH.some((dir) => exists(join(root, dir, program)))) {
      problems.push(`${program} is not installed in ${root}`);
    }
  }
  for (const path of needs.shared) {
    if (!sameFile(path, join(root, path))) {
      problems.push(`${path} is not the same file inside ${root} (bind-mount it: .ci/trixie-chroot.sh mount)`);
    }
  }
  return problems;
}
