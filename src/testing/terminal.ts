/**
 * A scripted terminal for application tests: a pair of in-memory streams that look like a TTY to
 * termsight (and to Ink), and answer every query round the application writes the way a real
 * terminal did, after a latency. The answers are the repository's recordings (recordings.ts) or,
 * for terminals with no recording here, built from the terminal database's row (marked
 * `source: 'database'`). Everything written is kept for `drawn()`.
 */
import { PassThrough, Writable } from 'node:stream';
import type { Runtime } from '../env/runtime.js';
import { TERMINALS } from '../terminals/database.js';
import type { TerminalRow } from '../terminals/types.js';
import { RECORDINGS } from './recordings.js';

/** The terminals a scripted terminal can be. */
export type ScriptedTerminalName =
  | 'kitty'
  | 'ghostty'
  | 'iterm2'
  | 'foot'
  | 'wezterm'
  | 'vscode'
  | 'vscode-images'
  | 'windows-terminal'
  | 'tmux-kitty'
  | 'screen'
  | 'xterm'
  | 'silent'
  | 'konsole'
  | 'kitty-0.46'
  | 'kitty-0.48'
  | 'vscode-kitty'
  | 'herdr'
  | 'herdr-kitty'
  | 'cmux';

/** What a scripted terminal answers, and where that comes from. */
export interface TerminalScript {
  readonly name: string;
  /** `recorded`: a real terminal's bytes; `database`: built from the database row (no recording here); `silent`: answers nothing. */
  readonly source: 'recorded' | 'database' | 'silent';
  readonly provenance: string;
  readonly env: Readonly<Record<string, string>>;
  /** The DA1 reply ('' for a silent terminal). */
  readonly da1: string;
  /** Query (as sent) -> its reply before DA1, and what follows DA1 (a multiplexer forwarding). */
  readonly answers: Readonly<Record<string, { readonly reply: string; readonly late: string }>>;
  /** A multiplexer's outer terminal, which answers the queries wrapped for its passthrough. */
  readonly outer?: TerminalScript;
  /** How queries for the outer terminal are wrapped: tmux's `ESC Ptmux;`, or screen's DCS packets. */
  readonly wrapper?: 'tmux' | 'screen';
}

/** The cell size the database-built terminals report: assumed (a row has no cell size), 10x20 px. */
export const ASSUMED_CELL = { width: 10, height: 20 } as const;

/** The environment VS Code's integrated terminal gives its programs (the xterm.js recordings have none). */
const VSCODE_ENV = { TERM: 'xterm-256color', TERM_PROGRAM: 'vscode', COLORTERM: 'truecolor' } as const;

function fromRecording(id: keyof typeof RECORDINGS, env?: Readonly<Record<string, string>>): TerminalScript {
  const r = RECORDINGS[id];
  return {
    name: r.name,
    source: 'recorded',
    provenance: `${r.provenance} (${r.file})`,
    env: env ?? r.env,
    da1: r.da1,
    answers: r.answers,
  };
}

/** The environment a row's first identity condition set describes (`equals` and `prefix` values; `set` as 1). */
function envOfRow(row: TerminalRow): Record<string, string> {
  const env: Record<string, string> = { TERM: 'xterm-256color' };
  for (const condition of row.identity.env[0]?.when ?? []) {
    const c = condition as { variable: string; test: string; value?: string; values?: readonly string[] };
    env[c.variable] = c.value ?? c.values?.[0] ?? '1';
  }
  return env;
}

/** The probe's kitty graphics query, as sent. */
const KITTY_QUERY = '\x1b_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\x1b\\';

/** How a row-built terminal differs from its row's first example (a later version, a layer's own environment). */
interface RowVariant {
  /** Its XTVERSION reply's body (default: the row's example; null: it sends none). */
  readonly xtversion?: string | null;
  /** Whether it answers the kitty graphics query OK (default: where the row draws kitty). */
  readonly kitty?: boolean;
  /** Its environment (default: the row's first identity condition set). */
  readonly env?: Readonly<Record<string, string>>;
  /** Its name and why it differs from the row, for the provenance. */
  readonly name?: string;
  readonly because?: string;
}

/**
 * A terminal with no recording here, from its database row: its environment, its XTVERSION
 * example, the kitty graphics answer where it draws kitty, DA1 with sixel (4) where it draws
 * sixel, and an assumed cell size (`ASSUMED_CELL`) and dark background.
 */
function fromRow(id: string, variant: RowVariant = {}): TerminalScript {
  const row = TERMINALS.find((t) => t.id === id);
  if (!row) throw new RangeError(`no terminal ${id} in the database`);
  const draws = new Set(row.draws.map((d) => d.protocol));
  const answers: Record<string, { reply: string; late: string }> = {};
  const add = (query: string, reply: string) => {
    answers[query] = { reply, late: '' };
  };
  const xt = variant.xtversion === undefined ? row.identity.xtversion?.example : variant.xtversion;
  if (xt) add('\x1b[>q', `\x1bP>|${xt}\x1b\\`);
  if (variant.kitty ?? draws.has('kitty')) add(KITTY_QUERY, '\x1b_Gi=31;OK\x1b\\');
  add('\x1b[16t', `\x1b[6;${ASSUMED_CELL.height};${ASSUMED_CELL.width}t`);
  add('\x1b[14t', `\x1b[4;${24 * ASSUMED_CELL.height};${80 * ASSUMED_CELL.width}t`);
  add('\x1b[18t', '\x1b[8;24;80t');
  add('\x1b[?2026$p', '\x1b[?2026;2$y');
  add('\x1b]11;?\x1b\\', '\x1b]11;rgb:0000/0000/0000\x1b\\');
  if (draws.has('sixel')) add('\x1b[?1;1;0S', '\x1b[?1;0;256S');
  return {
    name: variant.name ?? row.name,
    source: 'database',
    provenance: `built from the terminal database's row '${row.id}' (no recording in the repository)${
      variant.because ? `, ${variant.because}` : ''
    }; cell size assumed ${ASSUMED_CELL.width}x${ASSUMED_CELL.height}`,
    env: variant.env ?? envOfRow(row),
    da1: draws.has('sixel') ? '\x1b[?62;4;22c' : '\x1b[?62;22c',
    answers,
  };
}

/**
 * What herdr's panes carry (herdr's row and its sources): its own variables, and the outer
 * Ghostty's TERM_PROGRAM and GHOSTTY_RESOURCES_DIR passed through.
 */
const HERDR_ENV = {
  TERM: 'xterm-256color',
  HERDR_ENV: '1',
  HERDR_PANE_ID: '1',
  TERM_PROGRAM: 'ghostty',
  GHOSTTY_RESOURCES_DIR: '/usr/share/ghostty',
} as const;

/** The script of a named terminal. */
export function terminalScript(name: ScriptedTerminalName): TerminalScript {
  switch (name) {
    case 'kitty':
    case 'xterm':
      return fromRecording(name);
    case 'screen':
      // screen's own answers as recorded through it; the queries it forwards, xterm's.
      return { ...fromRecording('screen'), outer: fromRecording('xterm'), wrapper: 'screen' };
    case 'tmux-kitty':
      // tmux's own answers as recorded (passthrough on); the wrapped queries, kitty's.
      return { ...fromRecording('tmux-kitty'), outer: fromRecording('kitty'), wrapper: 'tmux' };
    case 'vscode':
    case 'vscode-images':
      return fromRecording(name, VSCODE_ENV);
    case 'ghostty':
    case 'iterm2':
    case 'foot':
    case 'wezterm':
    case 'windows-terminal':
    case 'konsole':
      return fromRow(name);
    case 'kitty-0.46':
    case 'kitty-0.48': {
      const version = name === 'kitty-0.46' ? '0.46.2' : '0.48.1';
      return fromRow('kitty', {
        name: `kitty ${version}`,
        xtversion: `kitty(${version})`,
        because: `at ${version} (the row's facts with a version gate: animation frames read C, N=1)`,
      });
    }
    case 'vscode-kitty':
      // The image addon's recording, and the kitty query answered as the xterm.js row says it is
      // where VS Code turns kitty graphics on (microsoft/vscode#295701): not recorded here.
      return {
        ...fromRecording('vscode-images', VSCODE_ENV),
        name: 'VS Code (xterm.js with the image addon, kitty graphics on)',
        source: 'database',
        provenance: `built from the terminal database's row 'xterm.js' over the recording ${RECORDINGS['vscode-images'].file} (${RECORDINGS['vscode-images'].provenance}): the kitty query answered OK, as the row says the image addon does with kitty graphics on (not recorded here)`,
        answers: { ...RECORDINGS['vscode-images'].answers, [KITTY_QUERY]: { reply: '\x1b_Gi=31;OK\x1b\\', late: '' } },
      };
    case 'herdr':
    case 'herdr-kitty':
      // Its panes answer as libghostty; the kitty query only with kitty graphics turned on.
      return fromRow('libghostty', {
        name: name === 'herdr' ? 'herdr (kitty graphics off)' : 'herdr (kitty graphics on)',
        kitty: name === 'herdr-kitty',
        env: HERDR_ENV,
        because: `answering as libghostty inside herdr, kitty graphics ${name === 'herdr' ? 'off (its default)' : 'on'}`,
      });
    case 'cmux':
      // Ghostty-based: Ghostty's variables and replies, and its own CMUX_WORKSPACE_ID.
      return fromRow('ghostty', {
        name: 'cmux',
        env: {
          TERM: 'xterm-ghostty',
          TERM_PROGRAM: 'ghostty',
          GHOSTTY_RESOURCES_DIR: '/Applications/cmux.app/Contents/Resources/ghostty',
          CMUX_WORKSPACE_ID: '1',
        },
        because:
          "with cmux's CMUX_WORKSPACE_ID beside Ghostty's variables (the cmux row: its own XTVERSION is not sourced, so Ghostty's)",
      });
    case 'silent':
      return {
        name: 'a silent terminal',
        source: 'silent',
        provenance: 'answers nothing',
        env: {},
        da1: '',
        answers: {},
      };
  }
}

/** Every name `scriptedTerminal` takes. */
export const SCRIPTED_TERMINALS: readonly ScriptedTerminalName[] = [
  'kitty',
  'ghostty',
  'iterm2',
  'foot',
  'wezterm',
  'vscode',
  'vscode-images',
  'windows-terminal',
  'tmux-kitty',
  'screen',
  'xterm',
  'silent',
  'konsole',
  'kitty-0.46',
  'kitty-0.48',
  'vscode-kitty',
  'herdr',
  'herdr-kitty',
  'cmux',
];

/** Options of a scripted terminal. */
export interface ScriptedTerminalOptions {
  /** How long after a round's DA1 is written its answer arrives, in ms (default 5). */
  readonly latencyMs?: number;
  readonly columns?: number;
  readonly rows?: number;
  /** Extra answers, e.g. an application's own queries: query -> reply. */
  readonly answers?: Readonly<Record<string, string>>;
}

/** The input side: a TTY-like readable (raw mode recorded, never real). */
export type ScriptedInput = PassThrough & {
  readonly isTTY: true;
  isRaw: boolean;
  setRawMode(mode: boolean): ScriptedInput;
  ref(): ScriptedInput;
  unref(): ScriptedInput;
};

/** The output side: a TTY-like writable that keeps everything written. */
export type ScriptedOutput = Writable & { readonly isTTY: true; columns: number; rows: number };

/** A scripted terminal: streams to hand to termsight (`input`, `output`, `runtime`) and what happened. */
export interface ScriptedTerminal {
  readonly script: TerminalScript;
  readonly input: ScriptedInput;
  readonly output: ScriptedOutput;
  /** The runtime to probe with: the terminal's environment, both streams terminals. */
  readonly runtime: Runtime;
  /** Everything the application wrote, as text (decoded as UTF-8). */
  written(): string;
  /** Everything the application wrote, as bytes. */
  writtenBytes(): Uint8Array;
  /** How many rounds (DA1 sentinels) were answered. */
  rounds(): number;
  /** The user types (or the terminal sends) these bytes. */
  type(text: string): void;
  /** The raw-mode changes the application made, in order. */
  readonly rawModes: readonly boolean[];
}

/** A round's end: its DA1, or a DA1 wrapped alone for tmux's passthrough (a round asked of the outer terminal only). */
const ROUND_END = /(?<!\x1b)\x1b\[0?c|\x1bPtmux;\x1b\x1b\[0?c\x1b\\/;
const isDa1 = (query: string): boolean => query === '\x1b[c' || query === '\x1b[0c';
const SEQUENCE = /\x1b\[[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]|\x1b[P_\]](?:[^\x1b\x07]|\x1b(?!\\))*(?:\x1b\\|\x07)/g;

/**
 * The queries in written text, in order: CSI sequences and ST/BEL-ended strings. Those wrapped for
 * a multiplexer's passthrough are unwrapped and marked: tmux's `ESC Ptmux;` (inner ESCs doubled),
 * or screen's DCS packets, whose bodies joined are the forwarded sequence.
 */
function queriesIn(text: string, wrapper: 'tmux' | 'screen' | undefined): { query: string; wrapped: boolean }[] {
  const out: { query: string; wrapped: boolean }[] = [];
  let screenText = '';
  for (const m of text.matchAll(SEQUENCE)) {
    const sequence = m[0];
    const body = sequence.startsWith('\x1bP') && sequence.endsWith('\x1b\\') ? sequence.slice(2, -2) : null;
    if (body?.startsWith('tmux;')) {
      for (const inner of queriesIn(body.slice(5).replaceAll('\x1b\x1b', '\x1b'), undefined))
        out.push({ query: inner.query, wrapped: true });
    } else if (wrapper === 'screen' && body !== null && !/^(?:\+q|\$q)/.test(body)) {
      screenText += body;
    } else out.push({ query: sequence, wrapped: false });
  }
  if (screenText !== '')
    for (const inner of queriesIn(screenText, undefined)) out.push({ query: inner.query, wrapped: true });
  return out;
}

/** One party's answer to its queries: replies in order, its DA1 if asked, then what it forwards late. */
function answer(script: TerminalScript, queries: readonly string[], extra: Readonly<Record<string, string>>): string {
  let reply = '';
  let late = '';
  for (const query of queries) {
    if (isDa1(query)) continue;
    const alt = query.endsWith('\x07') ? `${query.slice(0, -1)}\x1b\\` : `${query.replace(/\x1b\\$/, '')}\x07`;
    const a =
      extra[query] !== undefined ? { reply: extra[query], late: '' } : (script.answers[query] ?? script.answers[alt]);
    if (a) {
      reply += a.reply;
      late += a.late;
    }
  }
  return reply + (queries.some(isDa1) ? script.da1 : '') + late;
}

/**
 * The terminal's answer to one round of what an application wrote (everything up to and including
 * the round's DA1 sentinel): the multiplexer's own answers first, then the outer terminal's to what
 * was wrapped for it. The bytes as a latin1 string. Pure: for driving a real pty with a script
 * (test/pty/draw.test.ts) as `scriptedTerminal` drives its in-memory streams.
 *
 * @example answerRound(terminalScript('kitty'), '\x1b[>q\x1b[c') // '\x1bP>|kitty(0.26.5)\x1b\\\x1b[?62;c'
 */
export function answerRound(
  script: TerminalScript,
  written: string,
  extra: Readonly<Record<string, string>> = {},
): string {
  if (script.source === 'silent') return '';
  const round = queriesIn(written, script.wrapper);
  const direct = round.filter((q) => !q.wrapped).map((q) => q.query);
  const wrapped = round.filter((q) => q.wrapped).map((q) => q.query);
  return answer(script, direct, extra) + (script.outer ? answer(script.outer, wrapped, extra) : '');
}

/**
 * Where the first round in written text ends: the index just past its DA1 query (the sentinel;
 * wrapped for tmux when the round is the outer terminal's alone), or -1 while it is being written.
 */
export function roundEnd(written: string): number {
  const m = ROUND_END.exec(written);
  return m ? m.index + m[0].length : -1;
}

/**
 * A scripted terminal: hand `input`, `output` and `runtime` to `probeTerminal`/`probeTty` (or to
 * Ink's `render` as stdin/stdout), and it answers each round as the terminal did.
 *
 * @example const t = scriptedTerminal('kitty'); const report = await probeTerminal({ runtime: t.runtime, input: t.input, output: t.output })
 */
export function scriptedTerminal(name: ScriptedTerminalName, options: ScriptedTerminalOptions = {}): ScriptedTerminal {
  const script = terminalScript(name);
  const latencyMs = options.latencyMs ?? 5;
  const extra = options.answers ?? {};
  const rawModes: boolean[] = [];
  const input = new PassThrough() as ScriptedInput;
  Object.assign(input, {
    isTTY: true,
    isRaw: false,
    setRawMode(mode: boolean) {
      rawModes.push(mode);
      input.isRaw = mode;
      return input;
    },
    ref: () => input,
    unref: () => input,
  });
  let all = '';
  let pending = '';
  let rounds = 0;
  const onWrite = (text: string): void => {
    all += text;
    pending += text;
    // A round is answered when its DA1 (the sentinel) is written: everything pending with it,
    // the multiplexer's own answers first, then the outer terminal's to what was wrapped.
    if (roundEnd(pending) < 0) return;
    const bytes = answerRound(script, pending, extra);
    pending = '';
    rounds += 1;
    if (script.source === 'silent') return;
    setTimeout(() => input.write(Buffer.from(bytes, 'latin1')), latencyMs);
  };
  const output = new Writable({
    decodeStrings: false,
    write(chunk: string | Uint8Array, encoding: BufferEncoding | 'buffer', callback: () => void) {
      onWrite(
        typeof chunk === 'string'
          ? Buffer.from(chunk, encoding === 'buffer' ? 'utf8' : encoding).toString('latin1')
          : Buffer.from(chunk).toString('latin1'),
      );
      callback();
    },
  }) as ScriptedOutput;
  Object.assign(output, { isTTY: true, columns: options.columns ?? 80, rows: options.rows ?? 24 });
  return {
    script,
    input,
    output,
    runtime: { env: { ...script.env }, platform: 'linux', isTTY: { stdin: true, stdout: true, stderr: true } },
    written: () => Buffer.from(all, 'latin1').toString('utf8'),
    writtenBytes: () => Buffer.from(all, 'latin1'),
    rounds: () => rounds,
    type: (text) => {
      input.write(Buffer.from(text, 'utf8'));
    },
    rawModes,
  };
}
