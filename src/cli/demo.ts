/**
 * `termsight demo` (what `npm start` runs): the report of this terminal, then the sample picture
 * shipped with the package, drawn with the protocol the report chose. One probe serves both.
 */
import { fileURLToPath } from 'node:url';
import { escapeBytes } from '../core/escape.js';
import { parse, wholeNumber } from './args.js';
import type { CliContext } from './context.js';
import { detectReport, formatReport, PROBE_FLAGS } from './detect.js';
import { runShowWith, untilInterrupted } from './show.js';
import { styleFor } from './style.js';

/** The sample picture shipped with the package. */
export const SAMPLE_PICTURE = fileURLToPath(new URL('../../assets/sample.png', import.meta.url));

/** Runs `termsight demo`; returns the exit code. */
export async function runDemo(args: readonly string[], ctx: CliContext): Promise<number> {
  const { values } = parse('demo', args, { ...PROBE_FLAGS, width: { type: 'string' } });
  // Every flag is checked before anything is written: a bad --width is one line, not half a demo.
  const width = String(wholeNumber('--width', values.width, 1) ?? 48);
  const { report } = await detectReport(ctx, values);
  const style = styleFor(ctx.runtime.env, ctx.stdout.isTTY);
  ctx.stdout.write(`${style.bold('This terminal')}\n${formatReport(report, style)}\n`);
  ctx.stdout.write(`${style.bold('A picture')} ${style.dim(`(${escapeBytes(SAMPLE_PICTURE)})`)}\n`);
  const show = (signal: AbortSignal) => runShowWith([SAMPLE_PICTURE, '--width', width], ctx, { report, signal });
  return ctx.stop ? show(ctx.stop.signal) : untilInterrupted(show);
}
