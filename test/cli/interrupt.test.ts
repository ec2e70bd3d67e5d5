/**
 * The stop machinery without a terminal: exit codes per signal, the keys that mean a signal in raw
 * mode, the guard on a stand-in process and streams, the abortable wait, and the writer's `drain`
 * wait, which must not pile up listeners on a slow or closed pipe.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import {
  FALLBACK_TAIL,
  Interrupt,
  interruptedExit,
  interruptKey,
  interruptOf,
  type StopSignal,
} from '../../src/cli/interrupt.js';
import { PictureWriter } from '../../src/cli/picture-writer.js';
import { guardTerminal } from '../../src/cli/terminal-guard.js';
import { untilStopped } from '../../src/cli/until-stopped.js';

describe('exit codes', () => {
  it.each([
    { name: 'hang-up (the terminal closed)', signal: 'SIGHUP', code: 129, gone: false },
    { name: 'Ctrl-C', signal: 'SIGINT', code: 130, gone: false },
    { name: 'Ctrl-\\', signal: 'SIGQUIT', code: 131, gone: false },
    { name: 'a closed pipe: the output is gone', signal: 'SIGPIPE', code: 141, gone: true },
    { name: 'kill', signal: 'SIGTERM', code: 143, gone: false },
  ] as const)('$name: $signal exits $code', ({ signal, code, gone }) => {
    const interrupt = new Interrupt(signal);
    expect(interrupt.exitCode).toBe(code);
    expect(interrupt.outputGone).toBe(gone);
    const controller = new AbortController();
    controller.abort(interrupt);
    expect(interruptOf(controller.signal)).toBe(interrupt);
    expect(interruptedExit(controller.signal)).toBe(code);
  });

  it.each([
    { name: 'not aborted', abort: false, reason: undefined, code: 130, found: false },
    { name: 'aborted without a reason (a caller`s Ctrl-C)', abort: true, reason: undefined, code: 130, found: false },
    { name: 'aborted for something else', abort: true, reason: new Error('x'), code: 130, found: false },
  ])('$name', ({ abort, reason, code, found }) => {
    const controller = new AbortController();
    if (abort) controller.abort(reason);
    expect(interruptOf(controller.signal) !== null).toBe(found);
    expect(interruptedExit(controller.signal)).toBe(code);
  });
});

describe('keys typed while the terminal is raw', () => {
  it.each([
    { name: 'Ctrl-C alone', bytes: [0x03], signal: 'SIGINT' },
    { name: 'Ctrl-C after other keys', bytes: [0x61, 0x62, 0x03], signal: 'SIGINT' },
    { name: 'Ctrl-\\', bytes: [0x1c], signal: 'SIGQUIT' },
    { name: 'plain keys', bytes: [0x61, 0x0d], signal: null },
    { name: 'an arrow key', bytes: [0x1b, 0x5b, 0x41], signal: null },
    { name: 'Ctrl-D', bytes: [0x04], signal: null },
    { name: 'nothing', bytes: [], signal: null },
  ])('$name', ({ bytes, signal }) => {
    expect(interruptKey(Uint8Array.from(bytes))).toBe(signal);
  });
});

/** A stand-in process: signals are events. */
class FakeProcess extends EventEmitter {
  send(signal: StopSignal): void {
    this.emit(signal);
  }
}

class FakeStream extends EventEmitter {
  written = '';
  write(chunk: string): boolean {
    this.written += chunk;
    return true;
  }
}

describe('guardTerminal', () => {
  it.each([
    { name: 'Ctrl-C', signal: 'SIGINT' },
    { name: 'kill', signal: 'SIGTERM' },
    { name: 'the terminal closed', signal: 'SIGHUP' },
    { name: 'Ctrl-\\', signal: 'SIGQUIT' },
    { name: 'the reader gone', signal: 'SIGPIPE' },
  ] as const)(
    '$signal ($name) aborts the signal with its Interrupt, and dispose removes the listener',
    ({ signal }) => {
      const source = new FakeProcess();
      const stdout = new FakeStream();
      const exits: number[] = [];
      const guard = guardTerminal(source, { stdout }, (stop) => exits.push(stop.exitCode));
      expect(source.listenerCount(signal)).toBe(1);
      source.send(signal);
      expect(guard.signal.aborted).toBe(true);
      expect(guard.stopped?.signal).toBe(signal);
      expect(exits).toEqual([]); // the command closes its picture itself
      guard.dispose();
      expect(source.listenerCount(signal)).toBe(0);
    },
  );

  it('a second signal ends it at once, with the fallback tail', () => {
    const source = new FakeProcess();
    const stdout = new FakeStream();
    const exits: number[] = [];
    const guard = guardTerminal(source, { stdout }, (stop) => exits.push(stop.exitCode));
    source.send('SIGTERM');
    source.send('SIGINT');
    expect(exits).toEqual([143]);
    expect(stdout.written).toBe(FALLBACK_TAIL);
    guard.dispose();
  });

  it('an error on stdout (EPIPE) stops as SIGPIPE, writes nothing more, and never throws', () => {
    const source = new FakeProcess();
    const stdout = new FakeStream();
    const stderr = new FakeStream();
    const exits: number[] = [];
    const guard = guardTerminal(source, { stdout, stderr }, (stop) => exits.push(stop.exitCode));
    expect(() => stdout.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }))).not.toThrow();
    expect(() => stderr.emit('error', new Error('write EPIPE'))).not.toThrow();
    expect(guard.stopped?.signal).toBe('SIGPIPE');
    source.send('SIGTERM');
    expect(exits).toEqual([141]);
    expect(stdout.written).toBe('');
    guard.dispose();
  });

  it('stop() from a typed key acts as the signal, marked typed; a received signal is not', () => {
    const guard = guardTerminal(new FakeProcess(), { stdout: new FakeStream() }, () => {});
    guard.stop('SIGINT');
    expect(interruptedExit(guard.signal)).toBe(130);
    expect(guard.stopped?.typed).toBe(true);
    guard.dispose();
    const source = new FakeProcess();
    const received = guardTerminal(source, { stdout: new FakeStream() }, () => {});
    source.send('SIGINT');
    expect(received.stopped?.typed).toBe(false);
    received.dispose();
  });
});

describe('untilStopped', () => {
  it('resolves as the work does when nothing stops it', async () => {
    const controller = new AbortController();
    await expect(untilStopped(Promise.resolve(7), controller.signal)).resolves.toBe(7);
  });

  it('rejects with the Interrupt as soon as the signal aborts, the work still pending', async () => {
    const controller = new AbortController();
    const never = new Promise<number>(() => {});
    const waiting = untilStopped(never, controller.signal);
    const interrupt = new Interrupt('SIGINT');
    controller.abort(interrupt);
    await expect(waiting).rejects.toBe(interrupt);
  });

  it('rejects at once when already aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Interrupt('SIGTERM'));
    await expect(untilStopped(Promise.resolve(1), controller.signal)).rejects.toBeInstanceOf(Interrupt);
  });
});

/** A pipe that is always full: every write asks to wait for `drain`, which comes a turn later. */
class SlowPipe extends EventEmitter {
  writes = 0;
  write(_chunk: string): boolean {
    this.writes++;
    setImmediate(() => this.emit('drain'));
    return false;
  }
}

describe('PictureWriter on a slow pipe', () => {
  it('leaves no listener behind after each wait (no MaxListenersExceededWarning)', async () => {
    const pipe = new SlowPipe();
    const writer = new PictureWriter(pipe, undefined, 16);
    expect(await writer.write('x'.repeat(16 * 50))).toBe(true);
    expect(pipe.writes).toBe(50);
    for (const event of ['drain', 'close', 'error']) expect(pipe.listenerCount(event)).toBe(0);
  });

  it('stops waiting for drain when the signal aborts', async () => {
    const pipe = new EventEmitter() as EventEmitter & { write: () => boolean };
    pipe.write = () => false; // never drains
    const controller = new AbortController();
    const writer = new PictureWriter(pipe, controller.signal, 4);
    const done = writer.write('abcdefgh');
    setImmediate(() => controller.abort(new Interrupt('SIGTERM')));
    expect(await done).toBe(false);
    for (const event of ['drain', 'close', 'error']) expect(pipe.listenerCount(event)).toBe(0);
  });
});
