/**
 * The suite of termsight in real terminal emulators (issue 6), as a function so that the known
 * findings can run strictly in their own file (test/e2e/findings/).
 * termsight in real terminal emulators (issue 6): xterm, xterm as a VT340, kitty, tmux inside them
 * with passthrough off and on, GNU screen, each with the terminal's environment and with a scrubbed
 * one. The real CLI runs inside; its `detect --json` is checked against the table in cases.ts and
 * the picture `show` draws is checked on a screenshot.
 *
 * Needs Xvfb, ImageMagick's `import`, xterm, kitty, tmux, screen (`.ci/e2e-deps.sh` installs them)
 * and the built CLI. Without them the suite is skipped and says why; under CI=true that is a failure.
 * TERMSIGHT_E2E_KEEP=1 keeps each session's files (screenshot, outputs) in the temp directory.
 * TERMSIGHT_E2E_CLI=/path/to/termsight runs another build of the CLI.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Check,
  ENVIRONMENTS,
  type EnvironmentKind,
  EXPECTATIONS,
  type Expectation,
  expectationIn,
  FINDING_BREAKS,
  FINDINGS,
  type FindingId,
  pictureKind,
  TRIXIE_EXPECTATIONS,
} from './cases.js';
import { inkedLines, screenDiff, titleChanges } from './harness/garbage.js';
import { judgePicture, quadrantPng } from './harness/picture.js';
import { type Box, grow, type RgbImage, strayInk, terminalArea } from './harness/pixels.js';
import { ProcessScope } from './harness/processes.js';
import { judgeReport } from './harness/report-check.js';
import { BASE_PROGRAMS, missingRequirements } from './harness/requirements.js';
import { strayLines } from './harness/screen-text.js';
import { PANE_SHIFT, runSession, type SessionResult } from './harness/session.js';
import { type System, systemProblems, systemRoot, TRIXIE_VARIABLE } from './harness/system.js';
import { GEOMETRY, programsFor, setupName, textSource } from './harness/terminals.js';
import { RESULT_FILES } from './harness/wrapper.js';
import { type Display, startXvfb } from './harness/xvfb.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const CLI_SCRIPT = join(ROOT, 'dist/cli/main.js');
const CLI: string[] = process.env.TERMSIGHT_E2E_CLI ? [process.env.TERMSIGHT_E2E_CLI] : [process.execPath, CLI_SCRIPT];
const PATH = process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin';
const KEEP = process.env.TERMSIGHT_E2E_KEEP === '1';
/**
 * The test picture's side in pixels: small, even, and not a multiple of 6, so a terminal that
 * paints the rest of a sixel's last band (issue 24: Konsole, foot) shows a band unless termsight
 * sizes the picture to whole bands.
 */
const PICTURE_SIZE = 100;
const SHOW_ARGS = ['--width', '20'];

/** One cell: a setup in one environment. */
export interface Case {
  readonly name: string;
  readonly expected: Expectation;
  readonly environment: EnvironmentKind;
  /** The findings this cell shows today (see FINDINGS): checked only when the suite is strict. */
  readonly findings: readonly FindingId[];
}

/** The cells of a table of expectations: each setup in each environment. */
export function casesOf(expectations: readonly Expectation[]): Case[] {
  return expectations.flatMap((expected) =>
    ENVIRONMENTS.map((environment) => ({
      name: `${setupName(expected.setup)} (${environment} env)`,
      expected: expectationIn(expected, environment),
      environment,
      findings: expected.findings?.[environment] ?? [],
    })),
  );
}

/** Every cell of the table on the machine's own Debian. */
export const CASES: Case[] = casesOf(EXPECTATIONS);

/** Every cell of the Debian 13 table (run in the chroot `.ci/run` builds). */
export const TRIXIE_CASES: Case[] = casesOf(TRIXIE_EXPECTATIONS);

/** How one suite runs. */
export interface SuiteOptions {
  /** The describe block's title, and the name of its results file (test/e2e/results/NAME.md). */
  readonly title: string;
  readonly name: string;
  readonly cases: readonly Case[];
  /**
   * Strict: a cell's known findings are asserted like everything else (red until termsight is
   * fixed). Not strict: every check runs, but the one property a known finding breaks is left to
   * the strict suite.
   */
  readonly strict: boolean;
  /** Where the cells' programs come from (every case's setup names the same system); the machine's own by default. */
  readonly system?: System;
}

/** One line of the closing table. */
interface Row {
  setup: string;
  env: EnvironmentKind;
  graphics: string;
  terminal: string;
  multiplexer: string;
  probeMs: string;
  detect: string;
  show: string;
  clean: string;
  garbage: string;
  refresh: string;
  /** How late the output after `show` reached the screen (see SessionResult.lateMs). */
  late: string;
  seconds: string;
}

/** Declares the suite. */
export function terminalSuite({ title, name, cases, strict, system = 'host' }: SuiteOptions): void {
  const cellPrograms = [...new Set(cases.flatMap((c) => programsFor(c.expected.setup)))];
  const chrootDir = systemRoot(system, process.env);
  const missing = missingRequirements(
    system === 'host' ? [...BASE_PROGRAMS, ...cellPrograms] : [...BASE_PROGRAMS],
    PATH,
    process.env.TERMSIGHT_E2E_CLI ?? CLI_SCRIPT,
  );
  if (chrootDir === undefined) {
    missing.push(`${TRIXIE_VARIABLE} is not set (.ci/run builds the Debian 13 chroot and sets it)`);
  } else if (chrootDir !== null) {
    missing.push(
      ...systemProblems({
        root: chrootDir,
        programs: cellPrograms,
        // The wrapper runs the CLI with this node inside the chroot, and writes its files under /tmp.
        shared: [CLI_SCRIPT, process.execPath, tmpdir()],
        privileged: process.getuid?.() === 0,
      }),
    );
  }
  if (missing.length > 0) console.log(`[e2e] ${title}: skipped: ${missing.join('; ')}`);

  describe('end-to-end suite availability', () => {
    it('has what it needs, or may be skipped (under CI=true a skipped suite is a failure)', () => {
      if (process.env.CI === 'true') expect(missing, 'the end-to-end suite cannot run in CI').toEqual([]);
    });
  });

  describe.skipIf(missing.length > 0)(title, () => {
    let xscope: ProcessScope;
    let display: Display;
    let root: string;
    let image: string;
    const rows: Row[] = [];
    const leftovers: string[] = [];

    beforeAll(async () => {
      xscope = new ProcessScope();
      root = mkdtempSync(join(tmpdir(), 'termsight-e2e-'));
      image = join(root, 'quadrants.png');
      writeFileSync(image, quadrantPng(PICTURE_SIZE));
      display = await startXvfb(xscope);
    }, 30_000);

    afterAll(async () => {
      await xscope?.stop();
      const live = xscope?.live() ?? [];
      if (live.length > 0) leftovers.push(`Xvfb scope: ${live.join(' ')}`);
      printTable(title, name, rows);
      if (leftovers.length > 0) console.log(`[e2e] processes left behind: ${leftovers.join('; ')}`);
      if (root && !KEEP) rmSync(root, { recursive: true, force: true });
      else if (root) console.log(`[e2e] session files kept in ${root}`);
    });

    describe.each(cases)('$name', ({ expected, environment, findings }) => {
      /** Whether this check runs here: always, unless a known finding breaks it and the suite is lenient. */
      const checks = (check: Check) => strict || !findings.some((f) => FINDING_BREAKS[f].includes(check));
      const known = (check: Check) => `known: ${findings.filter((f) => FINDING_BREAKS[f].includes(check)).join(', ')}`;
      let scope: ProcessScope;
      let result: SessionResult | undefined;
      let failure: unknown;
      const row: Row = {
        setup: setupName(expected.setup),
        env: environment,
        graphics: '-',
        terminal: '-',
        multiplexer: '-',
        probeMs: '-',
        detect: 'not run',
        show: 'not run',
        clean: 'not run',
        garbage: 'not run',
        refresh: '-',
        late: '-',
        seconds: '-',
      };
      rows.push(row);

      beforeAll(async () => {
        scope = new ProcessScope();
        const dir = mkdtempSync(join(root, `${row.setup.replace(/\W+/g, '-')}-${environment}-`));
        try {
          result = await runSession({
            scope,
            display: display.display,
            setup: expected.setup,
            dir,
            cli: CLI,
            image,
            showArgs: SHOW_ARGS,
            scrubbed: environment === 'scrubbed',
            path: PATH,
            root: chrootDir ?? null,
            movePane: expected.followsPane === true,
          });
          row.seconds = (result.elapsedMs / 1000).toFixed(1);
          row.late = result.lateMs === null ? 'never' : (result.lateMs / 1000).toFixed(1);
        } catch (error) {
          failure = error;
          row.detect = row.show = row.clean = row.garbage = 'no session';
        }
      }, 60_000);

      afterAll(async () => {
        await scope?.stop();
        const live = scope?.live() ?? [];
        if (live.length > 0) leftovers.push(`${row.setup} ${environment}: ${live.join(' ')}`);
      });

      const session = (): SessionResult => {
        if (result === undefined) throw failure instanceof Error ? failure : new Error(String(failure));
        return result;
      };

      it(`detect --json reports ${expected.graphics}${expected.terminal ? ` on ${expected.terminal}` : ''}`, () => {
        const { detect } = session();
        row.detect = 'FAIL';
        expect(detect.exitCode, `detect exited ${detect.exitCode}; stderr: ${detect.stderr}`).toBe(0);
        let report: unknown;
        expect(() => (report = JSON.parse(detect.stdout ?? '')), `stdout is not JSON: ${detect.stdout}`).not.toThrow();
        const r = report as {
          graphics?: unknown;
          terminal?: { name?: unknown };
          multiplexer?: { name?: unknown; passthrough?: unknown } | null;
          probeMs?: unknown;
        };
        row.graphics = String(r.graphics);
        row.terminal = String(r.terminal?.name ?? '-');
        row.multiplexer = r.multiplexer ? `${String(r.multiplexer.name)} pt=${String(r.multiplexer.passthrough)}` : '-';
        row.probeMs = typeof r.probeMs === 'number' ? r.probeMs.toFixed(1) : String(r.probeMs);
        if (!checks('report')) {
          row.detect = known('report');
          return;
        }
        const problems = judgeReport(report, expected);
        expect(problems, `report: ${detect.stdout}`).toEqual([]);
        row.detect = 'ok';
      });

      it(`show draws the picture (${pictureKind(expected.graphics)}) below the cursor`, () => {
        const { show, screenshot, paths } = session();
        row.show = 'FAIL';
        expect(show.exitCode, `show exited ${show.exitCode}; stderr: ${show.stderr}`).toBe(0);
        const area = terminalArea(screenshot);
        expect(area, 'no terminal on the screenshot').not.toBeNull();
        if (!checks('picture')) {
          row.show = known('picture');
          return;
        }
        const verdict = judgePicture(screenshot, area as Box, pictureKind(expected.graphics), cellOf(area as Box));
        expect(verdict.problems, `screenshot: ${paths.dir}/screen.ppm (TERMSIGHT_E2E_KEEP=1 keeps it)`).toEqual([]);
        row.show = 'ok';
      });

      // Only tmux rows have this test (a skipped test elsewhere would read as a gap in the table).
      if (expected.survivesRefresh !== undefined) {
        it('the picture survives a full tmux redraw where tmux knows its cells', () => {
          const { refreshed, screenshot, paths } = session();
          expect(refreshed, 'no screenshot after refresh-client').not.toBeNull();
          const area = terminalArea(screenshot) as Box;
          const before = judgePicture(screenshot, area, pictureKind(expected.graphics), cellOf(area));
          const after = judgePicture(refreshed as RgbImage, area, pictureKind(expected.graphics), cellOf(area));
          row.refresh = before.problems.length > 0 ? 'n/a' : after.problems.length === 0 ? 'kept' : 'wiped';
          if (expected.survivesRefresh && checks('picture'))
            expect(after.problems, `${paths.dir}/refreshed.ppm`).toEqual([]);
        });
      }

      if (expected.followsPane) {
        it('the picture moves with its pane and disappears with it', () => {
          const { screenshot, paneMoves, paths } = session();
          expect(paneMoves, 'the pane was not split and killed').not.toBeNull();
          if (!checks('picture')) return;
          const { split, killed } = paneMoves as NonNullable<SessionResult['paneMoves']>;
          const area = terminalArea(screenshot) as Box;
          const cell = cellOf(area);
          const kind = pictureKind(expected.graphics);
          const before = judgePicture(screenshot, area, kind, cell);
          // Judged in the picture's pane only: tmux's pane border (green when active) is beside it.
          const pane = { ...area, left: Math.round(area.left + PANE_SHIFT * cell.width) };
          const moved = judgePicture(split, pane, kind, cell);
          expect(moved.problems, `after split-window: ${paths.dir}/split.ppm`).toEqual([]);
          const shift = (moved.box as Box).left - (before.box as Box).left;
          expect(
            Math.abs(shift - PANE_SHIFT * cell.width),
            `the picture moved ${shift} px; its pane moved ${PANE_SHIFT} columns of ${cell.width.toFixed(1)} px`,
          ).toBeLessThanOrEqual(cell.width);
          const gone = judgePicture(killed, area, kind, cell);
          const left = ['red', 'green', 'blue', 'yellow'].filter((c) => gone.extents[c as 'red'].count > 0);
          expect(left, `colours of the picture still on the screen after kill-pane: ${paths.dir}/killed.ppm`).toEqual(
            [],
          );
        });
      }

      it('the recording detect --record made replays to the same report outside the terminal', () => {
        const { detect, paths } = session();
        const file = join(paths.dir, RESULT_FILES.detectRecording);
        expect(existsSync(file), 'detect --record wrote no recording').toBe(true);
        // Another machine, as far as the report can tell: this process, outside the chroot, with
        // none of the terminal's environment.
        const replayed = execFileSync(process.execPath, [CLI_SCRIPT, 'replay', file, '--json'], {
          encoding: 'utf8',
          env: { PATH },
          timeout: 20_000,
        });
        expect(answersOf(JSON.parse(replayed))).toEqual(answersOf(JSON.parse(detect.stdout ?? '{}')));
      });

      it('leaves no stray text on the screen and no reply pending on the tty', () => {
        const { detect, show, screenshot, text, paths } = session();
        row.clean = 'FAIL';
        expect(detect.leaked.toString('latin1'), 'bytes pending on the tty after detect').toBe('');
        expect(show.leaked.toString('latin1'), 'bytes pending on the tty after show').toBe('');
        // GNU screen cannot report its text faithfully (see session.ts), and some setups have no way
        // to read it (terminals.ts TextSource); there the screenshot judges alone.
        if (!checks('stray')) {
          row.clean = known('stray');
          return;
        }
        const source = textSource(expected.setup);
        if (source !== null && source !== 'hardcopy') {
          expect(text, 'the screen text could not be read').not.toBeNull();
          expect(strayLines(text as string), 'screen text').toEqual([]);
        }
        const area = terminalArea(screenshot) as Box;
        const cell = cellOf(area);
        const verdict = judgePicture(screenshot, area, pictureKind(expected.graphics), cell);
        const allowed = [verdict.box, verdict.before, verdict.after]
          .filter((b): b is Box => b !== null)
          .map((b) => grow(b, Math.ceil(cell.width)));
        const ink = strayInk(screenshot, area, allowed);
        expect(ink.count, `stray ink at ${JSON.stringify(ink.box)} in ${paths.dir}/screen.ppm`).toBe(0);
        row.clean = 'ok';
      });

      it('detect --json (nothing printed) leaves the screen, its text and every title as they were', () => {
        const { looks, paths } = session();
        const { baseline, detect } = looks;
        row.garbage = 'FAIL';
        const whole = { left: 0, top: 0, right: baseline.screenshot.width, bottom: baseline.screenshot.height };
        const diff = screenDiff(baseline.screenshot, detect.screenshot, whole);
        if (checks('screen')) {
          expect(
            diff,
            `pixels changed by detect at ${JSON.stringify(diff.box)}: ${paths.dir}/screen-baseline.ppm vs screen-detect.ppm`,
          ).toEqual({ count: 0, box: null });
        }
        if (textSource(expected.setup) !== null && checks('screen')) {
          expect(detect.text, 'the screen text after detect could not be read').not.toBeNull();
          expect(inkedLines(detect.text as string), 'screen text after detect').toEqual([]);
        }
        expect(Object.keys(baseline.titles).length, 'no window title was read at all').toBeGreaterThan(0);
        if (checks('window-title')) {
          expect(titleChanges(baseline.titles, detect.titles), 'window titles after detect').toEqual([]);
        }
        if (checks('pane-title')) expect(detect.paneTitle, 'tmux pane title after detect').toBe(baseline.paneTitle);
        row.garbage = 'ok';
      });

      it('show leaves every window title and the tmux pane title as they were', () => {
        const { looks, finalTitles, finalPaneTitle } = session();
        const detectClean = row.garbage === 'ok';
        row.garbage = 'FAIL';
        if (checks('window-title')) {
          expect(titleChanges(looks.baseline.titles, finalTitles), 'window titles after show').toEqual([]);
        }
        if (checks('pane-title')) expect(finalPaneTitle, 'tmux pane title after show').toBe(looks.baseline.paneTitle);
        if (detectClean) row.garbage = strict || findings.length === 0 ? 'ok' : `known: ${findings.join(', ')}`;
      });
    });

    it('left no process behind', () => {
      expect(leftovers).toEqual([]);
    });
  });
}

/** A report's answers: everything but the probe's duration and the reasons' wording. */
function answersOf(report: Record<string, unknown>): Record<string, unknown> {
  const { probeMs: _, why, ...rest } = report;
  const sources = Object.fromEntries(
    Object.entries((why ?? {}) as Record<string, { source?: unknown }>).map(([k, v]) => [k, v.source]),
  );
  return { ...rest, sources };
}

/** A cell's size in pixels, from the terminal's text area and its fixed geometry. */
function cellOf(area: Box): { width: number; height: number } {
  return { width: (area.right - area.left) / GEOMETRY.columns, height: (area.bottom - area.top) / GEOMETRY.rows };
}

/** Prints the results table and writes it to test/e2e/results/NAME.md (git-ignored). */
function printTable(title: string, name: string, rows: readonly Row[]): void {
  const header: Row = {
    setup: 'terminal',
    env: 'env' as EnvironmentKind,
    graphics: 'graphics',
    terminal: 'name',
    multiplexer: 'multiplexer',
    probeMs: 'probe ms',
    detect: 'detect',
    show: 'show',
    clean: 'clean',
    garbage: 'garbage',
    refresh: 'refresh',
    late: 'late s',
    seconds: 'run s',
  };
  const keys = Object.keys(header) as (keyof Row)[];
  const widths = keys.map((k) => Math.max(...[header, ...rows].map((r) => String(r[k]).length)));
  const line = (r: Row) => `| ${keys.map((k, i) => String(r[k]).padEnd(widths[i])).join(' | ')} |`;
  const out = [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)];
  console.log(`\n[e2e] ${title}\n${out.join('\n')}\n`);
  const dir = join(ROOT, 'test/e2e/results');
  mkdirSync(dir, { recursive: true });
  const notes = Object.entries(FINDINGS).map(([id, text]) => `- \`${id}\`: ${text}`);
  writeFileSync(join(dir, `${name}.md`), `# ${title}\n\n${out.join('\n')}\n\nKnown findings:\n\n${notes.join('\n')}\n`);
}
