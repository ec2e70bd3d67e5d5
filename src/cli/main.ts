#!/usr/bin/env node
/**
 * The `termsight` executable: the only place the CLI reaches for `process`.
 */
import { processRuntime } from '../env/runtime.js';
import { runCli } from './run.js';

const code = await runCli(process.argv.slice(2), {
  runtime: processRuntime(),
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
});
process.exitCode = code;
