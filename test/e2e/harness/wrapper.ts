/**
 * The script the terminal runs: the CLI's `detect --json` into a file, a marker row, `show` of the
 * test picture, another marker row, with whatever the terminal still had to say captured from the
 * tty after each command (it must be nothing), then a done-file, then it waits to be photographed.
 * Pure: it returns the script's text.
 */

/** Quotes a word for sh. */
export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** What the wrapper script needs. */
export interface WrapperOptions {
  /** The session's directory: every result file goes there. */
  readonly dir: string;
  /** The command that runs the CLI, e.g. `[process.execPath, '/repo/dist/cli/main.js']`. */
  readonly cli: readonly string[];
  /** The PNG to show. */
  readonly image: string;
  /** Extra arguments to `show` (size). */
  readonly showArgs: readonly string[];
  /** When set, the CLI runs under `env -i` with only these variables: what a program sees over ssh. */
  readonly scrubbedEnv?: Readonly<Record<string, string>>;
  /** Ask xterm to print its screen's text to its printer command (`CSI i`) after detect and at the end. */
  readonly printScreen?: boolean;
  /**
   * Write where Konsole's D-Bus session object is (bus address, service, object path: the
   * variables Konsole gives the program) to `RESULT_FILES.konsoleBus`, for the harness to ask it
   * for the screen's text.
   */
  readonly saveKonsoleBus?: boolean;
}

/**
 * The points where the wrapper stops until the harness has looked: it creates `at-NAME`, then waits
 * (at most 30 s) for `go-NAME`. `baseline`: the cleared screen before termsight runs; `detect`: after
 * `detect --json` (whose output went to a file, so the screen must be exactly the baseline).
 */
export const CHECKPOINTS = ['baseline', 'detect'] as const;

/** One checkpoint's name. */
export type Checkpoint = (typeof CHECKPOINTS)[number];

/** The names of the files the wrapper writes in its directory. */
export const RESULT_FILES = {
  pid: 'wrapper.pid',
  detectJson: 'detect.json',
  detectErr: 'detect.err',
  detectRc: 'detect.rc',
  detectLeak: 'detect.leak',
  /** `detect --record`'s recording, replayed outside the terminal (and the chroot) by the suite. */
  detectRecording: 'detect.rec.json',
  showErr: 'show.err',
  showRc: 'show.rc',
  showLeak: 'show.leak',
  konsoleBus: 'konsole.bus',
  done: 'done',
} as const;

/**
 * The background colours of the two marker rows, as 256-colour indexes (201 magenta, 51 cyan): a
 * multiplexer that knows only 8 colours still maps them to magenta and cyan.
 */
export const MARKERS = { before: 201, after: 51, cells: 20 } as const;

/** Builds the wrapper script. */
export function wrapperScript(options: WrapperOptions): string {
  const d = shellQuote(options.dir);
  const prefix = options.scrubbedEnv
    ? `${['env', '-i', ...Object.entries(options.scrubbedEnv).map(([k, v]) => `${k}=${v}`)].map(shellQuote).join(' ')} `
    : '';
  const cli = prefix + options.cli.map(shellQuote).join(' ');
  const file = (name: string) => `"$D/${name}"`;
  const f = RESULT_FILES;
  const marker = (colour: number) => `printf '\\033[48;5;${colour}m%${MARKERS.cells}s\\033[0m\\n' ''`;
  return [
    '#!/bin/sh',
    `D=${d}`,
    `echo $$ > ${file(f.pid)}`,
    ...(options.saveKonsoleBus
      ? [
          `printf '%s\\n' "$DBUS_SESSION_BUS_ADDRESS" "$KONSOLE_DBUS_SERVICE" "$KONSOLE_DBUS_SESSION" > ${file(f.konsoleBus)}`,
        ]
      : []),
    // Reads what is pending on the tty without echo, giving up after 0.5 s of silence: a reply that
    // arrives after the CLI exited lands here (and, with echo on, on the screen).
    `pending() { old=$(stty -g); stty -icanon -echo min 0 time 5; cat > "$1"; stty "$old"; }`,
    // Stops until the harness has taken its screenshot and read the titles and text (see CHECKPOINTS).
    `checkpoint() { : > "$D/at-$1"; i=0; while [ ! -e "$D/go-$1" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done; }`,
    // Hide the cursor so it is not mistaken for stray ink; start from an empty screen.
    `printf '\\033[?25l\\033[H\\033[2J'`,
    ...(options.printScreen ? [`printf '\\033[i'`] : []),
    'checkpoint baseline',
    `${cli} detect --json --record ${file(f.detectRecording)} > ${file(f.detectJson)} 2> ${file(f.detectErr)}; echo $? > ${file(f.detectRc)}`,
    `pending ${file(f.detectLeak)}`,
    ...(options.printScreen ? [`printf '\\033[i'`] : []),
    'checkpoint detect',
    marker(MARKERS.before),
    `${cli} show ${[options.image, ...options.showArgs].map(shellQuote).join(' ')} 2> ${file(f.showErr)}; echo $? > ${file(f.showRc)}`,
    `pending ${file(f.showLeak)}`,
    marker(MARKERS.after),
    `printf '\\033[?25l'`,
    ...(options.printScreen ? [`printf '\\033[i'`] : []),
    `: > ${file(f.done)}`,
    // Stay on screen until the harness has taken its pictures and stops this process group.
    'exec sleep 600',
    '',
  ].join('\n');
}
