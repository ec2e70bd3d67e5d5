/**
 * The `termsight` executable: the only place the CLI reaches for `process`. The guard turns
 * signals and a closed stdout into a clean stop (docs/cli.md, "Every way out").
 */
import { processRuntime } from '../env/runtime.js';
import { exitStopped } from './exit.js';
import { JobControl } from './job-control.js';
import { runCli } from './run.js';
import { guardTerminal } from './terminal-guard.js';

const guard = guardTerminal(process, { stdout: process.stdout, stderr: process.stderr }, (stop) =>
  exitStopped(process, stop),
);
// Only where stdout is a terminal: a picture piped to a file has nothing to close on Ctrl-Z.
const jobs = process.stdout.isTTY
  ? new JobControl(process, process.stdout, () => process.kill(process.pid, 'SIGTSTP'))
  : undefined;
const code = await runCli(process.argv.slice(2), {
  runtime: processRuntime(),
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  stop: guard,
  ...(jobs ? { jobs } : {}),
});
guard.dispose();
jobs?.dispose();
// Stopped: end now (stdin may still be read, a probe's drain still armed), by the signal itself;
// the probe's exit handler, run first, puts the terminal's mode back (exit.ts).
if (guard.stopped) exitStopped(process, guard.stopped);
process.exitCode = code;
