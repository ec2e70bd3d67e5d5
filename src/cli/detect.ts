/**
 * `termsight detect [--json] [--no-probe] [--timeout MS] [--trace] [--tmux-passthrough]`: what this terminal can do and
 * why. It describes the terminal itself, reached through /dev/tty, even when stdout is a pipe.
 */
import { writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { escapeBytes } from '../core/escape.js';
import type { TraceEvent } from '../probe/driver.js';
import type { ProbeFacts } from '../probe/facts.js';
import { allowTmuxPassthrough, askTmux } from '../probe/tmux-client.js';
import type { TmuxFacts } from '../probe/tmux-formats.js';
import { resolveReport } from '../report/resolve.js';
import type { Report, ReportField, Why } from '../report/types.js';
import { parse, wholeNumber } from './args.js';
import { type CliContext, UsageError } from './context.js';
import { interruptKey, interruptOf } from './interrupt.js';
import { type Style, styleFor } from './style.js';
import { version } from './version.js';

/** Options shared by the commands that probe (`detect`, `show`, `demo`). */
export const PROBE_FLAGS = {
  'no-probe': { type: 'boolean' },
  'tmux-passthrough': { type: 'boolean' },
  timeout: { type: 'string' },
  trace: { type: 'boolean' },
} as const;

/**
 * Probes the terminal (unless `--no-probe`) and resolves the report for the terminal itself.
 * `ctx.stop` aborts the probe; so does Ctrl-C typed during it (the terminal is raw then, so it
 * comes as byte 0x03, handed back by the driver). With `settle`, it also waits out the driver's
 * late-reply window, so raw mode has ended before the caller's long synchronous work (decoding):
 * a Ctrl-C typed meanwhile is then a real SIGINT. The interrupt is thrown as an `Interrupt`.
 */
export async function detectReport(
  ctx: CliContext,
  flags: {
    readonly 'no-probe'?: boolean;
    readonly 'tmux-passthrough'?: boolean;
    readonly timeout?: string;
    readonly trace?: boolean;
    readonly settle?: boolean;
  },
  /** Sees every byte the probe writes and reads and every clock tick (`--record`'s recorder). */
  record?: { readonly onTrace: (event: TraceEvent) => void; readonly onTick: (atMs: number) => void },
): Promise<{ report: Report; facts?: ProbeFacts; tmux: TmuxFacts | null }> {
  const budgetMs = wholeNumber('--timeout', flags.timeout, 1);
  // On request only: passthrough on for this pane (as chafa does), before tmux is asked and probed.
  if (flags['tmux-passthrough']) await allowTmuxPassthrough(ctx.runtime.env);
  // tmux answers format queries with no escape traffic; asked beside the probe, bounded, never fatal.
  const asking = askTmux(ctx.runtime.env);
  if (flags['no-probe']) {
    const tmux = await asking;
    return { report: resolveReport(ctx.runtime, undefined, { stream: 'tty', tmux }), tmux };
  }
  const onTrace =
    flags.trace || record
      ? (event: TraceEvent) => {
          if (flags.trace) traceLine(ctx, event);
          record?.onTrace(event);
        }
      : undefined;
  const held: Uint8Array[] = [];
  const stop = ctx.stop;
  const onKeys = (bytes: Uint8Array): void => {
    const signal = interruptKey(bytes);
    if (signal && stop) stop.stop(signal);
    else held.push(bytes);
  };
  // The probe's driver loads only to probe: `show --no-probe` never compiles it.
  const { DEFAULT_LATE_MS, probeTty } = await import('../probe/driver.js');
  let facts: ProbeFacts;
  try {
    facts = await probeTty({
      runtime: ctx.runtime,
      lateMs: DEFAULT_LATE_MS,
      ...(budgetMs !== undefined ? { budgetMs } : {}),
      ...(onTrace ? { onTrace } : {}),
      ...(record ? { onTick: record.onTick } : {}),
      ...(stop ? { signal: stop.signal, onKeys } : {}),
    });
    if (flags.settle && facts.skipped === undefined) await sleep(DEFAULT_LATE_MS, undefined, { signal: stop?.signal });
  } catch (error) {
    const interrupt = interruptOf(stop?.signal);
    if (interrupt) throw interrupt;
    throw error;
  }
  // Keys typed during the probe are the user's: back onto stdin, as the driver would put them.
  if (held.length > 0 && ctx.stdin.isTTY) ctx.stdin.unshift(Buffer.concat(held));
  const tmux = await asking;
  return { report: resolveReport(ctx.runtime, facts, { stream: 'tty', tmux }), facts, tmux };
}

function traceLine(ctx: CliContext, event: TraceEvent): void {
  const arrow = event.direction === 'out' ? '→' : '←';
  ctx.stderr.write(`${event.atMs.toFixed(2).padStart(8)} ms ${arrow} ${escapeBytes(event.bytes)}\n`);
}

/** Runs `termsight detect`; returns the exit code. */
export async function runDetect(args: readonly string[], ctx: CliContext): Promise<number> {
  const { values } = parse('detect', args, { json: { type: 'boolean' }, record: { type: 'string' }, ...PROBE_FLAGS });
  const budgetMs = wholeNumber('--timeout', values.timeout, 1);
  const recorder =
    values.record === undefined
      ? null
      : (await import('../probe/recording.js')).createRecorder(
          ctx.runtime,
          version(),
          budgetMs !== undefined ? { budgetMs } : {},
        );
  const { report, facts, tmux } = await detectReport(ctx, values, recorder ?? undefined);
  if (recorder && values.record !== undefined) {
    // Written after the probe: the terminal is back to normal whatever the file system says.
    try {
      writeFileSync(values.record, `${JSON.stringify(recorder.finish(facts, tmux), null, 1)}\n`, { mode: 0o644 });
    } catch (error) {
      throw new UsageError(`detect: cannot write the recording: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
    }
  }
  printReport(ctx, report, values.json === true);
  return 0;
}

/** Prints a report as `detect` does: JSON, or aligned text with reasons. */
export function printReport(ctx: CliContext, report: Report, json: boolean): void {
  if (json) {
    // JSON escapes C0 but not C1 or bidi characters: every string goes through the one escaper.
    ctx.stdout.write(`${JSON.stringify(report, shownJson, 2)}\n`);
  } else {
    ctx.stdout.write(formatReport(report, styleFor(ctx.runtime.env, ctx.stdout.isTTY)));
  }
}

/** `JSON.stringify` replacer: strings as `escapeBytes` shows them (docs/cli.md, "Untrusted text"). */
function shownJson(_key: string, value: unknown): unknown {
  return typeof value === 'string' ? escapeBytes(value) : value;
}

const yesNo = (v: boolean) => (v ? 'yes' : 'no');

/** The database row an answer rests on and its fact's source: ` [row kitty: https://…]`. */
function sourceNote(why: Why): string {
  if (why.row === undefined && why.reference === undefined) return '';
  const row = why.row === undefined ? 'source' : `row ${why.row}`;
  return ` [${row}${why.reference === undefined ? '' : `: ${why.reference}`}]`;
}

/** The report as aligned text: one line per answer with its reason. */
export function formatReport(report: Report, style: Style): string {
  const rows: Array<[ReportField | 'probe', string]> = [
    [
      'terminal',
      report.terminal.name
        ? `${report.terminal.name}${report.terminal.version ? ` ${report.terminal.version}` : ''}`
        : 'unknown',
    ],
    ['graphics', report.graphics ?? 'off'],
    ['symbols', report.symbols.join(',')],
    ['placements', yesNo(report.placements)],
    ['placeholders', yesNo(report.placeholders)],
    ['hyperlinks', yesNo(report.hyperlinks)],
    ['truecolor', yesNo(report.truecolor)],
    ['synchronizedOutput', yesNo(report.synchronizedOutput)],
    ['cellPixels', report.cellPixels ? `${report.cellPixels.width}x${report.cellPixels.height}` : 'unknown'],
    ['background', report.background ? (report.background.dark ? 'dark' : 'light') : 'unknown'],
    ['sixelColors', report.sixelColors === null ? 'unknown' : String(report.sixelColors)],
    ['sixelTransparency', yesNo(report.sixelTransparency)],
    ['sixelWholeBands', yesNo(report.sixelWholeBands)],
    [
      'multiplexer',
      report.multiplexer
        ? `${report.multiplexer.name}${report.multiplexer.version ? ` ${report.multiplexer.version}` : ''}${
            report.multiplexer.passthrough === null
              ? ''
              : `, passthrough ${report.multiplexer.passthrough ? 'on' : 'off'}`
          }`
        : 'none',
    ],
    ['remote', yesNo(report.remote)],
    ['kittyLocalFile', yesNo(report.kittyLocalFile)],
    ['shortLivedHint', yesNo(report.shortLivedHint)],
    ['probe', report.probeMs === null ? 'not run' : `${report.probeMs.toFixed(1)} ms`],
  ];
  for (const row of rows) row[1] = escapeBytes(row[1]);
  const width = Math.max(...rows.map(([k]) => k.length));
  const valueWidth = Math.max(...rows.map(([, v]) => v.length));
  const lines = rows.map(([key, value]) => {
    const why = key === 'probe' ? undefined : report.why[key];
    // The report escapes what came from outside; escaping again is a no-op for it and a guard
    // for a report built elsewhere (docs/cli.md, "Untrusted text").
    const because = why
      ? style.dim(
          escapeBytes(
            `${why.source}: ${why.detail}${why.reply && !why.detail.includes(why.reply) ? ` (${why.reply})` : ''}${sourceNote(why)}`,
          ),
        )
      : '';
    return `${style.bold(key.padEnd(width))}  ${value.padEnd(valueWidth)}  ${because}`.trimEnd();
  });
  if (report.multiplexer?.hint) lines.push('', escapeBytes(report.multiplexer.hint));
  return `${lines.join('\n')}\n`;
}
