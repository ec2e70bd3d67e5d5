// What every benchmark shares about the machine and whole processes: how loaded the machine is
// (so a table measured on a busy machine says so), and what one process costs (wall time, CPU
// time, peak memory), measured the same way for termsight and its peers.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const TIME = '/usr/bin/time';

/**
 * NODE_EXTRA_CA_CERTS as the machine set it, taken out of the environment every measured process
 * inherits: Node 20 reads and parses that file at every start (about 55 ms CPU here), Node 22+
 * only when a TLS connection needs it, and users' machines rarely set it. bench/cold.mjs measures
 * `node -e 0` with it, so its cost stays visible; the load line says it was taken out.
 */
export const EXTRA_CA_CERTS = process.env.NODE_EXTRA_CA_CERTS;
delete process.env.NODE_EXTRA_CA_CERTS;

/** Whether whole-process costs can be measured here (GNU time reports CPU time and peak memory). */
export const canTimeProcesses = () => existsSync(TIME);

/**
 * The load average now, and whether the machine counts as quiet: a 1-minute load, less the
 * benchmark's own one, below half its cores. Printed before and after each table, so a loaded run is visible as such.
 */
export function loadLine() {
  const [one, five] = loadavg();
  const cores = availableParallelism();
  // The benchmark keeps one core busy itself (its own process or the child it waits on).
  const quiet = one - 1 < cores / 2;
  const ca = EXTRA_CA_CERTS ? '; NODE_EXTRA_CA_CERTS unset for the processes measured' : '';
  return `machine: load average ${one.toFixed(2)} (1 min) / ${five.toFixed(2)} (5 min) on ${cores} cores: ${quiet ? 'quiet' : 'LOADED: wall times are inflated, compare CPU times and same-run ratios'}${ca}`;
}

let scratch;
/**
 * One run of a whole process: wall ms (measured here), CPU ms (user + system of the process and its
 * children, from GNU time, in 10 ms steps) and peak resident memory in MiB; `ok` is its exit status.
 * Its standard output is thrown away unless `options.stdio` pipes it: then it is `stdout`.
 */
export function processCost(argv, options = {}) {
  scratch ??= mkdtempSync(join(tmpdir(), 'termsight-bench-'));
  const out = join(scratch, 'time.out');
  rmSync(out, { force: true });
  const start = process.hrtime.bigint();
  const r = spawnSync(TIME, ['-f', '%M %U %S', '-o', out, ...argv], {
    stdio: ['ignore', 'ignore', 'pipe'],
    maxBuffer: 1 << 30,
    ...options,
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const [rss, user, system] = readFileSync(out, 'utf8').trim().split('\n').pop().split(' ').map(Number);
  return {
    ms,
    cpu: (user + system) * 1000,
    rss: rss / 1024,
    ok: r.status === 0,
    stderr: String(r.stderr).split('\n')[0],
    stdout: r.stdout,
  };
}

/** The median of a list of numbers (the upper one of an even count). */
export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
