/**
 * Owning the processes the suite starts, and stopping exactly those on every path.
 *
 * Each process is spawned in a process group of its own and recorded. Daemons that leave the group
 * (tmux's server and GNU screen's both call `setsid`) and the programs a terminal runs in a new
 * session on its pty are adopted by pid. As a last net, every process the scope starts carries a
 * marker variable in its environment (inherited by its descendants, the daemons included): `stop`
 * sweeps /proc for live processes holding this scope's marker and kills them too. Nothing else on
 * the machine is touched.
 */
import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

/** The variable that marks a process as started by one scope. */
export const MARKER_VARIABLE = 'TERMSIGHT_E2E_SCOPE';

/** Whether a process exists and is not a zombie (a zombie has ended; only its parent's wait is missing). */
export function isLive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // The state follows the command name, which is in parentheses and may itself hold spaces.
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X' && state !== '';
  } catch {
    return false;
  }
}

/** Live processes whose environment holds `MARKER_VARIABLE=value`. */
export function markedProcesses(value: string): number[] {
  const needle = Buffer.from(`\0${MARKER_VARIABLE}=${value}\0`);
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (pid === process.pid) continue;
    let environ: Buffer;
    try {
      environ = Buffer.concat([Buffer.from([0]), readFileSync(`/proc/${pid}/environ`)]);
    } catch {
      continue; // gone, or not ours to read
    }
    if (environ.includes(needle) && isLive(pid)) found.push(pid);
  }
  return found;
}

function signal(target: number, sig: NodeJS.Signals): void {
  try {
    process.kill(target, sig);
  } catch {
    // Already gone: nothing to stop.
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The processes one test session started; `stop()` ends them all. */
export class ProcessScope {
  /** This scope's marker value. */
  readonly id = randomUUID();
  private readonly groups = new Set<number>();
  private readonly pids = new Set<number>();
  private readonly children = new Set<ChildProcess>();
  private readonly onExit = () => this.stopNow();

  constructor() {
    // A crashing worker still must not leave an X server or a terminal running.
    process.once('exit', this.onExit);
  }

  /** The environment to give a child: `env` plus this scope's marker. */
  env(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
    return { ...env, [MARKER_VARIABLE]: this.id };
  }

  /** Starts a program in its own process group, marked as this scope's. */
  spawn(command: string, args: readonly string[], options: SpawnOptions = {}): ChildProcess {
    const child = spawn(command, args, { ...options, env: this.env(options.env ?? process.env), detached: true });
    if (child.pid !== undefined) {
      this.groups.add(child.pid);
      this.children.add(child);
      child.once('exit', () => this.children.delete(child));
    }
    // A failed spawn reports through 'error'; the caller decides, but it must not crash the worker.
    child.on('error', () => undefined);
    return child;
  }

  /** Takes over a process this scope did not spawn directly (a daemon, a program on a pty): its group is stopped too. */
  adopt(pid: number): void {
    if (Number.isInteger(pid) && pid > 1) this.pids.add(pid);
  }

  /** Every live process this scope knows of, by group, pid, or marker. */
  live(): number[] {
    const all = new Set<number>(markedProcesses(this.id));
    for (const pid of [...this.groups, ...this.pids]) if (isLive(pid)) all.add(pid);
    return [...all].sort((a, b) => a - b);
  }

  /** Stops everything: SIGTERM to each group and process, up to `graceMs` to end, then SIGKILL. */
  async stop(graceMs = 1500): Promise<void> {
    this.signalAll('SIGTERM');
    const until = Date.now() + graceMs;
    while (this.live().length > 0 && Date.now() < until) await sleep(50);
    if (this.live().length > 0) {
      this.signalAll('SIGKILL');
      const hard = Date.now() + 1000;
      while (this.live().length > 0 && Date.now() < hard) await sleep(50);
    }
    process.removeListener('exit', this.onExit);
  }

  /** Synchronous last resort (process exit): SIGKILL to everything known. */
  stopNow(): void {
    this.signalAll('SIGKILL');
  }

  private signalAll(sig: NodeJS.Signals): void {
    for (const pid of this.pids) {
      signal(-pid, sig); // a session leader on a pty leads its own group
      signal(pid, sig);
    }
    for (const pgid of this.groups) signal(-pgid, sig);
    for (const pid of markedProcesses(this.id)) signal(pid, sig);
  }
}
