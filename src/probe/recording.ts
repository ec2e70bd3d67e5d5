/**
 * A probe recorded and replayed (docs/probe.md, "Record and replay"): what `termsight detect
 * --record FILE` writes and `termsight replay FILE` reads. The recording holds what the probe's
 * answer depends on and nothing personal: the queries written and the replies read with their
 * times (the driver's trace), the environment reduced to the variables termsight reads (values
 * that are paths, hosts or user names replaced), tmux's answers about itself, and termsight's
 * version. `replay` is pure: it runs the same reducer on the recorded bytes at their recorded
 * times, so the facts (and the report resolved from them) are the live ones, on any machine.
 */
import { type Env, envValue } from '../core/env-vars.js';
import { GRAPHICS_RULES } from '../env/graphics-rules.js';
import { PLACEMENT_RULES } from '../env/placement-rules.js';
import type { Runtime, TTYState } from '../env/runtime.js';
import { TERMINALS } from '../terminals/database.js';
import { INHERITED_VARIABLES } from '../terminals/inherited.js';
import { SLOW_LINKS } from '../terminals/slow-links.js';
import type { TraceEvent } from './driver.js';
import type { ProbeFacts } from './facts.js';
import { createProbe, type ProbeState, probeNextTickAt, probeResult, stepProbe } from './reducer.js';
import type { TmuxFacts } from './tmux-formats.js';

/** The format's name and version, the first two fields of every recording. */
export const RECORDING_FORMAT = 'termsight-recording';
export const RECORDING_VERSION = 1;

/**
 * One byte string through the terminal, written by termsight (`out`) or read from it (`in`), or a
 * clock tick the driver gave the probe (`tick`, no bytes): replayed as they came, so a timer that
 * fired late live fires as late in the replay.
 */
export interface RecordedEvent {
  /** Milliseconds from the probe's start. */
  readonly atMs: number;
  readonly direction: 'in' | 'out' | 'tick';
  /** The bytes as latin1 text (one character a byte), so JSON keeps them exactly; '' for a tick. */
  readonly bytes: string;
}

/** A recorded probe: everything `replay` needs, nothing personal. */
export interface Recording {
  readonly format: typeof RECORDING_FORMAT;
  readonly version: typeof RECORDING_VERSION;
  /** termsight's version that recorded it. */
  readonly termsight: string;
  /** Where it came from, free text (`termsight detect --record`, a fixture's provenance). */
  readonly source: string;
  readonly platform: string;
  readonly isTTY: TTYState;
  /** Only the variables termsight reads, scrubbed (`scrubEnv`). */
  readonly env: Env;
  /** The probe's settings that change what it sends and how long it waits. */
  readonly probe: {
    readonly budgetMs?: number;
    readonly askOuter?: boolean;
    /** Whether the local-transfer query (a probe file for kitty's `t=t`) went out. */
    readonly kittyLocal: boolean;
    /** Whether the terminal had deleted the probe file by the end (`facts.kittyLocal.deleted`). */
    readonly kittyLocalDeleted?: boolean;
  };
  /** The trace, in order; empty when the probe wrote nothing (not a terminal, `TERM=dumb`). */
  readonly events: readonly RecordedEvent[];
  /** tmux's answers about itself (`askTmux`), or null outside tmux or when it did not answer. */
  readonly tmux: TmuxFacts | null;
}

/** Variables termsight reads besides those of the database and the rule tables. */
const READ_ALWAYS = [
  'TERM',
  'COLORTERM',
  'NO_COLOR',
  'TERMSIGHT_GRAPHICS',
  'TMUX',
  'TMUX_PANE',
  'STY',
  'COLUMNS',
  'LINES',
  'TERM_PROGRAM',
  'TERM_PROGRAM_VERSION',
  'LC_TERMINAL',
  'LC_TERMINAL_VERSION',
];

/** Every `variable` named anywhere in a table (a condition, a rule), found by walking it. */
function variablesIn(table: unknown, into: Set<string>, depth = 0): void {
  if (depth > 12 || table === null || typeof table !== 'object') return;
  if (Array.isArray(table)) {
    for (const item of table) variablesIn(item, into, depth + 1);
    return;
  }
  for (const [key, value] of Object.entries(table)) {
    if (key === 'variable' && typeof value === 'string') into.add(value);
    else variablesIn(value, into, depth + 1);
  }
}

let readVariables: ReadonlySet<string> | null = null;

/** The variables termsight reads: the database's and rule tables' conditions and a few more. */
export function variablesRead(): ReadonlySet<string> {
  if (readVariables) return readVariables;
  const names = new Set(READ_ALWAYS);
  for (const table of [TERMINALS, GRAPHICS_RULES, PLACEMENT_RULES, SLOW_LINKS]) variablesIn(table, names);
  for (const inherited of INHERITED_VARIABLES) names.add(inherited.variable);
  readVariables = names;
  return names;
}

/** What replaces a value that could name a person, a machine or a place: its presence is kept. */
export const SCRUBBED = 'scrubbed';

/**
 * The environment as a recording keeps it: only the variables termsight reads (and any `SSH_*`,
 * which makes a session remote), each value kept unless it could be personal: a path, a URL, a
 * host or address, or one holding the user's or the host's name; those become `SCRUBBED`, which
 * keeps the variable set (what every condition on them tests).
 *
 * @example scrubEnv({ TERM: 'xterm', HOME: '/home/ann', SSH_CONNECTION: '10.0.0.2 5 10.0.0.1 22' }) // { TERM: 'xterm', SSH_CONNECTION: 'scrubbed' }
 */
export function scrubEnv(env: Env): Env {
  const read = variablesRead();
  const who = ['USER', 'LOGNAME', 'HOSTNAME']
    .map((name) => envValue(env, name))
    .filter((v): v is string => v !== undefined && v.length >= 3);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (!read.has(name) && !name.startsWith('SSH_')) continue;
    out[name] = personal(name, value, who) ? SCRUBBED : value;
  }
  return out;
}

function personal(name: string, value: string, who: readonly string[]): boolean {
  if (name.startsWith('SSH_')) return true;
  // A path, a URL or an address (user@host); every condition on a variable that may hold one only
  // tests that it is set.
  if (/[/\\@]/.test(value)) return true;
  if (/\b\d{1,3}(\.\d{1,3}){3}\b/.test(value)) return true;
  return who.some((w) => value.includes(w));
}

const latin1 = (bytes: Uint8Array): string => {
  let s = '';
  for (let i = 0; i < bytes.length; i += 8192) s += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return s;
};

const fromLatin1 = (text: string): Uint8Array => {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i) & 0xff;
  return out;
};

/** The recorder: pass `onTrace` to the probe, then `finish` with what else the report used. */
export interface Recorder {
  /** The driver's trace callback (`DriverOptions.onTrace`). */
  readonly onTrace: (event: TraceEvent) => void;
  /** The driver's tick callback (`DriverOptions.onTick`). */
  readonly onTick: (atMs: number) => void;
  /** The recording of the probe traced so far. */
  finish(facts: ProbeFacts | undefined, tmux: TmuxFacts | null): Recording;
}

/**
 * A recorder for one probe of `runtime`: give its `onTrace` and `onTick` to `probeTty` (beside any other), then
 * `finish(facts, tmux)` for the recording. `probe` are the settings given to the probe.
 *
 * @example const rec = createRecorder(runtime, '0.1.0'); const facts = await probeTty({ onTrace: rec.onTrace, onTick: rec.onTick }); save(rec.finish(facts, null))
 */
export function createRecorder(
  runtime: Runtime,
  termsight: string,
  probe: { readonly budgetMs?: number; readonly askOuter?: boolean } = {},
  source = 'termsight detect --record',
): Recorder {
  const events: RecordedEvent[] = [];
  return {
    onTrace: (event) => {
      events.push({
        atMs: Math.round(event.atMs * 1000) / 1000,
        direction: event.direction,
        bytes: latin1(event.bytes),
      });
    },
    onTick: (atMs) => {
      events.push({ atMs: Math.round(atMs * 1000) / 1000, direction: 'tick', bytes: '' });
    },
    finish: (facts, tmux) => {
      // The local-transfer query names its file (base64 of a path in /dev/shm): asked or not is kept, the path is not.
      const kittyLocal = events.some((e) => e.direction === 'out' && e.bytes.includes('_Gi=32,'));
      const scrubbedEvents = events.map((e) =>
        e.direction === 'out' && kittyLocal ? { ...e, bytes: e.bytes.replace(/(_Gi=32,[^;]*;)[^\x1b]*/g, '$1') } : e,
      );
      return {
        format: RECORDING_FORMAT,
        version: RECORDING_VERSION,
        termsight,
        source,
        platform: runtime.platform ?? 'linux',
        isTTY: runtime.isTTY,
        env: scrubEnv(runtime.env),
        probe: {
          ...(probe.budgetMs !== undefined ? { budgetMs: probe.budgetMs } : {}),
          ...(probe.askOuter !== undefined ? { askOuter: probe.askOuter } : {}),
          kittyLocal,
          ...(facts?.kittyLocal?.deleted !== undefined ? { kittyLocalDeleted: facts.kittyLocal.deleted } : {}),
        },
        events: scrubbedEvents,
        tmux,
      };
    },
  };
}

/** What `replay` gives: the inputs of `resolveReport` as the live probe had them. */
export interface Replayed {
  readonly runtime: Runtime;
  readonly facts: ProbeFacts;
  readonly tmux: TmuxFacts | null;
}

/** Where the replayed probe's file would be: any path will do, the terminal's answer is recorded. */
const REPLAY_LOCAL_PATH = '/dev/shm/tty-graphics-protocol-replay';

/**
 * Replays a recording: the probe's reducer, started as the live one was (same environment,
 * settings and terminal), fed the recorded replies at their recorded times, the clock ticking when
 * the recorded ticks as they fired (a recording without ticks: when the reducer asks, on time). Pure.
 *
 * @example const { runtime, facts, tmux } = replay(parseRecording(text)); resolveReport(runtime, facts, { stream: 'tty', tmux })
 */
export function replay(recording: Recording): Replayed {
  const runtime: Runtime = { env: recording.env, isTTY: recording.isTTY, platform: recording.platform };
  let state: ProbeState = createProbe(runtime, {
    tty: true,
    foreground: true,
    nowMs: 0,
    ...(recording.probe.budgetMs !== undefined ? { budgetMs: recording.probe.budgetMs } : {}),
    ...(recording.probe.askOuter !== undefined ? { askOuter: recording.probe.askOuter } : {}),
    ...(recording.probe.kittyLocal ? { kittyLocalPath: REPLAY_LOCAL_PATH } : {}),
  });
  const step = (event: Parameters<typeof stepProbe>[1]): void => {
    state = stepProbe(state, event)[0];
  };
  step({ type: 'start' });
  const ticksUntil = (t: number): void => {
    for (let guard = 0; guard < 64; guard++) {
      const due = probeNextTickAt(state);
      if (due === null || due > t) return;
      step({ type: 'clock', nowMs: due });
    }
  };
  let last = 0;
  // A recording with its ticks replays them as they fired; one without (made by other means)
  // ticks when the reducer asks, on time.
  const recordedTicks = recording.events.some((e) => e.direction === 'tick');
  for (const event of recording.events) {
    if (probeResult(state) !== null) break;
    if (event.direction === 'tick') {
      step({ type: 'clock', nowMs: event.atMs });
      last = event.atMs;
      continue;
    }
    if (event.direction !== 'in') continue;
    if (!recordedTicks) ticksUntil(event.atMs);
    step({ type: 'input', bytes: fromLatin1(event.bytes) });
    if (!recordedTicks) {
      // The driver ticks right after each chunk when a tick is due.
      const due = probeNextTickAt(state);
      if (due !== null && due <= event.atMs) step({ type: 'clock', nowMs: event.atMs });
    }
    last = event.atMs;
  }
  if (!recordedTicks) ticksUntil(Number.POSITIVE_INFINITY);
  if (probeResult(state) === null) step({ type: 'end', nowMs: last });
  const facts = probeResult(state) ?? {
    replies: [],
    sentinel: false,
    timedOut: true,
    elapsedMs: last,
  };
  const deleted = recording.probe.kittyLocalDeleted;
  const withLocal =
    facts.kittyLocal && deleted !== undefined ? { ...facts, kittyLocal: { ...facts.kittyLocal, deleted } } : facts;
  return { runtime, facts: withLocal, tmux: recording.tmux };
}

/** The largest recording `parseRecording` reads: far above a probe's few kilobytes. */
export const MAX_RECORDING_BYTES = 4 * 1024 * 1024;

/**
 * A recording from its JSON text, checked field by field; throws a `RangeError` saying what is
 * wrong (not JSON, another format or version, a field of the wrong type).
 *
 * @example const recording = parseRecording(readFileSync(file, 'utf8'))
 */
export function parseRecording(text: string): Recording {
  if (text.length > MAX_RECORDING_BYTES) throw new RangeError(`a recording is at most ${MAX_RECORDING_BYTES} bytes`);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new RangeError('not a recording: not JSON');
  }
  const r = data as Partial<Recording> & Record<string, unknown>;
  const fail = (what: string): never => {
    throw new RangeError(`not a termsight recording: ${what}`);
  };
  if (typeof r !== 'object' || r === null || Array.isArray(r)) fail('not an object');
  if (r.format !== RECORDING_FORMAT) fail(`format is not "${RECORDING_FORMAT}"`);
  if (r.version !== RECORDING_VERSION) fail(`version ${String(r.version)}, this termsight reads ${RECORDING_VERSION}`);
  if (typeof r.env !== 'object' || r.env === null || Object.values(r.env).some((v) => typeof v !== 'string'))
    fail('env must map names to strings');
  if (!Array.isArray(r.events)) fail('events must be a list');
  for (const e of r.events as unknown[]) {
    const ev = e as Partial<RecordedEvent>;
    if (
      typeof ev !== 'object' ||
      ev === null ||
      typeof ev.atMs !== 'number' ||
      !Number.isFinite(ev.atMs) ||
      (ev.direction !== 'in' && ev.direction !== 'out' && ev.direction !== 'tick') ||
      typeof ev.bytes !== 'string'
    )
      fail('an event needs atMs, direction (in, out or tick) and bytes');
  }
  const probe = r.probe as Recording['probe'] | undefined;
  if (typeof probe !== 'object' || probe === null || typeof probe.kittyLocal !== 'boolean')
    fail('probe.kittyLocal must be true or false');
  if (typeof r.isTTY !== 'object' || r.isTTY === null) fail('isTTY must be an object');
  if (r.tmux !== null && (typeof r.tmux !== 'object' || r.tmux === undefined)) fail('tmux must be an object or null');
  return {
    format: RECORDING_FORMAT,
    version: RECORDING_VERSION,
    termsight: typeof r.termsight === 'string' ? r.termsight : 'unknown',
    source: typeof r.source === 'string' ? r.source : '',
    platform: typeof r.platform === 'string' ? r.platform : 'linux',
    isTTY: r.isTTY as TTYState,
    env: r.env as Env,
    probe: probe as Recording['probe'],
    events: r.events as RecordedEvent[],
    tmux: (r.tmux ?? null) as TmuxFacts | null,
  };
}
