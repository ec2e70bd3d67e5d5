/**
 * The terminal database's text-picture and sixel facts, seen in the real terminals (issue 11):
 * each cell starts one terminal under Xvfb, draws the facts screen (harness/facts-screen.ts: all
 * 60 sextants, all 230 octants, and two half-red sixel pictures with P2=1 and P2=0 on a green
 * background), takes a screenshot and judges it from the pixels against what the database says
 * for that terminal at the version its own replies name (`termsight detect --json` in the cell):
 *
 * - a glyph set the row says the terminal draws: every glyph of it drawn as its pattern, part by
 *   part; a set it does not: not all of them (no font on the system has these glyphs, checked
 *   with fc-list, so what is drawn right is drawn by the terminal itself);
 * - where the terminal draws sixel, the row's `sixelTransparency`: P2=1 leaves the green showing
 *   beside the red half, P2=0 does not; a sixel terminal without the fact fails the cell.
 *
 * Changing one of those facts in the database fails its cell. Debian 12's kitty and xterm run on
 * the machine; the rest in the Debian 13 chroot (TERMSIGHT_E2E_TRIXIE, as in trixie.test.ts).
 * Skipped with the reason where programs are missing (under CI=true that is a failure).
 * TERMSIGHT_E2E_KEEP=1 keeps the screenshots (PPM) in the temp directory.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dottedVersion, glyphsAt, supports, terminalById } from '../../src/terminals/lookup.js';
import { factsScreen, findGrid, judgeGlyphs, judgeSixel } from './harness/facts-screen.js';
import type { RgbImage } from './harness/pixels.js';
import { ProcessScope } from './harness/processes.js';
import { BASE_PROGRAMS, missingRequirements } from './harness/requirements.js';
import {
  encodePpm,
  runProgram,
  screenshot,
  sessionPaths,
  stableScreenshot,
  waitFor,
  writeTerminalFiles,
} from './harness/session.js';
import { inSystem, type System, systemProblems, systemRoot } from './harness/system.js';
import { innerCommand, programsFor, type Setup, terminalCommand, terminalEnv } from './harness/terminals.js';
import { shellQuote } from './harness/wrapper.js';
import { type Display, startXvfb } from './harness/xvfb.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const CLI_SCRIPT = join(ROOT, 'dist/cli/main.js');
const PATH = process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin';
const KEEP = process.env.TERMSIGHT_E2E_KEEP === '1';

/** One cell: a terminal, the database row its facts are read from, and whether it draws sixel. */
interface FactCell {
  readonly name: string;
  readonly setup: Setup;
  readonly row: string;
  /** Whether the terminal draws sixel here (the P2 pictures are judged only then). */
  readonly sixel: boolean;
  /**
   * Where the terminal's replies carry no version (Alacritty's DA2 carries its library's), the
   * program that prints it and how to read it: the facts are judged at that version.
   */
  readonly versionCommand?: { readonly argv: readonly string[]; readonly pattern: RegExp };
  /**
   * P2=0 leaves untouched pixels showing what is under them too (mlterm before 3.9.4 never fills
   * them); else P2=0 fills them, the control that P2=1's transparency is the terminal's doing.
   */
  readonly neverFills?: true;
}

const CELLS: readonly FactCell[] = [
  { name: 'kitty (Debian 12)', setup: { terminal: 'kitty', multiplexer: 'none' }, row: 'kitty', sixel: false },
  {
    name: 'xterm as a VT340 (Debian 12)',
    setup: { terminal: 'xterm-vt340', multiplexer: 'none' },
    row: 'xterm',
    sixel: true,
  },
  {
    name: 'mlterm (Debian 12)',
    setup: { terminal: 'mlterm', multiplexer: 'none' },
    row: 'mlterm',
    sixel: true,
    // mlterm 3.9.0 sends no XTVERSION; its row's TERM=mlterm sign names it (ssh forwards TERM).
    versionCommand: { argv: ['mlterm', '--version'], pattern: /^mlterm version (\d+\.\d+\.\d+)/ },
    neverFills: true,
  },
  {
    name: 'kitty (Debian 13)',
    setup: { terminal: 'kitty', multiplexer: 'none', system: 'trixie' },
    row: 'kitty',
    sixel: false,
  },
  {
    name: 'xterm as a VT340 (Debian 13)',
    setup: { terminal: 'xterm-vt340', multiplexer: 'none', system: 'trixie' },
    row: 'xterm',
    sixel: true,
  },
  {
    name: 'Konsole (Debian 13)',
    setup: { terminal: 'konsole', multiplexer: 'none', system: 'trixie' },
    row: 'konsole',
    sixel: true,
  },
  {
    name: 'foot (Debian 13)',
    setup: { terminal: 'foot', multiplexer: 'none', system: 'trixie' },
    row: 'foot',
    sixel: true,
  },
  {
    // Debian 13's VTE draws no sixel (with `enable-sixel=true` in GNOME Terminal's profile, tried
    // by hand: DA1 ?61;1;21;22;28c, no picture), so only its glyphs are judged.
    name: 'GNOME Terminal on VTE (Debian 13)',
    setup: { terminal: 'vte', multiplexer: 'none', system: 'trixie' },
    row: 'vte',
    sixel: false,
  },
  {
    name: 'Alacritty (Debian 13)',
    setup: { terminal: 'alacritty', multiplexer: 'none', system: 'trixie' },
    row: 'alacritty',
    sixel: false,
    versionCommand: { argv: ['alacritty', '--version'], pattern: /^alacritty (\d+\.\d+\.\d+)/ },
  },
];

/** Why the cells of a system cannot run (empty: they can). */
function problemsOf(system: System, cells: readonly FactCell[]): string[] {
  const programs = [...new Set(cells.flatMap((c) => programsFor(c.setup))), 'fc-list'];
  const missing = missingRequirements(
    system === 'host' ? [...BASE_PROGRAMS, ...programs] : [...BASE_PROGRAMS],
    PATH,
    CLI_SCRIPT,
  );
  if (system === 'host') return missing;
  const root = systemRoot(system, process.env);
  if (root === undefined) return [...missing, 'TERMSIGHT_E2E_TRIXIE is not set (.ci/run builds the Debian 13 chroot)'];
  return [
    ...missing,
    ...systemProblems({
      root: root as string,
      programs,
      shared: [CLI_SCRIPT, process.execPath, tmpdir()],
      privileged: process.getuid?.() === 0,
    }),
  ];
}

/** What one cell saw. */
interface Seen {
  readonly shot: RgbImage;
  readonly version: string | null;
  readonly reportName: string | null;
  /** fc-list's fonts covering U+1FB00 and U+1CD00 in the cell's system (expected: none). */
  readonly fonts: string;
  readonly dir: string;
}

for (const system of ['host', 'trixie'] as const) {
  const cells = CELLS.filter((c) => (c.setup.system ?? 'host') === system);
  const problems = problemsOf(system, cells);
  if (problems.length > 0) console.log(`[e2e] facts (${system}): skipped: ${problems.join('; ')}`);

  describe(`availability of the facts cells (${system})`, () => {
    it('has what they need, or may be skipped (not under CI=true)', () => {
      if (process.env.CI === 'true') expect(problems).toEqual([]);
    });
  });

  describe.skipIf(problems.length > 0)(
    `terminal facts from the screen (${system === 'host' ? 'Debian 12' : 'Debian 13'})`,
    () => {
      const xscope = new ProcessScope();
      const root = mkdtempSync(join(tmpdir(), 'termsight-e2e-facts-'));
      const chroot = system === 'host' ? null : (systemRoot(system, process.env) as string);
      let display: Display;

      beforeAll(async () => {
        display = await startXvfb(xscope);
      }, 30_000);

      afterAll(async () => {
        await xscope.stop();
        if (KEEP) console.log(`[e2e] facts screenshots kept in ${root}`);
        else rmSync(root, { recursive: true, force: true });
      });

      describe.each(cells)('$name', (cell) => {
        let seen: Seen | undefined;
        let failure: unknown;
        const scope = new ProcessScope();

        beforeAll(async () => {
          try {
            seen = await drawFacts(cell, scope, display, root, chroot);
          } catch (error) {
            failure = error;
          }
        }, 60_000);
        afterAll(() => scope.stop());

        const look = (): Seen => {
          if (seen === undefined) throw failure instanceof Error ? failure : new Error(String(failure));
          return seen;
        };
        const row = terminalById(cell.row);

        it('names itself, and no font on the system has sextants or octants', () => {
          const { reportName, fonts } = look();
          expect(row, cell.row).toBeDefined();
          expect(reportName?.toLowerCase(), 'the terminal termsight names in the cell').toBe(row?.name.toLowerCase());
          expect(fonts, 'fonts with U+1FB00 or U+1CD00 (the glyphs would then be the font’s)').toBe('');
        });

        const SETS = [
          { name: 'sextants', set: 'sextants' },
          { name: 'octants', set: 'octants' },
        ] as const;
        it.each(SETS)('draws $name itself exactly where the database says', ({ set }) => {
          const { shot, version, dir } = look();
          const grid = findGrid(shot);
          expect(grid, `no blue calibration row on ${dir}/facts.ppm`).not.toBeNull();
          const verdict = judgeGlyphs(shot, grid as NonNullable<typeof grid>, set);
          const says = glyphsAt(row as NonNullable<typeof row>, version).includes(set);
          const detail = `${cell.name} ${version}: ${verdict.drawn}/${verdict.total} drawn; wrong: ${verdict.wrong.join(' ')}; ${dir}/facts.ppm`;
          if (says) expect(verdict.drawn, detail).toBe(verdict.total);
          else expect(verdict.drawn, detail).toBeLessThan(verdict.total);
        });

        // Only where the terminal draws sixel at all: a terminal without it has no row to skip.
        if (cell.sixel)
          it('honours sixel P2=1 exactly where the database says', () => {
            const { shot, version, dir } = look();
            const grid = findGrid(shot);
            expect(grid).not.toBeNull();
            const verdict = judgeSixel(shot, grid as NonNullable<typeof grid>);
            const detail = `${cell.name} ${version}: ${JSON.stringify(verdict)}; ${dir}/facts.ppm`;
            expect(verdict.transparent.red, `no P2=1 picture: ${detail}`).not.toBeNull();
            expect(verdict.painted.red, `no P2=0 picture: ${detail}`).not.toBeNull();
            // P2=0 fills what the picture leaves: no green there (else P2=1's green would prove nothing),
            // except where the terminal never fills (then P2=1's pixels show what is under them all the more).
            if (cell.neverFills) expect(verdict.painted.green, detail).toBeGreaterThan(0.9);
            else expect(verdict.painted.green, detail).toBeLessThan(0.1);
            const fact = (row as NonNullable<typeof row>).facts.sixelTransparency;
            expect(fact, `${cell.row} has no sixelTransparency fact: ${detail}`).toBeDefined();
            if (supports(row as NonNullable<typeof row>, 'sixelTransparency', version))
              expect(verdict.transparent.green, detail).toBeGreaterThan(0.9);
            else expect(verdict.transparent.green, detail).toBeLessThan(0.1);
          });
      });
    },
  );
}

/** Runs one cell: detect in the terminal, then the facts screen; returns the screenshot and what detect said. */
async function drawFacts(
  cell: FactCell,
  scope: ProcessScope,
  display: Display,
  root: string,
  chroot: string | null,
): Promise<Seen> {
  const dir = mkdtempSync(join(root, `${cell.row}-`));
  const paths = sessionPaths(dir);
  const home = writeTerminalFiles(paths);
  const screen = join(dir, 'facts.txt');
  writeFileSync(screen, factsScreen());
  const file = (name: string) => shellQuote(join(dir, name));
  const cli = [process.execPath, CLI_SCRIPT].map(shellQuote).join(' ');
  writeFileSync(
    paths.wrapper,
    [
      '#!/bin/sh',
      // A terminal still starting (kitty 0.41 on software OpenGL) may answer after the probe's budget.
      'sleep 1',
      `${cli} detect --json > ${file('detect.json')} 2> ${file('detect.err')}`,
      `cat ${shellQuote(screen)}`,
      `: > ${file('shown')}`,
      'exec sleep 600',
      '',
    ].join('\n'),
  );
  const env = terminalEnv(cell.setup, paths, { display: display.display, home, path: PATH });
  const argv = inSystem(chroot, terminalCommand(cell.setup, paths, innerCommand(cell.setup, paths)));
  scope.spawn(argv[0] as string, argv.slice(1), { env, stdio: 'ignore' });
  const fonts = await runProgram(
    scope,
    inSystem(chroot, ['sh', '-c', "fc-list ':charset=1fb00'; fc-list ':charset=1cd00'"]),
    process.env,
  );
  if (!(await waitFor(() => existsSync(join(dir, 'shown')), 40_000)))
    throw new Error(`the facts screen was not drawn; files in ${dir}`);
  await sleep(cell.setup.terminal === 'kitty' ? 900 : 600);
  const shot = await stableScreenshot(() => screenshot(scope, display.display));
  writeFileSync(join(dir, 'facts.ppm'), encodePpm(shot));
  const report = JSON.parse(readFileSync(join(dir, 'detect.json'), 'utf8')) as {
    terminal?: { name?: string; version?: string | null };
  };
  const row = terminalById(cell.row);
  let raw = report.terminal?.version ?? null;
  if (raw === null && cell.versionCommand) {
    const printed = await runProgram(scope, inSystem(chroot, cell.versionCommand.argv), process.env);
    raw = cell.versionCommand.pattern.exec(printed.stdout.toString('utf8'))?.[1] ?? null;
  }
  return {
    shot,
    version: raw !== null && row ? dottedVersion(row, raw) : raw,
    reportName: report.terminal?.name ?? null,
    fonts: fonts.stdout.toString('utf8').trim(),
    dir,
  };
}
