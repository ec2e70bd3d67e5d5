/**
 * The end-to-end harness's own tests: the screenshot analysis on synthetic screens (a right
 * picture, and each way a picture can be wrong), the report judgement, the wrapper script, and
 * that a process scope stops everything it started, daemons included. These run everywhere.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decode } from 'fast-png';
import { describe, expect, it } from 'vitest';
import { EXPECTATIONS, type Expectation } from './cases.js';
import {
  childWindows,
  inkedLines,
  screenDiff,
  titleChanges,
  titleLines,
  type WindowTitles,
} from './harness/garbage.js';
import { judgePicture, type PictureKind, quadrantPng } from './harness/picture.js';
import {
  type Box,
  type ColourClass,
  classify,
  parsePpm,
  type RgbImage,
  strayInk,
  terminalArea,
} from './harness/pixels.js';
import { isLive, ProcessScope } from './harness/processes.js';
import { judgeReport } from './harness/report-check.js';
import { strayLines } from './harness/screen-text.js';
import { encodePpm, sessionPaths, stableScreenshot, waitFor } from './harness/session.js';
import { innerCommand, type Setup, terminalCommand, terminalEnv, xtermPrinterScript } from './harness/terminals.js';
import { CHECKPOINTS, shellQuote, wrapperScript } from './harness/wrapper.js';

type Rgb = readonly [number, number, number];
const WHITE: Rgb = [255, 255, 255];
const BLACK: Rgb = [0, 0, 0];

function screen(width: number, height: number, fill: Rgb = WHITE): RgbImage {
  const data = new Uint8Array(width * height * 3);
  for (let i = 0; i < data.length; i += 3) data.set(fill, i);
  return { width, height, data };
}

function paint(image: RgbImage, box: Box, rgb: Rgb, every = 1): void {
  for (let y = box.top; y < box.bottom; y++) {
    for (let x = box.left; x < box.right; x++) {
      // `every` > 1 leaves gaps, like braille dots.
      if ((x - box.left) % every === 0 && (y - box.top) % every === 0) image.data.set(rgb, (y * image.width + x) * 3);
    }
  }
}

const CELL = { width: 8, height: 16 };
const AREA: Box = { left: 0, top: 0, right: 640, bottom: 384 };

interface Layout {
  picture?: Box;
  colours?: [Rgb, Rgb, Rgb, Rgb];
  before?: Box | null;
  after?: Box | null;
  every?: number;
  /** Painted last: e.g. a band a multiplexer left under the picture. */
  extra?: { box: Box; rgb: Rgb };
}

/** A synthetic terminal screen: marker row, the four quadrants, marker row. */
function drawnScreen(layout: Layout = {}): RgbImage {
  const image = screen(AREA.right, AREA.bottom);
  const picture = layout.picture ?? { left: 0, top: 16, right: 96, bottom: 112 };
  const [tl, tr, bl, br] = layout.colours ?? [
    [255, 0, 0],
    [0, 255, 0],
    [0, 0, 255],
    [255, 255, 0],
  ];
  const midX = Math.floor((picture.left + picture.right) / 2);
  const midY = Math.floor((picture.top + picture.bottom) / 2);
  const every = layout.every ?? 1;
  paint(image, { left: picture.left, top: picture.top, right: midX, bottom: midY }, tl, every);
  paint(image, { left: midX, top: picture.top, right: picture.right, bottom: midY }, tr, every);
  paint(image, { left: picture.left, top: midY, right: midX, bottom: picture.bottom }, bl, every);
  paint(image, { left: midX, top: midY, right: picture.right, bottom: picture.bottom }, br, every);
  const before = layout.before === undefined ? { left: 0, top: 0, right: 160, bottom: 16 } : layout.before;
  const after = layout.after === undefined ? { left: 0, top: 112, right: 160, bottom: 128 } : layout.after;
  if (before) paint(image, before, [255, 0, 255]);
  if (after) paint(image, after, [0, 255, 255]);
  if (layout.extra) paint(image, layout.extra.box, layout.extra.rgb);
  return image;
}

describe('classify', () => {
  it.each<{ name: string; rgb: Rgb; cls: ColourClass }>([
    { name: '[255, 0, 0] is red', rgb: [255, 0, 0], cls: 'red' },
    { name: '[205, 0, 0] is red', rgb: [205, 0, 0], cls: 'red' }, // xterm's palette red
    { name: '[0, 255, 0] is green', rgb: [0, 255, 0], cls: 'green' },
    { name: '[0, 205, 0] is green', rgb: [0, 205, 0], cls: 'green' },
    { name: '[0, 0, 255] is blue', rgb: [0, 0, 255], cls: 'blue' },
    { name: '[0, 0, 238] is blue', rgb: [0, 0, 238], cls: 'blue' },
    { name: '[255, 255, 0] is yellow', rgb: [255, 255, 0], cls: 'yellow' },
    { name: '[205, 205, 0] is yellow', rgb: [205, 205, 0], cls: 'yellow' },
    { name: '[255, 0, 255] is magenta', rgb: [255, 0, 255], cls: 'magenta' },
    { name: '[205, 0, 205] is magenta', rgb: [205, 0, 205], cls: 'magenta' },
    { name: '[0, 255, 255] is cyan', rgb: [0, 255, 255], cls: 'cyan' },
    { name: '[255, 255, 255] is light', rgb: [255, 255, 255], cls: 'light' },
    { name: '[230, 230, 235] is light', rgb: [230, 230, 235], cls: 'light' },
    { name: '[0, 0, 0] is dark', rgb: [0, 0, 0], cls: 'dark' },
    { name: '[40, 40, 40] is dark', rgb: [40, 40, 40], cls: 'dark' },
    { name: '[128, 128, 128] is other', rgb: [128, 128, 128], cls: 'other' }, // anti-aliased text
    { name: '[255, 180, 180] is other', rgb: [255, 180, 180], cls: 'other' }, // a red glyph's blended edge
    { name: '[255, 128, 0] is other', rgb: [255, 128, 0], cls: 'other' }, // orange is none of ours
  ])('$name', ({ rgb, cls }) => {
    expect(classify(...rgb)).toBe(cls);
  });
});

describe('parsePpm', () => {
  it('reads back what encodePpm wrote', () => {
    const image = drawnScreen();
    const back = parsePpm(encodePpm(image));
    expect(back.width).toBe(image.width);
    expect(back.height).toBe(image.height);
    expect(Buffer.from(back.data).equals(Buffer.from(image.data))).toBe(true);
  });
  it('skips comments in the header', () => {
    const bytes = Buffer.concat([Buffer.from('P6\n# made by hand\n2 1\n255\n'), Buffer.from([1, 2, 3, 4, 5, 6])]);
    expect([...parsePpm(bytes).data]).toEqual([1, 2, 3, 4, 5, 6]);
  });
  it.each([
    { name: "rejects 'P3\\n1 1\\n255\\n0 0 0\\n'", text: 'P3\n1 1\n255\n0 0 0\n', error: /not a binary PPM/ },
    { name: "rejects 'P6\\n1 1\\n65535\\n'", text: 'P6\n1 1\n65535\n', error: /maxval/ },
    { name: "rejects 'P6\\n2 2\\n255\\n\\x00\\x00\\x00'", text: 'P6\n2 2\n255\n\x00\x00\x00', error: /truncated/ },
    { name: "rejects 'P6\\n0 2\\n255\\n'", text: 'P6\n0 2\n255\n', error: /bad PPM size/ },
  ])('$name', ({ text, error }) => {
    expect(() => parsePpm(Buffer.from(text, 'latin1'))).toThrow(error);
  });
});

describe('quadrantPng', () => {
  it('writes the four colours in their quadrants', () => {
    const png = decode(quadrantPng(8));
    expect([png.width, png.height, png.channels]).toEqual([8, 8, 4]);
    const at = (x: number, y: number) => [...png.data.subarray((y * 8 + x) * 4, (y * 8 + x) * 4 + 4)];
    expect(at(0, 0)).toEqual([255, 0, 0, 255]);
    expect(at(7, 0)).toEqual([0, 255, 0, 255]);
    expect(at(0, 7)).toEqual([0, 0, 255, 255]);
    expect(at(7, 7)).toEqual([255, 255, 0, 255]);
    expect(at(3, 4)).toEqual([0, 0, 255, 255]);
  });
});

/** The marker after the picture a cell lower than usual: a row of a cell's height between them. */
const LOWER_AFTER: Box = { left: 0, top: 128, right: 160, bottom: 144 };

describe('judgePicture', () => {
  const cases: { name: string; layout: Layout; kind: PictureKind; problem: RegExp | null }[] = [
    { name: 'the right picture under the marker', layout: {}, kind: 'pixels', problem: null },
    { name: 'the right picture drawn as dots', layout: { every: 2 }, kind: 'dots', problem: null },
    {
      name: 'quadrants swapped left and right',
      layout: {
        colours: [
          [0, 255, 0],
          [255, 0, 0],
          [255, 255, 0],
          [0, 0, 255],
        ],
      },
      kind: 'pixels',
      problem: /red is not at the top left/,
    },
    {
      name: 'a picture cut short at the bottom',
      layout: { picture: { left: 0, top: 16, right: 96, bottom: 84 } },
      kind: 'pixels',
      problem: /not square|covers/,
    },
    {
      name: 'a picture away from the cursor column',
      layout: { picture: { left: 200, top: 16, right: 296, bottom: 112 } },
      kind: 'pixels',
      problem: /cursor's column/,
    },
    {
      name: 'a picture far below the cursor',
      layout: {
        picture: { left: 0, top: 160, right: 96, bottom: 256 },
        after: { left: 0, top: 256, right: 160, bottom: 272 },
      },
      kind: 'pixels',
      problem: /not just below/,
    },
    {
      name: 'the next marker painted over the picture',
      layout: { after: { left: 0, top: 100, right: 160, bottom: 116 } },
      kind: 'pixels',
      problem: /covers|not square|overlaps/,
    },
    { name: 'no marker before', layout: { before: null }, kind: 'pixels', problem: /before show is not on the screen/ },
    { name: 'no picture at all', layout: { colours: [WHITE, WHITE, WHITE, WHITE] }, kind: 'pixels', problem: /no red/ },
    { name: 'holes in a pixel picture', layout: { every: 2 }, kind: 'pixels', problem: /of the picture's box/ },
    {
      name: 'white rows between the picture and the next marker',
      layout: { after: LOWER_AFTER },
      kind: 'pixels',
      problem: null,
    },
    {
      name: 'one blended row under a scaled picture',
      layout: {
        after: LOWER_AFTER,
        extra: { box: { left: 0, top: 112, right: 96, bottom: 113 }, rgb: [128, 128, 255] },
      },
      kind: 'pixels',
      problem: null,
    },
    {
      // tmux 3.5a’s own sixel in foot: the picture padded to whole cells with black (the row right
      // under the picture is not judged: 5 rows of 96).
      name: 'a black band under the picture',
      layout: { after: LOWER_AFTER, extra: { box: { left: 0, top: 112, right: 96, bottom: 118 }, rgb: BLACK } },
      kind: 'pixels',
      problem: /480 pixels that are not background between the picture and the marker after it/,
    },
    {
      name: 'a band of one row, below the blended one',
      layout: { after: LOWER_AFTER, extra: { box: { left: 0, top: 113, right: 96, bottom: 114 }, rgb: BLACK } },
      kind: 'pixels',
      problem: /96 pixels that are not background/,
    },
    {
      // Konsole: the rest of the last sixel band in register 0, the picture's own red.
      name: 'a band of the picture’s first colour under it: stretched',
      layout: { after: LOWER_AFTER, extra: { box: { left: 0, top: 112, right: 96, bottom: 116 }, rgb: [255, 0, 0] } },
      kind: 'pixels',
      problem: /96x100, not square .*squashed or stretched/,
    },
    {
      name: 'a black band beside the picture',
      layout: { after: LOWER_AFTER, extra: { box: { left: 96, top: 16, right: 99, bottom: 112 }, rgb: BLACK } },
      kind: 'pixels',
      problem: /a band 3 px beside the picture, rgb\(0,0,0\)/,
    },
    {
      name: 'a black band right under the picture, within a cell',
      layout: { after: LOWER_AFTER, extra: { box: { left: 0, top: 112, right: 96, bottom: 115 }, rgb: BLACK } },
      kind: 'pixels',
      problem: /a band 3 px below the picture/,
    },
    {
      // foot inside tmux 3.5a before issue 24: whole cells in height, not in width.
      name: 'squashed 5% vertically',
      layout: { picture: { left: 0, top: 16, right: 96, bottom: 107 } },
      kind: 'pixels',
      problem: /96x91, not square \(5\.5% wider than tall\)/,
    },
    {
      name: 'one pixel off is the measurement, not a stretch',
      layout: { picture: { left: 0, top: 16, right: 96, bottom: 111 } },
      kind: 'pixels',
      problem: null,
    },
    {
      name: 'dots may have anything between them and the marker',
      layout: {
        every: 2,
        after: LOWER_AFTER,
        extra: { box: { left: 0, top: 113, right: 96, bottom: 114 }, rgb: BLACK },
      },
      kind: 'dots',
      problem: null,
    },
  ];
  it.each(cases)('$name', ({ layout, kind, problem }) => {
    const verdict = judgePicture(drawnScreen(layout), AREA, kind, CELL);
    if (problem === null) expect(verdict.problems).toEqual([]);
    else expect(verdict.problems.join('\n')).toMatch(problem);
  });
});

describe('strayInk and terminalArea', () => {
  it('finds text outside the allowed boxes', () => {
    const image = drawnScreen();
    paint(image, { left: 300, top: 200, right: 306, bottom: 212 }, BLACK);
    const ink = strayInk(image, AREA, [{ left: 0, top: 0, right: 160, bottom: 128 }]);
    expect(ink.count).toBe(72);
    expect(ink.box).toEqual({ left: 300, top: 200, right: 306, bottom: 212 });
  });
  it('finds nothing on a clean screen', () => {
    expect(strayInk(drawnScreen(), AREA, [{ left: 0, top: 0, right: 160, bottom: 128 }]).count).toBe(0);
  });
  it('finds the white terminal on the black root window', () => {
    const image = screen(300, 200, BLACK);
    paint(image, { left: 1, top: 1, right: 201, bottom: 101 }, WHITE);
    expect(terminalArea(image)).toEqual({ left: 1, top: 1, right: 201, bottom: 101 });
  });
});

describe('strayLines', () => {
  it.each<{ name: string; text: string; lines: number[] }>([
    { name: "'                    \\n\\n' -> lines []", text: '                    \n\n', lines: [] },
    { name: "'⣿⣿⣶⣤\\n⠀⠀⠁\\n' -> lines []", text: '⣿⣿⣶⣤\n⠀⠀⠁\n', lines: [] },
    {
      name: "'\\u{10EEEE}\\u0305\\u0305\\u{10EEEE}\\u0305\\u030D\\n' -> lines []",
      text: '\u{10EEEE}\u0305\u0305\u{10EEEE}\u0305\u030D\n',
      lines: [],
    }, // kitty placeholders with diacritics
    {
      name: "'\\u2580\\u2584\\u2596\\u259f\\u2588 \\u{1fb00}\\u{1fb3b}\\u{1cd00}\\u{1cde5}\\u{1fb82}\\n' -> lines []",
      text: '\u2580\u2584\u2596\u259f\u2588 \u{1fb00}\u{1fb3b}\u{1cd00}\u{1cde5}\u{1fb82}\n',
      lines: [],
    }, // symbols pictures
    { name: "'\\u2580\\u259f\\u25a0\\n' -> lines [1]", text: '\u2580\u259f\u25a0\n', lines: [1] }, // U+25A0 is a geometric shape, not a block element
    { name: "'\\u{1fb3c}\\n' -> lines [1]", text: '\u{1fb3c}\n', lines: [1] }, // past the sextants
    { name: "'_Gf=32,s=4;AAAA\\n' -> lines [1]", text: '_Gf=32,s=4;AAAA\n', lines: [1] },
    { name: "'\\n\\n63;1;2;4c\\n' -> lines [3]", text: '\n\n63;1;2;4c\n', lines: [3] },
    { name: "'  ⣿ x\\n' -> lines [1]", text: '  ⣿ x\n', lines: [1] },
  ])('$name', ({ text, lines }) => {
    expect(strayLines(text).map((l) => l.line)).toEqual(lines);
  });
});

describe('judgeReport', () => {
  const xterm = EXPECTATIONS.find(
    (e) => e.setup.terminal === 'xterm-vt340' && e.setup.multiplexer === 'none',
  ) as Expectation;
  const tmux = EXPECTATIONS.find((e) => e.setup.multiplexer === 'tmux') as Expectation;
  const good = {
    graphics: 'sixel',
    terminal: { name: 'xterm', version: '379' },
    multiplexer: null,
    why: { graphics: { source: 'reply', detail: 'DA1 lists 4 (sixel)', reply: '\\e[?63;1;2;4;6;9;15;16;22;28c' } },
    probeMs: 4.2,
  };
  it.each<{ name: string; report: unknown; expected: Expectation; problem: RegExp | null }>([
    { name: 'a right report', report: good, expected: xterm, problem: null },
    {
      name: 'the terminal name in another case',
      report: { ...good, terminal: { name: 'XTerm', version: '379' } },
      expected: xterm,
      problem: null,
    },
    {
      name: 'the wrong protocol',
      report: { ...good, graphics: 'braille' },
      expected: xterm,
      problem: /graphics is "braille"/,
    },
    {
      name: 'no terminal name',
      report: { ...good, terminal: { name: null, version: null } },
      expected: xterm,
      problem: /terminal.name/,
    },
    {
      name: 'a DA1 without 4 as the reason',
      report: { ...good, why: { graphics: { ...good.why.graphics, reply: '\\e[?64;1;2;6;9c' } } },
      expected: xterm,
      problem: /why.graphics quotes/,
    },
    {
      name: 'a DA1 with 14, not 4',
      report: { ...good, why: { graphics: { ...good.why.graphics, reply: '\\e[?63;14c' } } },
      expected: xterm,
      problem: /why.graphics quotes/,
    },
    {
      name: 'the deciding reply quoted in the sentence',
      report: {
        ...good,
        why: { graphics: { source: 'reply', detail: 'DA1 \\e[?63;1;2;4;22c lists 4', reply: '\\eP>|XTerm(379)\\e\\' } },
      },
      expected: xterm,
      problem: null,
    },
    { name: 'no reason', report: { ...good, why: {} }, expected: xterm, problem: /why.graphics is missing/ },
    {
      name: 'a multiplexer where none is',
      report: { ...good, multiplexer: { name: 'tmux', version: '3.3a', passthrough: true } },
      expected: xterm,
      problem: /expected none/,
    },
    { name: 'no probe', report: { ...good, probeMs: null }, expected: xterm, problem: /no probe ran/ },
    { name: 'not an object', report: 'sixel', expected: xterm, problem: /not a JSON object/ },
    {
      name: 'tmux without passthrough',
      report: {
        ...good,
        graphics: 'symbols',
        multiplexer: { name: 'tmux', version: '3.3a', passthrough: false },
        why: { graphics: { source: 'multiplexer', detail: 'tmux passthrough is off' } },
      },
      expected: tmux,
      problem: null,
    },
    {
      name: 'tmux said to pass through when it does not',
      report: {
        ...good,
        graphics: 'symbols',
        multiplexer: { name: 'tmux', version: '3.3a', passthrough: true },
        why: { graphics: { source: 'multiplexer', detail: 'passthrough' } },
      },
      expected: tmux,
      problem: /passthrough is true/,
    },
  ])('$name', ({ report, expected, problem }) => {
    const problems = judgeReport(report, expected);
    if (problem === null) expect(problems).toEqual([]);
    else expect(problems.join('\n')).toMatch(problem);
  });
});

describe('terminal commands', () => {
  const paths = sessionPaths('/tmp/s');
  it.each<{ name: string; setup: Setup; present: string[]; absent: string[] }>([
    {
      name: "{ terminal: 'xterm', multiplexer: 'none' }",
      setup: { terminal: 'xterm', multiplexer: 'none' },
      present: ['xterm', '-e', 'sh', '/tmp/s/wrapper.sh'],
      absent: ['-ti'],
    },
    {
      name: "{ terminal: 'xterm-vt340', multiplexer: 'none' }",
      setup: { terminal: 'xterm-vt340', multiplexer: 'none' },
      present: ['-ti', 'vt340', 'XTerm*decTerminalID: vt340', 'XTerm*numColorRegisters: 256'],
      absent: [],
    },
    {
      name: "{ terminal: 'kitty', multiplexer: 'none' }",
      setup: { terminal: 'kitty', multiplexer: 'none' },
      present: ['kitty', '--config', 'NONE', 'sh', '/tmp/s/wrapper.sh'],
      absent: ['-e'],
    },
    {
      name: "{ terminal: 'kitty', multiplexer: 'tmux-pt' }",
      setup: { terminal: 'kitty', multiplexer: 'tmux-pt' },
      present: ['tmux', '-S', '/tmp/s/tmux.sock', '-f', '/dev/null', 'new-session'],
      absent: ['-e'],
    },
    {
      name: "{ terminal: 'xterm-vt340', multiplexer: 'tmux' }",
      setup: { terminal: 'xterm-vt340', multiplexer: 'tmux' },
      present: ['tmux', 'sh /tmp/s/wrapper.sh'],
      absent: ['kitty'],
    },
    {
      name: "{ terminal: 'xterm', multiplexer: 'screen' }",
      setup: { terminal: 'xterm', multiplexer: 'screen' },
      present: ['screen', '-c', '/tmp/s/screenrc', 'sh', '/tmp/s/wrapper.sh'],
      absent: ['tmux'],
    },
  ])('$name', ({ setup, present, absent }) => {
    const argv = terminalCommand(setup, paths, innerCommand(setup, paths));
    for (const word of present) expect(argv).toContain(word);
    for (const word of absent) expect(argv).not.toContain(word);
    if (setup.multiplexer.startsWith('tmux')) {
      const on = setup.multiplexer === 'tmux-pt' ? 'on' : 'off';
      expect(argv.join(' ')).toContain(`set-option -g allow-passthrough ${on} ;`);
    }
  });
  it('gives kitty software OpenGL and screen a private socket directory, and nothing of the machine', () => {
    const base = { display: ':9', home: '/tmp/s/home', path: '/usr/bin:/bin' };
    expect(terminalEnv({ terminal: 'kitty', multiplexer: 'none' }, paths, base).LIBGL_ALWAYS_SOFTWARE).toBe('1');
    const env = terminalEnv({ terminal: 'xterm', multiplexer: 'screen' }, paths, base);
    expect(env.SCREENDIR).toBe('/tmp/s/screens');
    expect(Object.keys(env).sort()).toEqual(['DISPLAY', 'HOME', 'LANG', 'PATH', 'SCREENDIR', 'XDG_RUNTIME_DIR']);
  });
});

describe('wrapperScript', () => {
  const options = {
    dir: "/tmp/it's here",
    cli: ['/usr/bin/node', '/repo/dist/cli/main.js'],
    image: '/tmp/q.png',
    showArgs: ['--width', '20'],
  };
  it('is valid sh', () => {
    for (const script of [
      wrapperScript(options),
      wrapperScript({
        ...options,
        scrubbedEnv: { TERM: 'xterm-256color', HOME: '/h', PATH: '/bin' },
        printScreen: true,
      }),
    ]) {
      expect(() => execFileSync('sh', ['-n', '-c', script])).not.toThrow();
    }
  });
  it('runs the CLI under env -i only when scrubbed', () => {
    expect(wrapperScript(options)).not.toContain('env');
    expect(wrapperScript({ ...options, scrubbedEnv: { TERM: 'xterm-256color', HOME: '/h', PATH: '/bin' } })).toContain(
      `'env' '-i' 'TERM=xterm-256color' 'HOME=/h' 'PATH=/bin' '/usr/bin/node' '/repo/dist/cli/main.js' detect --json`,
    );
  });
  it.each([
    { name: "shellQuote keeps 'plain' intact", word: 'plain' },
    { name: 'shellQuote keeps "it\'s" intact', word: "it's" },
    { name: 'shellQuote keeps \'a "b" $c `d` \\\\e\' intact', word: 'a "b" $c `d` \\e' },
    { name: "shellQuote keeps '' intact", word: '' },
  ])('$name', ({ word }) => {
    expect(execFileSync('sh', ['-c', `printf %s ${shellQuote(word)}`]).toString()).toBe(word);
  });
});

describe.runIf(process.platform === 'linux')('ProcessScope', () => {
  it('stops its processes, their children, and the daemons that left the group', async () => {
    const scope = new ProcessScope();
    // `setsid` puts the first sleep in a session and group of its own, like tmux's server.
    const child = scope.spawn('sh', ['-c', 'setsid sleep 30 & sleep 30 & wait'], { stdio: 'ignore' });
    expect(await waitFor(() => scope.live().length >= 3, 5000)).toBe(true);
    const pids = scope.live();
    expect(pids).toContain(child.pid);
    await scope.stop();
    expect(scope.live()).toEqual([]);
    expect(pids.filter(isLive)).toEqual([]);
  });
  it('leaves alone what it did not start', async () => {
    const other = new ProcessScope();
    const mine = new ProcessScope();
    const theirs = other.spawn('sleep', ['30'], { stdio: 'ignore' });
    mine.spawn('sleep', ['30'], { stdio: 'ignore' });
    await waitFor(() => mine.live().length === 1 && other.live().length === 1, 5000);
    await mine.stop();
    expect(isLive(theirs.pid as number)).toBe(true);
    await other.stop();
    expect(isLive(theirs.pid as number)).toBe(false);
  });
});

describe('garbage judgements', () => {
  it.each<{ name: string; changed: Box | null; count: number }>([
    { name: 'identical screens', changed: null, count: 0 },
    { name: 'one cell changed', changed: { left: 8, top: 16, right: 16, bottom: 32 }, count: 128 },
    { name: 'a pixel in the corner', changed: { left: 639, top: 383, right: 640, bottom: 384 }, count: 1 },
  ])('screenDiff: $name', ({ changed, count }) => {
    const before = screen(AREA.right, AREA.bottom);
    const after = screen(AREA.right, AREA.bottom);
    if (changed) paint(after, changed, [250, 255, 255]);
    expect(screenDiff(before, after, AREA)).toEqual({ count, box: changed });
  });
  it('screenDiff refuses screenshots of different sizes', () => {
    expect(() => screenDiff(screen(4, 4), screen(4, 5), { left: 0, top: 0, right: 4, bottom: 4 })).toThrow(/size/);
  });
  it('childWindows reads the ids xwininfo lists', () => {
    const out = [
      'xwininfo: Window id: 0x3a9 (the root window) (has no name)',
      '  Root window id: 0x3a9 (the root window) (has no name)',
      '  Parent window id: 0x0 (none)',
      '     2 children:',
      '     0x20000c "screen": ("xterm" "XTerm")  484x316+0+0  +0+0',
      '     0x400001 (has no name): ()  1x1+-1+-1  +-1+-1',
    ].join('\n');
    expect(childWindows(out)).toEqual(['0x20000c', '0x400001']);
  });
  it.each<{ name: string; xprop: string; lines: string[] }>([
    {
      name: 'titleLines(\'WM_NAME(STRING) = "screen"\\n_NET_WM_NAME(UTF8_STRING) = "screen"\\n\')',
      xprop: 'WM_NAME(STRING) = "screen"\n_NET_WM_NAME(UTF8_STRING) = "screen"\n',
      lines: ['WM_NAME(STRING) = "screen"', '_NET_WM_NAME(UTF8_STRING) = "screen"'],
    },
    {
      name: "titleLines('WM_NAME:  not found.\\n_NET_WM_NAME:  not found.\\n')",
      xprop: 'WM_NAME:  not found.\n_NET_WM_NAME:  not found.\n',
      lines: [],
    },
  ])('$name', ({ xprop, lines }) => {
    expect(titleLines(xprop)).toEqual(lines);
  });
  it.each<{ name: string; before: WindowTitles; after: WindowTitles; changes: string[] }>([
    { name: 'unchanged', before: { '0x1': ['WM_NAME = "a"'] }, after: { '0x1': ['WM_NAME = "a"'] }, changes: [] },
    {
      name: 'renamed',
      before: { '0x1': ['WM_NAME = "a"'] },
      after: { '0x1': ['WM_NAME = "Gi=31"'] },
      changes: ['window 0x1: WM_NAME = "a" became WM_NAME = "Gi=31"'],
    },
    {
      name: 'title added',
      before: {},
      after: { '0x2': ['WM_NAME = "b"'] },
      changes: ['window 0x2: (no title) became WM_NAME = "b"'],
    },
    {
      name: 'title gone',
      before: { '0x2': ['WM_NAME = "b"'] },
      after: {},
      changes: ['window 0x2: WM_NAME = "b" became (no title)'],
    },
  ])('titleChanges: $name', ({ before, after, changes }) => {
    expect(titleChanges(before, after)).toEqual(changes);
  });
  it.each<{ name: string; text: string; lines: { line: number; text: string }[] }>([
    { name: "inkedLines('\\n\\n   \\n')", text: '\n\n   \n', lines: [] },
    {
      name: "inkedLines('\\n Gi=31,s=1;AAAA  \\n')",
      text: '\n Gi=31,s=1;AAAA  \n',
      lines: [{ line: 2, text: ' Gi=31,s=1;AAAA' }],
    },
    { name: "inkedLines('\\u2800\\n')", text: '\u2800\n', lines: [{ line: 1, text: '\u2800' }] },
  ])('$name', ({ text, lines }) => {
    expect(inkedLines(text)).toEqual(lines);
  });
});

describe('checkpoints', () => {
  it('the wrapper stops at each checkpoint in order, before detect and after it', () => {
    const script = wrapperScript({ dir: '/d', cli: ['termsight'], image: '/q.png', showArgs: [] });
    const at = (needle: string) => script.indexOf(needle);
    expect(CHECKPOINTS).toEqual(['baseline', 'detect']);
    expect(at('checkpoint baseline')).toBeGreaterThan(-1);
    expect(at('checkpoint baseline')).toBeLessThan(at('detect --json'));
    expect(at('detect --json')).toBeLessThan(at('checkpoint detect\n'));
    expect(at('checkpoint detect\n')).toBeLessThan(at(' show '));
  });
  it('a checkpoint creates at-NAME and returns once go-NAME exists', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'termsight-checkpoint-'));
    try {
      const script = wrapperScript({ dir, cli: ['true'], image: '/q.png', showArgs: [] });
      const body = script.slice(0, script.indexOf('\nprintf')).concat('\ncheckpoint x\necho passed > "$D/after"\n');
      const child = spawn('sh', ['-c', body], { stdio: 'ignore' });
      expect(await waitFor(() => existsSync(join(dir, 'at-x')), 5000)).toBe(true);
      expect(existsSync(join(dir, 'after'))).toBe(false);
      writeFileSync(join(dir, 'go-x'), '');
      expect(await waitFor(() => existsSync(join(dir, 'after')), 5000)).toBe(true);
      child.kill();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it("xterm's printer script writes each print to the next numbered file", () => {
    const dir = mkdtempSync(join(tmpdir(), "termsight-print's-"));
    try {
      for (const text of ['first', 'second']) execFileSync('sh', ['-c', xtermPrinterScript(dir)], { input: text });
      expect(readdirSync(dir).sort()).toEqual(['0.txt', '1.txt']);
      expect(readFileSync(join(dir, '1.txt'), 'utf8')).toBe('second');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('stableScreenshot', () => {
  it.each<{ name: string; frames: number[]; tries: number; expected: number; shots: number }>([
    { name: 'a still screen: the second shot', frames: [1, 1, 2], tries: 2, expected: 1, shots: 2 },
    {
      name: 'a screen still painting: the first of two equal shots in a row',
      frames: [1, 2, 3, 3, 4],
      tries: 8,
      expected: 3,
      shots: 4,
    },
    {
      name: 'a screen that never settles: the last shot allowed',
      frames: [1, 2, 3, 4],
      tries: 3,
      expected: 3,
      shots: 3,
    },
  ])('$name', async ({ frames, tries, expected, shots }) => {
    let taken = 0;
    const take = async () => screen(2, 2, [frames[taken++], 0, 0]);
    const shot = await stableScreenshot(take, 1, tries);
    expect(shot.data[0]).toBe(expected);
    expect(taken).toBe(shots);
  });
});
