/**
 * An animated GIF played by kitty itself (issue 11): in Debian's kitty 0.26.5 under a private Xvfb,
 * `termsight show --animate` uploads the frames once and returns; the test then sees the picture
 * change colour on screenshots taken over time after the command has exited (kitty is playing
 * it, nothing of termsight's runs), and sees it gone after the wrapper deletes it (`a=d,d=A`:
 * the CLI's image id is random and not printed; deletion by id is checked in
 * test/render/kitty-animation.test.ts). Skipped, with the reason, where kitty, Xvfb or ImageMagick
 * are missing (under CI=true that is a failure).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { makeGif } from '../support/gif.js';
import { type ColourClass, colourExtents, type RgbImage } from './harness/pixels.js';
import { ProcessScope } from './harness/processes.js';
import { BASE_PROGRAMS, missingRequirements } from './harness/requirements.js';
import { encodePpm, screenshot, sessionPaths, waitFor } from './harness/session.js';
import { innerCommand, type Setup, terminalCommand, terminalEnv } from './harness/terminals.js';
import { shellQuote } from './harness/wrapper.js';
import { startXvfb } from './harness/xvfb.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const CLI_SCRIPT = join(ROOT, 'dist/cli/main.js');
const PATH = process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin';
const SETUP: Setup = { terminal: 'kitty', multiplexer: 'none' };
/** The frames' colours in the GIF's palette order (makeGif: red, green, blue, white). */
const FRAME_COLOURS: readonly ColourClass[] = ['red', 'green', 'blue'];
/** Pixels of a colour that count as the picture showing it (the picture is 20 columns wide). */
const SEEN = 400;

const missing = missingRequirements([...BASE_PROGRAMS, 'kitty'], PATH, CLI_SCRIPT);

/** The colours of the animation on a screenshot, each with its pixel count when over `SEEN`. */
function shownColours(image: RgbImage): ColourClass[] {
  const extents = colourExtents(image);
  return FRAME_COLOURS.filter((c) => extents[c].count > SEEN);
}

describe('availability of the animation cell', () => {
  it('has kitty, Xvfb and ImageMagick, or may be skipped (not under CI=true)', () => {
    if (process.env.CI === 'true') expect(missing).toEqual([]);
  });
});

describe.skipIf(missing.length > 0)('kitty plays a GIF after show --animate has returned', () => {
  const scope = new ProcessScope();
  const root = mkdtempSync(join(tmpdir(), 'termsight-e2e-anim-'));
  afterAll(async () => {
    await scope.stop();
    if (process.env.TERMSIGHT_E2E_KEEP === '1') console.log(`[e2e] animation files kept in ${root}`);
    else rmSync(root, { recursive: true, force: true });
  });

  it('frames change on screen with termsight gone, and the picture is gone after deletion', async () => {
    const display = await startXvfb(scope);
    const paths = sessionPaths(root);
    const home = join(root, 'home');
    mkdirSync(home, { recursive: true });
    // Three solid frames of 0.4 s, looping forever.
    const gif = join(root, 'rgb.gif');
    writeFileSync(gif, makeGif(96, 96, 3, { loop: 0, delayCs: 40 }));
    const file = (name: string) => shellQuote(join(root, name));
    const cli = [process.execPath, CLI_SCRIPT].map(shellQuote).join(' ');
    writeFileSync(
      paths.wrapper,
      [
        '#!/bin/sh',
        `printf '\\033[?25l\\033[H\\033[2J'`,
        `${cli} show --animate --width 20 ${shellQuote(gif)} 2> ${file('show.err')}; echo $? > ${file('show.rc')}`,
        // termsight has exited: from here on only kitty can change the picture.
        `: > ${file('shown')}`,
        `i=0; while [ ! -e ${file('go-delete')} ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done`,
        `printf '\\033_Ga=d,d=A,q=2\\033\\\\'`,
        `: > ${file('deleted')}`,
        'exec sleep 600',
        '',
      ].join('\n'),
    );
    const env = terminalEnv(SETUP, paths, { display: display.display, home, path: PATH });
    const argv = terminalCommand(SETUP, paths, innerCommand(SETUP, paths));
    scope.spawn(argv[0] as string, argv.slice(1), { env, stdio: 'ignore' });

    expect(await waitFor(() => existsSync(join(root, 'shown')), 30_000), 'show did not return').toBe(true);
    expect(readFileSync(join(root, 'show.rc'), 'utf8').trim(), readFileSync(join(root, 'show.err'), 'utf8')).toBe('0');
    // Screenshots over three seconds (more than two loops of 1.2 s) after show returned.
    const seen = new Set<ColourClass>();
    const shots: RgbImage[] = [];
    for (let i = 0; i < 12; i++) {
      const shot = await screenshot(scope, display.display);
      shots.push(shot);
      for (const c of shownColours(shot)) seen.add(c);
      await sleep(250);
    }
    for (const [i, s] of shots.entries()) writeFileSync(join(root, `anim-${i}.ppm`), encodePpm(s));
    expect([...seen].sort(), `colours seen over time (screens in ${root})`).toEqual(['blue', 'green', 'red']);

    writeFileSync(join(root, 'go-delete'), '');
    expect(await waitFor(() => existsSync(join(root, 'deleted')), 10_000)).toBe(true);
    await sleep(900); // kitty repaints on its own clock
    const after = await screenshot(scope, display.display);
    writeFileSync(join(root, 'deleted.ppm'), encodePpm(after));
    expect(shownColours(after), `after deletion: ${root}/deleted.ppm`).toEqual([]);
  }, 90_000);
});
