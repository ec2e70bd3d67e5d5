/**
 * kitty local transfer in a real kitty (Debian's 0.26.5 under a private Xvfb): `termsight detect`
 * says `kittyLocalFile` on kitty's own OK to the probe's `t=t` query; `termsight show` then sends
 * the picture by file (its output, recorded by `script`, holds a `t=t` command and no inline
 * payload), the screenshot shows the picture, and the file is gone afterwards (kitty deleted it).
 * Twice: with kitty's environment (the query in the first batch) and scrubbed (`env -i
 * TERM=xterm-256color HOME PATH`, as `sudo` or a container leaves it: kitty is named by its replies
 * alone and the query goes in the guarded round).
 * Skipped, with the reason, where kitty, Xvfb, ImageMagick or script are missing (under CI=true
 * that is a failure).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { encodePng } from '../../src/render/pixels/png.js';
import { colourExtents } from './harness/pixels.js';
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

const missing = missingRequirements([...BASE_PROGRAMS, 'kitty', 'script'], PATH, CLI_SCRIPT);

describe('availability of the kitty local-transfer cell', () => {
  it('has kitty, Xvfb, ImageMagick and script, or may be skipped (not under CI=true)', () => {
    if (process.env.CI === 'true') expect(missing).toEqual([]);
  });
});

/** The two environments the CLI runs in: kitty's own, and scrubbed (the `env -i` prefix, or none). */
const ENVIRONMENTS: readonly { name: string; scrubbed: boolean }[] = [
  { name: "kitty's environment: the query in the first batch", scrubbed: false },
  { name: 'scrubbed (env -i): kitty named by its replies, the query in the guarded round', scrubbed: true },
];

describe.skipIf(missing.length > 0).each(ENVIRONMENTS)(
  'kitty reads the picture from a file (t=t), $name',
  ({ scrubbed }) => {
    const scope = new ProcessScope();
    const root = mkdtempSync(join(tmpdir(), 'termsight-e2e-kitty-local-'));
    afterAll(async () => {
      await scope.stop();
      if (process.env.TERMSIGHT_E2E_KEEP === '1') console.log(`[e2e] kitty-local files kept in ${root}`);
      else rmSync(root, { recursive: true, force: true });
    });

    it('detect says kittyLocalFile, show draws by file, and the file is gone', async () => {
      const display = await startXvfb(scope);
      const paths = sessionPaths(root);
      const home = join(root, 'home');
      mkdirSync(home, { recursive: true });
      // A solid red picture, 200x120 pixels.
      const data = new Uint8Array(200 * 120 * 4);
      for (let i = 0; i < data.length; i += 4) data.set([230, 20, 20, 255], i);
      const png = join(root, 'red.png');
      writeFileSync(png, encodePng({ width: 200, height: 120, data }));
      const file = (name: string) => shellQuote(join(root, name));
      const scrub = scrubbed ? ['env', '-i', 'TERM=xterm-256color', `HOME=${home}`, `PATH=${PATH}`] : [];
      const cli = [...scrub, process.execPath, CLI_SCRIPT].map(shellQuote).join(' ');
      writeFileSync(
        paths.wrapper,
        [
          '#!/bin/sh',
          `${cli} detect --json > ${file('detect.json')} 2> ${file('detect.err')}`,
          `printf '\\033[H\\033[2J'`,
          // script records what show writes (it still goes to kitty, through script's pty): the picture
          // on the screenshot is the one recorded.
          `script -q -e -c ${shellQuote(`${cli} show ${shellQuote(png)}`)} ${file('show.out')}; echo $? > ${file('show.rc')}`,
          `printf '\\033[?25l'`,
          `: > ${file('shown')}`,
          'exec sleep 600',
          '',
        ].join('\n'),
      );
      const env = terminalEnv(SETUP, paths, { display: display.display, home, path: PATH });
      const argv = terminalCommand(SETUP, paths, innerCommand(SETUP, paths));
      scope.spawn(argv[0] as string, argv.slice(1), { env, stdio: 'ignore' });

      expect(await waitFor(() => existsSync(join(root, 'shown')), 30_000), 'show did not return').toBe(true);
      expect(readFileSync(join(root, 'show.rc'), 'utf8').trim()).toBe('0');
      const report = JSON.parse(readFileSync(join(root, 'detect.json'), 'utf8'));
      expect(report.kittyLocalFile, JSON.stringify(report.why.kittyLocalFile)).toBe(true);
      expect(report.why.kittyLocalFile.reply).toMatch(/^\\e_Gi=32;OK/);
      // Scrubbed, nothing but kitty's replies names it (no variable of kitty's reached the CLI).
      if (scrubbed) expect(report.why.terminal?.source, JSON.stringify(report.why.terminal)).toBe('reply');

      // The recorded output: the picture as a t=t command naming a file, no inline payload.
      const out = readFileSync(join(root, 'show.out'), 'latin1');
      const commands = [...out.matchAll(/\x1b_G([^;\x1b]*)(?:;([^\x1b]*))?\x1b\\/g)];
      const pictures = commands.filter((m) => /(^|,)a=[Tt](,|$)/.test(m[1] as string));
      expect(pictures).toHaveLength(1);
      expect(pictures[0]?.[1]).toMatch(/(^|,)t=t(,|$)/);
      const path = Buffer.from(pictures[0]?.[2] ?? '', 'base64').toString('utf8');
      expect(path).toContain('tty-graphics-protocol');
      // kitty read it and deleted it (show waits for that before exiting; its exit hook would delete it too).
      expect(existsSync(path)).toBe(false);

      await sleep(900); // kitty repaints on its own clock
      const shot = await screenshot(scope, display.display);
      writeFileSync(join(root, 'shown.ppm'), encodePpm(shot));
      // The red picture is on screen: about 200x120 pixels of it (kitty may scale by the cell grid).
      const red = colourExtents(shot).red;
      expect(red.count, `screenshot in ${root}/shown.ppm`).toBeGreaterThan(200 * 120 * 0.8);
    }, 90_000);
  },
);
