/**
 * The suite of termsight in xterm.js, as a function so that its known findings run strictly in
 * their own file (test/e2e/findings/). termsight in xterm.js, VS Code's terminal engine, in a real browser (headless Chromium, see
 * harness/browser.ts), with the image addon on and off, and the environments VS Code gives: its
 * own (`TERM_PROGRAM=vscode`), a scrubbed one (as over ssh), and VS Code started from kitty
 * (`KITTY_WINDOW_ID` inherited). The real CLI runs on a real pty whose replies come from xterm.js.
 * Judged from the page's screenshot and xterm.js's own buffer: exact pixels where the addon draws
 * them (2-px stripes intact), a text picture where it cannot, nothing left behind.
 *
 * Needs Debian's chromium (`.ci/e2e-deps.sh`) and the built CLI; without them the suite is skipped
 * with the reason, and under CI=true that is a failure.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IPty } from 'node-pty';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Protocol } from '../../src/env/protocol.js';
import {
  type Bridge,
  type Browser,
  CHROMIUM,
  openTerminal,
  startBrowser,
  startPageServer,
  type WiredTerminal,
  XTERMJS_GEOMETRY,
} from './harness/browser.js';
import { inkedLines, screenDiff } from './harness/garbage.js';
import { judgeExact, judgePicture, quadrantPng, stripedQuadrantPng, stripedQuadrants } from './harness/picture.js';
import type { Box, RgbImage } from './harness/pixels.js';
import { record } from './harness/recording.js';
import { strayLines } from './harness/screen-text.js';
import { encodePpm, stableScreenshot, waitFor } from './harness/session.js';
import { CHECKPOINTS, type Checkpoint, RESULT_FILES, wrapperScript } from './harness/wrapper.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const CLI_SCRIPT = join(ROOT, 'dist/cli/main.js');
const PATH = process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin';
const KEEP = process.env.TERMSIGHT_E2E_KEEP === '1';
/** The striped picture's side: a multiple of 4 (stripes) and of 6 (a sixel band). */
const PICTURE_SIZE = 96;

/** The environments VS Code gives its terminal's programs. */
const VSCODE_ENV = {
  TERM: 'xterm-256color',
  COLORTERM: 'truecolor',
  TERM_PROGRAM: 'vscode',
  TERM_PROGRAM_VERSION: '1.96.0',
  LANG: 'C.UTF-8',
} as const;

type EnvKind = 'vscode' | 'scrubbed' | 'vscode-from-kitty';

function environment(kind: EnvKind, home: string): Record<string, string> {
  const base = { HOME: home, PATH };
  if (kind === 'vscode-from-kitty') return { ...base, ...VSCODE_ENV, KITTY_WINDOW_ID: '1', KITTY_PID: '4242' };
  return { ...base, ...VSCODE_ENV };
}

/**
 * What termsight does wrong in xterm.js today: asserted strictly in test/e2e/findings/ (not in
 * `npm test` yet); in the main suite the cell runs only the checks the finding does not break.
 */
export const XTERMJS_FINDINGS = {
  // None today: 'kitty-window-id' (kitty graphics chosen by an inherited KITTY_WINDOW_ID although
  // xterm.js answered the probe) was fixed by issue 15's report side and its cell is checked in full.
} as const;

/** One finding's id. */
export type XtermjsFindingId = keyof typeof XTERMJS_FINDINGS;

/** One cell. */
export interface XtermCase {
  readonly name: string;
  readonly images: boolean;
  readonly env: EnvKind;
  /** The protocols that draw this picture right here. */
  readonly accepted: readonly Protocol[];
  /** Known findings (XTERMJS_FINDINGS): in the main suite, the choice and the picture are left to the strict suite. */
  readonly findings: readonly XtermjsFindingId[];
}

const PIXELS: readonly Protocol[] = ['sixel', 'iterm2'];
const TEXT: readonly Protocol[] = ['symbols', 'braille', 'blocks'];
/** Every cell: the image addon on and off in each environment. */
export const XTERMJS_CASES: readonly XtermCase[] = (['vscode', 'scrubbed', 'vscode-from-kitty'] as const).flatMap(
  (env) => [
    { name: `xterm.js + image addon (${env} env)`, images: true, env, accepted: PIXELS, findings: [] },
    {
      name: `xterm.js, no addon (${env} env)`,
      images: false,
      env,
      accepted: TEXT,
      findings: [],
    },
  ],
);

const REPLIES = join(ROOT, 'test/fixtures/replies');

/** The recordings of xterm.js's replies this suite makes and checks. */
const RECORDINGS = [
  { name: 'xterm.js alone', file: 'xtermjs.json', images: false },
  { name: 'xterm.js with the image addon', file: 'xtermjs-image.json', images: true },
] as const;

function packageVersion(name: string): string {
  return (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string })
    .version;
}

/** How one suite runs (see SuiteOptions in suite.ts). */
export interface XtermjsSuiteOptions {
  readonly title: string;
  readonly name: string;
  readonly cases: readonly XtermCase[];
  readonly strict: boolean;
}

interface Look {
  readonly screenshot: RgbImage;
  readonly text: string;
  readonly titles: string[];
}

interface XtermSession {
  readonly dir: string;
  readonly looks: Record<Checkpoint | 'final', Look>;
  readonly detectJson: string;
  readonly detectRc: string;
  readonly showRc: string;
  readonly showErr: string;
  readonly leaks: { detect: string; show: string };
}

const read = (path: string) => (existsSync(path) ? readFileSync(path, 'latin1') : '');

async function runXtermSession(
  term: WiredTerminal,
  c: XtermCase,
  dir: string,
  image: string,
): Promise<{ session: XtermSession; pty: IPty }> {
  const home = join(dir, 'home');
  mkdirSync(home, { recursive: true });
  const env = environment(c.env, home);
  const script = join(dir, 'wrapper.sh');
  writeFileSync(
    script,
    wrapperScript({
      dir,
      cli: [process.execPath, CLI_SCRIPT],
      image,
      showArgs: ['--width', '20'],
      ...(c.env === 'scrubbed' ? { scrubbedEnv: { TERM: 'xterm-256color', HOME: home, PATH } } : {}),
    }),
  );
  const pty = await term.spawn(['sh', script], env, dir);
  const look = async (name: string): Promise<Look> => {
    await term.drained();
    // The renderer paints on the next frames, and the image addon decodes on its own time.
    const shot = await stableScreenshot(() => term.screenshot(), 200);
    writeFileSync(join(dir, `${name}.ppm`), encodePpm(shot));
    return { screenshot: shot, text: await term.text(), titles: await term.titles() };
  };
  const reach = async (file: string) => {
    if (!(await waitFor(() => existsSync(join(dir, file)), 30_000))) throw new Error(`the wrapper never wrote ${file}`);
  };
  const looks = {} as Record<Checkpoint | 'final', Look>;
  for (const name of CHECKPOINTS) {
    await reach(`at-${name}`);
    looks[name] = await look(name);
    writeFileSync(join(dir, `go-${name}`), '');
  }
  await reach(RESULT_FILES.done);
  looks.final = await look('final');
  const f = (name: string) => read(join(dir, name));
  return {
    pty,
    session: {
      dir,
      looks,
      detectJson: f(RESULT_FILES.detectJson),
      detectRc: f(RESULT_FILES.detectRc).trim(),
      showRc: f(RESULT_FILES.showRc).trim(),
      showErr: f(RESULT_FILES.showErr),
      leaks: { detect: f(RESULT_FILES.detectLeak), show: f(RESULT_FILES.showLeak) },
    },
  };
}

/** One line of the closing table. */
interface Row {
  cell: string;
  graphics: string;
  probeMs: string;
  pixels: string;
  garbage: string;
}

/** Declares the suite. */
export function xtermjsSuite({ title, name, cases, strict }: XtermjsSuiteOptions): void {
  const missing = [
    ...(existsSync(CHROMIUM) ? [] : [`${CHROMIUM} is not installed (apt-get install chromium)`]),
    ...(existsSync(CLI_SCRIPT) ? [] : [`${CLI_SCRIPT} does not exist (npm run build)`]),
  ];
  if (missing.length > 0) console.log(`[e2e] xterm.js suite skipped: ${missing.join('; ')}`);

  describe('xterm.js suite availability', () => {
    it('has what it needs, or may be skipped (under CI=true a skipped suite is a failure)', () => {
      if (process.env.CI === 'true') expect(missing, 'the xterm.js suite cannot run in CI').toEqual([]);
    });
  });

  describe.skipIf(missing.length > 0)(title, () => {
    let browser: Browser;
    let server: Server;
    let url: string;
    let bridge: Bridge;
    let root: string;
    /** Pixel cells show the stripes (judged exactly), text cells the solid quadrants (judged by colour). */
    let stripes: string;
    let quadrants: string;
    const rows: Row[] = [];

    beforeAll(async () => {
      root = mkdtempSync(join(tmpdir(), 'termsight-xtermjs-'));
      stripes = join(root, 'stripes.png');
      writeFileSync(stripes, stripedQuadrantPng(PICTURE_SIZE));
      quadrants = join(root, 'quadrants.png');
      writeFileSync(quadrants, quadrantPng(PICTURE_SIZE));
      ({ server, url, bridge } = await startPageServer(ROOT));
      browser = await startBrowser();
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      await new Promise((r) => server?.close(r));
      printTable(title, name, rows);
      if (root && !KEEP) rmSync(root, { recursive: true, force: true });
      else if (root) console.log(`[e2e] xterm.js session files kept in ${root}`);
    });

    // xterm.js's own replies, recorded into test/fixtures/replies/ (TERMSIGHT_RECORD=1 writes them
    // anew); otherwise the live replies must be the recorded ones, byte for byte.
    describe.runIf(!strict).each(RECORDINGS)('replies: $name, $file', ({ file, images }) => {
      it(`xterm.js ${images ? 'with' : 'without'} the image addon answers as ${file} recorded`, async () => {
        const term = await openTerminal(browser, url, bridge, images);
        try {
          const queries = (
            JSON.parse(readFileSync(join(REPLIES, 'xterm.json'), 'utf8')) as {
              results: { name: string; query: string }[];
            }
          ).results.map(({ name, query }) => ({ name, query }));
          const header = {
            name: file.replace(/\.json$/, ''),
            version: `@xterm/xterm ${packageVersion('@xterm/xterm')}${images ? `, @xterm/addon-image ${packageVersion('@xterm/addon-image')}` : ''}`,
            recordedAt: new Date().toISOString(),
            node: process.version,
            winsize: [XTERMJS_GEOMETRY.columns, XTERMJS_GEOMETRY.rows],
            env: {},
            note: `no pty/env: xterm.js in headless Chromium (playwright-core), replies captured from onData; font DejaVu Sans Mono ${XTERMJS_GEOMETRY.fontSize}px, white background`,
          };
          const live = await record(header, queries, (bytes, n) => term.exchange(bytes, n));
          const path = join(REPLIES, file);
          if (process.env.TERMSIGHT_RECORD === '1') writeFileSync(path, `${JSON.stringify(live, null, 1)}\n`);
          const recorded = JSON.parse(readFileSync(path, 'utf8')) as typeof live & {
            summary: Record<string, string>;
            batch: { reply: string };
          };
          const summary = live.summary as Record<string, string>;
          for (const name of ['DA1', 'DA2', 'XTVERSION']) expect(summary[name], name).toBe(recorded.summary[name]);
          expect((live.batch as { reply: string }).reply, 'the batch').toBe(recorded.batch.reply);
        } finally {
          await term.close();
        }
      });
    });

    describe.each(cases)('$name', (c) => {
      const lenient = !strict && c.findings.length > 0;
      let session: XtermSession | undefined;
      let failure: unknown;
      let term: WiredTerminal | undefined;
      let pty: IPty | undefined;
      const row: Row = { cell: c.name, graphics: '-', probeMs: '-', pixels: 'not run', garbage: 'not run' };
      rows.push(row);

      beforeAll(async () => {
        try {
          term = await openTerminal(browser, url, bridge, c.images);
          const dir = mkdtempSync(join(root, `${c.images ? 'addon' : 'plain'}-${c.env}-`));
          ({ session, pty } = await runXtermSession(term, c, dir, c.accepted === PIXELS ? stripes : quadrants));
        } catch (error) {
          failure = error;
        }
      }, 60_000);

      afterAll(async () => {
        pty?.kill('SIGKILL');
        await term?.close();
      });

      const got = (): XtermSession => {
        if (session === undefined) throw failure instanceof Error ? failure : new Error(String(failure));
        return session;
      };

      if (lenient) row.graphics = row.pixels = `known: ${c.findings.join(', ')}`;
      // Left out, not skipped, where a known finding breaks them (the strict suite asserts them).
      if (!lenient)
        it(`detect --json chooses ${c.accepted.join(' or ')}`, () => {
          const s = got();
          expect(s.detectRc, `detect exited ${s.detectRc}`).toBe('0');
          const report = JSON.parse(s.detectJson) as { graphics: string; probeMs: number | null; why: unknown };
          row.graphics = String(report.graphics);
          row.probeMs = typeof report.probeMs === 'number' ? report.probeMs.toFixed(1) : String(report.probeMs);
          expect(c.accepted, `report: ${s.detectJson}`).toContain(report.graphics);
        });

      // Left out, not skipped, where a known finding breaks them (the strict suite asserts them).
      if (!lenient)
        it(c.accepted === PIXELS ? 'show draws the stripes pixel for pixel' : 'show draws a text picture', () => {
          const s = got();
          row.pixels = 'FAIL';
          expect(s.showRc, `show exited ${s.showRc}: ${s.showErr}`).toBe('0');
          const shot = s.looks.final.screenshot;
          const area: Box = { left: 0, top: 0, right: shot.width, bottom: shot.height };
          const cell = { width: shot.width / XTERMJS_GEOMETRY.columns, height: shot.height / XTERMJS_GEOMETRY.rows };
          const kind = c.accepted === PIXELS ? 'pixels' : 'dots';
          const placed = judgePicture(shot, area, kind, cell);
          expect(placed.problems, `${s.dir}/final.ppm`).toEqual([]);
          if (kind === 'pixels') {
            const tolerance = row.graphics === 'sixel' ? 2 : 0;
            expect(judgeExact(shot, area, stripedQuadrants(PICTURE_SIZE), PICTURE_SIZE, tolerance)).toEqual([]);
          } else {
            expect(s.looks.final.text).toMatch(/[\u2800-\u28ff\u2580-\u259f]/u);
          }
          row.pixels = 'ok';
        });

      it('leaves nothing behind: screen, buffer and title unchanged by detect, no escape text, nothing on the tty', () => {
        const s = got();
        row.garbage = 'FAIL';
        const { baseline, detect, final } = s.looks;
        const whole = { left: 0, top: 0, right: baseline.screenshot.width, bottom: baseline.screenshot.height };
        expect(screenDiff(baseline.screenshot, detect.screenshot, whole), 'pixels changed by detect').toEqual({
          count: 0,
          box: null,
        });
        expect(inkedLines(detect.text), 'buffer after detect').toEqual([]);
        expect(strayLines(final.text), 'buffer after show').toEqual([]);
        expect(final.titles, 'titles set').toEqual([]);
        expect(s.leaks.detect, 'bytes pending on the tty after detect').toBe('');
        expect(s.leaks.show, 'bytes pending on the tty after show').toBe('');
        row.garbage = 'ok';
      });
    });
  });
}

function printTable(title: string, name: string, rows: readonly Row[]): void {
  const header: Row = {
    cell: 'cell',
    graphics: 'graphics',
    probeMs: 'probe ms',
    pixels: 'picture',
    garbage: 'garbage',
  };
  const keys = Object.keys(header) as (keyof Row)[];
  const widths = keys.map((k) => Math.max(...[header, ...rows].map((r) => r[k].length)));
  const line = (r: Row) => `| ${keys.map((k, i) => r[k].padEnd(widths[i])).join(' | ')} |`;
  const out = [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)];
  console.log(`\n[e2e] ${title}\n${out.join('\n')}\n`);
  const dir = join(ROOT, 'test/e2e/results');
  mkdirSync(dir, { recursive: true });
  const notes = Object.entries(XTERMJS_FINDINGS).map(([id, text]) => `- \`${id}\`: ${text}`);
  writeFileSync(join(dir, `${name}.md`), `# ${title}\n\n${out.join('\n')}\n\nKnown findings:\n\n${notes.join('\n')}\n`);
}
