/**
 * `termsight/terminal-link`: a drop-in for terminal-link 5.x. Support is read from
 * `termsight/supports-hyperlinks`' default export at each call (as the incumbent reads
 * supports-hyperlinks', so setting `supportsHyperlinks.stdout = true` there is seen here), tmux
 * wrapping is decided at import from TERM/TMUX (as ansi-escapes does), and text or URLs carrying
 * control characters are sanitized (see link-format.ts: the one deliberate difference).
 */
import process from 'node:process';
import { formatTerminalLink, insideTmux, type TerminalLinkOptions } from './link-format.js';
import supportsHyperlinks from './supports-hyperlinks.js';

export { formatTerminalLink, insideTmux, osc8Link, type TerminalLinkOptions, terminalLinkFor } from './link-format.js';

/** terminal-link's options type, under its own name. */
export type Options = Omit<TerminalLinkOptions, 'target'>;

const tmux = insideTmux(process.env);

/** The terminal-link function type: a link for stdout, with `.isSupported` and `.stderr`. */
export interface TerminalLink {
  (text: string, url: string, options?: TerminalLinkOptions): string;
  readonly isSupported: boolean;
  readonly stderr: {
    (text: string, url: string, options?: Options): string;
    readonly isSupported: boolean;
  };
}

function link(text: string, url: string, { target = 'stdout', ...options }: TerminalLinkOptions = {}): string {
  const supported = Boolean((supportsHyperlinks as Record<string, unknown>)[target]);
  return formatTerminalLink(text, url, options.fallback, supported, tmux);
}

const stderr = Object.assign(
  (text: string, url: string, options: Options = {}) => link(text, url, { target: 'stderr', ...options }),
  {
    isSupported: supportsHyperlinks.stderr,
  },
);

/**
 * A clickable link for stdout where it works, else `text url` (or your fallback).
 * @example terminalLink('My Website', 'https://sindresorhus.com')
 */
const terminalLink: TerminalLink = Object.assign(link, { isSupported: supportsHyperlinks.stdout, stderr });

export default terminalLink;
