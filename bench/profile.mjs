// Where the CPU of one whole `termsight show` process goes, by stage: the process run under
// `node --cpu-prof`, its samples' self time summed by stage, each stage's share of the samples
// times the process's CPU time less Node's start. Shared by bench/jpeg-stages.mjs and bench/png.mjs,
// which each say what their stages are.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { processCost } from './machine.mjs';

/**
 * Function name -> stage, from the declarations in `root`/src (`stageOf(path relative to src)`):
 * the bundled chunks keep function names, not files. A name declared in files of two stages maps
 * to null, so its samples fall to the caller's rule for unnamed frames.
 */
export function functionStages(root, stageOf) {
  const byName = new Map();
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (p.endsWith('.ts')) {
        const stage = stageOf(relative(join(root, 'src'), p));
        const text = readFileSync(p, 'utf8');
        const names = [
          ...text.matchAll(/function\s+([A-Za-z0-9_$]+)/g),
          ...text.matchAll(/^\s+(?:private\s+|static\s+|readonly\s+)*([A-Za-z0-9_$]+)\([^)]*\)(?::[^{]+)?\s*\{/gm),
          ...text.matchAll(/(?:const|let)\s+([A-Za-z0-9_$]+)\s*=\s*(?:\([^)]*\)|[A-Za-z0-9_$]+)\s*(?::[^=]+)?=>/g),
        ].map((m) => m[1]);
        for (const n of names) {
          const had = byName.get(n);
          byName.set(n, had === undefined || had === stage ? stage : null);
        }
      }
    }
  };
  walk(join(root, 'src'));
  return byName;
}

/**
 * Self time (ms) by stage in one .cpuprofile: V8's garbage collector is `gc`, its idle and
 * program frames `other`; every other frame goes where `frameStage(callFrame)` says.
 */
function stagesOf(profile, stages, frameStage) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const out = Object.fromEntries(stages.map((s) => [s, 0]));
  for (let i = 0; i < profile.samples.length; i++) {
    const frame = nodes.get(profile.samples[i]).callFrame;
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const { functionName } = frame;
    let stage;
    if (functionName === '(garbage collector)') stage = 'gc';
    else if (functionName === '(program)' || functionName === '(idle)' || functionName === '(root)') stage = 'other';
    else stage = frameStage(frame);
    out[stage] += ms;
  }
  return out;
}

/**
 * One profiled process (`cli` and its `args`, sampled every 250 µs): each of `stages` as its share
 * of the samples times the process's CPU time from GNU time, less `nodeStart` (Node's own start,
 * before the profiler runs: `node -e 0`'s CPU); and the process's peak MiB. A sample's delta is
 * wall time: on a loaded machine it includes waiting for a core, spread over the stages like the
 * rest, so shares stay fair where absolute deltas do not.
 */
export function profileOnce(cli, args, { stages, frameStage, nodeStart }) {
  const dir = mkdtempSync(join(tmpdir(), 'termsight-prof-'));
  try {
    const r = processCost([
      process.execPath,
      '--cpu-prof',
      '--cpu-prof-dir',
      dir,
      '--cpu-prof-interval',
      '250',
      cli,
      ...args,
    ]);
    if (!r.ok) throw new Error(`show failed: ${r.stderr}`);
    const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
    const sampled = stagesOf(JSON.parse(readFileSync(join(dir, file), 'utf8')), stages, frameStage);
    const total = stages.reduce((a, st) => a + sampled[st], 0);
    const rest = Math.max(0, r.cpu - nodeStart);
    return { stages: Object.fromEntries(stages.map((st) => [st, (sampled[st] / total) * rest])), mib: r.rss };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
