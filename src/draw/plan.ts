/**
 * `planDrawing`: from what the terminal can do (a `Report`) and what a caller asks for (a
 * `DrawRequest`) to every decision of a drawing, each with its reason. Pure: no I/O, nothing read
 * from `process`; the CLI, `termsight/ink`, `termsight/terminal-image` and the front door all draw
 * from its plans (docs/draw.md).
 */
import { escapeBytes } from '../core/escape.js';
import { type CellSize, type ColorDepth, DEFAULT_CELL_PIXELS, MAX_CELLS, type Wrap } from '../core/primitives.js';
import { overrideDecision } from '../env/override.js';
import { isGraphicsProtocol, type Protocol } from '../env/protocol.js';
import { envValue } from '../env/runtime.js';
import type { SymbolSetName } from '../render/text/symbols-glyphs.js';
import { inWholeCells, pictureWrap } from '../report/picture-wrap.js';
import { choosePicture, textColor } from '../report/text-picture.js';
import type { Report } from '../report/types.js';
import { identify } from '../terminals/identify.js';
import { holds, terminalByReplyName } from '../terminals/lookup.js';
import type { AnimationPlan, DrawRequest, EncoderPlan, Length, Plan, PlanField, PlanSource, PlanWhy } from './types.js';

/** What `planDrawing` reads of a report. */
export type PlannedReport = Pick<
  Report,
  | 'graphics'
  | 'symbols'
  | 'truecolor'
  | 'placements'
  | 'kittyLocalFile'
  | 'cellPixels'
  | 'sixelColors'
  | 'sixelTransparency'
  | 'sixelWholeBands'
  | 'background'
  | 'multiplexer'
  | 'synchronizedOutput'
  | 'terminal'
> &
  // placeholders, shortLivedHint: absent in reports built by hand before the fields existed
  // (then: placeholders only inside a multiplexer, no short-lived hint).
  Partial<Pick<Report, 'why' | 'placeholders' | 'shortLivedHint'>>;

const why = (source: PlanSource, detail: string): PlanWhy => ({ source, detail });

/** A report's reason for an answer, as text safe to show (replies escaped). */
function reportSaid(report: PlannedReport, field: 'graphics' | 'symbols'): string {
  const detail = report.why?.[field]?.detail;
  return detail ? `: ${escapeBytes(detail)}` : '';
}

/**
 * How to draw one picture here. Precedence of the protocol: the request's > `TERMSIGHT_GRAPHICS`
 * (a protocol, or `off`: the text picture) > the output is not a terminal (symbols, at the colour
 * the environment allows: text that survives a file, a pipe or a CI log) > the report's answer
 * (braille there becomes symbols when symbol sets are asked for) > the text picture.
 *
 * @example planDrawing(report, { columns: 40, rows: 12 }).protocol // 'kitty' in kitty
 */
export function planDrawing(report: PlannedReport, request: DrawRequest = {}): Plan {
  const env = request.env ?? {};
  const terminal = request.terminal ?? true;
  const color = colorDecision(report, env);
  const askedSymbols = request.symbols !== undefined && request.symbols.length > 0 ? request.symbols : undefined;
  const symbols: readonly SymbolSetName[] =
    askedSymbols ?? (report.symbols.length > 0 ? (report.symbols as readonly SymbolSetName[]) : ['block']);
  const protocol = protocolDecision(report, request, env, terminal, color.value, symbols, askedSymbols !== undefined);
  const cellPixels = report.cellPixels ?? null;
  const box = boxDecision(request, protocol.value, env, cellPixels ?? DEFAULT_CELL_PIXELS);
  const wrap = wrapDecision(report, request, protocol.value);
  const encoder = encoderDecision(
    report,
    protocol.value,
    wrap.value,
    color.value,
    symbols,
    askedSymbols !== undefined,
    request.shortLived === true,
  );
  const animation = animationDecision(report, request, protocol.value, wrap.value, encoder.value, env, terminal);
  return {
    protocol: protocol.value,
    columns: box.columns,
    rows: box.rows,
    box: box.asked,
    fit: request.fit ?? 'contain',
    align: request.align ?? 'left',
    upscale: box.upscale,
    wrap: wrap.value,
    colorDepth: color.value,
    synchronizedOutput: report.synchronizedOutput,
    animation: animation.value,
    cellPixels,
    encoder: encoder.value,
    why: {
      protocol: protocol.why,
      box: box.why,
      wrap: wrap.why,
      colorDepth: color.why,
      synchronizedOutput: why(
        'report',
        report.synchronizedOutput
          ? 'the terminal has synchronized output (mode 2026): redraws in place are shown whole'
          : 'the terminal is not known to have synchronized output: redraws are written as they are',
      ),
      animation: animation.why,
      cellPixels: cellPixels
        ? why(
            'report',
            `the terminal's cell is ${cellPixels.width}x${cellPixels.height} px: kitty and iTerm2 drawn 1:1`,
          )
        : why('default', 'the cell size is unknown: 10x20 px is assumed, and the terminal scales kitty and iTerm2'),
      encoder: encoder.why,
    } satisfies Record<PlanField, PlanWhy>,
  };
}

interface Decided<T> {
  readonly value: T;
  readonly why: PlanWhy;
}

function colorDecision(report: PlannedReport, env: NonNullable<DrawRequest['env']>): Decided<ColorDepth> {
  const value = textColor(env, report.truecolor);
  if (value === 'none') {
    const term = envValue(env, 'TERM');
    const because =
      envValue(env, 'NO_COLOR') !== undefined
        ? 'NO_COLOR is set'
        : term === 'dumb'
          ? 'TERM=dumb'
          : `TERM=${escapeBytes(term ?? '')} is a monochrome terminfo entry`;
    return { value, why: why('environment', `${because}: text pictures have no colour, glyphs only`) };
  }
  return {
    value,
    why: why(
      'report',
      value === 'truecolor'
        ? 'the terminal shows 24-bit colour'
        : 'the terminal is not known to show 24-bit colour: 256',
    ),
  };
}

function protocolDecision(
  report: PlannedReport,
  request: DrawRequest,
  env: NonNullable<DrawRequest['env']>,
  terminal: boolean,
  color: ColorDepth,
  symbols: readonly SymbolSetName[],
  asked: boolean,
): Decided<Protocol> {
  const sets = `${asked ? 'the sets asked for' : 'the sets safe on this terminal'}: ${symbols.join(', ')}`;
  if (request.protocol) return { value: request.protocol, why: why('request', `${request.protocol} was asked for`) };
  const text = (source: PlanSource, because: string): Decided<Protocol> => {
    if (request.textPicture === 'blocks')
      return { value: 'blocks', why: why(source, `${because}: half blocks, the caller's text picture`) };
    const choice = choosePicture({
      pixel: null,
      colorDepth: color,
      terminalSymbols: symbols,
      ...(asked ? { askedSymbols: symbols } : {}),
    });
    return { value: choice.protocol, why: why(source, `${because}; ${choice.detail}`) };
  };
  const decision = overrideDecision(env);
  if (decision.decides) {
    if (decision.protocol !== null) return { value: decision.protocol, why: why('environment', decision.reason) };
    return text('environment', decision.reason);
  }
  if (!terminal) {
    if (request.textPicture === 'blocks')
      return {
        value: 'blocks',
        why: why('request', "the output is not a terminal: half blocks, the caller's text picture"),
      };
    return {
      value: 'symbols',
      why: why(
        'request',
        `the output is not a terminal (a file, a pipe, a log): symbols, text that survives it, ${
          color === 'none' ? 'glyphs only (no colour)' : `in ${color === 'truecolor' ? '24-bit' : color} colour`
        }, with ${sets}`,
      ),
    };
  }
  const graphics = report.graphics;
  if (graphics && isGraphicsProtocol(graphics))
    return { value: graphics, why: why('report', `the report's graphics${reportSaid(report, 'graphics')}`) };
  if (graphics === 'braille' && asked)
    return { value: 'symbols', why: why('request', `symbol sets were asked for: symbols, with ${sets}`) };
  if (graphics && request.textPicture === 'blocks')
    return { value: 'blocks', why: why('request', "no pixel protocol here: half blocks, the caller's text picture") };
  if (graphics) {
    const value = graphics === 'symbols' || graphics === 'braille' || graphics === 'blocks' ? graphics : 'braille';
    return { value, why: why('report', `the report's text picture${reportSaid(report, 'graphics')}`) };
  }
  return text('report', 'the report names no protocol');
}

/**
 * A side of the box in whole cells: cells as given; a percentage of the terminal's `whole` cells,
 * rounded to the nearest; pixels in cells of `side` pixels, rounded down (the picture stays within
 * the pixels asked for). From 1 to `MAX_CELLS`.
 *
 * @example lengthInCells({ pixels: 400 }, 80, 9) // 44
 */
export function lengthInCells(length: Length, whole: number, side: number): number {
  const n =
    typeof length === 'number'
      ? length
      : 'cells' in length
        ? length.cells
        : 'percent' in length
          ? Math.round((length.percent / 100) * whole)
          : Math.floor(length.pixels / side);
  return Math.min(MAX_CELLS, Math.max(1, n));
}

function positiveInt(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d+$/.test(text.trim())) return undefined;
  const n = Number(text.trim());
  return n > 0 ? n : undefined;
}

function describeLength(length: Length | undefined, got: number | undefined): string {
  if (length === undefined) return got === undefined ? 'unbounded' : String(got);
  if (typeof length === 'number' || 'cells' in length) return String(got);
  if ('percent' in length) return `${got} (${length.percent}% of the terminal)`;
  return `${got} (${length.pixels} px)`;
}

function boxDecision(
  request: DrawRequest,
  protocol: Protocol,
  env: NonNullable<DrawRequest['env']>,
  cell: CellSize,
): {
  columns: number | undefined;
  rows: number | undefined;
  asked: { columns: number | undefined; rows: number | undefined };
  upscale: boolean;
  why: PlanWhy;
} {
  const screen = request.defaultBox === 'screen';
  const termColumns = request.terminalSize?.columns || positiveInt(envValue(env, 'COLUMNS')) || 80;
  const termRows = request.terminalSize?.rows || positiveInt(envValue(env, 'LINES')) || 24;
  const columns =
    request.columns !== undefined
      ? lengthInCells(request.columns, termColumns, cell.width)
      : screen
        ? termColumns
        : undefined;
  let rows =
    request.rows !== undefined
      ? lengthInCells(request.rows, termRows, cell.height)
      : screen
        ? Math.max(1, termRows - 2)
        : undefined;
  const asked = { columns, rows };
  let upscale = request.upscale ?? false;
  let text = '';
  const given = request.columns !== undefined || request.rows !== undefined;
  if (request.textTakesBox && !isGraphicsProtocol(protocol) && given) {
    // docs/cli.md "Sizes": a text picture takes the size asked for; with the width alone the rows
    // follow the aspect (text scrolls; only a line wider than the terminal breaks).
    upscale = true;
    if (request.rows === undefined) rows = undefined;
    text =
      request.rows === undefined ? '; a text picture takes that width, its rows follow' : '; a text picture takes it';
  }
  const source: PlanSource = given ? 'request' : screen ? 'environment' : 'default';
  const detail = `${describeLength(request.columns, columns)} columns x ${describeLength(request.rows, rows)} rows${
    !given && screen ? ' (the terminal, less 2 rows for a name and the prompt)' : ''
  }${upscale ? ', enlarged to fill it' : ''}${text}`;
  return { columns, rows, asked, upscale, why: why(source, detail) };
}

function wrapDecision(report: PlannedReport, request: DrawRequest, protocol: Protocol): Decided<Wrap> {
  const mux = report.multiplexer;
  if (!isGraphicsProtocol(protocol)) {
    return { value: null, why: why('default', `${protocol} is text: nothing to pass through`) };
  }
  const value = pictureWrap(mux, !request.wrapUnproven);
  if (!mux) return { value, why: why('report', 'no multiplexer in between') };
  const name = mux.name;
  if (mux.drawsItself) return { value, why: why('report', `${name} draws pictures itself: sent to it unwrapped`) };
  if (value !== null) {
    return {
      value,
      why:
        mux.passthrough === true
          ? why('report', `inside ${name}, whose passthrough is on: wrapped for it`)
          : why('request', `inside ${name}, passthrough not known to be off: wrapped for it (asked to wrap unproven)`),
    };
  }
  if (name !== 'tmux' && name !== 'screen') return { value, why: why('report', `${name} passes no escape sequence`) };
  return {
    value,
    why:
      mux.passthrough === false
        ? why('report', `inside ${name}, whose passthrough is off: not wrapped`)
        : why('report', `inside ${name}, passthrough not proven: not wrapped`),
  };
}

function encoderDecision(
  report: PlannedReport,
  protocol: Protocol,
  wrap: Wrap,
  color: ColorDepth,
  symbols: readonly SymbolSetName[],
  asked: boolean,
  shortLivedAsked: boolean,
): Decided<EncoderPlan> {
  const background = report.background?.rgb ?? null;
  const bg = background ? `background rgb(${background.join(',')})` : 'background unknown (black)';
  switch (protocol) {
    case 'kitty': {
      // Inside a multiplexer, or where the layer drawing them keeps only placeholders (herdr).
      const placeholders = wrap !== null || report.placeholders === true;
      // N=1 only where both hold: the caller never places the picture again, and the terminal
      // takes the hint (an older kitty ignores the key; docs/draw.md, "The short-lived hint").
      const hint = report.shortLivedHint === true;
      const shortLived = shortLivedAsked && hint;
      const value = {
        protocol,
        placements: report.placements,
        placeholders,
        byFile: report.kittyLocalFile,
        placeholderColors: report.truecolor ? 'truecolor' : '256',
        shortLived,
      } as const;
      return {
        value,
        why: why(
          'report',
          [
            report.placements ? 'stored once and placed by id' : 'sent whole each time (no placements)',
            placeholders
              ? `Unicode placeholders (${wrap !== null ? `in ${wrap}` : 'the report: direct placements are dropped here'}), ids in ${value.placeholderColors} colour`
              : 'at the cursor',
            report.kittyLocalFile ? 'by file (the terminal read the probe’s file)' : 'inline',
            shortLived
              ? 'short-lived (N=1: shown once, kept out of the terminal’s disk cache)'
              : shortLivedAsked
                ? 'not marked short-lived (the terminal is not known to take N=1)'
                : hint
                  ? 'not marked short-lived (the caller may place it again; N=1 would let the terminal evict it first)'
                  : 'not marked short-lived',
          ].join('; '),
        ),
      };
    }
    case 'iterm2':
      return { value: { protocol }, why: why('report', 'an inline PNG (multipart behind a multiplexer)') };
    case 'sixel': {
      const wholeCells = inWholeCells(report.multiplexer);
      const wholeBands = report.sixelWholeBands;
      const value = {
        protocol,
        colors: report.sixelColors ?? null,
        transparency: report.sixelTransparency,
        wholeCells,
        wholeBands,
        background,
      };
      return {
        value,
        why: why(
          'report',
          [
            `${report.sixelColors ?? 256} colour registers${report.sixelColors ? '' : ' (assumed)'}`,
            report.sixelTransparency
              ? 'transparent pixels left unpainted (P2=1)'
              : `transparent pixels painted (${bg})`,
            ...(wholeCells ? ['whole cells (tmux draws sixel itself)'] : []),
            ...(wholeBands && !wholeCells
              ? ['whole six-row bands (the terminal paints a short last band, or it is unknown)']
              : []),
          ].join('; '),
        ),
      };
    }
    case 'symbols':
      return {
        value: { protocol, colorDepth: color, symbols, background },
        why: why(
          asked ? 'request' : 'report',
          `${asked ? 'the sets asked for' : `the sets safe here${reportSaid(report, 'symbols')}`}: ${symbols.join(', ')}; ${bg}`,
        ),
      };
    default:
      return { value: { protocol, colorDepth: color, background }, why: why('report', bg) };
  }
}

/** The largest GIF file handed to iTerm2 to play (bigger ones are redrawn frame by frame): 8 MiB. */
export const ITERM2_GIF_LIMIT = 8 * 1024 * 1024;

function animationDecision(
  report: PlannedReport,
  request: DrawRequest,
  protocol: Protocol,
  wrap: Wrap,
  encoder: EncoderPlan,
  env: NonNullable<DrawRequest['env']>,
  terminal: boolean,
): Decided<AnimationPlan | null> {
  if (!request.animate) return { value: null, why: why('default', 'no animation asked for: the first frame') };
  if (!terminal && !request.protocol)
    return { value: null, why: why('request', 'the output is not a terminal: the first frame only') };
  if (report.multiplexer || wrap)
    return { value: 'redraw', why: why('report', 'a multiplexer is in between: its frames are redrawn here') };
  if (protocol === 'iterm2')
    return { value: 'iterm2', why: why('report', 'iTerm2 plays a GIF file itself (up to 8 MiB); others are redrawn') };
  if (protocol === 'kitty' && encoder.protocol === 'kitty' && !encoder.placeholders) {
    const name = report.terminal.name;
    const named = name === null ? undefined : terminalByReplyName(name);
    const found = named ? { row: named, version: report.terminal.version } : identify({ env });
    if (found && holds(found.row.facts.animation, found.version))
      return {
        value: 'kitty',
        why: why('report', `the terminal database says ${found.row.id} plays kitty animations itself: one upload`),
      };
    return { value: 'redraw', why: why('report', 'this terminal is not known to play kitty animations: redrawn here') };
  }
  return { value: 'redraw', why: why('default', `${protocol} pictures are redrawn frame by frame`) };
}

/**
 * Who plays this file's animation under `plan`: the terminal (`kitty`, or `iterm2` for a GIF file
 * of at most `ITERM2_GIF_LIMIT` bytes), or null for the redraw loop.
 *
 * @example playedBy(plan, 'gif', 4096) // 'iterm2' in iTerm2
 */
export function playedBy(plan: Plan, format: string, fileBytes: number): 'kitty' | 'iterm2' | null {
  if (plan.animation === 'kitty') return 'kitty';
  if (plan.animation === 'iterm2') return format === 'gif' && fileBytes <= ITERM2_GIF_LIMIT ? 'iterm2' : null;
  return null;
}
