/**
 * One report from everything termsight knows: the override, the TTYs, the multiplexer, the probe's
 * facts and the environment's rules, with the reason for every answer. Pure: the probe's I/O is
 * the driver's; this only combines.
 */

import { escapeBytes } from '../core/escape.js';
import { explainDetect, explainPlacements } from '../env/detect.js';
import { TMUX_33_PASSTHROUGH_HINT, TMUX_PASSTHROUGH_HINT } from '../env/multiplexer.js';
import { overrideDecision } from '../env/override.js';
import { isGraphicsProtocol, type Protocol } from '../env/protocol.js';
import { envValue, isRemote, type Runtime } from '../env/runtime.js';
import type { ProbeFacts } from '../probe/facts.js';
import type { TmuxFacts } from '../probe/tmux-formats.js';
import { identify } from '../terminals/identify.js';
import { isInherited } from '../terminals/inherited.js';
import { glyphsAt, supports } from '../terminals/lookup.js';
import { rowsNamedByEnv } from '../terminals/query-gates.js';
import type { GlyphSet } from '../terminals/types.js';
import { graphicsRuleOwner, placeholdersSince, placementRuleOwner } from '../terminals/views.js';
import { hyperlinksAnswer } from './hyperlinks.js';
import { type Identified, identifyParties, type MultiplexerFound, type Parties } from './identity.js';
import { resolveKittyLocal } from './kitty-local.js';
import { pictureWrap } from './picture-wrap.js';
import { type PictureChoice, picturesFor, rowPictures } from './pictures.js';
import { choosePicture, type TerminalSymbolSet, terminalSymbolSets, textColor } from './text-picture.js';
import type { MultiplexerInfo, Report, ReportField, Why } from './types.js';

/** Which stream the pictures would go to. */
export interface ResolveOptions {
  /**
   * `stdout` (default) or `stderr`: graphics is null when that stream is not a terminal.
   * `tty`: the terminal itself, reached through /dev/tty, whatever the standard streams are
   * (the CLI's `detect` describes the terminal even when its stdout is a pipe).
   */
  readonly stream?: 'stdout' | 'stderr' | 'tty';
  /**
   * What tmux said about itself and its client (`askTmux`, when `TMUX` is set): its version, its
   * client's XTVERSION and features, whether it draws sixel, `allow-passthrough`. Absent or null:
   * passthrough is judged from the probe's wrapped queries.
   */
  readonly tmux?: TmuxFacts | null;
}

/** The runtime as seen from the stream the output goes to: `isTTY.stdout` says whether that stream is a terminal. */
function onStream(runtime: Runtime, stream: 'stdout' | 'stderr' | 'tty'): Runtime {
  if (stream === 'stdout') return runtime;
  return { ...runtime, isTTY: { ...runtime.isTTY, stdout: stream === 'tty' ? true : Boolean(runtime.isTTY.stderr) } };
}

type Answer<T> = { readonly value: T; readonly why: Why };

const reason = (source: Why['source'], detail: string, extra: Partial<Why> = {}): Why => ({ source, detail, ...extra });

/**
 * The reason for an answer read from the database row of what `party` was identified as: a rule
 * where its environment named it, a reply where the terminal did; the row, that reply and the
 * fact's source beside it.
 */
const rowReason = (party: Identified, detail: string, fact?: { readonly source: string }): Why =>
  reason(party.by === 'env' ? 'rule' : 'reply', detail, {
    row: party.row.id,
    ...(party.reply ? { reply: party.reply } : {}),
    ...(fact ? { reference: fact.source } : {}),
  });

/**
 * Combines the runtime and, when a probe ran, its facts into one Report. Graphics precedence:
 * `TERMSIGHT_GRAPHICS` > not a TTY > a multiplexer without passthrough > the probe > the environment.
 *
 * @example resolve({ env: { TERM: 'xterm-kitty' }, isTTY: { stdout: true } }).graphics // 'kitty'
 */
export function resolveReport(runtime: Runtime, facts?: ProbeFacts, options: ResolveOptions = {}): Report {
  const env = runtime.env;
  const probed = facts !== undefined && facts.skipped === undefined && facts.replies.length > 0;
  const answered = probed ? facts : undefined;
  const tmux = options.tmux ?? null;
  // Who is there, identified once: every answer below reads this.
  const parties = identifyParties(env, answered, tmux);
  const { terminal: who, multiplexer: found } = parties;
  const tmuxOfParty = found?.name === 'tmux' ? tmux : null;
  const muxAnswer = resolveMultiplexer(answered, found, tmux);
  const terminal = resolveTerminal(runtime, answered, parties);
  const graphicsFound = resolveGraphics(runtime, answered, muxAnswer, options.stream ?? 'stdout', who, tmuxOfParty);
  const truecolor = resolveTruecolor(runtime, who, found);
  // Where the answer is the text fallback, the text picture: symbols where text has colour.
  const glyphs = resolveGlyphs(who);
  const graphics = withTextPicture(graphicsFound, textColor(env, truecolor.value), glyphs);
  // tmux's own sixel and Zellij's pictures go to the multiplexer, unwrapped.
  const multiplexer: Answer<MultiplexerInfo | null> =
    muxAnswer.value &&
    graphics.drawnBy === 'multiplexer' &&
    graphics.value !== null &&
    isGraphicsProtocol(graphics.value)
      ? { ...muxAnswer, value: { ...muxAnswer.value, drawsItself: true } }
      : muxAnswer;
  const placements = resolvePlacements(runtime, graphics.value, graphics.drawnBy === 'multiplexer' ? found : who);
  const placeholders = resolvePlaceholders(
    graphics.value,
    multiplexer.value,
    graphics.drawnBy === 'multiplexer' ? found : who,
  );
  const hyperlinks = hyperlinksAnswer(
    onStream(runtime, options.stream ?? 'stdout'),
    answered,
    multiplexer.value,
    tmux,
    who,
  );
  const remote = isRemote(env);
  const sync = resolveSync(env, answered, who, found);
  const local = resolveKittyLocal(runtime, answered, graphics.value, multiplexer.value);
  const cell = resolveCell(facts, multiplexer.value?.drawsItself === true && found?.name === 'tmux' ? tmux : null);
  const transparency = resolveSixelTransparency(multiplexer.value?.drawsItself === true ? found : who);
  const bands = resolveSixelBands(multiplexer.value?.drawsItself === true ? found : who);
  const shortLived = resolveShortLivedHint(graphics.value, graphics.drawnBy === 'multiplexer' ? found : who);

  const answers: Record<ReportField, Why> = {
    graphics: graphics.why,
    symbols: glyphs.why,
    placements: placements.why,
    placeholders: placeholders.why,
    hyperlinks: hyperlinks.why,
    truecolor: truecolor.why,
    synchronizedOutput: sync.why,
    cellPixels: cell.why,
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
    sixelTransparency: transparency.why,
    sixelWholeBands: bands.why,
    terminal: terminal.why,
    multiplexer: multiplexer.why,
    remote: remote
      ? reason('rule', 'an SSH_* variable is set: the session is remote')
      : reason('default', 'no SSH_* variable is set'),
    kittyLocalFile: local.why,
    shortLivedHint: shortLived.why,
  };

  return {
    graphics: graphics.value,
    symbols: glyphs.value,
    placements: placements.value,
    placeholders: placeholders.value,
    hyperlinks: hyperlinks.value,
    truecolor: truecolor.value,
    synchronizedOutput: sync.value,
    cellPixels: cell.value,
    background: facts?.background ? { dark: facts.background.dark, rgb: facts.background.rgb } : null,
    sixelColors: facts?.sixelColors?.registers ?? null,
    sixelTransparency: transparency.value,
    sixelWholeBands: bands.value,
    terminal: { name: shown(terminal.value.name), version: shown(terminal.value.version) },
    multiplexer: multiplexer.value && { ...multiplexer.value, version: shown(multiplexer.value.version) },
    remote,
    kittyLocalFile: local.value,
    shortLivedHint: shortLived.value,
    probeMs: facts && facts.skipped === undefined ? facts.elapsedMs : null,
    why: Object.fromEntries(Object.entries(answers).map(([field, why]) => [field, shownWhy(why)])) as Record<
      ReportField,
      Why
    >,
  };
}

/**
 * Synchronized output: the terminal's DECRQM 2026 answer, else, for a terminal its replies named
 * (XTVERSION, a DA1/DA2 fingerprint) whose environment named none, its database row: the probe
 * holds DECRQM back from a terminal nobody named (zutty prints it) and sends it in a guarded round
 * only when the replies leave the terminal unknown, so a terminal they name is never asked
 * (docs/probe.md, "What goes to whom"). Where DECRQM was sent and not answered, no.
 */
function resolveSync(
  env: Runtime['env'],
  facts: ProbeFacts | undefined,
  who: Identified | null,
  multiplexer: MultiplexerFound | null,
): Answer<boolean> {
  const said = facts?.synchronizedOutput;
  if (said) {
    return {
      value: said.supported,
      why: reason('reply', `DECRQM 2026 answered ${said.supported ? 'supported' : 'not supported'}`, {
        reply: said.reply,
      }),
    };
  }
  const heldBack = multiplexer === null && !rowsNamedByEnv(env).some((row) => row.kind === 'terminal');
  if (facts && who && who.by !== 'env' && heldBack) {
    const fact = who.row.facts.synchronizedOutput;
    const value = supports(who.row, 'synchronizedOutput', who.version);
    return {
      value,
      why: rowReason(
        who,
        `DECRQM 2026 not asked (held back until the replies named the terminal): ${who.because} names ${who.row.name}, whose database row says ${value ? '' : 'no '}synchronized output`,
        fact,
      ),
    };
  }
  return { value: false, why: reason('default', 'no DECRQM 2026 reply: assume no synchronized output') };
}

/**
 * Whether sixel's transparent pixels (P2=1) show the terminal's background: the database fact of
 * what draws the sixel (tmux where it draws sixel itself, else the terminal). Where the fact says
 * no or is unknown, false: the picture is painted on the OSC 11 background instead (docs/render.md,
 * "Transparency").
 */
function resolveSixelTransparency(drawer: Identified | null): Answer<boolean> {
  const painted = "transparent pixels are painted in the terminal's background (OSC 11, else black)";
  if (!drawer) {
    return { value: false, why: reason('default', `the terminal is not known to honour sixel's P2=1: ${painted}`) };
  }
  const fact = drawer.row.facts.sixelTransparency;
  const value = supports(drawer.row, 'sixelTransparency', drawer.version);
  const says = value
    ? "honours sixel's P2=1: transparent pixels show the background"
    : fact?.value === false
      ? `does not honour sixel's P2=1: ${painted}`
      : fact
        ? `honours sixel's P2=1 only from ${drawer.row.name} ${fact.since}: ${painted}`
        : `says nothing of sixel's P2=1: ${painted}`;
  return {
    value,
    why: rowReason(drawer, `${drawer.because} names ${drawer.row.name}, whose database row ${says}`, fact),
  };
}

/**
 * Whether sixel pictures must be whole bands of six rows: not where the database says what draws
 * them leaves the rest of a shorter last band alone (`sixelPartialBand`); everywhere else, unknown
 * included, a shorter band may be painted below the picture (docs/render.md, "No band").
 */
function resolveSixelBands(drawer: Identified | null): Answer<boolean> {
  const whole = 'sixel pictures are sized to whole bands of six rows';
  if (!drawer)
    return {
      value: true,
      why: reason('default', `the terminal is not known to leave a short last sixel band alone: ${whole}`),
    };
  const fact = drawer.row.facts.sixelPartialBand;
  const clean = supports(drawer.row, 'sixelPartialBand', drawer.version);
  const says = clean
    ? 'leaves the rest of a short last sixel band alone: pictures keep their height'
    : fact?.value === false
      ? `paints the rest of a short last sixel band: ${whole}`
      : `says nothing of a short last sixel band: ${whole}`;
  return {
    value: !clean,
    why: rowReason(drawer, `${drawer.because} names ${drawer.row.name}, whose database row ${says}`, fact),
  };
}

/**
 * One cell in pixels: the terminal's reply, else, where tmux draws the pictures itself, the cell
 * tmux sizes them by (`#{client_cell_width}`x`#{client_cell_height}`): tmux rounds a picture up to
 * whole cells of it and fills the rest with register 0, so the picture must be whole cells of
 * exactly that (docs/terminals.md, "tmux"). tmux's own `16t` answer is not taken: it invents a cell
 * where its client reports none, and the probe cannot tell the two apart.
 */
function resolveCell(
  facts: ProbeFacts | undefined,
  drawingTmux: TmuxFacts | null,
): Answer<{ width: number; height: number } | null> {
  if (facts?.cellPixels) {
    const { width, height, reply } = facts.cellPixels;
    return {
      value: { width, height },
      why: reason('reply', `the terminal reported cells of ${width}x${height} px`, { reply }),
    };
  }
  const client = drawingTmux?.clientCell;
  if (client) {
    return {
      value: { width: client.width, height: client.height },
      why: reason(
        'multiplexer',
        `tmux draws the pictures itself in its client's cells: #{client_cell_width}x#{client_cell_height} is ${client.width}x${client.height} px`,
        { row: 'tmux' },
      ),
    };
  }
  return { value: null, why: reason('default', 'no cell size reply: renderers use their documented default') };
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
    ...(why.reference !== undefined ? { reference: shown(why.reference) } : {}),
  };
}

function resolveGraphics(
  runtime: Runtime,
  facts: ProbeFacts | undefined,
  multiplexer: Answer<MultiplexerInfo | null> & { found?: MultiplexerFound | null },
  stream: 'stdout' | 'stderr' | 'tty',
  who: Identified | null,
  tmux: TmuxFacts | null,
): Answer<Protocol | null> & { drawnBy: PictureChoice['drawnBy'] } {
  const byTerminal = { drawnBy: 'terminal' as const };
  const decision = overrideDecision(runtime.env);
  if (decision.decides) return { value: decision.protocol, why: reason('override', decision.reason), ...byTerminal };
  const invalid = decision.note;

  if (stream !== 'tty' && !runtime.isTTY[stream]) {
    return { value: null, why: reason('tty', `${stream} is not a terminal: no images${invalid}`), ...byTerminal };
  }
  const mux = multiplexer.value;
  const found = multiplexer.found ?? null;
  const choice = picturesFor({
    facts,
    terminal: who,
    multiplexer: found && mux ? { ...found, passthrough: mux.passthrough } : null,
    tmux,
  });
  if (choice)
    return {
      value: choice.protocol,
      why: { ...choice.why, detail: choice.why.detail + invalid },
      drawnBy: choice.drawnBy,
    };

  // Nothing answered that names the terminal: the environment's rules, unless the rule that
  // matched rests on a variable inherited from another terminal than the one the environment names.
  const detection = explainDetect(runtime.env);
  const owner = detection.rule ? graphicsRuleOwner(detection.rule.id) : undefined;
  if (who && owner && owner.id !== who.row.id && detection.rule?.when.some((c) => isInherited(c.variable))) {
    const protocol = rowPictures(who).protocol;
    return {
      value: protocol,
      why: reason(
        'rule',
        `${who.because} names ${who.row.name} (database row ${who.row.id}); rule ${detection.rule.id} rests on a variable ${owner.name} leaves to programs started from it: ${protocol}${invalid}`,
        { rule: detection.rule.id, row: who.row.id },
      ),
      ...byTerminal,
    };
  }
  return detection.rule
    ? {
        value: detection.protocol,
        why: reason('rule', detection.reason + invalid, {
          rule: detection.rule.id,
          ...(owner ? { row: owner.id, reference: detection.rule.source } : {}),
        }),
        ...byTerminal,
      }
    : { value: detection.protocol, why: reason('default', detection.reason + invalid), ...byTerminal };
}

/** The terminal's glyph facts as the text picture needs them, with the symbol sets they make safe. */
interface GlyphAnswer extends Answer<TerminalSymbolSet[]> {
  readonly drawn: readonly GlyphSet[];
  readonly noBraille: boolean;
}

/**
 * The symbol sets that are safe here, from the terminal database's row for this terminal (as the
 * report identified it): block elements everywhere, sextants and octants where the row says the
 * terminal draws them itself.
 */
function resolveGlyphs(found: Identified | null): GlyphAnswer {
  const drawn = found ? glyphsAt(found.row, found.version) : [];
  const noBraille = found?.row.glyphs?.braille?.value === false;
  const value = terminalSymbolSets(drawn);
  const extra = drawn.filter((g) => g !== 'blocks');
  // Sets the row draws only from a version this one is not shown to reach (older, or unknown).
  const later = found
    ? (['sextants', 'octants'] as const).flatMap((set) => {
        const fact = found.row.glyphs?.[set];
        return fact?.value === true && !drawn.includes(set)
          ? [`${set} only from ${found.row.name} ${fact.since}${found.version === null ? ', its version unknown' : ''}`]
          : [];
      })
    : [];
  const draws = extra.length
    ? `draws ${extra.join(' and ')} itself`
    : later.length
      ? 'draws no sextants or octants itself at this version'
      : 'the terminal database lists as drawing no sextants or octants itself';
  const because = found
    ? `${found.row.name}, which ${draws}${later.length ? ` (${later.join('; ')})` : ''}${noBraille ? ' and no braille' : ''}: ${value.join(', ')}`
    : 'block elements are in every terminal font; sextants and octants only where the terminal is known to draw them';
  const why = !found
    ? reason('default', because)
    : found.by === 'env'
      ? reason('rule', `the environment names ${because}`, { row: found.row.id })
      : reason('reply', because, { row: found.row.id, ...(found.reply ? { reply: found.reply } : {}) });
  return { value, why, drawn, noBraille };
}

/**
 * Where the answer is the text fallback (braille, not asked for), the text picture instead:
 * symbols where text has colour or the terminal draws no braille (`choosePicture`).
 */
function withTextPicture<T extends Answer<Protocol | null>>(
  graphics: T,
  color: ReturnType<typeof textColor>,
  glyphs: GlyphAnswer,
): T {
  if (graphics.value !== 'braille' || graphics.why.source === 'override') return graphics;
  const choice = choosePicture({
    pixel: null,
    colorDepth: color,
    terminalSymbols: glyphs.value,
    noBraille: glyphs.noBraille,
  });
  if (choice.protocol === 'braille') return graphics;
  return {
    ...graphics,
    value: choice.protocol,
    why: { ...graphics.why, detail: `${graphics.why.detail}; ${choice.detail}` },
  };
}

/** The first kitty release with Unicode placeholders (`U=1`): the kitty row's fact in the terminal database. */
export const KITTY_PLACEHOLDERS_SINCE: string | undefined = placeholdersSince('kitty');

/**
 * Whether kitty pictures must go as Unicode placeholders: where they are wrapped for tmux or
 * screen (which know nothing of a picture at the cursor: render's default there too), and where
 * the row of what draws them says direct placements do not survive its repaints (herdr).
 */
function resolvePlaceholders(
  graphics: Protocol | null,
  multiplexer: MultiplexerInfo | null,
  drawer: Identified | null,
): Answer<boolean> {
  if (graphics !== 'kitty') {
    return { value: false, why: reason('default', `placeholders are kitty's; graphics is ${graphics ?? 'off'}`) };
  }
  const wrap = pictureWrap(multiplexer);
  if (wrap !== null) {
    return {
      value: true,
      why: reason(
        'multiplexer',
        `inside ${wrap}, which knows nothing of a picture at the cursor: kitty pictures go as Unicode placeholders`,
        { row: wrap },
      ),
    };
  }
  const fact = drawer?.row.facts.placeholdersOnly;
  if (drawer && supports(drawer.row, 'placeholdersOnly', drawer.version)) {
    return {
      value: true,
      why: rowReason(
        drawer,
        `${drawer.because} names ${drawer.row.name} (database row ${drawer.row.id}), which drops direct placements when it repaints: kitty pictures go as Unicode placeholders`,
        fact,
      ),
    };
  }
  return {
    value: false,
    why: reason('default', 'kitty pictures are placed directly: nothing here needs placeholders'),
  };
}

/**
 * Whether what draws the kitty pictures takes the short-lived hint (`N=1`), by its row's
 * `shortLivedHint` at its version: an older kitty ignores the key, so false only costs a disk write.
 */
function resolveShortLivedHint(graphics: Protocol | null, drawer: Identified | null): Answer<boolean> {
  if (graphics !== 'kitty') {
    return {
      value: false,
      why: reason('default', `the short-lived hint is kitty's; graphics is ${graphics ?? 'off'}`),
    };
  }
  if (!drawer) {
    return { value: false, why: reason('default', 'the terminal is not identified: no short-lived hint (N=1)') };
  }
  const fact = drawer.row.facts.shortLivedHint;
  const takes = supports(drawer.row, 'shortLivedHint', drawer.version);
  const version = drawer.version === null ? '' : ` ${drawer.version}`;
  return {
    value: takes,
    why: rowReason(
      drawer,
      `${drawer.because} names ${drawer.row.name}${version}, whose database row ${
        takes
          ? 'takes the short-lived hint (N=1)'
          : fact
            ? `has the short-lived hint (N=1) only from ${fact.since ?? 'a version not known here'}`
            : 'says nothing of the short-lived hint (N=1)'
      }`,
      fact,
    ),
  };
}

function resolvePlacements(runtime: Runtime, graphics: Protocol | null, who: Identified | null): Answer<boolean> {
  if (graphics !== 'kitty') {
    return { value: false, why: reason('default', `placements need kitty graphics; graphics is ${graphics ?? 'off'}`) };
  }
  // A multiplexer that draws the pictures itself (Zellij, herdr) answers by its row, however it was found.
  if (who && (who.by !== 'env' || who.row.kind === 'multiplexer')) {
    const keeps = supports(who.row, 'placements', who.version);
    return {
      value: keeps,
      why: reason(
        'reply',
        `${who.because} names ${who.row.name} (database row ${who.row.id}), which ${keeps ? 'keeps and places' : 'is not known to keep and place'} images`,
        {
          row: who.row.id,
          ...(who.reply ? { reply: who.reply } : {}),
          ...(who.row.facts.placements ? { reference: who.row.facts.placements.source } : {}),
        },
      ),
    };
  }
  const env = explainPlacements(runtime.env);
  const owner = env.rule ? placementRuleOwner(env.rule.id) : undefined;
  return env.rule
    ? {
        value: env.placements,
        why: reason('rule', `rule ${env.rule.id}: ${env.rule.note}`, {
          rule: env.rule.id,
          ...(owner ? { row: owner.id, reference: env.rule.source } : {}),
        }),
      }
    : { value: false, why: reason('default', 'no rule says this terminal keeps and places images') };
}

/**
 * The terminal's name and version as the report identified it: its XTVERSION as written, else the
 * row its replies name, else the row one of its signs in the environment names (the value of
 * `TERM_PROGRAM` where that sign is on it, else the name the row answers XTVERSION with). A
 * `TERM_PROGRAM` or `LC_TERMINAL` naming no row still names the program, before an inherited sign.
 */
function resolveTerminal(
  runtime: Runtime,
  facts: ProbeFacts | undefined,
  parties: Parties,
): Answer<Report['terminal']> {
  const who = parties.terminal;
  const row = who ? { row: who.row.id, reference: who.row.identity.source } : {};
  if (facts?.terminal && who?.by === 'reply') {
    return {
      value: { name: facts.terminal.name, version: facts.terminal.version },
      why: reason('reply', `XTVERSION: ${facts.terminal.name} (database row ${who.row.id})`, {
        reply: facts.terminal.reply,
        ...row,
      }),
    };
  }
  if (who && who.by !== 'env') {
    return {
      value: { name: who.row.name, version: who.version },
      why: reason('reply', `${who.because} names ${who.row.name} (database row ${who.row.id})`, {
        ...(who.reply ? { reply: who.reply } : {}),
        ...row,
      }),
    };
  }
  // An XTVERSION that is not the multiplexer's own (Zellij answers it) and names no row.
  const muxReply = parties.multiplexer?.by === 'reply' ? parties.multiplexer.reply : undefined;
  if (facts?.terminal && facts.terminal.reply !== muxReply) {
    return {
      value: { name: facts.terminal.name, version: facts.terminal.version },
      why: reason('reply', `XTVERSION: ${facts.terminal.name} (not in the terminal database)`, {
        reply: facts.terminal.reply,
      }),
    };
  }
  const env = runtime.env;
  const program = namingValue(env, 'TERM_PROGRAM');
  const inheritedSign = who?.sign?.when.some((c) => isInherited(c.variable)) === true;
  if (who && !(inheritedSign && program !== undefined)) {
    const onProgram = who.sign?.when.some((c) => c.variable === 'TERM_PROGRAM' && c.test === 'equals');
    // Where TERM_PROGRAM named it, the program's own name and version (VS Code's, not xterm.js's).
    const value =
      onProgram && program !== undefined
        ? { name: program, version: envValue(env, 'TERM_PROGRAM_VERSION') ?? null }
        : { name: who.row.identity.xtversion?.names[0] ?? who.row.name, version: who.version };
    return {
      value,
      why: reason('rule', `${who.because} names ${who.row.name} (database row ${who.row.id})`, row),
    };
  }
  for (const [variable, version] of NAMING_VARIABLES) {
    const name = namingValue(env, variable);
    if (name !== undefined)
      return {
        value: { name, version: envValue(env, version) ?? null },
        why: reason('rule', `${variable}=${name}, a program the terminal database does not know`),
      };
  }
  return {
    value: { name: null, version: null },
    why: reason('default', 'the terminal did not name itself and no variable names it'),
  };
}

/**
 * The variables that name the terminal program by convention, with the variable of its version:
 * what the report shows where they name no row of the database.
 */
const NAMING_VARIABLES = [
  ['TERM_PROGRAM', 'TERM_PROGRAM_VERSION'],
  ['LC_TERMINAL', 'LC_TERMINAL_VERSION'],
] as const;

/** A naming variable's value, unless it names a multiplexer (tmux sets `TERM_PROGRAM=tmux`). */
function namingValue(env: Runtime['env'], variable: string): string | undefined {
  const value = envValue(env, variable);
  if (value === undefined) return undefined;
  return identify({ env: { [variable]: value } })?.row.kind === 'multiplexer' ? undefined : value;
}

function resolveMultiplexer(
  facts: ProbeFacts | undefined,
  found: MultiplexerFound | null,
  tmux: TmuxFacts | null,
): Answer<MultiplexerInfo | null> & { found: MultiplexerFound | null } {
  if (found === null)
    return { value: null, why: reason('default', 'no multiplexer in the environment or the replies'), found };
  const name = found.name;
  // tmux's own word on allow-passthrough beats what wrapped queries suggested.
  const told = name === 'tmux' ? tmux?.allowPassthrough : undefined;
  const passthrough =
    name === 'tmux'
      ? told === undefined || told === null
        ? (facts?.passthrough ?? null)
        : told !== 'off'
      : name === 'screen'
        ? (facts?.passthrough ?? null)
        : null;
  const limit = found.row.multiplexer?.maxSequenceBytes;
  const info: MultiplexerInfo = {
    name,
    version: found.version,
    passthrough,
    ...(limit ? { maxSequenceBytes: limit.bytes } : {}),
    ...(name === 'tmux' && passthrough === false
      ? {
          // `all` exists from tmux 3.4 (the row's passthroughHidden); a known older tmux gets `on`.
          hint:
            found.version !== null && !supports(found.row, 'passthroughHidden', found.version)
              ? TMUX_33_PASSTHROUGH_HINT
              : TMUX_PASSTHROUGH_HINT,
        }
      : {}),
  };
  const said =
    told !== undefined && told !== null
      ? `; tmux ${tmux?.version ?? ''} says allow-passthrough is ${told}`.replace('tmux  ', 'tmux ')
      : passthrough === null
        ? ''
        : passthrough
          ? '; the outer terminal answered wrapped queries'
          : '; wrapped queries got no answer';
  const extra = { row: found.row.id, reference: found.row.identity.source };
  const because =
    found.by === 'reply' && facts?.multiplexer
      ? reason(
          'reply',
          `the multiplexer answered for itself: ${facts.multiplexer.name}${facts.multiplexer.version ? ` ${facts.multiplexer.version}` : ''}${said}`,
          { reply: facts.multiplexer.reply, ...extra },
        )
      : found.by === 'env'
        ? reason('rule', `${found.because}${said}`, extra)
        : reason('reply', `${found.because} names ${found.row.name} (database row ${found.row.id})${said}`, {
            ...(found.reply ? { reply: found.reply } : {}),
            ...extra,
          });
  return { value: info, why: because, found };
}

/**
 * 24-bit colour: a multiplexer that mangles it caps it; `COLORTERM`; the row the terminal's replies
 * name; a direct-colour terminfo; the row the environment names, where the sign that named it is
 * trusted for colour (`byName`: iTerm2's `TERM_PROGRAM`, with its version).
 */
function resolveTruecolor(runtime: Runtime, who: Identified | null, mux: MultiplexerFound | null): Answer<boolean> {
  // A multiplexer that mangles 24-bit SGR (GNU screen before 5.0) caps colour whatever COLORTERM says.
  const muxTruecolor = mux?.row.facts.truecolor;
  if (mux && muxTruecolor && !supports(mux.row, 'truecolor', mux.version)) {
    return {
      value: false,
      why: reason(
        'multiplexer',
        `${mux.row.name}${mux.version ? ` ${mux.version}` : ' (version unknown)'} passes 256 colours at most (24-bit colour${muxTruecolor.since ? ` since ${muxTruecolor.since}` : ''}), whatever COLORTERM says`,
        { row: mux.row.id, reference: muxTruecolor.source, ...(mux.reply ? { reply: mux.reply } : {}) },
      ),
    };
  }
  const colorterm = envValue(runtime.env, 'COLORTERM');
  if (colorterm === 'truecolor' || colorterm === '24bit') {
    return { value: true, why: reason('rule', `COLORTERM=${colorterm}`) };
  }
  const fact = who?.row.facts.truecolor;
  const rowSays = (source: Why['source'], detail: string) => ({
    value: true,
    why: reason(source, detail, {
      ...(who ? { row: who.row.id } : {}),
      ...(who?.reply ? { reply: who.reply } : {}),
      ...(fact ? { reference: fact.source } : {}),
    }),
  });
  if (who && who.by !== 'env' && supports(who.row, 'truecolor', who.version)) {
    return who.by === 'reply'
      ? rowSays('reply', `${who.because.replace(/^XTVERSION /, 'XTVERSION names ')}, which shows 24-bit colour`)
      : rowSays(
          'reply',
          `${who.because} names ${who.row.name} (database row ${who.row.id}), which shows 24-bit colour`,
        );
  }
  const term = envValue(runtime.env, 'TERM') ?? '';
  if (term.endsWith('-direct'))
    return { value: true, why: reason('rule', `TERM=${term} names a direct-colour terminfo`) };
  if (who?.by === 'env' && who.sign?.byName?.includes('truecolor') && supports(who.row, 'truecolor', who.version)) {
    return rowSays(
      'rule',
      `${who.because} names ${who.row.name}${who.version ? ` ${who.version}` : ''} (database row ${who.row.id}), which shows 24-bit colour`,
    );
  }
  return { value: false, why: reason('default', 'neither COLORTERM nor the terminal says 24-bit colour') };
}
