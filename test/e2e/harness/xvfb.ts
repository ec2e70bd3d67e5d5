/**
 * A private virtual X display: Xvfb picks a free display number itself (`-displayfd`) and tells us
 * which, so parallel runs and a developer's own X server never collide.
 */
import type { Readable } from 'node:stream';
import type { ProcessScope } from './processes.js';

/** A running Xvfb: its `DISPLAY` value and screen size. */
export interface Display {
  readonly display: string;
  readonly width: number;
  readonly height: number;
}

/** Starts Xvfb in `scope` and resolves once it accepts clients (it writes the display number then). */
export function startXvfb(scope: ProcessScope, width = 1024, height = 768, timeoutMs = 15_000): Promise<Display> {
  const child = scope.spawn(
    'Xvfb',
    ['-displayfd', '3', '-screen', '0', `${width}x${height}x24`, '-nolisten', 'tcp', '-noreset'],
    {
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    },
  );
  return new Promise<Display>((resolve, reject) => {
    let text = '';
    let stderr = '';
    const timer = setTimeout(
      () => finish(new Error(`Xvfb gave no display within ${timeoutMs} ms: ${stderr.trim()}`)),
      timeoutMs,
    );
    const finish = (error: Error | null, display?: Display) => {
      clearTimeout(timer);
      child.removeAllListeners('exit');
      if (error) reject(error);
      else resolve(display as Display);
    };
    (child.stderr as Readable).on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2000);
    });
    (child.stdio[3] as Readable).on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const match = /^(\d+)\n/.exec(text);
      if (match) finish(null, { display: `:${match[1]}`, width, height });
    });
    child.once('error', (error) => finish(error));
    child.once('exit', (code) => finish(new Error(`Xvfb exited (${code}) before giving a display: ${stderr.trim()}`)));
  });
}
