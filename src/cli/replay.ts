/**
 * `termsight replay FILE [--json]`: the report (and so the drawing decision: `graphics`, the
 * picture's protocol) of a recording `detect --record` made, offline and on any machine: the
 * recorded replies go through the same probe reducer at their recorded times (probe/recording.ts).
 */
import { readFileSync, statSync } from 'node:fs';
import { MAX_RECORDING_BYTES, parseRecording, replay } from '../probe/recording.js';
import { resolveReport } from '../report/resolve.js';
import { parse } from './args.js';
import { type CliContext, UsageError } from './context.js';
import { printReport } from './detect.js';

/** Runs `termsight replay`; returns the exit code. */
export async function runReplay(args: readonly string[], ctx: CliContext): Promise<number> {
  const { values, positionals } = parse('replay', args, { json: { type: 'boolean' } }, true);
  const file = positionals[0];
  if (file === undefined || positionals.length > 1) throw new UsageError('replay: give one recording file');
  let text: string;
  try {
    if (statSync(file).size > MAX_RECORDING_BYTES) throw new UsageError(`replay: ${file} is larger than a recording`);
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`replay: cannot read the recording: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  let recording: ReturnType<typeof parseRecording>;
  try {
    recording = parseRecording(text);
  } catch (error) {
    throw new UsageError(`replay: ${(error as Error).message}`);
  }
  const { runtime, facts, tmux } = replay(recording);
  printReport(ctx, resolveReport(runtime, facts, { stream: 'tty', tmux }), values.json === true);
  return 0;
}
