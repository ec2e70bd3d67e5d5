/**
 * Which graphics protocols a terminal is believed to show, from the environment alone, as
 * supports-terminal-graphics 0.1.0 decides it, rule for rule, as a pure function of the
 * environment, with two corrections (stated as data in `GRAPHICS_CORRECTIONS`, docs/compat.md):
 * - iTerm2 is never kitty: it answers kitty's query, but a kitty image is an overlay it cannot
 *   delete, so pictures would pile up over the text;
 * - a `KITTY_WINDOW_ID`/`KITTY_PID` inherited into another terminal (a VS Code window started from
 *   kitty says `TERM_PROGRAM=vscode`) is stale: the other terminal's own rules decide.
 * Like the incumbent, a variable exported empty counts as unset (it tests truthiness).
 */
import type { Env } from '../env/runtime.js';
import type { Report } from '../report/types.js';

/** supports-terminal-graphics' answer. */
export interface TerminalGraphicsSupport {
  readonly kitty: boolean;
  readonly iterm2: boolean;
  readonly sixel: boolean;
}

/** The stream the question is about: absent means "no stream given" (the TTY check is skipped). */
export type GraphicsStream = { readonly isTTY?: boolean } | null | undefined;

interface Version {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
}

function parseVersion(text: string | undefined): Version {
  const parts = (text || '').split('.').map((n) => Number.parseInt(n, 10));
  return { major: parts[0] || 0, minor: parts[1] || 0, patch: parts[2] || 0 };
}

function atLeast(version: Version, major: number, minor = 0, patch = 0): boolean {
  return (
    version.major > major ||
    (version.major === major && version.minor > minor) ||
    (version.major === major && version.minor === minor && version.patch >= patch)
  );
}

const lower = (value: string | undefined): string => (value || '').toLowerCase();

function isWezTerm(env: Env): boolean {
  return (
    Boolean(env.WEZTERM_PANE || env.WEZTERM_UNIX_SOCKET) ||
    lower(env.TERM_PROGRAM) === 'wezterm' ||
    lower(env.LC_TERMINAL) === 'wezterm'
  );
}

function wezTermAtLeast(env: Env, major: number): boolean {
  if (!isWezTerm(env)) return false;
  if (!env.TERM_PROGRAM_VERSION) return true;
  return atLeast(parseVersion(env.TERM_PROGRAM_VERSION), major);
}

/** Konsole 22.04 (`KONSOLE_VERSION=220400`) added graphics. */
function konsoleRule(env: Env): boolean | undefined {
  if (lower(env.TERM_PROGRAM) !== 'konsole' && !env.KONSOLE_VERSION) return undefined;
  const version = Number.parseInt(env.KONSOLE_VERSION ?? '', 10);
  return (Number.isNaN(version) ? 0 : version) >= 220_400;
}

function kittyAsIncumbent(env: Env): boolean {
  if (isWezTerm(env)) return true;
  if (env.KITTY_WINDOW_ID || env.KITTY_PID) return true;
  if (env.GHOSTTY_RESOURCES_DIR) return true;
  const program = lower(env.TERM_PROGRAM);
  if (['kitty', 'ghostty', 'rio', 'warpterminal'].includes(program)) return true;
  if (program === 'iterm.app') return atLeast(parseVersion(env.TERM_PROGRAM_VERSION), 3, 6);
  const konsole = konsoleRule(env);
  if (konsole !== undefined) return konsole;
  const term = env.TERM || '';
  return /kitty/i.test(term) || term === 'xterm-ghostty';
}

function iterm2AsIncumbent(env: Env): boolean {
  const program = lower(env.TERM_PROGRAM);
  if (isWezTerm(env)) return wezTermAtLeast(env, 20_220_319);
  if (program === 'iterm.app') return atLeast(parseVersion(env.TERM_PROGRAM_VERSION), 2, 9, 20_150_512);
  if (program === 'vscode') return atLeast(parseVersion(env.TERM_PROGRAM_VERSION), 1, 80);
  if (program === 'rio') return atLeast(parseVersion(env.TERM_PROGRAM_VERSION), 0, 1, 13);
  if (program === 'mintty') return true;
  const konsole = konsoleRule(env);
  if (konsole !== undefined) return konsole;
  return lower(env.LC_TERMINAL) === 'iterm2';
}

function sixelAsIncumbent(env: Env): boolean {
  const program = lower(env.TERM_PROGRAM);
  if (isWezTerm(env)) return wezTermAtLeast(env, 20_200_620);
  if (program === 'vscode') return atLeast(parseVersion(env.TERM_PROGRAM_VERSION), 1, 80);
  if (program === 'rio') return atLeast(parseVersion(env.TERM_PROGRAM_VERSION), 0, 1, 12);
  if (program === 'mintty') return true;
  const konsole = konsoleRule(env);
  if (konsole !== undefined) return konsole;
  return /^mlterm/i.test(env.TERM || '');
}

/**
 * supports-terminal-graphics 0.1.0's answer exactly, corrections not applied (the reference the
 * corrections are measured against).
 *
 * @example incumbentGraphicsSupport({ TERM_PROGRAM: 'iTerm.app', TERM_PROGRAM_VERSION: '3.6.0' }).kitty // true
 */
export function incumbentGraphicsSupport(env: Env, stream?: GraphicsStream): TerminalGraphicsSupport {
  if (stream && !stream.isTTY) return { kitty: false, iterm2: false, sixel: false };
  return { kitty: kittyAsIncumbent(env), iterm2: iterm2AsIncumbent(env), sixel: sixelAsIncumbent(env) };
}

/** One deliberate difference from the incumbent: when it applies, and what kitty becomes. */
export interface GraphicsCorrection {
  readonly id: string;
  readonly description: string;
  /** Whether the correction changes the answer for this environment (on a TTY or no stream). */
  readonly applies: (env: Env) => boolean;
}

/**
 * Terminals that say who they are in `TERM_PROGRAM` and are not kitty: a kitty id beside one of
 * them was inherited from a kitty the program was started from. (tmux is not listed: inside tmux
 * in kitty the ids are current, and tmux passes kitty's images through.)
 */
export const OTHER_TERMINALS: readonly string[] = Object.freeze([
  'vscode',
  'apple_terminal',
  'iterm.app',
  'hyper',
  'zed',
  'mintty',
  'konsole',
]);

const withoutStaleKittyIds = (env: Env): Env => ({ ...env, KITTY_WINDOW_ID: undefined, KITTY_PID: undefined });

const isIterm2 = (env: Env): boolean => lower(env.TERM_PROGRAM) === 'iterm.app';
const hasStaleKittyIds = (env: Env): boolean =>
  Boolean(env.KITTY_WINDOW_ID || env.KITTY_PID) && OTHER_TERMINALS.includes(lower(env.TERM_PROGRAM));

/**
 * The corrections, in the order they are applied. `applies` is exact: the answer differs from the
 * incumbent's precisely when one of them applies (the differential test holds termsight to this).
 *
 * @example GRAPHICS_CORRECTIONS.map((c) => c.id) // ['iterm2-never-kitty', 'stale-kitty-ids']
 */
export const GRAPHICS_CORRECTIONS: readonly GraphicsCorrection[] = Object.freeze([
  {
    id: 'iterm2-never-kitty',
    description: 'TERM_PROGRAM=iTerm.app: kitty is false whatever the version (iTerm2 cannot delete kitty images)',
    applies: (env: Env) => isIterm2(env) && kittyAsIncumbent(env),
  },
  {
    id: 'stale-kitty-ids',
    description:
      'KITTY_WINDOW_ID/KITTY_PID beside a TERM_PROGRAM naming another terminal are ignored; the other rules decide',
    applies: (env: Env) =>
      !isIterm2(env) && hasStaleKittyIds(env) && kittyAsIncumbent(env) !== kittyAsIncumbent(withoutStaleKittyIds(env)),
  },
]);

/**
 * Which graphics protocols `stream` is believed to show, from `env` alone: the incumbent's rules
 * with the corrections applied.
 *
 * @example graphicsSupport({ TERM_PROGRAM: 'vscode', TERM_PROGRAM_VERSION: '1.90.0', KITTY_WINDOW_ID: '1' }) // { kitty: false, iterm2: true, sixel: true }
 */
export function graphicsSupport(env: Env, stream?: GraphicsStream): TerminalGraphicsSupport {
  const answer = incumbentGraphicsSupport(env, stream);
  if (!answer.kitty) return answer;
  if (isIterm2(env)) return { ...answer, kitty: false };
  if (hasStaleKittyIds(env)) return { ...answer, kitty: kittyAsIncumbent(withoutStaleKittyIds(env)) };
  return answer;
}

/** The parts of a termsight report the probe-backed answer reads. */
export type GraphicsReport = Pick<Report, 'graphics'>;

/**
 * The answer from a probe-backed report: kitty exactly when the report chose kitty (the replies
 * decide, with the iTerm2 guard and tmux's passthrough); sixel and iTerm2 when the report chose
 * them, or when the environment says so and the report found pixels possible at all (iTerm2's
 * protocol cannot be asked for; a terminal may speak several). A report without graphics (not a
 * terminal) or with text only (braille, blocks, symbols: e.g. tmux without passthrough) says no to all.
 *
 * @example graphicsFromReport({ graphics: 'kitty' }, { kitty: true, iterm2: true, sixel: true }) // { kitty: true, iterm2: true, sixel: true }
 */
export function graphicsFromReport(report: GraphicsReport, fromEnv: TerminalGraphicsSupport): TerminalGraphicsSupport {
  const g = report.graphics;
  if (g === null || g === 'braille' || g === 'blocks' || g === 'symbols')
    return { kitty: false, iterm2: false, sixel: false };
  return { kitty: g === 'kitty', iterm2: g === 'iterm2' || fromEnv.iterm2, sixel: g === 'sixel' || fromEnv.sixel };
}
