/**
 * How each terminal emulator and multiplexer is started: fixed size (80x24), fixed font, white
 * background (so the screenshot's text area is easy to find), and the command to run inside.
 * Pure: it returns argv and environment; `session.ts` starts them.
 */
import type { System } from './system.js';
import { shellQuote } from './wrapper.js';

/**
 * The terminal emulators under test: xterm (plain and as a VT340 with sixel), kitty,
 * rxvt-unicode, GNOME Terminal (VTE), Konsole, foot (Wayland only: inside weston, whose X11
 * backend shows it as one X window), Alacritty, and mlterm (Debian 12 only: Debian 13 has none).
 */
export type TerminalKind =
  | 'xterm'
  | 'xterm-vt340'
  | 'kitty'
  | 'urxvt'
  | 'vte'
  | 'konsole'
  | 'foot'
  | 'alacritty'
  | 'mlterm';

/**
 * What runs between the terminal and the program: nothing, tmux with passthrough off or on, GNU
 * screen, or mosh (mosh-server and mosh-client over 127.0.0.1, no ssh: the key goes in MOSH_KEY).
 */
export type MultiplexerKind = 'none' | 'tmux' | 'tmux-pt' | 'screen' | 'mosh';

/** One terminal setup: an emulator and what runs inside it, from the machine's Debian or the Debian 13 chroot. */
export interface Setup {
  readonly terminal: TerminalKind;
  readonly multiplexer: MultiplexerKind;
  /** Where the programs come from (see system.ts); the machine's own when left out. */
  readonly system?: System;
}

/** Whether the setup runs tmux (with passthrough off or on). */
export function isTmux(setup: Setup): boolean {
  return setup.multiplexer === 'tmux' || setup.multiplexer === 'tmux-pt';
}

/** The emulator's columns and rows. */
export const GEOMETRY = { columns: 80, rows: 24 } as const;

/** The font every terminal uses: a scalable monospace font from fonts-dejavu-core, which has braille. */
export const FONT = { family: 'DejaVu Sans Mono', size: 10 } as const;

/** The programs a setup needs on PATH. */
export function programsFor(setup: Setup): string[] {
  const programs = [...TERMINAL_PROGRAMS[setup.terminal]];
  if (isTmux(setup)) programs.push('tmux');
  if (setup.multiplexer === 'screen') programs.push('screen');
  if (setup.multiplexer === 'mosh') programs.push('mosh-server', 'mosh-client');
  return programs;
}

/**
 * The programs each emulator needs (GNOME Terminal's server and Konsole are started on a private
 * D-Bus, where the harness also asks Konsole for its text; foot needs a Wayland compositor).
 */
const TERMINAL_PROGRAMS: Readonly<Record<TerminalKind, readonly string[]>> = {
  xterm: ['xterm'],
  'xterm-vt340': ['xterm'],
  kitty: ['kitty'],
  urxvt: ['urxvt'],
  vte: ['gnome-terminal', 'dbus-run-session'],
  konsole: ['konsole', 'dbus-run-session', 'dbus-send'],
  foot: ['foot', 'weston'],
  alacritty: ['alacritty'],
  mlterm: ['mlterm'],
};

/** A setup's name as the result table shows it, e.g. `tmux-pt in kitty`, `kitty (Debian 13)`. */
export function setupName(setup: Setup): string {
  const name = setup.multiplexer === 'none' ? setup.terminal : `${setup.multiplexer} in ${setup.terminal}`;
  return setup.system === 'trixie' ? `${name} (Debian 13)` : name;
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
  /** The script that starts mosh-server and connects mosh-client to it (see `moshScript`). */
  readonly moshStarter: string;
  /** Alacritty's IPC socket (in the session's directory, not /tmp). */
  readonly alacrittySocket: string;
  /** The script that starts weston on the X display and foot in it (see `footScript`), and foot's config. */
  readonly footStarter: string;
  readonly footConfig: string;
}

/**
 * How the harness reads the screen's text in a setup: tmux's `capture-pane`, kitty's `get-text`,
 * the terminal's print pipe (`CSI i`: xterm's printer command, rxvt-unicode's print-pipe), GNU
 * screen's hardcopy, Konsole's D-Bus (`getAllDisplayedText` of its session); null where there is
 * no way: GNOME Terminal, foot and Alacritty have none, and mosh does not pass the print request
 * on. Where it is null, the screenshots (compared pixel for pixel) judge alone.
 */
export type TextSource = 'tmux' | 'kitty' | 'print' | 'hardcopy' | 'konsole' | null;

/** The setup's way of reading its screen's text (see TextSource). */
export function textSource(setup: Setup): TextSource {
  switch (setup.multiplexer) {
    case 'tmux':
    case 'tmux-pt':
      return 'tmux';
    case 'screen':
      return 'hardcopy';
    case 'mosh':
      return null;
    case 'none':
      if (setup.terminal === 'kitty') return 'kitty';
      if (setup.terminal === 'konsole') return 'konsole';
      return setup.terminal === 'xterm' || setup.terminal === 'xterm-vt340' || setup.terminal === 'urxvt'
        ? 'print'
        : null;
  }
}

/**
 * Konsole's screen text from `dbus-send --print-reply=literal` of `getAllDisplayedText`:
 * dbus-send indents the string's first line by three spaces; the rest is the text as it is.
 */
export function konsoleText(reply: string): string {
  return reply.replace(/^ {3}/, '').replace(/\n$/, '');
}

/** The tmux session and screen session name used in every setup. */
export const SESSION_NAME = 'e2e';

/** xterm's printer command: each print job into the next numbered file of `dir`. */
export function xtermPrinterScript(dir: string): string {
  const d = shellQuote(dir);
  return `n=$(ls ${d} | wc -l)\ncat > ${d}/"$n.txt"\n`;
}

/**
 * GNOME Terminal's settings as a GLib keyfile (GSETTINGS_BACKEND=keyfile reads
 * `$HOME/.config/glib-2.0/settings/keyfile`, so no dconf service is needed): the default profile
 * (its fixed id) in the suite's font and colours, no scrollbar, no menu bar, no header bar (a grey
 * header bar would be taken for part of the white text area).
 */
export function gnomeTerminalSettings(): string {
  const profile = 'org/gnome/terminal/legacy/profiles:/:b1dcc9dd-5262-4d8d-a863-c897e6d979b9';
  return [
    '[org/gnome/terminal/legacy]',
    'default-show-menubar=false',
    'headerbar=@mb false',
    '',
    `[${profile}]`,
    `font='${FONT.family} ${FONT.size}'`,
    'use-system-font=false',
    'use-theme-colors=false',
    "foreground-color='#000000'",
    "background-color='#ffffff'",
    "scrollbar-policy='never'",
    'audible-bell=false',
    "cursor-blink-mode='off'",
    '',
  ].join('\n');
}

/** Where GNOME Terminal's keyfile goes under HOME. */
export const GNOME_TERMINAL_SETTINGS = '.config/glib-2.0/settings/keyfile';

/**
 * Konsole's settings, by path under HOME: a profile `e2e` (the suite's font, 80x24, no margin, no
 * scrollbar, a white colour scheme, the program's own title) made the default, and the two XMLGUI
 * files (version 999 beats the built-in ones) with no toolbars: Konsole 25 shows a main and a
 * session toolbar even with the menu bar hidden, and their light grey would be taken for part of
 * the white text area. Konsole's window is still 8 px wider than 80 cells (648 px): the suite's
 * cell of 8.1 px is within its tolerances.
 */
export function konsoleSettings(): Readonly<Record<string, string>> {
  const emptyGui = (name: string) =>
    `<!DOCTYPE gui SYSTEM "kpartgui.dtd">\n<gui name="${name}" version="999">\n</gui>\n`;
  return {
    '.local/share/konsole/e2e.profile': [
      '[Appearance]',
      'ColorScheme=e2e',
      `Font=${FONT.family},${FONT.size},-1,5,400,0,0,0,0,0,0,0,0,0,0,1`,
      '',
      '[General]',
      'Name=e2e',
      'Parent=FALLBACK/',
      `TerminalColumns=${GEOMETRY.columns}`,
      `TerminalRows=${GEOMETRY.rows}`,
      'TerminalMargin=0',
      'TerminalCenter=false',
      'ShowTerminalSizeHint=false',
      // The title is the one the program sets (OSC 0/2), not the default "%d : %n" (directory and
      // foreground process), which changes whenever a command starts and would hide a probe's.
      'LocalTabTitleFormat=%w',
      'RemoteTabTitleFormat=%w',
      '',
      '[Scrolling]',
      // 2: hidden.
      'ScrollBarPosition=2',
      '',
    ].join('\n'),
    '.local/share/konsole/e2e.colorscheme': [
      '[General]',
      'Description=e2e',
      'Opacity=1',
      ...['Background', 'BackgroundIntense'].flatMap((k) => [`[${k}]`, 'Color=255,255,255']),
      ...['Foreground', 'ForegroundIntense'].flatMap((k) => [`[${k}]`, 'Color=0,0,0']),
      '',
    ].join('\n'),
    '.config/konsolerc': [
      '[Desktop Entry]',
      'DefaultProfile=e2e.profile',
      '',
      '[KonsoleWindow]',
      'ShowMenuBarByDefault=false',
      'RememberWindowSize=false',
      '',
      '[TabBar]',
      'TabBarVisibility=AlwaysHideTabBar',
      '',
    ].join('\n'),
    '.local/share/kxmlgui5/konsole/konsoleui.rc': emptyGui('konsole'),
    '.local/share/kxmlgui5/konsole/sessionui.rc': emptyGui('session'),
  };
}

/**
 * foot's cell in pixels with the suite's font (DejaVu Sans Mono 10 at weston's 96 dpi, measured on
 * a screenshot): weston's output is exactly 80x24 of them, so that kiosk-shell's full-screen foot
 * has the suite's geometry and no padding to mistake for text area.
 */
export const FOOT_CELL = { width: 8, height: 17 } as const;

/** foot's config: the suite's font and colours, no padding, a steady cursor. */
export function footConfig(): string {
  return [
    `font=${FONT.family}:size=${FONT.size}`,
    'pad=0x0',
    '[colors]',
    'background=ffffff',
    'foreground=000000',
    '[cursor]',
    'blink=no',
    '',
  ].join('\n');
}

/** The Wayland socket weston listens on, in XDG_RUNTIME_DIR (the session's directory). */
export const WAYLAND_SOCKET = 'wayland-e2e';

/**
 * foot under weston: weston's X11 backend opens one X window of 80x24 foot cells on the suite's
 * display (pixman renderer, no input devices: no pointer drawn over the text; kiosk-shell shows
 * foot full-screen, with no panel or background), then foot runs the command given as arguments.
 * weston stays foot's child in one process group, so stopping the terminal stops both.
 */
export function footScript(paths: Pick<SessionPaths, 'dir' | 'footConfig'>): string {
  const socket = shellQuote(`${paths.dir}/${WAYLAND_SOCKET}`);
  return [
    [
      'weston',
      '--backend=x11-backend.so',
      '--renderer=pixman',
      '--shell=kiosk-shell.so',
      '--no-input',
      '--idle-time=0',
      `--width=${GEOMETRY.columns * FOOT_CELL.width}`,
      `--height=${GEOMETRY.rows * FOOT_CELL.height}`,
      `--socket=${WAYLAND_SOCKET}`,
      `> ${shellQuote(`${paths.dir}/weston.log`)} 2>&1 &`,
    ].join(' '),
    `i=0; while [ ! -S ${socket} ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done`,
    `[ -S ${socket} ] || { echo "weston did not start:" >&2; cat ${shellQuote(`${paths.dir}/weston.log`)} >&2; exit 1; }`,
    `WAYLAND_DISPLAY=${WAYLAND_SOCKET} exec foot --config ${shellQuote(paths.footConfig)} "$@"`,
    '',
  ].join('\n');
}

/**
 * mlterm's font file (`~/.mlterm/aafont`, read by its cairo and Xft engines): the suite's font
 * for every character set.
 */
export function mltermFonts(): string {
  return `DEFAULT = ${FONT.family}\nISO10646_UCS4_1 = ${FONT.family}\n`;
}

/** Where mlterm's font file goes under HOME. */
export const MLTERM_FONTS = '.mlterm/aafont';

/** The screenrc: screen's defaults, minus the start-up page that would cover the screen. */
export const SCREEN_RC = 'startup_message off\n';

/**
 * mosh without ssh: mosh-server starts the wrapper on a pty of its own and prints
 * `MOSH CONNECT PORT KEY`; mosh-client, run by the terminal, connects to 127.0.0.1 with that key in
 * MOSH_KEY (what mosh's ssh wrapper would do). mosh-server detaches; the ProcessScope's marker
 * variable, inherited by it, is how the harness stops it.
 */
export function moshScript(wrapper: string): string {
  return [
    `out=$(mosh-server new -i 127.0.0.1 -c 256 -l LANG=C.UTF-8 -- sh ${shellQuote(wrapper)} 2>/dev/null)`,
    // mosh-server ends its lines with CR LF.
    `set -- $(printf '%s' "$out" | tr -d '\\r' | grep '^MOSH CONNECT ')`,
    `[ -n "$4" ] || { echo "mosh-server did not start: $out" >&2; exit 1; }`,
    'MOSH_KEY=$4 exec mosh-client 127.0.0.1 "$3"',
    '',
  ].join('\n');
}

/** The command the terminal runs: the wrapper, directly or inside a multiplexer. */
export function innerCommand(setup: Setup, paths: SessionPaths): string[] {
  switch (setup.multiplexer) {
    case 'none':
      return ['sh', paths.wrapper];
    case 'mosh':
      return ['sh', paths.moshStarter];
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
  if (setup.terminal === 'urxvt') {
    return [
      'urxvt',
      '-geometry',
      `${GEOMETRY.columns}x${GEOMETRY.rows}+0+0`,
      '-fn',
      `xft:${FONT.family}:size=${FONT.size}`,
      '-bg',
      'white',
      '-fg',
      'black',
      '+sb',
      // No internal border: the white area is the text area, as in the other terminals.
      '-b',
      '0',
      // `CSI i` pipes the screen's text to this command, as xterm's printer command does.
      '-xrm',
      `URxvt.print-pipe: sh ${paths.xtermPrinter}`,
      '-e',
      ...inner,
    ];
  }
  if (setup.terminal === 'konsole') {
    // Konsole registers on D-Bus: a private session bus. --nofork keeps it our child; the profile
    // and the missing toolbars come from the files `konsoleSettings` writes into HOME.
    return [
      'dbus-run-session',
      '--',
      'konsole',
      '--nofork',
      '--hide-menubar',
      '--hide-tabbar',
      '--profile',
      'e2e',
      '-e',
      ...inner,
    ];
  }
  if (setup.terminal === 'foot') return ['sh', paths.footStarter, ...inner];
  if (setup.terminal === 'mlterm') {
    // Its font from mltermFonts (HOME); the size in pixels (10 pt at 96 dpi is 13 px).
    return [
      'mlterm',
      `--geometry=${GEOMETRY.columns}x${GEOMETRY.rows}+0+0`,
      '--fontsize=13',
      '--bg=white',
      '--fg=black',
      '--sb=false',
      '--logmsg=false',
      '--restart=false',
      '-e',
      ...inner,
    ];
  }
  if (setup.terminal === 'alacritty') {
    // No config file: every setting on the command line (TOML values).
    const options = [
      `window.dimensions.columns=${GEOMETRY.columns}`,
      `window.dimensions.lines=${GEOMETRY.rows}`,
      'window.padding.x=0',
      'window.padding.y=0',
      'window.position.x=0',
      'window.position.y=0',
      `font.normal.family="${FONT.family}"`,
      `font.size=${FONT.size}`,
      'colors.primary.background="#ffffff"',
      'colors.primary.foreground="#000000"',
      'cursor.style.blinking="Never"',
    ];
    return ['alacritty', '--socket', paths.alacrittySocket, ...options.flatMap((o) => ['-o', o]), '-e', ...inner];
  }
  if (setup.terminal === 'vte') {
    // GNOME Terminal's client asks its server over D-Bus: a private session bus, and --wait so the
    // client (our process group) lives as long as the command. Font and colours come from the
    // profile `gnomeTerminalProfile` writes into the private dconf of HOME.
    return [
      'dbus-run-session',
      '--',
      'gnome-terminal',
      '--wait',
      '--hide-menubar',
      `--geometry=${GEOMETRY.columns}x${GEOMETRY.rows}+0+0`,
      '--',
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
  if (setup.terminal === 'kitty' || setup.terminal === 'alacritty') env.LIBGL_ALWAYS_SOFTWARE = '1';
  // Alacritty writes its log file to the temporary directory: the session's, not the machine's /tmp.
  if (setup.terminal === 'alacritty') env.TMPDIR = paths.dir;
  if (setup.terminal === 'vte') {
    // Settings from a keyfile (gnomeTerminalSettings), and no accessibility bus to look for.
    env.GSETTINGS_BACKEND = 'keyfile';
    env.NO_AT_BRIDGE = '1';
  }
  // Qt 6 would pick Wayland when it sees one; here there is only X.
  if (setup.terminal === 'konsole') env.QT_QPA_PLATFORM = 'xcb';
  if (setup.multiplexer === 'screen') env.SCREENDIR = paths.screenDir;
  return env;
}
