/**
 * The picture protocol from the terminal database and the replies: what the identified row
 * draws at its version (a DA1-gated protocol only when DA1 lists 4), with the multiplexer's own
 * facts in between — tmux 3.4+ drawing sixel itself, kitty images inside tmux or screen only where
 * the terminal has Unicode placeholders, Zellij drawing what it draws, mosh passing text, screen
 * passing pictures in its DCS packets to an outer terminal that answered through them.
 * Pure; resolve.ts calls it after the override and the TTY check (docs/terminals.md, "Pictures").
 */
import type { Protocol } from '../env/protocol.js';
import type { ProbeFacts } from '../probe/facts.js';
import type { TmuxFacts } from '../probe/tmux-formats.js';
import { drawsAt, supports } from '../terminals/lookup.js';
import type { Draws, TerminalRow } from '../terminals/types.js';
import type { Identified, MultiplexerFound } from './identity.js';
import type { Why } from './types.js';

/** A protocol chosen, with its reason and who draws it. */
export interface PictureChoice {
  readonly protocol: Protocol;
  readonly why: Why;
  /** `multiplexer`: tmux (sixel) or Zellij draws it itself, so it is sent unwrapped. */
  readonly drawnBy: 'terminal' | 'multiplexer';
}

/** What the replies show beyond the row. */
interface Evidence {
  /** DA1 of the party that draws lists attribute 4, or tmux says its client has sixel. */
  readonly sixel: { readonly reply: string } | null;
  /** The kitty graphics query was answered OK by the party that draws. */
  readonly kittyOk: { readonly reply: string } | null;
  /** Inside tmux or GNU screen (which know nothing of images at the cursor): kitty only with Unicode placeholders. */
  readonly within: 'tmux' | 'screen' | null;
  /** The DA1 reply of the party that draws, when it answered: it shows a DA1-gated protocol is absent. */
  readonly da1?: string;
}

const named = (who: Identified) => `${who.because} names ${who.row.name}${who.version ? ` ${who.version}` : ''}`;

/** The best protocol `row` draws at `version` given the evidence, or null. */
function rowProtocol(
  row: TerminalRow,
  version: string | null,
  evidence: Evidence,
): { draws: Draws | null; protocol: Protocol; detail: string; reply?: string } | null {
  const skipped: string[] = [];
  let gatedOut = false;
  for (const d of drawsAt(row, version)) {
    if (d.onlyIf === 'da1' && !evidence.sixel) {
      skipped.push(`${d.protocol} only when DA1 lists 4, which it does not`);
      gatedOut = true;
      continue;
    }
    if (d.onlyIf === 'kittyQuery' && !evidence.kittyOk) {
      skipped.push(`${d.protocol} only when it answers the kitty graphics query OK, which it did not`);
      continue;
    }
    if (d.protocol === 'kitty' && evidence.within && !supports(row, 'placeholders', version)) {
      skipped.push(`kitty, but without Unicode placeholders, which kitty images need inside ${evidence.within}`);
      continue;
    }
    const gate =
      d.onlyIf === 'da1'
        ? ` (DA1 lists 4${evidence.sixel ? `: ${evidence.sixel.reply}` : ''})`
        : d.onlyIf === 'kittyQuery'
          ? ' (it answered the kitty graphics query OK)'
          : '';
    const shown = d.onlyIf === 'da1' ? evidence.sixel : d.onlyIf === 'kittyQuery' ? evidence.kittyOk : null;
    return {
      draws: d,
      protocol: d.protocol,
      detail: `draws ${d.protocol}${gate}`,
      ...(shown ? { reply: shown.reply } : {}),
    };
  }
  // The replies may show more than the row knows (a newer version, an addon).
  if (evidence.kittyOk && !evidence.within)
    return {
      draws: null,
      protocol: 'kitty',
      detail: 'answered the kitty graphics query with OK',
      reply: evidence.kittyOk.reply,
    };
  if (evidence.sixel)
    return { draws: null, protocol: 'sixel', detail: 'lists sixel in DA1', reply: evidence.sixel.reply };
  if (skipped.length === 0) return null;
  const reply = gatedOut && evidence.da1 !== undefined ? { reply: evidence.da1 } : {};
  return { draws: null, protocol: 'braille', detail: `draws ${skipped.join('; ')}: braille`, ...reply };
}

/** A row's decision as a choice with its reason (the row named, the fact's source). */
function fromRow(who: Identified, evidence: Evidence, drawnBy: PictureChoice['drawnBy']): PictureChoice {
  const found = rowProtocol(who.row, who.version, evidence);
  const reference = found?.draws?.source;
  return {
    protocol: found?.protocol ?? 'braille',
    drawnBy,
    why: {
      source: who.by === 'env' ? 'rule' : 'reply',
      detail: `${named(who)} (database row ${who.row.id}), which ${found?.detail ?? 'draws no pictures: braille'}`,
      row: who.row.id,
      ...(reference ? { reference } : {}),
      ...(found?.reply ? { reply: found.reply } : who.reply ? { reply: who.reply } : {}),
    },
  };
}

/** What a row draws on its own word, with no reply to gate or add to it (its DA1-gated protocols left out). */
export function rowPictures(who: Identified): PictureChoice {
  return fromRow(who, { sixel: null, kittyOk: null, within: null }, 'terminal');
}

const sixelIn = (facts: ProbeFacts | undefined) =>
  facts?.da1?.attributes.includes(4) ? { reply: facts.da1.reply } : null;
const kittyIn = (facts: ProbeFacts | undefined) =>
  facts?.kittyGraphics?.ok ? { reply: facts.kittyGraphics.reply } : null;

/**
 * The protocol the database and the replies decide, or null when they decide nothing (the
 * environment's rules then apply). `facts` only when a probe was answered.
 */
export function picturesFor(input: {
  readonly facts: ProbeFacts | undefined;
  readonly terminal: Identified | null;
  readonly multiplexer: (MultiplexerFound & { readonly passthrough: boolean | null }) | null;
  readonly tmux: TmuxFacts | null;
}): PictureChoice | null {
  const { facts, terminal, multiplexer: mux, tmux } = input;
  if (mux?.name === 'mosh' || mux?.name === 'zellij') {
    // They answer DA1 and the kitty query themselves: the evidence is theirs.
    return fromRow(mux, { sixel: sixelIn(facts), kittyOk: null, within: null }, 'multiplexer');
  }
  if (mux?.name === 'herdr') {
    // herdr draws kitty itself, and answers the kitty query only when its kitty graphics are on.
    return fromRow(mux, { sixel: null, kittyOk: kittyIn(facts), within: null }, 'multiplexer');
  }
  if (mux?.name === 'tmux') return insideTmux(facts, terminal, mux, tmux);
  if (mux?.name === 'screen') return insideScreen(facts, terminal, mux);
  // A row its environment names decides only where the replies can gate it: an embedder of
  // libghostty (cmux) draws kitty only on the kitty query's word, never on its name.
  const gatedByQuery = terminal?.row.draws.some((d) => d.onlyIf === 'kittyQuery') === true;
  if (terminal && (terminal.by !== 'env' || (facts !== undefined && gatedByQuery))) {
    return fromRow(
      terminal,
      {
        sixel: sixelIn(facts),
        kittyOk: kittyIn(facts),
        within: null,
        ...(facts?.da1 ? { da1: facts.da1.reply } : {}),
      },
      'terminal',
    );
  }
  const kitty = kittyIn(facts);
  if (kitty)
    return {
      protocol: 'kitty',
      drawnBy: 'terminal',
      why: { source: 'reply', detail: 'the terminal answered the kitty graphics query with OK', reply: kitty.reply },
    };
  const sixel = sixelIn(facts);
  if (sixel)
    return {
      protocol: 'sixel',
      drawnBy: 'terminal',
      why: { source: 'reply', detail: 'DA1 lists attribute 4 (sixel graphics)', reply: sixel.reply },
    };
  return null;
}

function insideTmux(
  facts: ProbeFacts | undefined,
  terminal: Identified | null,
  mux: MultiplexerFound & { readonly passthrough: boolean | null },
  tmux: TmuxFacts | null,
): PictureChoice {
  const clientSixel = tmux?.clientFeatures.includes('sixel') === true;
  const tmuxSixel = drawsAt(mux.row, mux.version).find((d) => d.protocol === 'sixel');
  // Whether this tmux was built with sixel: `#{sixel_support}` where tmux has it (3.5a prints
  // nothing for it), else tmux's own DA1, which lists 4 only in a sixel build. Without passthrough
  // the DA1 that came back is tmux's; with it, it may be the outer terminal's.
  const ownDa1 = facts?.passthrough !== true && facts?.da1?.attributes.includes(4) ? facts.da1.reply : null;
  const built =
    tmux?.sixelSupport === true
      ? '#{sixel_support} is 1'
      : tmux?.sixelSupport === null && ownDa1 !== null
        ? "#{sixel_support} is empty and tmux's own DA1 lists 4"
        : null;
  if (tmux && tmuxSixel && built && clientSixel) {
    return {
      protocol: 'sixel',
      drawnBy: 'multiplexer',
      why: {
        source: 'multiplexer',
        detail: `tmux ${mux.version} (database row tmux) draws sixel itself, kept in its grid: ${built} and #{client_termfeatures} lists sixel`,
        ...(tmux.sixelSupport === null && ownDa1 !== null ? { reply: ownDa1 } : {}),
        row: 'tmux',
        reference: tmuxSixel.source,
      },
    };
  }
  if (mux.passthrough !== true) {
    const state =
      mux.passthrough === false
        ? `tmux drops wrapped sequences (allow-passthrough is ${tmux?.allowPassthrough ?? 'off'})`
        : 'inside tmux, passthrough is not proven';
    const own =
      tmux && !clientSixel
        ? '; tmux draws no sixel of its own here (#{client_termfeatures} lists no sixel)'
        : tmux?.sixelSupport === false
          ? '; this tmux was built without sixel'
          : tmux && built === null
            ? '; nothing shows this tmux was built with sixel (#{sixel_support} is empty, its own DA1 lists no 4)'
            : '';
    return {
      protocol: 'braille',
      drawnBy: 'terminal',
      why: { source: 'multiplexer', detail: `${state}${own}: braille`, row: 'tmux' },
    };
  }
  // Passthrough: the outer terminal draws. Its DA1 is known only when a wrapped query reached it
  // (tmux 3.5a's own DA1 claims sixel whatever the outer terminal is); tmux's client features say it too.
  const outerSixel =
    facts?.passthrough === true && facts.da1?.attributes.includes(4)
      ? { reply: facts.da1.reply }
      : clientSixel
        ? { reply: `#{client_termfeatures} ${tmux?.clientFeatures.join(',')}` }
        : null;
  const outerKitty = facts?.passthrough === true ? kittyIn(facts) : null;
  const evidence = { sixel: outerSixel, kittyOk: outerKitty, within: 'tmux' as const };
  if (terminal && terminal.by !== 'env') return fromRow(terminal, evidence, 'terminal');
  if (outerSixel)
    return {
      protocol: 'sixel',
      drawnBy: 'terminal',
      why: {
        source: 'reply',
        detail: 'the outer terminal has sixel, through tmux passthrough',
        reply: outerSixel.reply,
      },
    };
  const kitty = outerKitty
    ? '; it answered the kitty graphics query, but nothing shows it has the Unicode placeholders kitty images need inside tmux'
    : '';
  return {
    protocol: 'braille',
    drawnBy: 'terminal',
    why: { source: 'reply', detail: `the terminal behind tmux is not identified${kitty}: braille` },
  };
}

/**
 * Behind GNU screen: the outer terminal draws, its pictures wrapped in screen's DCS packets (under
 * 768 bytes each), but only when it answered the wrapped queries (`facts.passthrough`): then its
 * replies are its own (after screen's DA1) and name it or show what it draws. Kitty images need
 * Unicode placeholders there, as inside tmux: screen knows nothing of a picture at the cursor.
 */
function insideScreen(
  facts: ProbeFacts | undefined,
  terminal: Identified | null,
  mux: MultiplexerFound & { readonly passthrough: boolean | null },
): PictureChoice {
  const screen = `GNU screen${mux.version ? ` ${mux.version}` : ''}`;
  if (facts?.passthrough !== true) {
    const state =
      facts?.passthrough === false
        ? 'the terminal outside it did not answer the queries wrapped in its DCS packets'
        : 'nothing asked the terminal outside it through its DCS packets';
    return {
      protocol: 'braille',
      drawnBy: 'terminal',
      why: {
        source: 'multiplexer',
        detail: `${screen} passes pictures on only in its DCS packets, and ${state}: braille`,
        row: 'screen',
        reference: 'test/fixtures/screen/README.md',
      },
    };
  }
  const through = `, through ${screen}'s passthrough (pictures wrapped in its DCS packets under 768 bytes)`;
  const evidence: Evidence = {
    sixel: sixelIn(facts),
    kittyOk: kittyIn(facts),
    within: 'screen',
    ...(facts.da1 ? { da1: facts.da1.reply } : {}),
  };
  if (terminal && terminal.by !== 'env') {
    const choice = fromRow(terminal, evidence, 'terminal');
    return { ...choice, why: { ...choice.why, detail: choice.why.detail + through } };
  }
  if (evidence.sixel)
    return {
      protocol: 'sixel',
      drawnBy: 'terminal',
      why: { source: 'reply', detail: `the outer terminal lists sixel in DA1${through}`, reply: evidence.sixel.reply },
    };
  const kitty = evidence.kittyOk
    ? '; it answered the kitty graphics query, but nothing shows it has the Unicode placeholders kitty images need inside screen'
    : '';
  return {
    protocol: 'braille',
    drawnBy: 'terminal',
    why: { source: 'reply', detail: `the terminal behind ${screen} is not identified${kitty}: braille`, row: 'screen' },
  };
}
