/**
 * How each terminal emulator and multiplexer is started: fixed size (80x24), fixed font, white
 * background (so the screenshot's text area is easy to find), and the command to run inside.
 * Pure: it returns argv and environment; `session.ts` starts them.
 */
import { shellQuote } from './wrapper.js';

/** The terminal emulators under test. */
export type TerminalKind = 'xterm' | 'xterm-vt340' | 'kitty';

/** What runs between the terminal and the program. */
export type MultiplexerKind = 'none' | 'tmux' | 'tmux-pt' | 'screen';

/** One terminal setup: an emulator and what runs inside it. */
export interface Setup {
  readonly terminal: TerminalKind;
  readonly multiplexer: MultiplexerKind;
}

/** The emulator's columns and rows. */
export const GEOMETRY = { columns: 80, rows: 24 } as const;

/** The font every terminal uses: a scalable monospace font from fonts-dejavu-core, which has braille. */
export const FONT = { family: 'DejaVu Sans Mono', size: 10 } as const;

/** The programs a setup needs on PATH. */
export function programsFor(setup: Setup): string[] {
  const programs: string[] = [setup.terminal === 'kitty' ? 'kitty' : 'xterm'];
  if (setup.multiplexer === 'tmux' || setup.multiplexer === 'tmux-pt') programs.push('tmux');
  if (setup.multiplexer === 'screen') programs.push('screen');
  return programs;
}

/** A setup's name as the result table shows it, e.g. `tmux-pt in kitty`. */
export function setupName(setup: Setup): string {
  return setup.multiplexer === 'none' ? setup.terminal : `${setup.multiplexer} in ${setup.terminal}`;
}

/** The files a session keeps its sockets and printouts in. */
export interface SessionPaths {
  readonly dir: string;
  readonly wrapper: string;
  /** tmux's server socket (`-S`). */
  readonly tmuxSocket: string;
  /** GNU screen's socket directory (`SCREENDIR`, mode 0700) and its rc file. */
  readonly screenDir: string;
  readonly screenRc: string;
  /** Where xterm's printer command writes the screen's text: one numbered file per `CSI i` (0.txt, 1.txt, …). */
  readonly xtermPrints: string;
  /** The printer command's script, which writes each print into the next numbered file. */
  readonly xtermPrinter: string;
  /** kitty's remote-control socket. */
  readonly kittySocket: string;
}

/** The tmux session and screen session name used in every setup. */
export const SESSION_NAME = 'e2e';

/** xterm's printer command: each print job into the next numbered file of `dir`. */
export function xtermPrinterScript(dir: string): string {
  const d = shellQuote(dir);
  return `n=$(ls ${d} | wc -l)\ncat > ${d}/"$n.txt"\n`;
}

/** The screenrc: screen's defaults, minus the start-up page that would cover the screen. */
export const SCREEN_RC = 'startup_message off\n';

/** The command the terminal runs: the wrapper, directly or inside a multiplexer. */
export function innerCommand(setup: Setup, paths: SessionPaths): string[] {
  switch (setup.multiplexer) {
    case 'none':
      return ['sh', paths.wrapper];
    case 'tmux':
    case 'tmux-pt':
      // Its own server socket and an empty config; passthrough set on the command line before the
      // session starts, so the program's first query already sees it. The status line is turned off
      // so its green bar is not mistaken for part of the picture.
      return [
        'tmux',
        '-S',
        paths.tmuxSocket,
        '-f',
        '/dev/null',
        'set-option',
        '-g',
        'allow-passthrough',
        setup.multiplexer === 'tmux-pt' ? 'on' : 'off',
        ';',
        'set-option',
        '-g',
        'status',
        'off',
        ';',
        'new-session',
        '-s',
        SESSION_NAME,
        `sh ${paths.wrapper}`,
      ];
    case 'screen':
      return ['screen', '-S', SESSION_NAME, '-c', paths.screenRc, 'sh', paths.wrapper];
  }
}

/** The emulator's argv (program first) running `inner`. */
export function terminalCommand(setup: Setup, paths: SessionPaths, inner: readonly string[]): string[] {
  if (setup.terminal === 'kitty') {
    return [
      'kitty',
      '--config',
      'NONE',
      '-o',
      `font_family=${FONT.family}`,
      '-o',
      `font_size=${FONT.size}`,
      '-o',
      `initial_window_width=${GEOMETRY.columns}c`,
      '-o',
      `initial_window_height=${GEOMETRY.rows}c`,
      '-o',
      'remember_window_size=no',
      '-o',
      'placement_strategy=top-left',
      '-o',
      'window_padding_width=0',
      '-o',
      'background=#ffffff',
      '-o',
      'foreground=#000000',
      '-o',
      'cursor_blink_interval=0',
      '-o',
      'shell_integration=disabled',
      '-o',
      'enable_audio_bell=no',
      '-o',
      'linux_display_server=x11',
      '-o',
      'allow_remote_control=socket-only',
      '--listen-on',
      `unix:${paths.kittySocket}`,
      ...inner,
    ];
  }
  const xterm = [
    'xterm',
    '-geometry',
    `${GEOMETRY.columns}x${GEOMETRY.rows}+0+0`,
    '-fa',
    FONT.family,
    '-fs',
    String(FONT.size),
    '-bg',
    'white',
    '-fg',
    'black',
    // `CSI i` (print screen) sends the screen's text to this command: our way to read xterm's text.
    // Each print is its own job (printerAutoClose) and lands in the next numbered file.
    '-xrm',
    `XTerm*printerCommand: sh ${paths.xtermPrinter}`,
    '-xrm',
    'XTerm*printerAutoClose: true',
    '-xrm',
    'XTerm*printAttributes: 0',
  ];
  if (setup.terminal === 'xterm-vt340') {
    xterm.push('-ti', 'vt340', '-xrm', 'XTerm*decTerminalID: vt340', '-xrm', 'XTerm*numColorRegisters: 256');
  }
  return [...xterm, '-e', ...inner];
}

/**
 * The environment the emulator starts with: a minimal desktop session's, so nothing from the
 * machine running the tests (its own TERM, TMUX, KITTY_WINDOW_ID) leaks into the case.
 */
export function terminalEnv(
  setup: Setup,
  paths: SessionPaths,
  base: { display: string; home: string; path: string },
): Record<string, string> {
  const env: Record<string, string> = {
    DISPLAY: base.display,
    HOME: base.home,
    PATH: base.path,
    LANG: 'C.UTF-8',
    XDG_RUNTIME_DIR: paths.dir,
  };
  if (setup.terminal === 'kitty') env.LIBGL_ALWAYS_SOFTWARE = '1';
  if (setup.multiplexer === 'screen') env.SCREENDIR = paths.screenDir;
  return env;
}
