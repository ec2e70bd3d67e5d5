/**
 * The CLI's dispatcher: picks the subcommand, turns bad usage into one line and exit code 2, and
 * any other failure into one line and exit code 1.
 */
import { escapeBytes } from '../core/escape.js';
import { type CliContext, UsageError } from './context.js';
import { Interrupt } from './interrupt.js';
import { version } from './version.js';

/** The usage text printed by `--help`. */
export const HELP = `termsight: find out what this terminal can really do, then use it.

Usage:
  termsight detect [--json] [--no-probe] [--timeout MS] [--trace] [--record FILE]
      Ask the terminal (and read the environment) and print the report, with the
      reason for every answer. --no-probe reads the environment only; --timeout
      sets the probe's budget (default 100 ms, 1000 ms over ssh); --trace prints
      every byte sent and received, with its time, on stderr; --record writes
      the queries, the replies with their times and the environment (nothing
      personal) to FILE, for \`termsight replay\` on any machine.
  termsight replay FILE [--json]
      The report and drawing decision of a recording, offline.
  termsight show FILE... [--protocol P] [--symbols SETS] [--width W] [--height H]
                 [--fit MODE] [--align A] [--grid COLSxROWS] [--no-probe] [--animate]
                 [--explain] [--timeout MS] [--max-bytes N] [--tmux-passthrough]
      Draw pictures (- reads stdin) with the best protocol: kitty, iterm2,
      sixel, braille, blocks or symbols. PNG, JPEG, GIF, WebP, BMP, QOI and
      PNM are read by termsight itself; AVIF, TIFF and SVG need the package
      sharp, HEIC libheif-js, JPEG XL wasm-vips. --width and --height
      take cells (40), a percentage of the terminal (50%) or pixels (400px);
      --fit contain (default), cover (fill the box, crop) or fill (stretch);
      --align left, center or right; --grid 4x2 lays files out as thumbnails
      with their names; --animate plays a GIF, APNG or WebP animation (kitty
      and iTerm2 play it themselves); --explain prints the drawing plan, a reason for each
      decision, and draws nothing. --symbols picks the
      glyphs of symbols pictures: half, quadrant, eighths, block (default),
      sextant, octant, braille, all, comma-separated. --max-bytes reads at
      most N bytes of each input (K, M, G for KiB, MiB, GiB; default 64M): a
      larger file, a device or an endless pipe is refused with exit 2.
      --tmux-passthrough (show, detect, demo): inside tmux, turn
      allow-passthrough on for this pane only, so pictures reach the terminal.
  termsight rules [--json]
      List the environment rule tables, in priority order.
  termsight demo
      The report of this terminal, then a sample picture (what npm start runs).
  termsight --help | --version

Environment:
  TERMSIGHT_GRAPHICS=kitty|iterm2|sixel|braille|blocks|symbols|off  overrides detection
  NO_COLOR                                                          plain output

Exit codes: 0 ok, 1 failure, 2 bad usage or a file that could not be shown,
128+n stopped by a signal (130 Ctrl-C, 143 SIGTERM, 129 SIGHUP, 141 closed pipe).
`;

// Each subcommand's modules load when it runs: `show` needs no rule tables printed, `detect` no
// image decoder (a one-shot process pays for every module it loads; docs/cli.md).
const COMMANDS: Record<string, (args: readonly string[], ctx: CliContext) => Promise<number>> = {
  detect: async (args, ctx) => (await import('./detect.js')).runDetect(args, ctx),
  replay: async (args, ctx) => (await import('./replay.js')).runReplay(args, ctx),
  show: async (args, ctx) => (await import('./show.js')).runShow(args, ctx),
  rules: async (args, ctx) => (await import('./rules.js')).runRules(args, ctx),
  demo: async (args, ctx) => (await import('./demo.js')).runDemo(args, ctx),
};

/** Runs the CLI with `args` (without node and the script); resolves to the exit code. */
export async function runCli(args: readonly string[], ctx: CliContext): Promise<number> {
  const [command, ...rest] = args;
  try {
    if (command === undefined) throw new UsageError('missing command; try termsight --help');
    if (command === '--help' || command === '-h' || command === 'help') {
      ctx.stdout.write(HELP);
      return 0;
    }
    if (command === '--version' || command === '-V') {
      ctx.stdout.write(`${version()}\n`);
      return 0;
    }
    const run = COMMANDS[command];
    if (!run) throw new UsageError(`unknown command ${JSON.stringify(command)}; try termsight --help`);
    if (rest.includes('--help') || rest.includes('-h')) {
      ctx.stdout.write(HELP);
      return 0;
    }
    return await run(rest, ctx);
  } catch (error) {
    // Stopped (a signal, Ctrl-C during the probe, a closed output): quietly, with 128+n.
    if (error instanceof Interrupt) return error.exitCode;
    if (error instanceof UsageError) {
      ctx.stderr.write(`termsight: ${escapeBytes(error.message)}\n`);
      return 2;
    }
    ctx.stderr.write(`termsight: ${escapeBytes(firstLine(error))}\n`);
    return 1;
  }
}

/** The first line of an error's message: the CLI's failures are one line each. */
function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}
