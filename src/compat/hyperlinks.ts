/**
 * Whether hyperlinks work, exactly as supports-hyperlinks 4.6.0 decides it, as a pure function.
 *
 * Kept like the incumbent on purpose (a drop-in keeps its incumbent's
 * detection), including its known flaws, which the `link` capability and the resolved report need not
 * share:
 * - VTE exports `VTE_VERSION=5000` for 0.50.0, the release that crashes on OSC 8, but the exclusion
 *   only matches the dotted form `0.50.0`, so `5000` answers true;
 * - `WT_SESSION` counts when merely present (even empty); other variables count when non-empty;
 * - the colour gate is supports-color's, with its flags sniffed when supports-color was imported.
 */
import type { Env, Runtime } from '../env/runtime.js';
import { decideColorLevel, flagForceColor, hasFlag } from './color-level.js';

/** A version as supports-hyperlinks reads it: `4601` is 0.46.1 (VTE's form), else dotted numbers. */
export function parseVersion(versionString: string | undefined = ''): { major: number; minor: number; patch: number } {
  if (/^\d{3,4}$/.test(versionString)) {
    const match = /(\d{1,2})(\d{2})/.exec(versionString) ?? [];
    return { major: 0, minor: Number.parseInt(match[1] ?? '', 10), patch: Number.parseInt(match[2] ?? '', 10) };
  }
  const parts = versionString.split('.').map((n) => Number.parseInt(n, 10));
  return { major: parts[0] ?? Number.NaN, minor: parts[1] ?? Number.NaN, patch: parts[2] ?? Number.NaN };
}

/** Everything supports-hyperlinks' decision reads, spelled out. */
export interface HyperlinkQuestion {
  readonly env: Env;
  readonly argv: readonly string[];
  readonly platform: string | undefined;
  /** The stream the links go to, or undefined for none (then no TTY check, as the incumbent). */
  readonly stream: { readonly isTTY?: boolean } | undefined;
  /** supports-color's answer for the same stream (the colour gate), asked only when the rules reach it. */
  readonly colorSupported: () => boolean;
}

/** supports-hyperlinks' `createSupportsHyperlinks`, rule for rule and in its order. */
export function decideHyperlinks(q: HyperlinkQuestion): boolean {
  const { env, argv, stream } = q;
  const {
    CI,
    CURSOR_TRACE_ID,
    FORCE_HYPERLINK,
    NETLIFY,
    TEAMCITY_VERSION,
    TERM_PROGRAM,
    TERM_PROGRAM_VERSION,
    VTE_VERSION,
    TERM,
  } = env;

  if (FORCE_HYPERLINK) return !(FORCE_HYPERLINK.length > 0 && Number.parseInt(FORCE_HYPERLINK, 10) === 0);

  if (['no-hyperlink', 'no-hyperlinks', 'hyperlink=false', 'hyperlink=never'].some((flag) => hasFlag(argv, flag)))
    return false;
  if (hasFlag(argv, 'hyperlink=true') || hasFlag(argv, 'hyperlink=always')) return true;

  // Netlify's build log renders links without a TTY.
  if (NETLIFY) return true;

  // "If they specify no colors, they probably don't want hyperlinks." Asked only here, as the
  // incumbent does, because supports-color remembers a FORCE_COLOR it sees.
  if (!q.colorSupported()) return false;

  if (stream && !stream.isTTY) return false;

  if (env.WT_SESSION !== undefined) return true; // Windows Terminal
  if (q.platform === 'win32') return false;
  if (CI) return false;
  if (TEAMCITY_VERSION) return false;

  if (TERM_PROGRAM) {
    const version = parseVersion(TERM_PROGRAM_VERSION);
    switch (TERM_PROGRAM) {
      case 'iTerm.app':
        return version.major === 3 ? version.minor >= 1 : version.major > 3;
      case 'WezTerm':
        // Nix packages WezTerm as 0-unstable-YYYY-MM-DD.
        if (/^0-unstable-\d{4}-\d{2}-\d{2}$/.test(String(TERM_PROGRAM_VERSION))) {
          return String(TERM_PROGRAM_VERSION).slice('0-unstable-'.length) >= '2020-06-20';
        }
        return version.major >= 20_200_620;
      case 'vscode':
        // Cursor is a VS Code fork that links from its 0.x releases.
        if (CURSOR_TRACE_ID) return true;
        return version.major > 1 || (version.major === 1 && version.minor >= 72);
      case 'ghostty':
      case 'zed':
      case 'Orca':
      case 'WarpTerminal':
        return true;
      default:
        break;
    }
  }

  if (VTE_VERSION) {
    // 0.50.0 crashes on OSC 8; only the dotted spelling is excluded (VTE itself exports 5000).
    if (VTE_VERSION === '0.50.0') return false;
    const version = parseVersion(VTE_VERSION);
    return version.major > 0 || version.minor >= 50;
  }

  return TERM === 'alacritty' || TERM === 'xterm-kitty';
}

/**
 * Whether supports-hyperlinks 4.6 would say links work for a process with this runtime. `stream`
 * names the stream the links go to (its TTY state comes from the runtime), or is an object with
 * `isTTY`, or `null` for no stream (no TTY check, as the incumbent's `createSupportsHyperlinks()`).
 * @example hyperlinksSupported({ env: { TERM_PROGRAM: 'ghostty' }, isTTY: { stdout: true } }) // true
 */
export function hyperlinksSupported(
  runtime: Runtime,
  stream: 'stdout' | 'stderr' | null | { readonly isTTY?: boolean } = 'stdout',
): boolean {
  const argv = runtime.argv ?? [];
  const env = runtime.env ?? {};
  const target =
    stream === null ? undefined : typeof stream === 'string' ? { isTTY: Boolean(runtime.isTTY?.[stream]) } : stream;
  const colorSupported = (): boolean =>
    decideColorLevel({
      env,
      argv,
      flagForceColor: flagForceColor(argv),
      platform: runtime.platform,
      // Only the level's truth matters here, and win32 always answers at least 1.
      osRelease: undefined,
      haveStream: Boolean(target),
      streamIsTTY: target ? target.isTTY : undefined,
      sniffFlags: true,
    }) !== 0;
  return decideHyperlinks({ env, argv, platform: runtime.platform, stream: target, colorSupported });
}
