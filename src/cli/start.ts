/**
 * The `termsight` executable: the only place the CLI reaches for `process`. The guard turns
 * signals and a closed stdout into a clean stop (docs/cli.md, "Every way out").
 */
import { processRuntime } from '../env/runtime.js';
import { JobControl } from './job-control.js';
import { runCli } from './run.js';
import { guardTerminal } from './terminal-guard.js';

const guard = guardTerminal(process, { stdout: process.stdout, stderr: process.stderr }, (code) => process.exit(code));
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
// Stopped: exit now with 128+n (stdin may still be read, a probe's drain still armed); the
// probe's own exit handler puts the terminal's mode back.
if (guard.stopped) process.exit(guard.stopped.exitCode);
process.exitCode = code;
