/**
 * Probing the terminal while Ink owns stdin. Ink reads its input with `stdin.read()` on
 * `'readable'` (not `'data'`), so the driver cannot tap Ink's stream directly: a reply would reach
 * `useInput`. While the probe runs, the guard puts itself in front of `stdin.read`: every chunk the
 * terminal sends goes to the driver (through a stand-in input stream), and `read()` hands Ink only
 * what the driver gives back as keys (`onKeys`), in order. Raw mode goes through Ink's own
 * `setRawMode` so Ink's count of raw-mode users stays right. After the probe (and its late-reply
 * drain) `read` is put back and keys nobody read yet are `unshift`ed onto stdin.
 * Ink-free: it takes the stream and a raw-mode function, so it is tested without React.
 */
import { EventEmitter } from 'node:events';
import { replyKey } from '../probe/asks.js';
import { askTerminal, type DriverOptions } from '../probe/driver.js';
import { probeTerminal } from '../report/probe-terminal.js';
import type { Report } from '../report/types.js';

/** On a guard's `emit` that keeps `'data'` from listeners while it pulls: the `emit` it wraps. */
const unquieted = Symbol('termsight.unquietedEmit');

/** What the guard needs of Ink's stdin (a tty.ReadStream, or ink-testing-library's stand-in). */
export interface GuardedStdin extends NodeJS.EventEmitter {
  read(size?: number): string | Buffer | null;
  unshift(chunk: string | Uint8Array): void;
  readonly readableEncoding?: BufferEncoding | null;
  readonly isTTY?: boolean;
  pause?(): unknown;
}

/** A live guard on one stdin. */
export interface InputGuard {
  /** The stand-in input for the driver (`DriverOptions.input`). */
  readonly input: NonNullable<DriverOptions['input']>;
  /** The driver's `onKeys`: keys typed during the probe, handed to Ink's next `read()`. */
  readonly onKeys: (bytes: Uint8Array) => void;
  /** Resolves when the driver has let go of the input (its drain ended); then `read` is Ink's again. */
  readonly released: Promise<void>;
  /** Whether the driver holds raw mode through the guard (it attached and has not let go). */
  readonly holding: boolean;
  /** Puts everything back now (idempotent). */
  release(): void;
}

/**
 * Installs the guard. `setRawMode` is Ink's (`useStdin().setRawMode`), or the stream's own.
 *
 * @example const guard = guardInput(stdin, setRawMode); await probeTty({ input: guard.input, output: stdout, onKeys: guard.onKeys })
 */
export function guardInput(stdin: GuardedStdin, setRawMode: (mode: boolean) => void): InputGuard {
  const ownRead = Object.getOwnPropertyDescriptor(stdin, 'read');
  const read = stdin.read.bind(stdin);
  const keys: Buffer[] = [];
  let active = true;
  let held = false;
  let heard = false;
  /** Chunks pulled but not yet handed to the driver. */
  let unpumped: Buffer[] = [];
  let handing = false;
  /** Someone reads the stand-in now: what waited in stdin meanwhile is pulled for it. */
  const listening = (): void => {
    if (heard) return;
    heard = true;
    setImmediate(() => {
      if (active) pump();
    });
  };
  let releaseResolve: () => void = () => {};
  const released = new Promise<void>((r) => {
    releaseResolve = r;
  });
  let nudge: NodeJS.Immediate | null = null;

  const stand = new EventEmitter() as EventEmitter & Record<string, unknown>;
  Object.assign(stand, {
    isTTY: true,
    // The driver restores what it found: "not raw" means it hands its hold back when done.
    isRaw: false,
    destroyed: false,
    readableFlowing: null,
    readableEncoding: null,
    setRawMode(mode: boolean) {
      if (mode && !held) {
        held = true;
        setRawMode(true);
      } else if (!mode && held) {
        held = false;
        setRawMode(false);
        // The driver restores the mode as its very last step: the probe has let go.
        release();
      }
      return stand;
    },
    // The driver's last step of attaching (its tap is on).
    resume: () => {
      listening();
      return stand;
    },
    pause: () => stand,
    unshift: (chunk: Uint8Array | string) => keys.push(Buffer.from(chunk)),
    destroy: () => stand,
    read: () => null,
    setEncoding: () => stand,
    isPaused: () => false,
  });

  // A 'data' listener on the stand-in (the resize watch's lazy guard reads it so) listens too.
  stand.on('newListener', (event: string | symbol) => {
    if (event === 'data') listening();
  });

  const asInk = (bytes: Buffer): string | Buffer =>
    stdin.readableEncoding ? bytes.toString(stdin.readableEncoding) : bytes;

  /**
   * Pulls everything the terminal sent and hands it to the driver. A stream's `read()` also emits
   * `'data'` with each chunk it returns: that is kept from `'data'` listeners (Ink 6.8's and 7's
   * kitty keyboard detector, which would take every reply and key raw and `unshift` the keys again:
   * docs/ink.md, "Ink's own kitty keyboard query").
   */
  const pump = (): void => {
    // Before anyone listens to the stand-in, a chunk emitted there would be lost: it waits in stdin.
    if (!heard) return;
    const ownEmit = Object.getOwnPropertyDescriptor(stdin, 'emit');
    const emit = stdin.emit;
    const quiet = function (this: unknown, event: string | symbol, ...args: unknown[]): boolean {
      return event === 'data' ? false : emit.call(this, event, ...args);
    };
    Object.assign(quiet, { [unquieted]: emit });
    Object.defineProperty(stdin, 'emit', { configurable: true, writable: true, value: quiet });
    const chunks: Buffer[] = [];
    try {
      for (let chunk = read(); chunk !== null; chunk = read()) {
        const bytes = typeof chunk === 'string' ? Buffer.from(chunk, stdin.readableEncoding ?? 'utf8') : chunk;
        if (bytes.length > 0) chunks.push(bytes);
      }
    } finally {
      if (ownEmit) Object.defineProperty(stdin, 'emit', ownEmit);
      else delete (stdin as unknown as Record<string, unknown>).emit;
    }
    // The driver may let go while it reads one of them (its last reply): the rest are Ink's (release()).
    unpumped.push(...chunks);
    if (handing) return;
    handing = true;
    try {
      for (let bytes = unpumped.shift(); bytes !== undefined; bytes = unpumped.shift()) stand.emit('data', bytes);
    } finally {
      handing = false;
    }
  };

  /**
   * Ink's own kitty keyboard query's answer (`CSI ? flags u`, passed on by the driver: termsight did
   * not ask it) goes to the reader that waits for it: Ink 6.8 and 7 wait on a `'data'` listener
   * (through `read()` their App would hand it to `useInput` as `[?0u`); Ink 8 reads it with the keys
   * and takes it out itself, so with no `'data'` listener it goes the keys' way.
   */
  const toDataListener = (bytes: Uint8Array): boolean => {
    if (stdin.listenerCount('data') === 0 || replyKey({ kind: 'csi', bytes }) !== 'kittyKeyboard') return false;
    // Past any guard's quieting (a guard below answers while one above pulls).
    let emit = stdin.emit as typeof stdin.emit & { [unquieted]?: typeof stdin.emit };
    while (emit[unquieted]) emit = emit[unquieted];
    emit.call(stdin, 'data', asInk(Buffer.from(bytes)));
    return true;
  };

  const takeKeys = (): string | Buffer | null => {
    if (keys.length === 0) return null;
    const all = Buffer.concat(keys);
    keys.length = 0;
    return asInk(all);
  };

  // Ink's (or anyone's) read(): the terminal's bytes go to the probe; only keys come back.
  Object.defineProperty(stdin, 'read', {
    configurable: true,
    writable: true,
    value: (_size?: number) => {
      if (!active) return read();
      pump();
      return takeKeys();
    },
  });
  // Read even when no Ink component listens yet.
  const onReadable = (): void => {
    if (active) pump();
  };
  stdin.on('readable', onReadable);

  function release(): void {
    if (!active) return;
    active = false;
    if (nudge) clearImmediate(nudge);
    stdin.off('readable', onReadable);
    if (ownRead) Object.defineProperty(stdin, 'read', ownRead);
    else delete (stdin as unknown as Record<string, unknown>).read;
    keys.push(...unpumped);
    unpumped = [];
    const rest = takeKeys();
    if (rest !== null) stdin.unshift(rest);
    // Nobody else reads: stop reading so the process can exit.
    if (stdin.listenerCount('readable') === 0 && stdin.listenerCount('data') === 0) stdin.pause?.();
    releaseResolve();
  }

  return {
    input: stand as unknown as InputGuard['input'],
    get holding() {
      return held;
    },
    onKeys(bytes: Uint8Array): void {
      if (bytes.length === 0 || toDataListener(bytes)) return;
      // A key the driver releases after letting go (a lone ESC it held) goes straight back.
      if (!active) {
        stdin.unshift(asInk(Buffer.from(bytes)));
        return;
      }
      keys.push(Buffer.from(bytes));
      // Ink reads again on 'readable': tell it there is something (after the current read, if any).
      nudge ??= setImmediate(() => {
        nudge = null;
        if (keys.length > 0) stdin.emit('readable');
      });
    },
    released,
    release,
  };
}

/** What `probeInsideInk` needs: Ink's streams, its raw-mode switch, and driver options. */
export interface InkProbeOptions
  extends Pick<DriverOptions, 'runtime' | 'budgetMs' | 'signal' | 'askOuter' | 'lateMs'> {
  readonly stdin: GuardedStdin;
  readonly stdout: NonNullable<DriverOptions['output']>;
  readonly setRawMode: (mode: boolean) => void;
  /** Called once stdin is Ink's alone again (after the driver's late-reply drain). */
  readonly onReleased?: () => void;
}

/**
 * Probes the terminal behind Ink's stdin and stdout without losing a key or leaking a reply to
 * `useInput`. Resolves the report for stdout; never rejects except on `signal`.
 *
 * @example const report = await probeInsideInk({ stdin, stdout, setRawMode })
 */
export async function probeInsideInk(options: InkProbeOptions): Promise<Report> {
  const { stdin, stdout, setRawMode, onReleased, ...driver } = options;
  if (!stdin.isTTY) {
    onReleased?.();
    return probeTerminal({ ...driver, stream: 'stdout' });
  }
  const guard = guardInput(stdin, setRawMode);
  guard.released.then(() => onReleased?.());
  try {
    return await probeTerminal({
      ...driver,
      stream: 'stdout',
      input: guard.input,
      output: stdout,
      onKeys: guard.onKeys,
    });
  } finally {
    // The driver lets go after its drain (it restores raw mode then); if it never held, at once.
    if (!guard.holding) guard.release();
    else setTimeout(() => guard.release(), (driver.lateMs ?? 100) + 1000).unref();
  }
}

/** What `askInsideInk` needs: Ink's streams, its raw-mode switch, the queries, and driver options. */
export interface InkAskOptions extends Pick<DriverOptions, 'runtime' | 'budgetMs' | 'signal' | 'lateMs'> {
  readonly stdin: GuardedStdin;
  readonly stdout: NonNullable<DriverOptions['output']>;
  readonly setRawMode: (mode: boolean) => void;
  /** The application's queries (see `askTerminal`: each must have a reply of its own shape). */
  readonly queries: readonly (string | Uint8Array)[];
}

/**
 * An Ink application's own queries (the background colour when the theme changes, a DSR), asked
 * while Ink owns stdin: `askTerminal` behind an input guard, so the replies reach the asker, not
 * `useInput`, and keys typed meanwhile do. Each answer is the reply, or null (unsupported, silent,
 * or stdin not a terminal). Guards nest: the provider's resize watch may hold stdin meanwhile (it
 * passes on replies it did not ask for).
 *
 * @example const [bg] = await askInsideInk({ stdin, stdout, setRawMode, queries: ['\x1b]11;?\x1b\\'] })
 */
export async function askInsideInk(options: InkAskOptions): Promise<(Uint8Array | null)[]> {
  const { stdin, stdout, setRawMode, queries, ...driver } = options;
  if (!stdin.isTTY) return queries.map(() => null);
  const guard = guardInput(stdin, setRawMode);
  try {
    return await askTerminal(queries, { ...driver, input: guard.input, output: stdout, onKeys: guard.onKeys });
  } finally {
    if (!guard.holding) guard.release();
    else setTimeout(() => guard.release(), (driver.lateMs ?? 100) + 1000).unref();
  }
}
