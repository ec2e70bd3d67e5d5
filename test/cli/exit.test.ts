/**
 * The way out of a stopped CLI on a stand-in process: the exit listeners run once, first, with the
 * exit code; then the signal is raised with every listener of it gone (so its default action ends
 * the process), except SIGQUIT and on Windows; the exit with 128+n comes last, for a runtime the
 * kill did not end. test/cli/signals-pty.test.ts checks the real thing in a pty and under bash.
 */
import { describe, expect, it } from 'vitest';
import { type ExitHost, exitStopped } from '../../src/cli/exit.js';
import { Interrupt, type StopSignal } from '../../src/cli/interrupt.js';

/** Records every call in order; `alive` says whether a kill would have ended a real process. */
class FakeHost implements ExitHost {
  readonly pid = 4242;
  readonly calls: string[] = [];
  private exitListeners: ((code: number) => void)[] = [];
  constructor(
    readonly platform: string,
    listeners: number,
    failing = false,
  ) {
    for (let i = 0; i < listeners; i++)
      this.exitListeners.push((code) => {
        this.calls.push(`exit listener ${i} (${code})`);
        if (failing && i === 0) throw new Error('a cleanup failed');
      });
  }
  listeners(): readonly ((code: number) => void)[] {
    return this.exitListeners;
  }
  removeAllListeners(event: 'exit' | StopSignal): void {
    this.calls.push(`remove ${event}`);
    if (event === 'exit') this.exitListeners = [];
  }
  kill(pid: number, signal: StopSignal): void {
    this.calls.push(`kill ${pid} ${signal}`);
  }
  exit(code: number): void {
    this.calls.push(`exit ${code}`);
  }
}

const raised = (signal: StopSignal, code: number, to = 4242) => [
  'remove exit',
  `exit listener 0 (${code})`,
  `exit listener 1 (${code})`,
  `remove ${signal}`,
  `kill ${to} ${signal}`,
  `exit ${code}`,
];
const exited = (code: number) => [
  'remove exit',
  `exit listener 0 (${code})`,
  `exit listener 1 (${code})`,
  `exit ${code}`,
];

describe('exitStopped', () => {
  it.each([
    {
      name: 'Ctrl-C on Linux: dies by SIGINT',
      signal: 'SIGINT',
      platform: 'linux',
      typed: false,
      calls: raised('SIGINT', 130),
    },
    {
      name: 'kill on Linux: dies by SIGTERM',
      signal: 'SIGTERM',
      platform: 'linux',
      typed: false,
      calls: raised('SIGTERM', 143),
    },
    {
      name: 'hang-up on macOS: dies by SIGHUP',
      signal: 'SIGHUP',
      platform: 'darwin',
      typed: false,
      calls: raised('SIGHUP', 129),
    },
    {
      name: 'a closed output: dies by SIGPIPE',
      signal: 'SIGPIPE',
      platform: 'linux',
      typed: false,
      calls: raised('SIGPIPE', 141),
    },
    // Ctrl-\: its default would dump core.
    { name: 'Ctrl-\\: exits 131', signal: 'SIGQUIT', platform: 'linux', typed: false, calls: exited(131) },
    // Windows has no signal death to raise: kill there is TerminateProcess, with another code.
    { name: 'Ctrl-C on Windows: exits 130', signal: 'SIGINT', platform: 'win32', typed: false, calls: exited(130) },
    // Ctrl-C read as a byte while raw: to the foreground process group, as cooked mode would send it.
    {
      name: 'Ctrl-C read while raw: SIGINT to the process group',
      signal: 'SIGINT',
      platform: 'linux',
      typed: true,
      calls: raised('SIGINT', 130, 0),
    },
    {
      name: 'Ctrl-\\ read while raw: exits 131',
      signal: 'SIGQUIT',
      platform: 'linux',
      typed: true,
      calls: exited(131),
    },
  ] as const)('$name', ({ signal, platform, typed, calls }) => {
    const host = new FakeHost(platform, 2);
    exitStopped(host, new Interrupt(signal, typed));
    expect(host.calls).toEqual(calls);
  });

  it('a failing exit listener keeps neither the others nor the way out from running', () => {
    const host = new FakeHost('linux', 2, true);
    exitStopped(host, new Interrupt('SIGTERM'));
    expect(host.calls).toEqual(raised('SIGTERM', 143));
  });
});
