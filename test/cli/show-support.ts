/**
 * Helpers for the `show` tests: captured streams, a report literal, test picture files, and an
 * independent terminal (xterm.js headless) to check that text written after a picture shows.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import xterm from '@xterm/headless';
import { encode as encodePng } from 'fast-png';
import type { CliContext, Output } from '../../src/cli/context.js';
import type { Report, ReportField, Why } from '../../src/report/types.js';

/** A writable that keeps everything written; `onWrite` sees each chunk (to abort mid-picture). */
export class Capture implements Output {
  readonly chunks: string[] = [];
  constructor(
    readonly isTTY = false,
    private readonly onWrite?: (chunk: string, count: number) => void,
  ) {}
  write(chunk: string | Uint8Array): boolean {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    this.chunks.push(text);
    this.onWrite?.(text, this.chunks.length);
    return true;
  }
  get text(): string {
    return this.chunks.join('');
  }
}

const why: Why = { source: 'default', detail: 'test' };

/** A report for a plain terminal with no graphics; fields overridable. */
export function report(over: Partial<Report> = {}): Report {
  const fields: ReportField[] = [
    'graphics',
    'symbols',
    'placements',
    'placeholders',
    'hyperlinks',
    'truecolor',
    'synchronizedOutput',
    'cellPixels',
    'background',
    'sixelColors',
    'sixelTransparency',
    'sixelWholeBands',
    'terminal',
    'multiplexer',
    'remote',
    'kittyLocalFile',
    'shortLivedHint',
  ];
  return {
    graphics: null,
    symbols: ['block'],
    placements: false,
    placeholders: false,
    hyperlinks: false,
    truecolor: true,
    synchronizedOutput: false,
    cellPixels: { width: 10, height: 20 },
    background: null,
    sixelColors: null,
    sixelTransparency: true,
    sixelWholeBands: false,
    terminal: { name: null, version: null },
    multiplexer: null,
    remote: false,
    kittyLocalFile: false,
    shortLivedHint: false,
    probeMs: null,
    why: Object.fromEntries(fields.map((f) => [f, why])) as Report['why'],
    ...over,
  };
}

/** A CLI context with captured output and `env`. */
export function context(
  options: {
    env?: Record<string, string>;
    stdoutTTY?: boolean;
    stdin?: Uint8Array;
    onWrite?: (chunk: string, count: number) => void;
  } = {},
) {
  const stdout = new Capture(options.stdoutTTY ?? false, options.onWrite);
  const stderr = new Capture();
  const ctx: CliContext = {
    runtime: { env: options.env ?? {}, isTTY: { stdout: options.stdoutTTY ?? false } },
    stdout,
    stderr,
    stdin: Readable.from(options.stdin ? [Buffer.from(options.stdin)] : []) as unknown as CliContext['stdin'],
  };
  return { ctx, stdout, stderr };
}

/** A directory of test files, made once. */
export function scratchDir(): string {
  return mkdtempSync(join(tmpdir(), 'termsight-show-'));
}

/** Writes a noisy RGBA PNG of `width` x `height` and returns its path. */
export function writePng(dir: string, name: string, width: number, height: number, seed = 1): string {
  const data = new Uint8Array(width * height * 4);
  let s = seed;
  for (let i = 0; i < data.length; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    data[i] = i % 4 === 3 ? 255 : s >>> 24;
  }
  const path = join(dir, name);
  writeFileSync(path, encodePng({ width, height, data, channels: 4, depth: 8 }));
  return path;
}

/**
 * Feeds `output` then a marker line to xterm.js (an independent parser) and returns the screen's
 * text: a sequence left open (DCS, APC, OSC) would swallow the marker.
 */
export async function screenAfter(output: string, marker: string): Promise<string> {
  const terminal = new xterm.Terminal({ allowProposedApi: true, cols: 120, rows: 40, convertEol: true }); // convertEol: a tty's ONLCR
  await new Promise<void>((resolve) => terminal.write(output + marker, resolve));
  const lines: string[] = [];
  const buffer = terminal.buffer.active;
  for (let y = 0; y < buffer.length; y++) lines.push(buffer.getLine(y)?.translateToString(true) ?? '');
  terminal.dispose();
  return lines.join('\n');
}
