/**
 * The built-in capabilities: OSC 8 links (the founding `when`, exactly), window title, desktop
 * notification, clipboard write, progress and synchronized output. The `when` of notify, clipboard,
 * progress and sync are views of the terminal database: the rows whose fact (with its source
 * there) says they understand the sequence. Each fallback is plain text (often nothing, when
 * printing something would be worse than doing nothing). Sequences end with BEL, as the founding examples'
 * link does, except kitty's OSC 99, which its documentation writes with ST.
 */
import type { Runtime } from '../env/runtime.js';
import type { NotifyDialect } from '../terminals/types.js';
import { notifyDialectFor, whenTerms } from '../terminals/views.js';
import type { Capability } from './types.js';

const ESC = '\u001b';
const BEL = '\u0007';
const ST = `${ESC}\\`;

/** Arguments of `link`: the label shown and the URL it opens. */
export interface LinkArgs {
  readonly text: string;
  readonly url: string;
}

/** Arguments of `title`: the window (and tab) title. */
export interface TitleArgs {
  readonly title: string;
}

/** Arguments of `notify`: a desktop notification's title and optional body. */
export interface NotifyArgs {
  readonly title: string;
  readonly body?: string;
}

/** Arguments of `clipboard`: the text to copy and which selection (default `clipboard`). */
export interface ClipboardArgs {
  readonly text: string;
  readonly target?: 'clipboard' | 'primary';
}

/** The states of OSC 9;4 progress, as Windows Terminal and ConEmu number them. */
export const PROGRESS_STATES = { remove: 0, normal: 1, error: 2, indeterminate: 3, paused: 4 } as const;

/** Arguments of `progress`: the state and, for `normal`/`error`/`paused`, a percentage 0–100. */
export interface ProgressArgs {
  readonly state: keyof typeof PROGRESS_STATES;
  readonly percent?: number;
}

/** Arguments of `sync`: start or finish a synchronized update (mode 2026). */
export interface SyncArgs {
  readonly phase: 'begin' | 'end';
}

/** The arguments of each built-in capability, by name (gives `emit` its types). */
export interface BuiltinArgs {
  link: LinkArgs;
  title: TitleArgs;
  notify: NotifyArgs;
  clipboard: ClipboardArgs;
  progress: ProgressArgs;
  sync: SyncArgs;
}

function requireString(owner: string, key: string, value: unknown): string {
  if (typeof value !== 'string')
    throw new TypeError(`capability '${owner}': ${key} must be a string, got ${typeof value}`);
  return value;
}

function requireOneOf<T extends string>(owner: string, key: string, value: unknown, accepted: readonly T[]): T {
  if (typeof value !== 'string' || !(accepted as readonly string[]).includes(value)) {
    throw new TypeError(
      `capability '${owner}': ${key} must be one of ${accepted.join(', ')}, got ${JSON.stringify(value)}`,
    );
  }
  return value as T;
}

/** OSC 8 hyperlink. The `when` is the founding line, exactly: the terminals known to show OSC 8 by name or variable. */
const link: Capability<LinkArgs> = {
  name: 'link',
  when: {
    tty: true,
    termProgram: ['iTerm.app', 'WezTerm', 'ghostty', 'vscode', 'Hyper', 'Apple_Terminal'],
    envAny: ['VTE_VERSION', 'WT_SESSION'],
  },
  args: { text: 'text', url: 'url' },
  sequence: ({ text, url }) => {
    requireString('link', 'text', text);
    requireString('link', 'url', url);
    return `${ESC}]8;;${url}${BEL}${text}${ESC}]8;;${BEL}`;
  },
  fallback: ({ text, url }) => `${requireString('link', 'text', text)} (${requireString('link', 'url', url)})`,
  summary: 'A clickable link (OSC 8); elsewhere "text (url)".',
  sources: [
    'https://gist.github.com/egmontkob/eb114294efbcd5adb1944c9f3cb5feda (OSC 8: VTE 0.50+, iTerm2 3.1+, WezTerm, Windows Terminal, …)',
  ],
};

/** OSC 2: the window title. Part of xterm's core set; terminals that do not show titles skip OSC strings. */
const title: Capability<TitleArgs> = {
  name: 'title',
  when: { tty: true },
  args: { title: 'param' },
  sequence: ({ title: text }) => `${ESC}]2;${requireString('title', 'title', text)}${BEL}`,
  // A title has no place in the output itself: printing it would mix it into the program's text.
  fallback: ({ title: text }) => {
    requireString('title', 'title', text);
    return '';
  },
  summary: 'Sets the window title (OSC 2); elsewhere nothing.',
  sources: [
    'https://invisible-island.net/xterm/ctlseqs/ctlseqs.html (OSC Ps ; Pt BEL, Ps = 2: change window title)',
    'https://iterm2.com/documentation-escape-codes.html, https://wezterm.org/escape-sequences.html (OSC 2 supported)',
  ],
};

/**
 * Which notification dialect a terminal speaks: its terminal-database row's (`notify` fact: OSC 9
 * for iTerm2, WezTerm and Ghostty, kitty's OSC 99), else OSC 777 `notify` (urxvt's extension,
 * patched VTE, foot).
 */
export function notifyDialect(runtime: Runtime): NotifyDialect {
  return notifyDialectFor(runtime.env ?? {});
}

function notifyText(owner: string, args: NotifyArgs): { title: string; body: string | undefined } {
  const head = requireString(owner, 'title', args.title);
  const body = args.body === undefined ? undefined : requireString(owner, 'body', args.body);
  return { title: head, body: body === '' ? undefined : body };
}

/** Desktop notification, in the dialect of the terminal at hand. */
const notify: Capability<NotifyArgs> = {
  name: 'notify',
  // A view of the terminal database: the rows with notifications, by TERM_PROGRAM or their own variable.
  when: { tty: true, ...whenTerms('notify') },
  args: { title: 'param', body: 'param' },
  sequence: (args, runtime) => {
    const { title: head, body } = notifyText('notify', args);
    switch (notifyDialect(runtime)) {
      case 'osc9': {
        const message = body === undefined ? head : `${head}: ${body}`;
        // "OSC 9 ; 4 ; …" is progress and "OSC 9 ; 1 ; …" a ConEmu command: a message that starts
        // with digits and ';' would be read as one of those, so it gets a leading space.
        return `${ESC}]9;${/^\d+;/.test(message) ? ' ' : ''}${message}${BEL}`;
      }
      case 'osc99':
        return body === undefined
          ? `${ESC}]99;;${head}${ST}`
          : `${ESC}]99;i=1:d=0;${head}${ST}${ESC}]99;i=1:d=1:p=body;${body}${ST}`;
      case 'osc777':
        // ';' separates the title from the body, so it cannot stay in the title.
        return `${ESC}]777;notify;${head.replaceAll(';', ',')};${body ?? ''}${BEL}`;
    }
  },
  fallback: (args) => {
    const { title: head, body } = notifyText('notify', args);
    return body === undefined ? head : `${head}: ${body}`;
  },
  summary: 'A desktop notification (OSC 9, kitty OSC 99 or OSC 777, by terminal); elsewhere "title: body".',
  sources: [
    'https://iterm2.com/documentation-escape-codes.html (OSC 9 ; message ST: post a notification)',
    'https://wezterm.org/escape-sequences.html (OSC 9 and OSC 777 notifications)',
    'https://ghostty.org/docs/config/reference#desktop-notifications (OSC 9 and OSC 777)',
    'https://sw.kovidgoyal.net/kitty/desktop-notifications/ (OSC 99; KITTY_WINDOW_ID is set by kitty)',
    'https://src.fedoraproject.org/rpms/vte291 (the OSC 777 notify patch of VTE-based terminals); foot: https://codeberg.org/dnkl/foot (OSC 777;notify)',
  ],
};

/** OSC 52: write the clipboard. The text travels as base64, so its content cannot break out. */
const clipboard: Capability<ClipboardArgs> = {
  name: 'clipboard',
  // A view of the terminal database: the rows that write the clipboard for OSC 52 by default.
  when: { tty: true, ...whenTerms('clipboard') },
  args: { text: 'data', target: 'param' },
  sequence: ({ text, target = 'clipboard' }) => {
    const selection = requireOneOf('clipboard', 'target', target, ['clipboard', 'primary']) === 'primary' ? 'p' : 'c';
    const payload = Buffer.from(requireString('clipboard', 'text', text), 'utf8').toString('base64');
    return `${ESC}]52;${selection};${payload}${BEL}`;
  },
  // Printing what was meant for the clipboard could show a secret on screen: write nothing.
  fallback: ({ text, target = 'clipboard' }) => {
    requireOneOf('clipboard', 'target', target, ['clipboard', 'primary']);
    requireString('clipboard', 'text', text);
    return '';
  },
  summary: 'Copies text to the clipboard (OSC 52, base64); elsewhere nothing.',
  sources: [
    'https://invisible-island.net/xterm/ctlseqs/ctlseqs.html (OSC 52 ; Pc ; Pd: manipulate selection data)',
    'https://sw.kovidgoyal.net/kitty/conf/#opt-kitty.clipboard_control (write-clipboard allowed by default)',
    'https://wezterm.org/escape-sequences.html; https://ghostty.org/docs/config/reference#clipboard-write (allow by default)',
    'https://github.com/microsoft/terminal (OSC 52 write since 1.2); https://alacritty.org/config-alacritty.html (terminal.osc52 = OnlyCopy by default)',
    'not iTerm2 (off until "Applications in terminal may access clipboard" is ticked) nor VTE (no OSC 52)',
  ],
};

function progressPercent(state: keyof typeof PROGRESS_STATES, percent: unknown): number {
  if (state === 'remove' || state === 'indeterminate') return 0;
  if (percent === undefined) return 0;
  if (typeof percent !== 'number' || !Number.isFinite(percent)) {
    throw new TypeError(`capability 'progress': percent must be a finite number, got ${String(percent)}`);
  }
  return Math.round(Math.min(100, Math.max(0, percent)));
}

const STATE_NAMES = Object.keys(PROGRESS_STATES) as (keyof typeof PROGRESS_STATES)[];

/** OSC 9;4: progress in the tab and the taskbar. */
const progress: Capability<ProgressArgs> = {
  name: 'progress',
  // A view of the terminal database: the rows that show OSC 9;4 progress.
  when: { tty: true, ...whenTerms('progress') },
  args: { state: 'param' },
  sequence: ({ state, percent }) => {
    const name = requireOneOf('progress', 'state', state, STATE_NAMES);
    return `${ESC}]9;4;${PROGRESS_STATES[name]};${progressPercent(name, percent)}${BEL}`;
  },
  // A program draws its own progress; repeating it as text on every update would flood the output.
  fallback: ({ state, percent }) => {
    progressPercent(requireOneOf('progress', 'state', state, STATE_NAMES), percent);
    return '';
  },
  summary: 'Shows progress in the tab or taskbar (OSC 9;4); elsewhere nothing.',
  sources: [
    'https://learn.microsoft.com/en-us/windows/terminal/tutorials/progress-bar-sequences (Windows Terminal; WT_SESSION)',
    'https://conemu.github.io/en/AnsiEscapeCodes.html#ConEmu_specific_OSC (ConEmu; ConEmuPID)',
    'https://ghostty.org/docs (OSC 9;4 progress since 1.2)',
  ],
};

/** Mode 2026: the terminal holds the screen until the update is complete, so it never shows half a frame. */
const sync: Capability<SyncArgs> = {
  name: 'sync',
  // A view of the terminal database: the rows with synchronized output, by TERM_PROGRAM or their own variable.
  when: { tty: true, ...whenTerms('synchronizedOutput') },
  args: { phase: 'param' },
  sequence: ({ phase }) =>
    `${ESC}[?2026${requireOneOf('sync', 'phase', phase, ['begin', 'end']) === 'begin' ? 'h' : 'l'}`,
  // Without the mode the update is simply not atomic: nothing to write.
  fallback: ({ phase }) => {
    requireOneOf('sync', 'phase', phase, ['begin', 'end']);
    return '';
  },
  summary: 'Begins or ends a synchronized update (DECSET/DECRST 2026); elsewhere nothing.',
  sources: [
    'https://gist.github.com/christianparpart/d8a62cc1ab659194337d73e399004036 (the mode 2026 specification and its list of terminals)',
    'kitty 0.24+, WezTerm, ghostty, iTerm2 3.5+, Alacritty 0.13+ (ALACRITTY_WINDOW_ID), each listed there',
  ],
};

/** The built-in capabilities, in the order they are documented. */
export const BUILTINS: readonly Capability[] = [
  link,
  title,
  notify,
  clipboard,
  progress,
  sync,
] as unknown as readonly Capability[];
