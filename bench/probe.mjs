// Probe timing against a scripted terminal in a real pty (node-pty).
//
// 1. Answered: the terminal answers each batch after a scripted latency (0, 5, 20, 50 ms) with
//    kitty's recorded replies. Reported: when the sentinel's chunk arrived (as the driver saw it),
//    when the probe's result came, their ratio, and the overhead (result minus arrival): the goal
//    is within 2 ms, i.e. the driver never waits out a timer once the terminal has answered.
// 2. Silent: the terminal answers nothing; the time to give up against the budget (ratio).
// 3. Unnamed: a VT220-class terminal nothing names (TERM alone, no XTVERSION, no fingerprint) that
//    speaks kitty graphics: the kitty query and DECRQM go in a guarded second round, so the result
//    costs two round trips; reported as result / latency (about 2 where the guarded round runs).
//
// The probes run in one child process (this file with `--child`), one after another, so process
// start-up is not measured. Run alone with `node bench/probe.mjs` (build first: npx tsc -p tsconfig.build.json).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const LATENCIES = [0, 5, 20, 50];
const REPEATS = 15;
const SILENT_BUDGETS = [50, 100, 200];
const SILENT_REPEATS = 3;
const UNNAMED_LATENCIES = [5, 20, 50];
const UNNAMED_REPEATS = 9;
/** The unnamed terminal's replies: DA1 level 62, kitty graphics, DECRQM 2026; nothing names it. */
const UNNAMED = new Map([
  ['\x1b_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\x1b\\', '\x1b_Gi=31;OK\x1b\\'],
  ['\x1b[?2026$p', '\x1b[?2026;2$y'],
]);
const UNNAMED_DA1 = '\x1b[?62;22c';

const here = fileURLToPath(import.meta.url);
const repliesDir = fileURLToPath(new URL('../test/fixtures/replies/', import.meta.url));

if (process.argv[2] === '--child') {
  await child(JSON.parse(process.argv[3]));
}

/** The child: runs each planned probe against its own terminal and prints one line per probe. */
async function child(plan) {
  const { probeTty } = await import(new URL('../dist/probe/driver.js', import.meta.url).href);
  for (const item of plan) {
    let sentinelAtMs = null;
    const facts = await probeTty({
      budgetMs: item.budgetMs,
      lateMs: 0,
      onTrace: (e) => {
        if (e.direction === 'in') sentinelAtMs = e.atMs;
      },
    });
    process.stdout.write(
      `PROBE ${JSON.stringify({ ...item, elapsedMs: facts.elapsedMs, sentinel: facts.sentinel, timedOut: facts.timedOut, sentinelAtMs, kitty: facts.kittyGraphics?.ok === true })}\n`,
    );
  }
  process.stdin.pause();
}

/** The replies kitty gave to each query alone, minus its DA1, and its DA1. */
function kittyReplies() {
  const file = JSON.parse(readFileSync(`${repliesDir}/kitty.json`, 'utf8'));
  const da1Entry = file.results.find((r) => r.name === 'DA1');
  const da1 = da1Entry.reply.slice(da1Entry.reply.length / 2);
  const byQuery = new Map(
    file.results
      .filter((r) => r.name !== 'DA1')
      .map((r) => [r.query, r.reply.endsWith(da1) ? r.reply.slice(0, -da1.length) : r.reply]),
  );
  return { da1, byQuery };
}

/** The escape sequences of a batch, for looking up each query's reply. */
function sequences(text) {
  const out = [];
  const re = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b[\]P_^][\s\S]*?(?:\x07|\x1b\\)/g;
  for (const m of text.matchAll(re)) out.push(m[0]);
  return out;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Runs the plan in a child in a pty, answering each batch as the plan says; returns the probe lines. */
async function runPlan(plan) {
  const require = createRequire(import.meta.url);
  const pty = require('node-pty');
  const { da1, byQuery } = kittyReplies();
  const proc = pty.spawn(process.execPath, [here, '--child', JSON.stringify(plan)], {
    cols: 80,
    rows: 24,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', TERM: 'xterm-256color' },
  });
  let screen = '';
  let batchStart = 0;
  let answered = 0;
  const results = [];
  await new Promise((resolve, reject) => {
    const guard = setTimeout(
      () => reject(new Error(`bench child stalled: ${JSON.stringify(screen.slice(-300))}`)),
      60_000,
    );
    proc.onData((data) => {
      screen += data;
      // Each batch ends with the DA1 query `CSI c`.
      for (let at = screen.indexOf('\x1b[c', batchStart); at >= 0; at = screen.indexOf('\x1b[c', batchStart)) {
        const batch = screen.slice(batchStart, at + 3);
        batchStart = at + 3;
        // A first round starts with XTVERSION; a batch without it is a further round of the same probe.
        const item = batch.includes('\x1b[>q') ? plan[answered++] : plan[answered - 1];
        if (!item || item.latencyMs === null) continue;
        const unnamed = item.terminal === 'unnamed';
        const reply =
          sequences(batch)
            .map((q) => (unnamed ? UNNAMED : byQuery).get(q) ?? '')
            .join('') + (unnamed ? UNNAMED_DA1 : da1);
        const send = () => proc.write(reply);
        if (item.latencyMs === 0) send();
        else setTimeout(send, item.latencyMs);
      }
      for (const m of screen.matchAll(/PROBE (.*)\r?\n/g)) {
        if (results.length < plan.length && !results.some((r) => r.raw === m[1]))
          results.push({ raw: m[1], ...JSON.parse(m[1]) });
      }
    });
    proc.onExit(() => {
      clearTimeout(guard);
      resolve();
    });
  });
  return results;
}

/** Prints the two tables. */
export async function run(log = console.log) {
  // One probe first, not counted: module loading and JIT warm-up are not the driver's latency.
  const plan = [{ latencyMs: 0, budgetMs: 1000, warmup: true }];
  for (const latencyMs of LATENCIES) for (let i = 0; i < REPEATS; i++) plan.push({ latencyMs, budgetMs: 1000 });
  for (const budgetMs of SILENT_BUDGETS)
    for (let i = 0; i < SILENT_REPEATS; i++) plan.push({ latencyMs: null, budgetMs });
  for (const latencyMs of UNNAMED_LATENCIES)
    for (let i = 0; i < UNNAMED_REPEATS; i++) plan.push({ latencyMs, budgetMs: 1000, terminal: 'unnamed' });
  const results = await runPlan(plan);

  log(`probe: answered terminal (kitty replies), driver over a real pty; medians of ${REPEATS}`);
  log(
    'latency ms | sentinel arrives ms | result ms | result / latency | result / arrival | overhead ms (median / max) | timed out',
  );
  for (const latencyMs of LATENCIES) {
    const rows = results.filter((r) => r.latencyMs === latencyMs && !r.warmup && r.terminal !== 'unnamed');
    const arrival = median(rows.map((r) => r.sentinelAtMs ?? NaN));
    const result = median(rows.map((r) => r.elapsedMs));
    const overheads = rows.map((r) => r.elapsedMs - (r.sentinelAtMs ?? NaN));
    log(
      `${String(latencyMs).padStart(10)} | ${arrival.toFixed(2).padStart(19)} | ${result.toFixed(2).padStart(9)} | ${(latencyMs > 0 ? (result / latencyMs).toFixed(3) : '-').padStart(16)} | ${(result / arrival).toFixed(3).padStart(16)} | ${`${median(overheads).toFixed(3)} / ${Math.max(...overheads).toFixed(3)}`.padStart(26)} | ${rows.filter((r) => r.timedOut).length}`,
    );
  }
  log('');
  log(`probe: silent terminal; give-up time against the budget; medians of ${SILENT_REPEATS}`);
  log('budget ms | gave up ms | gave up / budget');
  for (const budgetMs of SILENT_BUDGETS) {
    const rows = results.filter((r) => r.latencyMs === null && r.budgetMs === budgetMs);
    const gaveUp = median(rows.map((r) => r.elapsedMs));
    log(
      `${String(budgetMs).padStart(9)} | ${gaveUp.toFixed(2).padStart(10)} | ${(gaveUp / budgetMs).toFixed(3).padStart(16)}`,
    );
  }
  log('');
  log(`probe: a VT220-class terminal nothing names (kitty graphics, no XTVERSION); medians of ${UNNAMED_REPEATS}`);
  log('latency ms | result ms | result / latency | kitty found');
  for (const latencyMs of UNNAMED_LATENCIES) {
    const rows = results.filter((r) => r.terminal === 'unnamed' && r.latencyMs === latencyMs);
    const result = median(rows.map((r) => r.elapsedMs));
    log(
      `${String(latencyMs).padStart(10)} | ${result.toFixed(2).padStart(9)} | ${(result / latencyMs).toFixed(3).padStart(16)} | ${rows.filter((r) => r.kitty).length}/${rows.length}`,
    );
  }
}

if (process.argv[1] === here && process.argv[2] !== '--child') {
  await run();
}
