/**
 * The colour level exactly as supports-color 10.2.2 decides it, as a pure function. Graded against
 * 10.2 (11.x needs Node 22, this package supports Node 20).
 *
 * Deliberately like the incumbent, and unlike the rest of termsight: a variable exported empty counts
 * as set wherever supports-color asks `'NAME' in env` (`FORCE_COLOR=`, `CI=`, `COLORTERM=`, …).
 * A variable is present when its value is not `undefined`, which for a real `process.env` is the
 * same as `in`.
 */
import type { Env, Runtime } from '../env/runtime.js';

/**
 * Whether `flag` (`'color'`, `'no-color'`, `'-x'`, …) appears in `argv` before any `--`, as
 * supports-color and has-flag sniff it. (Kept in this file: one module fewer to import.)
 */
export function hasFlag(argv: readonly string[], flag: string): boolean {
  const prefix = flag.startsWith('-') ? '' : flag.length === 1 ? '-' : '--';
  const position = argv.indexOf(prefix + flag);
  const terminator = argv.indexOf('--');
  return position !== -1 && (terminator === -1 || position < terminator);
}

/** 0 no colour, 1 basic 16, 2 ANSI 256, 3 truecolor. */
export type ColorLevel = 0 | 1 | 2 | 3;

/** supports-color's answer object for a level, or `false` for level 0. */
export type ColorInfo = { level: ColorLevel; hasBasic: boolean; has256: boolean; has16m: boolean } | false;

function present(env: Env, name: string): boolean {
  return env[name] !== undefined;
}

/** `FORCE_COLOR` read as supports-color does: `true`/empty → 1, `false` → 0, a number capped at 3, else none. */
export function envForceColor(env: Env): ColorLevel | undefined {
  const value = env.FORCE_COLOR;
  if (value === undefined) return undefined;
  if (value === 'true') return 1;
  if (value === 'false') return 0;
  if (value.length === 0) return 1;
  const level = Math.min(Number.parseInt(value, 10), 3);
  return level === 0 || level === 1 || level === 2 || level === 3 ? level : undefined;
}

/** The flags supports-color sniffs once, at import: `--no-color` and friends → 0, `--color` and friends → 1. */
export function flagForceColor(argv: readonly string[]): 0 | 1 | undefined {
  if (['no-color', 'no-colors', 'color=false', 'color=never'].some((flag) => hasFlag(argv, flag))) return 0;
  if (['color', 'colors', 'color=true', 'color=always'].some((flag) => hasFlag(argv, flag))) return 1;
  return undefined;
}

/** Everything supports-color's decision reads, spelled out. */
export interface ColorQuestion {
  readonly env: Env;
  /** argv at the time of the question (`--color=256`, `--color=16m`, … are read then). */
  readonly argv: readonly string[];
  /** The force level sniffed from argv at import, or carried over from an earlier `FORCE_COLOR`. */
  readonly flagForceColor: ColorLevel | undefined;
  readonly platform: string | undefined;
  /** `os.release()`, read only on win32 (`10.0.19045` → build 19045). */
  readonly osRelease: string | undefined;
  /** Whether a stream was given at all (without one the TTY check is skipped). */
  readonly haveStream: boolean;
  readonly streamIsTTY: boolean | undefined;
  readonly sniffFlags: boolean;
}

/** supports-color's `_supportsColor`, rule for rule and in its order. */
export function decideColorLevel(q: ColorQuestion): ColorLevel {
  const { env, argv } = q;
  const noFlagForceColor = envForceColor(env);
  // supports-color stores a FORCE_COLOR it sees over its import-time flag value.
  const flagForce = noFlagForceColor !== undefined ? noFlagForceColor : q.flagForceColor;
  const forceColor = q.sniffFlags ? flagForce : noFlagForceColor;
  if (forceColor === 0) return 0;

  if (q.sniffFlags) {
    if (hasFlag(argv, 'color=16m') || hasFlag(argv, 'color=full') || hasFlag(argv, 'color=truecolor')) return 3;
    if (hasFlag(argv, 'color=256')) return 2;
  }

  // Azure DevOps pipelines: above the TTY check, as in the incumbent.
  if (present(env, 'TF_BUILD') && present(env, 'AGENT_NAME')) return 1;

  if (q.haveStream && !q.streamIsTTY && forceColor === undefined) return 0;

  const min: ColorLevel = forceColor || 0;
  if (env.TERM === 'dumb') return min;

  if (q.platform === 'win32') {
    // Windows 10 build 10586 is the first with 256 colours, build 14931 the first with truecolor.
    const release = String(q.osRelease).split('.');
    if (Number(release[0]) >= 10 && Number(release[2]) >= 10_586) return Number(release[2]) >= 14_931 ? 3 : 2;
    return 1;
  }

  if (present(env, 'CI')) {
    if (['GITHUB_ACTIONS', 'GITEA_ACTIONS', 'CIRCLECI'].some((key) => present(env, key))) return 3;
    if (
      ['TRAVIS', 'APPVEYOR', 'GITLAB_CI', 'BUILDKITE', 'DRONE'].some((key) => present(env, key)) ||
      env.CI_NAME === 'codeship'
    ) {
      return 1;
    }
    return min;
  }

  if (present(env, 'TEAMCITY_VERSION')) {
    return /^(9\.(0*[1-9]\d*)\.|\d{2,}\.)/.test(String(env.TEAMCITY_VERSION)) ? 1 : 0;
  }

  if (env.COLORTERM === 'truecolor') return 3;
  if (env.TERM === 'xterm-kitty' || env.TERM === 'xterm-ghostty' || env.TERM === 'wezterm') return 3;

  if (present(env, 'TERM_PROGRAM')) {
    const version = Number.parseInt((env.TERM_PROGRAM_VERSION || '').split('.')[0] ?? '', 10);
    if (env.TERM_PROGRAM === 'iTerm.app') return version >= 3 ? 3 : 2;
    if (env.TERM_PROGRAM === 'Apple_Terminal') return 2;
  }

  const term = String(env.TERM);
  if (/-256(color)?$/i.test(term)) return 2;
  if (/^screen|^xterm|^vt100|^vt220|^rxvt|color|ansi|cygwin|linux/i.test(term)) return 1;
  if (present(env, 'COLORTERM')) return 1;
  return min;
}

/** supports-color's answer object for a level. */
export function translateLevel(level: ColorLevel): ColorInfo {
  if (level === 0) return false;
  return { level, hasBasic: true, has256: level >= 2, has16m: level >= 3 };
}

/** Options of the pure form. */
export interface ColorLevelOptions {
  /**
   * Which stream the colours are for: `stdout`/`stderr` (its TTY state comes from the runtime), an
   * object with `isTTY`, or `null` for no stream (no TTY check). Default `stdout`.
   */
  readonly stream?: 'stdout' | 'stderr' | null | { readonly isTTY?: boolean };
  /** Whether argv flags count, as supports-color's `sniffFlags` (default true). */
  readonly sniffFlags?: boolean | undefined;
  /** `os.release()` of the machine, needed on win32 only; without it win32 answers 1, as for an unreadable release. */
  readonly osRelease?: string;
}

/**
 * The colour level supports-color 10.2 would answer for a process with this runtime (its argv seen at
 * import and at the question, its env, platform and stream).
 * @example colorLevel({ env: { TERM: 'xterm-256color' }, isTTY: { stdout: true } }) // 2
 */
export function colorLevel(runtime: Runtime, options: ColorLevelOptions = {}): ColorLevel {
  const argv = runtime.argv ?? [];
  const stream = options.stream === undefined ? 'stdout' : options.stream;
  return decideColorLevel({
    env: runtime.env ?? {},
    argv,
    flagForceColor: flagForceColor(argv),
    platform: runtime.platform,
    osRelease: options.osRelease,
    haveStream: stream !== null,
    streamIsTTY:
      stream === null ? undefined : typeof stream === 'string' ? Boolean(runtime.isTTY?.[stream]) : stream.isTTY,
    sniffFlags: options.sniffFlags ?? true,
  });
}
