/**
 * Ctrl-Z and `fg` during `show --animate`, in a real pty under an interactive bash with job
 * control, read back through an independent terminal (xterm.js headless): while stopped the
 * cursor is visible and the shell's "Stopped" line is on a line of its own; after `fg` the
 * frames are drawn below, never over the shell's text (docs/cli.md, "Every way out").
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import * as pty from 'node-pty';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { repoRoot } from '../pty/harness.js';
import { ensureBuilt } from '../support/build.js';
import { scratchDir } from './show-support.js';
import { screenState, writeGif } from './signals-support.js';

// TERMSIGHT_MAIN runs the same cases against another build (to see them fail without job control).
const MAIN = process.env.TERMSIGHT_MAIN ?? join(repoRoot, 'dist', 'cli', 'main.js');
const COLS = 100;
const ROWS = 40;
let dir = '';
let gif = '';
let shells: pty.IPty[] = [];

beforeAll(() => {
  ensureBuilt();
  if (!existsSync(MAIN)) throw new Error('dist/cli/main.js was not built');
  dir = scratchDir();
  gif = writeGif(dir, 'anim.gif', 80, 40, 12, 5);
}, 120_000);

afterEach(() => {
  for (const shell of shells) shell.kill();
  shells = [];
});

vi.setConfig({ testTimeout: 60_000 });

/** An interactive bash (job control on) in a pty, and everything it has written. */
function bash(): {
  shell: pty.IPty;
  output: () => string;
  until: (test: (out: string) => boolean, what: string) => Promise<void>;
} {
  const shell = pty.spawn('bash', ['--norc', '--noprofile', '-i'], {
    cols: COLS,
    rows: ROWS,
    cwd: dir,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: dir,
      LANG: 'C.UTF-8',
      TERM: 'xterm-256color',
      PS1: 'PROMPT$ ',
    },
  });
  shells.push(shell);
  let output = '';
  shell.onData((d) => {
    output += d;
  });
  const until = async (test: (out: string) => boolean, what: string): Promise<void> => {
    const end = performance.now() + 15_000;
    while (!test(output)) {
      if (performance.now() > end)
        throw new Error(`timed out waiting for ${what}; ending ${JSON.stringify(output.slice(-300))}`);
      await sleep(20);
    }
  };
  return { shell, output: () => output, until };
}

/** The frames drawn so far: each is drawn between a cursor save and restore. */
const frames = (out: string) => out.split('\x1b8').length - 1;

describe.skipIf(!existsSync('/bin/bash') && !existsSync('/usr/bin/bash'))('Ctrl-Z and fg during show --animate', () => {
  it.each([
    { name: 'blocks', protocol: 'blocks' },
    { name: 'sixel', protocol: 'sixel' },
  ])('$name: cursor visible while stopped, nothing drawn over the shell after fg', async ({ protocol }) => {
    const { shell, output, until } = bash();
    await until((out) => out.includes('PROMPT$ '), 'the prompt');
    shell.write(`${process.execPath} ${MAIN} show ${gif} --animate --protocol ${protocol} --no-probe --width 30\r`);
    await until((out) => frames(out) > 4, 'frames');
    shell.write('\x1a'); // Ctrl-Z
    await until(
      (out) => /Stopped/.test(out) && out.lastIndexOf('PROMPT$ ') > out.indexOf('Stopped'),
      'the job stopped',
    );
    await sleep(300);
    const stopped = await screenState(output(), COLS, ROWS);
    expect(stopped.cursorVisible).toBe(true);
    // The shell's line is its own: nothing of the picture on it.
    const stoppedLine = stopped.text.split('\n').find((line) => line.includes('Stopped')) ?? '';
    expect(stoppedLine).toMatch(/^\[1\]\+\s+Stopped\s+/);

    const before = frames(output());
    shell.write('fg\r');
    await until((out) => frames(out) > before + 4, 'frames after fg');
    shell.write('\x03'); // Ctrl-C ends it
    await until((out) => out.lastIndexOf('PROMPT$ ') > out.lastIndexOf('\x1b8'), 'the prompt after Ctrl-C');
    await sleep(300);
    const after = await screenState(output(), COLS, ROWS);
    const lines = after.text.split('\n');
    // The shell's text is still there, each line whole: the stop line and the fg line.
    expect(lines.some((line) => /^\[1\]\+\s+Stopped\s+/.test(line))).toBe(true);
    expect(lines.some((line) => line === 'PROMPT$ fg')).toBe(true);
    const fgAt = lines.indexOf('PROMPT$ fg');
    const stoppedAt = lines.findIndex((line) => /Stopped/.test(line));
    expect(fgAt).toBeGreaterThan(stoppedAt);
    expect(after.cursorVisible).toBe(true);
  });
});
