/**
 * One report from everything termsight knows: the override, the TTYs, the multiplexer, the probe's
 * facts and the environment's rules, with the reason for every answer. Pure: the probe's I/O is
 * the driver's; this only combines.
 */

import { escapeBytes } from '../core/escape.js';
import { compareVersions } from '../env/condition.js';
import { explainDetect, explainPlacements } from '../env/detect.js';
import { multiplexerFromEnv, TMUX_PASSTHROUGH_HINT } from '../env/multiplexer.js';
import { overrideDecision } from '../env/override.js';
import type { Protocol } from '../env/protocol.js';
import { envValue, isRemote, type Runtime } from '../env/runtime.js';
import type { ProbeFacts } from '../probe/facts.js';
import { supports, terminalById } from '../terminals/lookup.js';
import { placeholdersSince, truecolorNames } from '../terminals/views.js';
import { graphicsFromFacts, PLACEMENT_NAMES } from './graphics.js';
import { hyperlinksAnswer } from './hyperlinks.js';
import type { MultiplexerInfo, Report, ReportField, Why } from './types.js';

/** Which stream the pictures would go to. */
export interface ResolveOptions {
  /**
   * `stdout` (default) or `stderr`: graphics is null when that stream is not a terminal.
   * `tty`: the terminal itself, reached through /dev/tty, whatever the standard streams are
   * (the CLI's `detect` describes the terminal even when its stdout is a pipe).
   */
  readonly stream?: 'stdout' | 'stderr' | 'tty';
}

/** The runtime as seen from the stream the output goes to: `isTTY.stdout` says whether that stream is a terminal. */
function onStream(runtime: Runtime, stream: 'stdout' | 'stderr' | 'tty'): Runtime {
  if (stream === 'stdout') return runtime;
  return { ...runtime, isTTY: { ...runtime.isTTY, stdout: stream === 'tty' ? true : Boolean(runtime.isTTY.stderr) } };
}

type Answer<T> = { readonly value: T; readonly why: Why };

const reason = (source: Why['source'], detail: string, extra: Partial<Why> = {}): Why => ({ source, detail, ...extra });

/**
 * Combines the runtime and, when a probe ran, its facts into one Report. Graphics precedence:
 * `TERMSIGHT_GRAPHICS` > not a TTY > a multiplexer without passthrough > the probe > the environment.
 *
 * @example resolve({ env: { TERM: 'xterm-kitty' }, isTTY: { stdout: true } }).graphics // 'kitty'
 */
export function resolveReport(runtime: Runtime, facts?: ProbeFacts, options: ResolveOptions = {}): Report {
  const env = runtime.env;
  const probed = facts !== undefined && facts.skipped === undefined && facts.replies.length > 0;
  const multiplexer = resolveMultiplexer(runtime, probed ? facts : undefined);
  const terminal = resolveTerminal(runtime, probed ? facts : undefined);
  const graphics = resolveGraphics(runtime, probed ? facts : undefined, multiplexer.value, options.stream ?? 'stdout');
  const placements = resolvePlacements(runtime, probed ? facts : undefined, graphics.value);
  const hyperlinks = hyperlinksAnswer(
    onStream(runtime, options.stream ?? 'stdout'),
    probed ? facts : undefined,
    multiplexer.value,
  );
  const truecolor = resolveTruecolor(runtime, probed ? facts : undefined);
  const remote = isRemote(env);

  const answers: Record<ReportField, Why> = {
    graphics: graphics.why,
    placements: placements.why,
    hyperlinks: hyperlinks.why,
    truecolor: truecolor.why,
    synchronizedOutput: facts?.synchronizedOutput
      ? reason('reply', `DECRQM 2026 answered ${facts.synchronizedOutput.supported ? 'supported' : 'not supported'}`, {
          reply: facts.synchronizedOutput.reply,
        })
      : reason('default', 'no DECRQM 2026 reply: assume no synchronized output'),
    cellPixels: facts?.cellPixels
      ? reason('reply', `the terminal reported cells of ${facts.cellPixels.width}x${facts.cellPixels.height} px`, {
          reply: facts.cellPixels.reply,
        })
      : reason('default', 'no cell size reply: renderers use their documented default'),
    background: facts?.background
      ? reason('reply', `OSC 11 reported a ${facts.background.dark ? 'dark' : 'light'} background`, {
          reply: facts.background.reply,
        })
      : reason('default', 'no OSC 11 reply'),
    sixelColors: facts?.sixelColors
      ? reason('reply', `XTSMGRAPHICS reported ${facts.sixelColors.registers} colour registers`, {
          reply: facts.sixelColors.reply,
        })
      : reason('default', 'no XTSMGRAPHICS reply: sixel uses 256 colours'),
    terminal: terminal.why,
    multiplexer: multiplexer.why,
    remote: remote
      ? reason('rule', 'an SSH_* variable is set: the session is remote')
      : reason('default', 'no SSH_* variable is set'),
  };

  return {
    graphics: graphics.value,
    placements: placements.value,
    hyperlinks: hyperlinks.value,
    truecolor: truecolor.value,
    synchronizedOutput: facts?.synchronizedOutput?.supported ?? false,
    cellPixels: facts?.cellPixels ? { width: facts.cellPixels.width, height: facts.cellPixels.height } : null,
    background: facts?.background ? { dark: facts.background.dark, rgb: facts.background.rgb } : null,
    sixelColors: facts?.sixelColors?.registers ?? null,
    terminal: { name: shown(terminal.value.name), version: shown(terminal.value.version) },
    multiplexer: multiplexer.value && { ...multiplexer.value, version: shown(multiplexer.value.version) },
    remote,
    probeMs: facts && facts.skipped === undefined ? facts.elapsedMs : null,
    why: Object.fromEntries(Object.entries(answers).map(([field, why]) => [field, shownWhy(why)])) as Record<
      ReportField,
      Why
    >,
  };
}

/**
 * Text from outside (a reply, a variable) as the report carries it: controls, bidi characters and
 * undecodable bytes escaped, so any consumer can print the report as it is (docs/cli.md).
 */
function shown<T extends string | null>(text: T): T {
  return (text === null ? null : escapeBytes(text)) as T;
}

function shownWhy(why: Why): Why {
  return {
    ...why,
    detail: shown(why.detail),
    ...(why.reply !== undefined ? { reply: shown(why.reply) } : {}),
    ...(why.rule !== undefined ? { rule: shown(why.rule) } : {}),
  };
}

function resolveGraphics(
  runtime: Runtime,
  facts: ProbeFacts | undefined,
  multiplexer: MultiplexerInfo | null,
  stream: 'stdout' | 'stderr' | 'tty',
): Answer<Protocol | null> {
  const decision = overrideDecision(runtime.env);
  if (decision.decides) return { value: decision.protocol, why: reason('override', decision.reason) };
  const invalid = decision.note;

  if (stream !== 'tty' && !runtime.isTTY[stream]) {
    return { value: null, why: reason('tty', `${stream} is not a terminal: no images${invalid}`) };
  }
  if (multiplexer?.name === 'screen') {
    return {
      value: 'braille',
      why: reason('multiplexer', `GNU screen shows image payloads as text: braille${invalid}`),
    };
  }
  if (multiplexer?.name === 'tmux' && multiplexer.passthrough !== true) {
    const state =
      multiplexer.passthrough === false
        ? 'tmux drops wrapped sequences (allow-passthrough is off)'
        : 'inside tmux, passthrough is not proven';
    return { value: 'braille', why: reason('multiplexer', `${state}: braille${invalid}`) };
  }
  const fromProbe = facts ? graphicsFromFacts(facts) : null;
  if (fromProbe && multiplexer?.name === 'tmux' && fromProbe.protocol === 'kitty' && !placesThroughTmux(facts)) {
    const name = facts?.terminal
      ? `${facts.terminal.name} ${facts.terminal.version ?? ''}`.trim()
      : 'the outer terminal';
    return {
      value: 'braille',
      why: reason(
        'reply',
        `${name} predates kitty's Unicode placeholders (kitty 0.28), which kitty images need inside tmux: braille${invalid}`,
        {
          ...(facts?.terminal ? { reply: facts.terminal.reply } : {}),
        },
      ),
    };
  }
  if (fromProbe)
    return { value: fromProbe.protocol, why: { ...fromProbe.why, detail: fromProbe.why.detail + invalid } };

  const detection = explainDetect(runtime.env);
  return detection.rule
    ? { value: detection.protocol, why: reason('rule', detection.reason + invalid, { rule: detection.rule.id }) }
    : { value: detection.protocol, why: reason('default', detection.reason + invalid) };
}

/**
 * Inside tmux a kitty image must be drawn with Unicode placeholders so it moves and clears with the
 * pane; kitty has them since 0.28. Other kitty-protocol terminals (ghostty, WezTerm) are trusted.
 */
function placesThroughTmux(facts: ProbeFacts | undefined): boolean {
  const terminal = facts?.terminal;
  if (terminal?.name.toLowerCase() !== 'kitty') return true;
  const kitty = terminalById('kitty');
  return kitty !== undefined && supports(kitty, 'placeholders', terminal.version);
}

/** The first kitty release with Unicode placeholders (`U=1`): the kitty row's fact in the terminal database. */
export const KITTY_PLACEHOLDERS_SINCE: string | undefined = placeholdersSince('kitty');

function resolvePlacements(
  runtime: Runtime,
  facts: ProbeFacts | undefined,
  graphics: Protocol | null,
): Answer<boolean> {
  if (graphics !== 'kitty') {
    return { value: false, why: reason('default', `placements need kitty graphics; graphics is ${graphics ?? 'off'}`) };
  }
  if (facts?.terminal) {
    const name = facts.terminal.name.toLowerCase();
    const keeps = PLACEMENT_NAMES.some((prefix) => name.startsWith(prefix));
    return {
      value: keeps,
      why: reason(
        'reply',
        `XTVERSION names ${facts.terminal.name}, which ${keeps ? 'keeps and places' : 'is not known to keep and place'} images`,
        {
          reply: facts.terminal.reply,
        },
      ),
    };
  }
  const env = explainPlacements(runtime.env);
  return env.rule
    ? { value: env.placements, why: reason('rule', `rule ${env.rule.id}: ${env.rule.note}`, { rule: env.rule.id }) }
    : { value: false, why: reason('default', 'no rule says this terminal keeps and places images') };
}

function resolveTerminal(runtime: Runtime, facts: ProbeFacts | undefined): Answer<Report['terminal']> {
  if (facts?.terminal) {
    return {
      value: { name: facts.terminal.name, version: facts.terminal.version },
      why: reason('reply', `XTVERSION: ${facts.terminal.name}`, { reply: facts.terminal.reply }),
    };
  }
  const env = runtime.env;
  const program = envValue(env, 'TERM_PROGRAM');
  if (program !== undefined && program !== 'tmux') {
    return {
      value: { name: program, version: envValue(env, 'TERM_PROGRAM_VERSION') ?? null },
      why: reason('rule', `TERM_PROGRAM=${program}`),
    };
  }
  const xterm = envValue(env, 'XTERM_VERSION');
  if (xterm !== undefined)
    return {
      value: { name: 'XTerm', version: /\((\d+)\)/.exec(xterm)?.[1] ?? null },
      why: reason('rule', `XTERM_VERSION=${xterm}`),
    };
  if (envValue(env, 'KITTY_WINDOW_ID') !== undefined)
    return { value: { name: 'kitty', version: null }, why: reason('rule', 'KITTY_WINDOW_ID is set') };
  const lcTerminal = envValue(env, 'LC_TERMINAL');
  if (lcTerminal !== undefined) {
    return {
      value: { name: lcTerminal, version: envValue(env, 'LC_TERMINAL_VERSION') ?? null },
      why: reason('rule', `LC_TERMINAL=${lcTerminal}`),
    };
  }
  return {
    value: { name: null, version: null },
    why: reason('default', 'the terminal did not name itself and no variable names it'),
  };
}

function resolveMultiplexer(runtime: Runtime, facts: ProbeFacts | undefined): Answer<MultiplexerInfo | null> {
  const hint = multiplexerFromEnv(runtime.env);
  const named = facts?.multiplexer;
  const name = named ? (named.name.toLowerCase().startsWith('tmux') ? 'tmux' : 'screen') : hint?.name;
  if (name === undefined)
    return { value: null, why: reason('default', 'no multiplexer in the environment or the replies') };
  const passthrough = name === 'tmux' ? (facts?.passthrough ?? null) : null;
  const info: MultiplexerInfo = {
    name,
    version: named?.version ?? null,
    passthrough,
    ...(name === 'tmux' && passthrough === false ? { hint: TMUX_PASSTHROUGH_HINT } : {}),
  };
  const because = named
    ? reason(
        'reply',
        `the multiplexer answered for itself: ${named.name}${named.version ? ` ${named.version}` : ''}${passthrough === null ? '' : passthrough ? '; the outer terminal answered wrapped queries' : '; wrapped queries got no answer'}`,
        {
          reply: named.reply,
        },
      )
    : reason('rule', `${hint?.because}`);
  return { value: info, why: because };
}

/** Terminal names (lower-cased prefixes) documented to show 24-bit colour: a view of the terminal database. */
const TRUECOLOR_NAMES = truecolorNames();

function resolveTruecolor(runtime: Runtime, facts: ProbeFacts | undefined): Answer<boolean> {
  const colorterm = envValue(runtime.env, 'COLORTERM');
  if (colorterm === 'truecolor' || colorterm === '24bit') {
    return { value: true, why: reason('rule', `COLORTERM=${colorterm}`) };
  }
  const name = facts?.terminal?.name.toLowerCase();
  if (facts?.terminal && name && TRUECOLOR_NAMES.some((n) => name.startsWith(n))) {
    return {
      value: true,
      why: reason('reply', `XTVERSION names ${facts.terminal.name}, which shows 24-bit colour`, {
        reply: facts.terminal.reply,
      }),
    };
  }
  const term = envValue(runtime.env, 'TERM') ?? '';
  if (term.endsWith('-direct'))
    return { value: true, why: reason('rule', `TERM=${term} names a direct-colour terminfo`) };
  const program = envValue(runtime.env, 'TERM_PROGRAM');
  if (program === 'iTerm.app' && compareVersions(envValue(runtime.env, 'TERM_PROGRAM_VERSION') ?? '0', '3') >= 0) {
    return { value: true, why: reason('rule', 'iTerm2 3 shows 24-bit colour') };
  }
  return { value: false, why: reason('default', 'neither COLORTERM nor the terminal says 24-bit colour') };
}
