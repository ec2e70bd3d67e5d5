/**
 * Ctrl-C in a real pty: the CLI draws a large sixel picture, the test sends ^C (the line
 * discipline turns it into SIGINT) while the picture is being written, and checks that the
 * output ends with the sequence closed and the terminal reset, and that the exit code is 130.
 * An independent parser (xterm.js) must still show text written after it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as pty from 'node-pty';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../support/build.js';
import { shellStatus } from '../support/exit-status.js';
import { scratchDir, screenAfter, writePng } from './show-support.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
let entry: string[] = [];
let big = '';

beforeAll(() => {
  ensureBuilt();
  if (!existsSync(join(root, 'dist', 'cli', 'show.js'))) throw new Error('dist/cli/show.js was not built');
  // The real CLI when it loads; until then a stand-in that runs the same runShow.
  const main = join(root, 'dist', 'cli', 'main.js');
  const usable = existsSync(main) && spawnSync(process.execPath, [main, '--version'], { stdio: 'pipe' }).status === 0;
  entry = usable ? [main, 'show'] : [join(root, 'test', 'cli', 'fixtures', 'show-entry.mjs')];
  big = writePng(scratchDir(), 'big.png', 1600, 1000, 5);
}, 120_000);

interface Run {
  output: string;
  exitCode: number;
}

function runInPty(args: string[], interruptWhen: (output: string) => boolean): Promise<Run> {
  return new Promise((done, fail) => {
    const child = pty.spawn(process.execPath, [...entry, ...args], {
      cols: 200,
      rows: 60,
      cwd: root,
      env: { PATH: process.env.PATH ?? '', TERM: 'xterm-256color', HOME: process.env.HOME ?? '/' },
    });
    let output = '';
    let sent = false;
    const timer = setTimeout(() => {
      child.kill();
      fail(new Error(`no exit within 60 s; output so far ${output.length} chars`));
    }, 60_000);
    child.onData((data) => {
      output += data;
      if (!sent && interruptWhen(output)) {
        sent = true;
        child.write('\x03');
      }
    });
    child.onExit(({ exitCode, signal }) => {
      clearTimeout(timer);
      done({ output, exitCode: shellStatus(exitCode, signal) });
    });
  });
}

describe('termsight show in a pty, interrupted with Ctrl-C', () => {
  it('sixel: the DCS is terminated, SGR reset, cursor shown, exit 130', async () => {
    const run = await runInPty([big, '--protocol', 'sixel', '--timeout', '50'], (out) => {
      const start = out.indexOf('\x1bP');
      return start >= 0 && out.length - start > 64 * 1024;
    });
    expect(run.exitCode).toBe(130);
    // The line discipline echoes ^C wherever it arrived; it is not ours.
    const output = run.output.replaceAll('^C', '');
    const start = output.indexOf('\x1bP');
    expect(start).toBeGreaterThanOrEqual(0);
    // It stopped mid-picture: the sixel data never reached its own end (the whole picture is megabytes).
    expect(output.length - start).toBeLessThan(2_000_000);
    const tail = output.slice(output.lastIndexOf('\x1b\\'));
    expect(tail).toContain('\x1b[0m');
    expect(output.endsWith('\x1b[?25h') || output.endsWith('\x1b[?25h\r\n')).toBe(true);
    const screen = await screenAfter(output, 'PROMPT$');
    expect(screen).toContain('PROMPT$');
  }, 90_000);
});
