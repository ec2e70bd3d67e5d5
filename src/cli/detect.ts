/**
 * `termsight detect [--json] [--no-probe] [--timeout MS] [--trace]`: what this terminal can do and
 * why. It describes the terminal itself, reached through /dev/tty, even when stdout is a pipe.
 */

import { escapeBytes } from '../core/escape.js';
import { probeTty, type TraceEvent } from '../probe/driver.js';
import type { ProbeFacts } from '../probe/facts.js';
import { resolveReport } from '../report/resolve.js';
import type { Report, ReportField } from '../report/types.js';
import { parse, wholeNumber } from './args.js';
import type { CliContext } from './context.js';
import { type Style, styleFor } from './style.js';

/** Options shared by the commands that probe (`detect`, `show`, `demo`). */
export const PROBE_FLAGS = {
  'no-probe': { type: 'boolean' },
  timeout: { type: 'string' },
  trace: { type: 'boolean' },
} as const;

/** Probes the terminal (unless `--no-probe`) and resolves the report for the terminal itself. */
export async function detectReport(
  ctx: CliContext,
  flags: { readonly 'no-probe'?: boolean; readonly timeout?: string; readonly trace?: boolean },
): Promise<{ report: Report; facts?: ProbeFacts }> {
  const budgetMs = wholeNumber('--timeout', flags.timeout, 1);
  if (flags['no-probe']) return { report: resolveReport(ctx.runtime, undefined, { stream: 'tty' }) };
  const onTrace = flags.trace ? (event: TraceEvent) => traceLine(ctx, event) : undefined;
  const facts = await probeTty({
    runtime: ctx.runtime,
    ...(budgetMs !== undefined ? { budgetMs } : {}),
    ...(onTrace ? { onTrace } : {}),
  });
  return { report: resolveReport(ctx.runtime, facts, { stream: 'tty' }), facts };
}

function traceLine(ctx: CliContext, event: TraceEvent): void {
  const arrow = event.direction === 'out' ? '→' : '←';
  ctx.stderr.write(`${event.atMs.toFixed(2).padStart(8)} ms ${arrow} ${escapeBytes(event.bytes)}\n`);
}

/** Runs `termsight detect`; returns the exit code. */
export async function runDetect(args: readonly string[], ctx: CliContext): Promise<number> {
  const { values } = parse('detect', args, { json: { type: 'boolean' }, ...PROBE_FLAGS });
  const { report } = await detectReport(ctx, values);
  if (values.json) {
    ctx.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    ctx.stdout.write(formatReport(report, styleFor(ctx.runtime.env, ctx.stdout.isTTY)));
  }
  return 0;
}

const yesNo = (v: boolean) => (v ? 'yes' : 'no');

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
    ['placements', yesNo(report.placements)],
    ['hyperlinks', yesNo(report.hyperlinks)],
    ['truecolor', yesNo(report.truecolor)],
    ['synchronizedOutput', yesNo(report.synchronizedOutput)],
    ['cellPixels', report.cellPixels ? `${report.cellPixels.width}x${report.cellPixels.height}` : 'unknown'],
    ['background', report.background ? (report.background.dark ? 'dark' : 'light') : 'unknown'],
    ['sixelColors', report.sixelColors === null ? 'unknown' : String(report.sixelColors)],
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
    ['probe', report.probeMs === null ? 'not run' : `${report.probeMs.toFixed(1)} ms`],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  const valueWidth = Math.max(...rows.map(([, v]) => v.length));
  const lines = rows.map(([key, value]) => {
    const why = key === 'probe' ? undefined : report.why[key];
    const because = why
      ? style.dim(
          `${why.source}: ${why.detail}${why.reply && !why.detail.includes(why.reply) ? ` (${why.reply})` : ''}`,
        )
      : '';
    return `${style.bold(key.padEnd(width))}  ${value.padEnd(valueWidth)}  ${because}`.trimEnd();
  });
  if (report.multiplexer?.hint) lines.push('', report.multiplexer.hint);
  return `${lines.join('\n')}\n`;
}
