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
  it.each<[string, string | null, string[]]>([
    ['the machine itself', null, ['tmux', '-V']],
    ['the chroot', '/var/tmp/t', [CHROOT, '/var/tmp/t', 'tmux', '-V']],
  ])('%s', (_name, root, argv) => {
    expect(inSystem(root, ['tmux', '-V'])).toEqual(argv);
  });
  it.each<[string, 'host' | 'trixie', NodeJS.ProcessEnv, string | null | undefined]>([
    ['host: no root', 'host', { [TRIXIE_VARIABLE]: '/x' }, null],
    ['trixie named', 'trixie', { [TRIXIE_VARIABLE]: '/x' }, '/x'],
    ['trixie not set', 'trixie', {}, undefined],
    ['trixie set empty', 'trixie', { [TRIXIE_VARIABLE]: '' }, undefined],
  ])('%s', (_name, system, env, root) => {
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
  it.each<[string, string, string]>([
    [
      'the port and key from CR LF lines',
      '\\r\\nMOSH CONNECT 60001 abcdefghij/+0123456789\\r\\n',
      '60001 abcdefghij/+0123456789',
    ],
    ['nothing when mosh-server failed', 'mosh-server: bind failed\\r\\n', 'failed'],
  ])('reads %s', (_name, serverOutput, expected) => {
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
  it.each<[Setup, string[], string[]]>([
    [
      { terminal: 'urxvt', multiplexer: 'none', system: 'trixie' },
      ['urxvt', '-b', '0', '+sb', 'URxvt.print-pipe: sh /tmp/s/xterm-printer.sh', 'sh', '/tmp/s/wrapper.sh'],
      ['-pr'],
    ],
    [
      { terminal: 'vte', multiplexer: 'none', system: 'trixie' },
      ['dbus-run-session', 'gnome-terminal', '--wait', '--geometry=80x24+0+0', 'sh', '/tmp/s/wrapper.sh'],
      ['-e'],
    ],
    [{ terminal: 'xterm', multiplexer: 'mosh', system: 'trixie' }, ['xterm', 'sh', '/tmp/s/mosh.sh'], ['tmux']],
    [
      { terminal: 'konsole', multiplexer: 'tmux-pt', system: 'trixie' },
      ['dbus-run-session', 'konsole', '--nofork', '--hide-menubar', '--hide-tabbar', 'e2e', '-e', 'tmux', 'on'],
      ['--wait'],
    ],
    [
      { terminal: 'foot', multiplexer: 'none', system: 'trixie' },
      ['sh', '/tmp/s/foot.sh', '/tmp/s/wrapper.sh'],
      ['-e'],
    ],
    [{ terminal: 'foot', multiplexer: 'tmux', system: 'trixie' }, ['/tmp/s/foot.sh', 'tmux', 'off'], ['on']],
    [
      { terminal: 'alacritty', multiplexer: 'none', system: 'trixie' },
      [
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
      ['--config-file'],
    ],
  ])('%j', (setup, present, absent) => {
    const argv = terminalCommand(setup, paths, innerCommand(setup, paths));
    for (const word of present) expect(argv).toContain(word);
    for (const word of absent) expect(argv).not.toContain(word);
  });
  it.each<[Setup, string[]]>([
    [{ terminal: 'vte', multiplexer: 'tmux' }, ['gnome-terminal', 'dbus-run-session', 'tmux']],
    [{ terminal: 'xterm', multiplexer: 'mosh' }, ['xterm', 'mosh-server', 'mosh-client']],
    [{ terminal: 'urxvt', multiplexer: 'none' }, ['urxvt']],
    [{ terminal: 'konsole', multiplexer: 'tmux-pt' }, ['konsole', 'dbus-run-session', 'dbus-send', 'tmux']],
    [{ terminal: 'foot', multiplexer: 'none' }, ['foot', 'weston']],
    [{ terminal: 'alacritty', multiplexer: 'none' }, ['alacritty']],
  ])('programsFor(%j)', (setup, programs) => {
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
  it.each<[Setup, ReturnType<typeof textSource>]>([
    [{ terminal: 'kitty', multiplexer: 'none' }, 'kitty'],
    [{ terminal: 'xterm', multiplexer: 'none' }, 'print'],
    [{ terminal: 'urxvt', multiplexer: 'none' }, 'print'],
    [{ terminal: 'vte', multiplexer: 'none' }, null],
    [{ terminal: 'vte', multiplexer: 'tmux' }, 'tmux'],
    [{ terminal: 'kitty', multiplexer: 'tmux-pt' }, 'tmux'],
    [{ terminal: 'xterm', multiplexer: 'screen' }, 'hardcopy'],
    [{ terminal: 'xterm', multiplexer: 'mosh' }, null],
    [{ terminal: 'konsole', multiplexer: 'none' }, 'konsole'],
    [{ terminal: 'konsole', multiplexer: 'tmux-pt' }, 'tmux'],
    [{ terminal: 'foot', multiplexer: 'none' }, null],
    [{ terminal: 'foot', multiplexer: 'tmux' }, 'tmux'],
    [{ terminal: 'alacritty', multiplexer: 'none' }, null],
  ])('textSource(%j) is %s', (setup, source) => {
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
  it.each<[string, string, string]>([
    ['the first line unindented', '   hello\nthere\n', 'hello\nthere'],
    ['a blank screen', '   \n\n\n', '\n\n'],
    ['a line that starts with spaces keeps them past the three', '      x\n', '   x'],
  ])('konsoleText: %s', (_name, reply, text) => {
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
  it.each<[string, Expectation['graphics'], unknown, boolean]>([
    ['text takes braille', 'text', 'braille', true],
    ['text takes symbols', 'text', 'symbols', true],
    ['text takes blocks', 'text', 'blocks', true],
    ['text refuses sixel', 'text', 'sixel', false],
    ['sixel refuses braille', 'sixel', 'braille', false],
    ['kitty takes kitty', 'kitty', 'kitty', true],
    ['text refuses nothing said', 'text', undefined, false],
  ])('graphicsMatch: %s', (_name, expected, chosen, match) => {
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
  it.each<[string, number]>([
    ['\u2580\u2584\u258c\u2590', 0],
    ['\u{1fb00}\u{1fb3b}', 0],
    ['\u{1cd00}', 0],
    ['Gi=31\u2580', 1],
  ])('%j: %i stray lines', (text, count) => {
    expect(strayLines(text)).toHaveLength(count);
  });
});

describe('readyScreenshot', () => {
  const shot = (v: number): RgbImage => ({ width: 1, height: 1, data: new Uint8Array([v, 0, 0]) });
  it.each<[string, number[], number | 'late' | null, number]>([
    ['ready at once: no wait', [5, 5, 5], 0, 5],
    ['ready on the third shot: waited', [1, 1, 5, 5, 5], 'late', 5],
    ['never ready: null, the last stable shot', [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], null, 1],
  ])('%s', async (_name, frames, waited, value) => {
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
