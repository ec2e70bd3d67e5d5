/**
 * The harness of the Debian 13 cells, tested without the terminals (runs everywhere): the chroot
 * commands and what makes a chroot usable, mosh's starter script, GNOME Terminal's settings, the
 * way each setup's screen text is read, the expectations as data, and a screenshot that waits for
 * a late terminal.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  EXPECTATIONS,
  type Expectation,
  FINDING_BREAKS,
  FINDINGS,
  type FindingId,
  graphicsMatch,
  TRIXIE_EXPECTATIONS,
} from './cases.js';
import type { RgbImage } from './harness/pixels.js';
import { judgeReport } from './harness/report-check.js';
import { strayLines } from './harness/screen-text.js';
import { readyScreenshot, sessionPaths } from './harness/session.js';
import { CHROOT, inSystem, systemProblems, systemRoot, TRIXIE_VARIABLE } from './harness/system.js';
import {
  FOOT_CELL,
  footConfig,
  footScript,
  GEOMETRY,
  gnomeTerminalSettings,
  innerCommand,
  konsoleSettings,
  konsoleText,
  moshScript,
  programsFor,
  type Setup,
  setupName,
  terminalCommand,
  terminalEnv,
  textSource,
} from './harness/terminals.js';
import { RESULT_FILES, wrapperScript } from './harness/wrapper.js';

describe('inSystem and systemRoot', () => {
  it.each<{ name: string; root: string | null; argv: string[] }>([
    { name: 'the machine itself', root: null, argv: ['tmux', '-V'] },
    { name: 'the chroot', root: '/var/tmp/t', argv: [CHROOT, '/var/tmp/t', 'tmux', '-V'] },
  ])('$name', ({ root, argv }) => {
    expect(inSystem(root, ['tmux', '-V'])).toEqual(argv);
  });
  it.each<{ name: string; system: 'host' | 'trixie'; env: NodeJS.ProcessEnv; root: string | null | undefined }>([
    { name: 'host: no root', system: 'host', env: { [TRIXIE_VARIABLE]: '/x' }, root: null },
    { name: 'trixie named', system: 'trixie', env: { [TRIXIE_VARIABLE]: '/x' }, root: '/x' },
    { name: 'trixie not set', system: 'trixie', env: {}, root: undefined },
    { name: 'trixie set empty', system: 'trixie', env: { [TRIXIE_VARIABLE]: '' }, root: undefined },
  ])('$name', ({ system, env, root }) => {
    expect(systemRoot(system, env)).toBe(root);
  });
});

describe('systemProblems', () => {
  const make = () => {
    const root = mkdtempSync(join(tmpdir(), 'termsight-chroot-'));
    mkdirSync(join(root, 'usr/bin'), { recursive: true });
    writeFileSync(join(root, 'usr/bin/kitty'), '');
    return root;
  };
  it('names every missing program and every path that is not shared', () => {
    const root = make();
    try {
      const shared = mkdtempSync(join(tmpdir(), 'termsight-shared-'));
      const problems = systemProblems({ root, programs: ['kitty', 'tmux'], shared: [shared], privileged: false });
      expect(problems).toContain('chroot needs root privileges');
      expect(problems).toContain(`tmux is not installed in ${root}`);
      expect(problems).not.toContain(`kitty is not installed in ${root}`);
      expect(problems).toContain(
        `${shared} is not the same file inside ${root} (bind-mount it: .ci/trixie-chroot.sh mount)`,
      );
      rmSync(shared, { recursive: true });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
  it('sees a shared path through the chroot (a symlink stands in for the bind mount)', () => {
    const root = make();
    const shared = mkdtempSync(join(tmpdir(), 'termsight-shared-'));
    try {
      mkdirSync(join(root, shared, '..'), { recursive: true });
      symlinkSync(shared, join(root, shared));
      expect(systemProblems({ root, programs: ['kitty'], shared: [shared], privileged: true })).not.toContainEqual(
        expect.stringContaining(shared),
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
      rmSync(shared, { recursive: true, force: true });
    }
  });
  it('refuses a directory that is not a Debian root', () => {
    const root = mkdtempSync(join(tmpdir(), 'termsight-chroot-'));
    try {
      expect(systemProblems({ root, programs: ['kitty'], shared: [], privileged: true })).toEqual([
        `${TRIXIE_VARIABLE}=${root} is not a Debian root (no usr/bin); .ci/trixie-chroot.sh builds one`,
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('moshScript', () => {
  it('is valid sh', () => {
    expect(() => execFileSync('sh', ['-n', '-c', moshScript("/tmp/it's/wrapper.sh")])).not.toThrow();
  });
  // mosh-server's output as a printf format: its lines end with CR LF.
  it.each<{ name: string; serverOutput: string; expected: string }>([
    {
      name: 'the port and key from CR LF lines',
      serverOutput: '\\r\\nMOSH CONNECT 60001 abcdefghij/+0123456789\\r\\n',
      expected: '60001 abcdefghij/+0123456789',
    },
    { name: 'nothing when mosh-server failed', serverOutput: 'mosh-server: bind failed\\r\\n', expected: 'failed' },
  ])('reads $name', ({ serverOutput, expected }) => {
    // mosh-server and mosh-client replaced by shell functions: the script's parsing alone.
    const script = moshScript('/w.sh')
      .replace('mosh-server new', `printf '${serverOutput}'; : `)
      .replace('exec mosh-client 127.0.0.1 "$3"', `exec sh -c 'echo "$0 $MOSH_KEY"' "$3"`);
    let out: string;
    try {
      out = execFileSync('sh', ['-c', script], { stdio: ['ignore', 'pipe', 'pipe'] }).toString();
    } catch {
      out = 'failed';
    }
    expect(out.trim()).toBe(expected);
  });
});

describe('the Debian 13 setups', () => {
  const paths = sessionPaths('/tmp/s');
  it.each<{ name: string; setup: Setup; present: string[]; absent: string[] }>([
    {
      name: "{ terminal: 'urxvt', multiplexer: 'none', system: 'trixie' }",
      setup: { terminal: 'urxvt', multiplexer: 'none', system: 'trixie' },
      present: ['urxvt', '-b', '0', '+sb', 'URxvt.print-pipe: sh /tmp/s/xterm-printer.sh', 'sh', '/tmp/s/wrapper.sh'],
      absent: ['-pr'],
    },
    {
      name: "{ terminal: 'vte', multiplexer: 'none', system: 'trixie' }",
      setup: { terminal: 'vte', multiplexer: 'none', system: 'trixie' },
      present: ['dbus-run-session', 'gnome-terminal', '--wait', '--geometry=80x24+0+0', 'sh', '/tmp/s/wrapper.sh'],
      absent: ['-e'],
    },
    {
      name: "{ terminal: 'xterm', multiplexer: 'mosh', system: 'trixie' }",
      setup: { terminal: 'xterm', multiplexer: 'mosh', system: 'trixie' },
      present: ['xterm', 'sh', '/tmp/s/mosh.sh'],
      absent: ['tmux'],
    },
    {
      name: "{ terminal: 'konsole', multiplexer: 'tmux-pt', system: 'trixie' }",
      setup: { terminal: 'konsole', multiplexer: 'tmux-pt', system: 'trixie' },
      present: [
        'dbus-run-session',
        'konsole',
        '--nofork',
        '--hide-menubar',
        '--hide-tabbar',
        'e2e',
        '-e',
        'tmux',
        'on',
      ],
      absent: ['--wait'],
    },
    {
      name: "{ terminal: 'foot', multiplexer: 'none', system: 'trixie' }",
      setup: { terminal: 'foot', multiplexer: 'none', system: 'trixie' },
      present: ['sh', '/tmp/s/foot.sh', '/tmp/s/wrapper.sh'],
      absent: ['-e'],
    },
    {
      name: "{ terminal: 'foot', multiplexer: 'tmux', system: 'trixie' }",
      setup: { terminal: 'foot', multiplexer: 'tmux', system: 'trixie' },
      present: ['/tmp/s/foot.sh', 'tmux', 'off'],
      absent: ['on'],
    },
    {
      name: "{ terminal: 'alacritty', multiplexer: 'none', system: 'trixie' }",
      setup: { terminal: 'alacritty', multiplexer: 'none', system: 'trixie' },
      present: [
        'alacritty',
        '/tmp/s/alacritty.sock',
        'window.dimensions.columns=80',
        'window.dimensions.lines=24',
        'window.padding.x=0',
        'font.normal.family="DejaVu Sans Mono"',
        'colors.primary.background="#ffffff"',
        '-e',
        '/tmp/s/wrapper.sh',
      ],
      absent: ['--config-file'],
    },
  ])('$name', ({ setup, present, absent }) => {
    const argv = terminalCommand(setup, paths, innerCommand(setup, paths));
    for (const word of present) expect(argv).toContain(word);
    for (const word of absent) expect(argv).not.toContain(word);
  });
  it.each<{ name: string; setup: Setup; programs: string[] }>([
    {
      name: "programsFor({ terminal: 'vte', multiplexer: 'tmux' })",
      setup: { terminal: 'vte', multiplexer: 'tmux' },
      programs: ['gnome-terminal', 'dbus-run-session', 'tmux'],
    },
    {
      name: "programsFor({ terminal: 'xterm', multiplexer: 'mosh' })",
      setup: { terminal: 'xterm', multiplexer: 'mosh' },
      programs: ['xterm', 'mosh-server', 'mosh-client'],
    },
    {
      name: "programsFor({ terminal: 'urxvt', multiplexer: 'none' })",
      setup: { terminal: 'urxvt', multiplexer: 'none' },
      programs: ['urxvt'],
    },
    {
      name: "programsFor({ terminal: 'konsole', multiplexer: 'tmux-pt' })",
      setup: { terminal: 'konsole', multiplexer: 'tmux-pt' },
      programs: ['konsole', 'dbus-run-session', 'dbus-send', 'tmux'],
    },
    {
      name: "programsFor({ terminal: 'foot', multiplexer: 'none' })",
      setup: { terminal: 'foot', multiplexer: 'none' },
      programs: ['foot', 'weston'],
    },
    {
      name: "programsFor({ terminal: 'alacritty', multiplexer: 'none' })",
      setup: { terminal: 'alacritty', multiplexer: 'none' },
      programs: ['alacritty'],
    },
  ])('$name', ({ setup, programs }) => {
    expect(programsFor(setup)).toEqual(programs);
  });
  it('GNOME Terminal reads its settings from a keyfile and looks for no accessibility bus', () => {
    const env = terminalEnv({ terminal: 'vte', multiplexer: 'none' }, paths, {
      display: ':9',
      home: '/h',
      path: '/bin',
    });
    expect(env.GSETTINGS_BACKEND).toBe('keyfile');
    expect(env.NO_AT_BRIDGE).toBe('1');
    const settings = gnomeTerminalSettings();
    for (const line of ["font='DejaVu Sans Mono 10'", "background-color='#ffffff'", 'use-theme-colors=false']) {
      expect(settings).toContain(line);
    }
    expect(settings).toContain('[org/gnome/terminal/legacy/profiles:/:b1dcc9dd-5262-4d8d-a863-c897e6d979b9]');
  });
  it.each<{ name: string; setup: Setup; source: ReturnType<typeof textSource> }>([
    {
      name: "textSource({ terminal: 'kitty', multiplexer: 'none' }) is kitty",
      setup: { terminal: 'kitty', multiplexer: 'none' },
      source: 'kitty',
    },
    {
      name: "textSource({ terminal: 'xterm', multiplexer: 'none' }) is print",
      setup: { terminal: 'xterm', multiplexer: 'none' },
      source: 'print',
    },
    {
      name: "textSource({ terminal: 'urxvt', multiplexer: 'none' }) is print",
      setup: { terminal: 'urxvt', multiplexer: 'none' },
      source: 'print',
    },
    {
      name: "textSource({ terminal: 'vte', multiplexer: 'none' }) is null",
      setup: { terminal: 'vte', multiplexer: 'none' },
      source: null,
    },
    {
      name: "textSource({ terminal: 'vte', multiplexer: 'tmux' }) is tmux",
      setup: { terminal: 'vte', multiplexer: 'tmux' },
      source: 'tmux',
    },
    {
      name: "textSource({ terminal: 'kitty', multiplexer: 'tmux-pt' }) is tmux",
      setup: { terminal: 'kitty', multiplexer: 'tmux-pt' },
      source: 'tmux',
    },
    {
      name: "textSource({ terminal: 'xterm', multiplexer: 'screen' }) is hardcopy",
      setup: { terminal: 'xterm', multiplexer: 'screen' },
      source: 'hardcopy',
    },
    {
      name: "textSource({ terminal: 'xterm', multiplexer: 'mosh' }) is null",
      setup: { terminal: 'xterm', multiplexer: 'mosh' },
      source: null,
    },
    {
      name: "textSource({ terminal: 'konsole', multiplexer: 'none' }) is konsole",
      setup: { terminal: 'konsole', multiplexer: 'none' },
      source: 'konsole',
    },
    {
      name: "textSource({ terminal: 'konsole', multiplexer: 'tmux-pt' }) is tmux",
      setup: { terminal: 'konsole', multiplexer: 'tmux-pt' },
      source: 'tmux',
    },
    {
      name: "textSource({ terminal: 'foot', multiplexer: 'none' }) is null",
      setup: { terminal: 'foot', multiplexer: 'none' },
      source: null,
    },
    {
      name: "textSource({ terminal: 'foot', multiplexer: 'tmux' }) is tmux",
      setup: { terminal: 'foot', multiplexer: 'tmux' },
      source: 'tmux',
    },
    {
      name: "textSource({ terminal: 'alacritty', multiplexer: 'none' }) is null",
      setup: { terminal: 'alacritty', multiplexer: 'none' },
      source: null,
    },
  ])('$name', ({ setup, source }) => {
    expect(textSource(setup)).toBe(source);
  });
  it('Konsole: its own profile by default, no toolbars, the program’s title, X and not Wayland', () => {
    const files = konsoleSettings();
    const profile = files['.local/share/konsole/e2e.profile'];
    for (const line of [
      'TerminalColumns=80',
      'TerminalRows=24',
      'TerminalMargin=0',
      'ScrollBarPosition=2',
      'LocalTabTitleFormat=%w',
      'RemoteTabTitleFormat=%w',
      'ColorScheme=e2e',
      'Font=DejaVu Sans Mono,10,',
    ]) {
      expect(profile).toContain(line);
    }
    expect(files['.config/konsolerc']).toContain('DefaultProfile=e2e.profile');
    expect(files['.local/share/konsole/e2e.colorscheme']).toContain('[Background]\nColor=255,255,255');
    for (const ui of ['konsoleui.rc', 'sessionui.rc']) {
      const rc = files[`.local/share/kxmlgui5/konsole/${ui}`];
      expect(rc).toContain('version="999"');
      expect(rc).not.toContain('ToolBar');
    }
    const env = terminalEnv({ terminal: 'konsole', multiplexer: 'none' }, paths, {
      display: ':9',
      home: '/h',
      path: '/bin',
    });
    expect(env.QT_QPA_PLATFORM).toBe('xcb');
  });
  it.each<{ name: string; reply: string; text: string }>([
    { name: 'the first line unindented', reply: '   hello\nthere\n', text: 'hello\nthere' },
    { name: 'a blank screen', reply: '   \n\n\n', text: '\n\n' },
    { name: 'a line that starts with spaces keeps them past the three', reply: '      x\n', text: '   x' },
  ])('konsoleText: $name', ({ reply, text }) => {
    expect(konsoleText(reply)).toBe(text);
  });
  it('the wrapper saves Konsole’s bus, service and session object only when asked', () => {
    const dir = mkdtempSync(join(tmpdir(), 'termsight-konsole-bus-'));
    try {
      const options = { dir, cli: ['true'], image: 'i.png', showArgs: [] };
      expect(wrapperScript(options)).not.toContain('KONSOLE_DBUS_SESSION');
      // The script up to its first checkpoint: the pid and the bus file.
      const head = wrapperScript({ ...options, saveKonsoleBus: true }).split('\npending()')[0];
      execFileSync('sh', ['-c', head], {
        env: {
          DBUS_SESSION_BUS_ADDRESS: 'unix:path=/tmp/b',
          KONSOLE_DBUS_SERVICE: ':1.0',
          KONSOLE_DBUS_SESSION: '/Sessions/1',
        },
      });
      expect(readFileSync(join(dir, RESULT_FILES.konsoleBus), 'utf8')).toBe('unix:path=/tmp/b\n:1.0\n/Sessions/1\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it('foot: weston on X sized to 80x24 foot cells, no pointer, kiosk shell, then foot with the command', () => {
    const script = footScript(paths);
    expect(() => execFileSync('sh', ['-n', '-c', footScript(sessionPaths("/tmp/it's"))])).not.toThrow();
    for (const word of [
      '--backend=x11-backend.so',
      '--shell=kiosk-shell.so',
      '--no-input',
      `--width=${GEOMETRY.columns * FOOT_CELL.width}`,
      `--height=${GEOMETRY.rows * FOOT_CELL.height}`,
      'exec foot --config \'/tmp/s/foot.ini\' "$@"',
    ]) {
      expect(script).toContain(word);
    }
    expect(footConfig()).toContain('font=DejaVu Sans Mono:size=10');
    expect(footConfig()).toContain('pad=0x0');
  });
  it('Alacritty: software OpenGL, and its log file in the session’s directory', () => {
    const base = { display: ':9', home: '/h', path: '/bin' };
    const env = terminalEnv({ terminal: 'alacritty', multiplexer: 'none' }, paths, base);
    expect(env.LIBGL_ALWAYS_SOFTWARE).toBe('1');
    expect(env.TMPDIR).toBe('/tmp/s');
    expect(terminalEnv({ terminal: 'xterm', multiplexer: 'none' }, paths, base).TMPDIR).toBeUndefined();
  });
  it('foot: gives up with weston’s log when its socket never appears', () => {
    const dir = mkdtempSync(join(tmpdir(), 'termsight-foot-'));
    try {
      // weston replaced by a program that logs and exits; the wait is cut to one round.
      const script = footScript(sessionPaths(dir))
        .replace(/^weston [^>]*/, 'echo no display ')
        .replace('-lt 100', '-lt 1');
      let error = '';
      try {
        execFileSync('sh', ['-c', script, 'foot.sh', 'true'], { stdio: ['ignore', 'pipe', 'pipe'] });
      } catch (e) {
        error = String((e as { stderr: Buffer }).stderr);
      }
      expect(error).toContain('weston did not start:');
      expect(error).toContain('no display');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it('names the Debian 13 cells apart from the machine’s', () => {
    expect(setupName({ terminal: 'kitty', multiplexer: 'tmux-pt', system: 'trixie' })).toBe(
      'tmux-pt in kitty (Debian 13)',
    );
    expect(setupName({ terminal: 'kitty', multiplexer: 'tmux-pt' })).toBe('tmux-pt in kitty');
  });
});

describe('the expectations', () => {
  it('every Debian 13 setup runs in the chroot, and no machine setup does', () => {
    expect(TRIXIE_EXPECTATIONS.every((e) => e.setup.system === 'trixie')).toBe(true);
    expect(EXPECTATIONS.some((e) => e.setup.system === 'trixie')).toBe(false);
  });
  it('each setup appears once', () => {
    const names = [...EXPECTATIONS, ...TRIXIE_EXPECTATIONS].map((e) => setupName(e.setup));
    expect(new Set(names).size).toBe(names.length);
  });
  it('every finding a cell lists is described and breaks at least one check', () => {
    const listed = new Set<FindingId>(
      [...EXPECTATIONS, ...TRIXIE_EXPECTATIONS].flatMap((e) => [
        ...(e.findings?.inherited ?? []),
        ...(e.findings?.scrubbed ?? []),
      ]),
    );
    for (const id of listed) {
      expect(FINDINGS[id]).toBeTruthy();
      expect(FINDING_BREAKS[id].length).toBeGreaterThan(0);
    }
  });
  it('placeholders are expected to follow the pane only where a kitty picture is drawn in tmux', () => {
    for (const e of [...EXPECTATIONS, ...TRIXIE_EXPECTATIONS].filter((x) => x.followsPane)) {
      expect(e.graphics).toBe('kitty');
      expect(e.setup.multiplexer).toBe('tmux-pt');
    }
  });
  it.each<{ name: string; expected: Expectation['graphics']; chosen: unknown; match: boolean }>([
    { name: 'text takes braille', expected: 'text', chosen: 'braille', match: true },
    { name: 'text takes symbols', expected: 'text', chosen: 'symbols', match: true },
    { name: 'text takes blocks', expected: 'text', chosen: 'blocks', match: true },
    { name: 'text refuses sixel', expected: 'text', chosen: 'sixel', match: false },
    { name: 'sixel refuses braille', expected: 'sixel', chosen: 'braille', match: false },
    { name: 'kitty takes kitty', expected: 'kitty', chosen: 'kitty', match: true },
    { name: 'text refuses nothing said', expected: 'text', chosen: undefined, match: false },
  ])('graphicsMatch: $name', ({ expected, chosen, match }) => {
    expect(graphicsMatch(expected, chosen)).toBe(match);
  });
  it('a mosh cell does not check the multiplexer, a direct cell does', () => {
    const mosh = TRIXIE_EXPECTATIONS.find((e) => e.setup.multiplexer === 'mosh') as Expectation;
    const report = {
      graphics: 'symbols',
      terminal: { name: null },
      multiplexer: { name: 'mosh' },
      why: { graphics: { source: 'reply', detail: 'mosh' } },
      probeMs: 3,
    };
    expect(judgeReport(report, mosh)).toEqual([]);
    const urxvt = TRIXIE_EXPECTATIONS.find((e) => e.setup.terminal === 'urxvt') as Expectation;
    expect(judgeReport(report, urxvt).join('\n')).toMatch(/expected none/);
  });
});

describe('strayLines and the glyphs of text pictures', () => {
  it.each<{ name: string; text: string; count: number }>([
    { name: "'\\u2580\\u2584\\u258c\\u2590': 0 stray lines", text: '\u2580\u2584\u258c\u2590', count: 0 },
    { name: "'\\u{1fb00}\\u{1fb3b}': 0 stray lines", text: '\u{1fb00}\u{1fb3b}', count: 0 },
    { name: "'\\u{1cd00}': 0 stray lines", text: '\u{1cd00}', count: 0 },
    { name: "'Gi=31\\u2580': 1 stray lines", text: 'Gi=31\u2580', count: 1 },
  ])('$name', ({ text, count }) => {
    expect(strayLines(text)).toHaveLength(count);
  });
});

describe('readyScreenshot', () => {
  const shot = (v: number): RgbImage => ({ width: 1, height: 1, data: new Uint8Array([v, 0, 0]) });
  it.each<{ name: string; frames: number[]; waited: number | 'late' | null; value: number }>([
    { name: 'ready at once: no wait', frames: [5, 5, 5], waited: 0, value: 5 },
    { name: 'ready on the third shot: waited', frames: [1, 1, 5, 5, 5], waited: 'late', value: 5 },
    {
      name: 'never ready: null, the last stable shot',
      frames: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
      waited: null,
      value: 1,
    },
  ])('$name', async ({ frames, waited, value }) => {
    let i = 0;
    const take = async () => shot(frames[Math.min(i++, frames.length - 1)]);
    const got = await readyScreenshot(take, (img) => img.data[0] === 5, 500);
    if (waited === 'late') expect(got.waitedMs).toBeGreaterThan(0);
    else expect(got.waitedMs).toBe(waited);
    expect(got.image.data[0]).toBe(value);
  });
});

describe.runIf(process.platform === 'linux')('trixie-chroot.sh', () => {
  it('is valid sh and refuses an unknown command', () => {
    const script = join(__dirname, '../../.ci/trixie-chroot.sh');
    expect(() => execFileSync('sh', ['-n', script])).not.toThrow();
    const child = spawn('sh', [script, 'nonsense'], { stdio: 'ignore' });
    return new Promise<void>((resolve) => {
      child.once('exit', (code) => {
        expect(code).toBe(2);
        resolve();
      });
    });
  });
});
