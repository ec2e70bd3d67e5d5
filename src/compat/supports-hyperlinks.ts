/**
 * `termsight/supports-hyperlinks`: a drop-in for supports-hyperlinks 4.x, answering as 4.6.0 does
 * for the same process: `process.env`, `process.argv` and `process.platform` are read at each call,
 * the colour gate is `termsight/supports-color`'s (with its import-time flags, as the incumbent's is
 * supports-color's), and the default export is computed at import from `process.stdout`/`stderr`.
 * The pure form is `hyperlinksSupported(runtime, stream)`; see hyperlinks.ts for the kept quirks.
 */
import process from 'node:process';
import { decideHyperlinks } from './hyperlinks.js';
import { createSupportsColor } from './supports-color.js';

export { decideHyperlinks, type HyperlinkQuestion, hyperlinksSupported, parseVersion } from './hyperlinks.js';

/**
 * Whether hyperlinks work on `stream` (anything with `isTTY`; without one the TTY check is skipped).
 * @example createSupportsHyperlinks(process.stdout) // true in iTerm2 3.1+, WezTerm, ghostty, …
 */
export function createSupportsHyperlinks(stream?: { isTTY?: boolean } | null): boolean {
  return decideHyperlinks({
    env: process.env,
    argv: process.argv,
    platform: process.platform,
    stream: stream ?? undefined,
    colorSupported: () => createSupportsColor(stream) !== false,
  });
}

/** Whether hyperlinks work on stdout and stderr, computed at import as the incumbent's default export. */
const supportsHyperlinks: { stdout: boolean; stderr: boolean } = {
  stdout: createSupportsHyperlinks(process.stdout),
  stderr: createSupportsHyperlinks(process.stderr),
};

export default supportsHyperlinks;
