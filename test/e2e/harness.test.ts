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
  const midX = (picture.left + picture.right) / 2;
  const midY = (picture.top + picture.bottom) / 2;
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
  it.each<[Rgb, ColourClass]>([
    [[255, 0, 0], 'red'],
    [[205, 0, 0], 'red'], // xterm's palette red
    [[0, 255, 0], 'green'],
    [[0, 205, 0], 'green'],
    [[0, 0, 255], 'blue'],
    [[0, 0, 238], 'blue'],
    [[255, 255, 0], 'yellow'],
    [[205, 205, 0], 'yellow'],
    [[255, 0, 255], 'magenta'],
    [[205, 0, 205], 'magenta'],
    [[0, 255, 255], 'cyan'],
    [[255, 255, 255], 'light'],
    [[230, 230, 235], 'light'],
    [[0, 0, 0], 'dark'],
    [[40, 40, 40], 'dark'],
    [[128, 128, 128], 'other'], // anti-aliased text
    [[255, 180, 180], 'other'], // a red glyph's blended edge
    [[255, 128, 0], 'other'], // orange is none of ours
  ])('%j is %s', (rgb, cls) => {
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
    ['P3\n1 1\n255\n0 0 0\n', /not a binary PPM/],
    ['P6\n1 1\n65535\n', /maxval/],
    ['P6\n2 2\n255\n\x00\x00\x00', /truncated/],
    ['P6\n0 2\n255\n', /bad PPM size/],
  ])('rejects %j', (text, error) => {
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
  const cases: [string, Layout, PictureKind, RegExp | null][] = [
    ['the right picture under the marker', {}, 'pixels', null],
    ['the right picture drawn as dots', { every: 2 }, 'dots', null],
    [
      'quadrants swapped left and right',
      {
        colours: [
          [0, 255, 0],
          [255, 0, 0],
          [255, 255, 0],
          [0, 0, 255],
        ],
      },
      'pixels',
      /red is not at the top left/,
    ],
    [
      'a picture cut short at the bottom',
      { picture: { left: 0, top: 16, right: 96, bottom: 84 } },
      'pixels',
      /not square|covers/,
    ],
    [
      'a picture away from the cursor column',
      { picture: { left: 200, top: 16, right: 296, bottom: 112 } },
      'pixels',
      /cursor's column/,
    ],
    [
      'a picture far below the cursor',
      { picture: { left: 0, top: 160, right: 96, bottom: 256 }, after: { left: 0, top: 256, right: 160, bottom: 272 } },
      'pixels',
      /not just below/,
    ],
    [
      'the next marker painted over the picture',
      { after: { left: 0, top: 100, right: 160, bottom: 116 } },
      'pixels',
      /covers|not square|overlaps/,
    ],
    ['no marker before', { before: null }, 'pixels', /before show is not on the screen/],
    ['no picture at all', { colours: [WHITE, WHITE, WHITE, WHITE] }, 'pixels', /no red/],
    ['holes in a pixel picture', { every: 2 }, 'pixels', /of the picture's box/],
    ['white rows between the picture and the next marker', { after: LOWER_AFTER }, 'pixels', null],
    [
      'one blended row under a scaled picture',
      { after: LOWER_AFTER, extra: { box: { left: 0, top: 112, right: 96, bottom: 113 }, rgb: [128, 128, 255] } },
      'pixels',
      null,
    ],
    [
      // tmux 3.5a’s own sixel in foot: the picture padded to whole cells with black (the row right
      // under the picture is not judged: 5 rows of 96).
      'a black band under the picture',
      { after: LOWER_AFTER, extra: { box: { left: 0, top: 112, right: 96, bottom: 118 }, rgb: BLACK } },
      'pixels',
      /480 pixels that are not background between the picture and the marker after it/,
    ],
    [
      'a band of one row, below the blended one',
      { after: LOWER_AFTER, extra: { box: { left: 0, top: 113, right: 96, bottom: 114 }, rgb: BLACK } },
      'pixels',
      /96 pixels that are not background/,
    ],
    [
      'dots may have anything between them and the marker',
      { every: 2, after: LOWER_AFTER, extra: { box: { left: 0, top: 113, right: 96, bottom: 114 }, rgb: BLACK } },
      'dots',
      null,
    ],
  ];
  it.each(cases)('%s', (_name, layout, kind, problem) => {
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
  it.each<[string, number[]]>([
    ['                    \n\n', []],
    ['⣿⣿⣶⣤\n⠀⠀⠁\n', []],
    ['\u{10EEEE}\u0305\u0305\u{10EEEE}\u0305\u030D\n', []], // kitty placeholders with diacritics
    ['\u2580\u2584\u2596\u259f\u2588 \u{1fb00}\u{1fb3b}\u{1cd00}\u{1cde5}\u{1fb82}\n', []], // symbols pictures
    ['\u2580\u259f\u25a0\n', [1]], // U+25A0 is a geometric shape, not a block element
    ['\u{1fb3c}\n', [1]], // past the sextants
    ['_Gf=32,s=4;AAAA\n', [1]],
    ['\n\n63;1;2;4c\n', [3]],
    ['  ⣿ x\n', [1]],
  ])('%j -> lines %j', (text, lines) => {
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
  it.each<[string, unknown, Expectation, RegExp | null]>([
    ['a right report', good, xterm, null],
    ['the terminal name in another case', { ...good, terminal: { name: 'XTerm', version: '379' } }, xterm, null],
    ['the wrong protocol', { ...good, graphics: 'braille' }, xterm, /graphics is "braille"/],
    ['no terminal name', { ...good, terminal: { name: null, version: null } }, xterm, /terminal.name/],
    [
      'a DA1 without 4 as the reason',
      { ...good, why: { graphics: { ...good.why.graphics, reply: '\\e[?64;1;2;6;9c' } } },
      xterm,
      /why.graphics quotes/,
    ],
    [
      'a DA1 with 14, not 4',
      { ...good, why: { graphics: { ...good.why.graphics, reply: '\\e[?63;14c' } } },
      xterm,
      /why.graphics quotes/,
    ],
    [
      'the deciding reply quoted in the sentence',
      {
        ...good,
        why: { graphics: { source: 'reply', detail: 'DA1 \\e[?63;1;2;4;22c lists 4', reply: '\\eP>|XTerm(379)\\e\\' } },
      },
      xterm,
      null,
    ],
    ['no reason', { ...good, why: {} }, xterm, /why.graphics is missing/],
    [
      'a multiplexer where none is',
      { ...good, multiplexer: { name: 'tmux', version: '3.3a', passthrough: true } },
      xterm,
      /expected none/,
    ],
    ['no probe', { ...good, probeMs: null }, xterm, /no probe ran/],
    ['not an object', 'sixel', xterm, /not a JSON object/],
    [
      'tmux without passthrough',
      {
        ...good,
        graphics: 'symbols',
        multiplexer: { name: 'tmux', version: '3.3a', passthrough: false },
        why: { graphics: { source: 'multiplexer', detail: 'tmux passthrough is off' } },
      },
      tmux,
      null,
    ],
    [
      'tmux said to pass through when it does not',
      {
        ...good,
        graphics: 'symbols',
        multiplexer: { name: 'tmux', version: '3.3a', passthrough: true },
        why: { graphics: { source: 'multiplexer', detail: 'passthrough' } },
      },
      tmux,
      /passthrough is true/,
    ],
  ])('%s', (_name, report, expected, problem) => {
    const problems = judgeReport(report, expected);
    if (problem === null) expect(problems).toEqual([]);
    else expect(problems.join('\n')).toMatch(problem);
  });
});

describe('terminal commands', () => {
  const paths = sessionPaths('/tmp/s');
  it.each<[Setup, string[], string[]]>([
    [{ terminal: 'xterm', multiplexer: 'none' }, ['xterm', '-e', 'sh', '/tmp/s/wrapper.sh'], ['-ti']],
    [
      { terminal: 'xterm-vt340', multiplexer: 'none' },
      ['-ti', 'vt340', 'XTerm*decTerminalID: vt340', 'XTerm*numColorRegisters: 256'],
      [],
    ],
    [{ terminal: 'kitty', multiplexer: 'none' }, ['kitty', '--config', 'NONE', 'sh', '/tmp/s/wrapper.sh'], ['-e']],
    [
      { terminal: 'kitty', multiplexer: 'tmux-pt' },
      ['tmux', '-S', '/tmp/s/tmux.sock', '-f', '/dev/null', 'new-session'],
      ['-e'],
    ],
    [{ terminal: 'xterm-vt340', multiplexer: 'tmux' }, ['tmux', 'sh /tmp/s/wrapper.sh'], ['kitty']],
    [
      { terminal: 'xterm', multiplexer: 'screen' },
      ['screen', '-c', '/tmp/s/screenrc', 'sh', '/tmp/s/wrapper.sh'],
      ['tmux'],
    ],
  ])('%j', (setup, present, absent) => {
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
  it.each(['plain', "it's", 'a "b" $c `d` \\e', ''])('shellQuote keeps %j intact', (word) => {
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
  it.each<[string, Box | null, number]>([
    ['identical screens', null, 0],
    ['one cell changed', { left: 8, top: 16, right: 16, bottom: 32 }, 128],
    ['a pixel in the corner', { left: 639, top: 383, right: 640, bottom: 384 }, 1],
  ])('screenDiff: %s', (_name, changed, count) => {
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
  it.each<[string, string[]]>([
    [
      'WM_NAME(STRING) = "screen"\n_NET_WM_NAME(UTF8_STRING) = "screen"\n',
      ['WM_NAME(STRING) = "screen"', '_NET_WM_NAME(UTF8_STRING) = "screen"'],
    ],
    ['WM_NAME:  not found.\n_NET_WM_NAME:  not found.\n', []],
  ])('titleLines(%j)', (xprop, lines) => {
    expect(titleLines(xprop)).toEqual(lines);
  });
  it.each<[string, WindowTitles, WindowTitles, string[]]>([
    ['unchanged', { '0x1': ['WM_NAME = "a"'] }, { '0x1': ['WM_NAME = "a"'] }, []],
    [
      'renamed',
      { '0x1': ['WM_NAME = "a"'] },
      { '0x1': ['WM_NAME = "Gi=31"'] },
      ['window 0x1: WM_NAME = "a" became WM_NAME = "Gi=31"'],
    ],
    ['title added', {}, { '0x2': ['WM_NAME = "b"'] }, ['window 0x2: (no title) became WM_NAME = "b"']],
    ['title gone', { '0x2': ['WM_NAME = "b"'] }, {}, ['window 0x2: WM_NAME = "b" became (no title)']],
  ])('titleChanges: %s', (_name, before, after, changes) => {
    expect(titleChanges(before, after)).toEqual(changes);
  });
  it.each<[string, { line: number; text: string }[]]>([
    ['\n\n   \n', []],
    ['\n Gi=31,s=1;AAAA  \n', [{ line: 2, text: ' Gi=31,s=1;AAAA' }]],
    ['\u2800\n', [{ line: 1, text: '\u2800' }]],
  ])('inkedLines(%j)', (text, lines) => {
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
  it.each<[string, number[], number, number, number]>([
    ['a still screen: the second shot', [1, 1, 2], 2, 1, 2],
    ['a screen still painting: the first of two equal shots in a row', [1, 2, 3, 3, 4], 8, 3, 4],
    ['a screen that never settles: the last shot allowed', [1, 2, 3, 4], 3, 3, 3],
  ])('%s', async (_name, frames, tries, expected, shots) => {
    let taken = 0;
    const take = async () => screen(2, 2, [frames[taken++], 0, 0]);
    const shot = await stableScreenshot(take, 1, tries);
    expect(shot.data[0]).toBe(expected);
    expect(taken).toBe(shots);
  });
});
