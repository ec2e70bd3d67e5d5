/**
 * Every case of terminal-link 5.0's own test suite (test.js), as rows: like upstream, each row sets
 * the supports-hyperlinks default export's answer, then calls terminalLink; the incumbent gets the
 * same treatment in this process, and both outputs must be the row's bytes. Then the deliberate
 * difference: URLs and text carrying control characters never reach the terminal raw.
 */
import supportsHyperlinksIncumbent from 'supports-hyperlinks';
import terminalLinkIncumbent from 'terminal-link';
import { describe, expect, it } from 'vitest';
import {
  formatTerminalLink,
  insideTmux,
  osc8Link,
  type TerminalLinkOptions,
  terminalLinkFor,
} from '../../src/compat/link-format.js';
import supportsHyperlinks from '../../src/compat/supports-hyperlinks.js';
import terminalLink from '../../src/compat/terminal-link.js';
import { hasControls } from '../../src/core/sanitize.js';

const LINKED = '\u001B]8;;https://sindresorhus.com\u0007My Website\u001B]8;;\u0007';
const custom = (text: string, url: string): string => `${text}: ${url}`;

interface Row {
  name: string;
  stream: 'stdout' | 'stderr';
  supported: boolean;
  options?: TerminalLinkOptions;
  expected: string;
}

const ROWS: Row[] = [
  { name: 'main', stream: 'stdout', supported: true, expected: LINKED },
  { name: 'stderr', stream: 'stderr', supported: true, expected: LINKED },
  { name: 'default fallback', stream: 'stdout', supported: false, expected: 'My Website https://sindresorhus.com' },
  {
    name: 'disabled fallback',
    stream: 'stdout',
    supported: false,
    options: { fallback: false },
    expected: 'My Website',
  },
  {
    name: 'explicitly enabled fallback',
    stream: 'stdout',
    supported: false,
    options: { fallback: true },
    expected: 'My Website https://sindresorhus.com',
  },
  {
    name: 'stderr default fallback',
    stream: 'stderr',
    supported: false,
    expected: 'My Website https://sindresorhus.com',
  },
  {
    name: 'custom fallback',
    stream: 'stdout',
    supported: false,
    options: { fallback: custom },
    expected: 'My Website: https://sindresorhus.com',
  },
  {
    name: 'custom fallback stderr',
    stream: 'stderr',
    supported: false,
    options: { fallback: custom },
    expected: 'My Website: https://sindresorhus.com',
  },
];

/** Upstream's expected bytes assume no tmux; ansi-escapes (and so the drop-in) wraps inside it. */
const tmux = insideTmux(process.env);
const wrap = (bytes: string): string =>
  tmux
    ? bytes.replace(
        /\u001b\]8;;[^\u0007]*\u0007/g,
        (osc) => `\u001bPtmux;${osc.replaceAll('\u001b', '\u001b\u001b')}\u001b\\`,
      )
    : bytes;

describe('terminal-link 5.0 suite, as data', () => {
  it.each(ROWS)('$name', (row) => {
    const ours = supportsHyperlinks as { stdout: boolean; stderr: boolean };
    const theirs = supportsHyperlinksIncumbent as { stdout: boolean; stderr: boolean };
    const saved = [ours[row.stream], theirs[row.stream]] as const;
    try {
      ours[row.stream] = row.supported;
      theirs[row.stream] = row.supported;
      const call = (fn: typeof terminalLink) =>
        row.stream === 'stdout'
          ? fn('My Website', 'https://sindresorhus.com', row.options)
          : fn.stderr('My Website', 'https://sindresorhus.com', row.options);
      expect(call(terminalLink)).toBe(wrap(row.expected));
      expect(call(terminalLink)).toBe(call(terminalLinkIncumbent as typeof terminalLink));
      // The pure form, handed the same support answer and no tmux, writes upstream's bytes exactly.
      expect(
        formatTerminalLink('My Website', 'https://sindresorhus.com', row.options?.fallback, row.supported, false),
      ).toBe(row.expected);
    } finally {
      ours[row.stream] = saved[0];
      theirs[row.stream] = saved[1];
    }
  });

  it.each([['isSupported'], ['stderr.isSupported']])('%s is a boolean, equal to the incumbent', (which) => {
    const of = (fn: typeof terminalLink) => (which === 'isSupported' ? fn.isSupported : fn.stderr.isSupported);
    expect(typeof of(terminalLink)).toBe('boolean');
    expect(of(terminalLink)).toBe(of(terminalLinkIncumbent as typeof terminalLink));
  });
});

describe('terminalLinkFor: the pure form', () => {
  const ghostty = { env: { TERM_PROGRAM: 'ghostty', COLORTERM: 'truecolor' }, isTTY: { stdout: true, stderr: false } };
  it.each<[string, Parameters<typeof terminalLinkFor>, string]>([
    [
      'links on a linking terminal',
      [ghostty, 'Docs', 'https://x.dev'],
      '\u001b]8;;https://x.dev\u0007Docs\u001b]8;;\u0007',
    ],
    ['stderr is not a TTY: fallback', [ghostty, 'Docs', 'https://x.dev', { target: 'stderr' }], 'Docs https://x.dev'],
    ['an unknown target falls back', [ghostty, 'Docs', 'https://x.dev', { target: 'elsewhere' }], 'Docs https://x.dev'],
    [
      'inside tmux: DCS passthrough with ESC doubled, as ansi-escapes',
      [{ ...ghostty, env: { ...ghostty.env, TMUX: '/tmp/tmux-1000/default,1,0' } }, 'Docs', 'https://x.dev'],
      '\u001bPtmux;\u001b\u001b]8;;https://x.dev\u0007\u001b\\Docs\u001bPtmux;\u001b\u001b]8;;\u0007\u001b\\',
    ],
    [
      'TERM=screen counts as tmux',
      [{ ...ghostty, env: { ...ghostty.env, TERM: 'screen' } }, 'D', 'u'],
      osc8Link('D', 'u', true),
    ],
  ])('%s', (_name, args, expected) => {
    expect(terminalLinkFor(...args)).toBe(expected);
  });
});

// The deliberate difference from terminal-link: for these inputs only.
describe('control characters never reach the terminal raw', () => {
  const cases: [string, string, string, boolean, TerminalLinkOptions['fallback'], string][] = [
    ['BEL in the URL refuses the link', 'Docs', 'https://x.dev\u0007evil', true, undefined, 'Docs https://x.devevil'],
    [
      'ESC \\ in the URL refuses the link',
      'Docs',
      'https://x.dev\u001b\\\u001b]8;;https://evil',
      true,
      undefined,
      'Docs https://x.dev\\]8;;https://evil',
    ],
    [
      '8-bit ST (0x9C) in the URL refuses the link',
      'Docs',
      'https://x.dev\u009cX',
      true,
      undefined,
      'Docs https://x.devX',
    ],
    [
      'a bidi override in the URL refuses the link',
      'Docs',
      'https://x.dev/\u202Egpj.exe',
      true,
      undefined,
      'Docs https://x.dev/gpj.exe',
    ],
    [
      'an OSC 8 inside the text is removed',
      'Do\u001b]8;;https://evil\u0007cs',
      'https://x.dev',
      true,
      undefined,
      '\u001b]8;;https://x.dev\u0007Do]8;;https://evilcs\u001b]8;;\u0007',
    ],
    [
      'a bidi override in the text is removed, the link kept',
      'Docs\u202e\u2066exe.txt\u2069',
      'https://x.dev',
      true,
      undefined,
      '\u001b]8;;https://x.dev\u0007Docsexe.txt\u001b]8;;\u0007',
    ],
    [
      'a bidi mark in the text is removed from the fallback too',
      '\u200fDocs\u061c',
      'https://x.dev',
      false,
      undefined,
      'Docs https://x.dev',
    ],
    [
      'SGR colours in the text are kept',
      '\u001b[34mDocs\u001b[39m',
      'https://x.dev',
      true,
      undefined,
      '\u001b]8;;https://x.dev\u0007\u001b[34mDocs\u001b[39m\u001b]8;;\u0007',
    ],
    [
      '8-bit CSI (0x9B) in the text is removed',
      'Docs\u009b2J',
      'https://x.dev',
      false,
      undefined,
      'Docs2J https://x.dev',
    ],
    ['fallback false still cleans the text', 'Docs\u0007\u0000', 'https://x.dev', false, false, 'Docs'],
    [
      'a custom fallback receives clean arguments',
      'Do\ncs',
      'https://x.dev\r',
      false,
      (t, u) => `${t}|${u}`,
      'Docs|https://x.dev',
    ],
  ];
  it.each(cases)('%s', (_name, text, url, supported, fallback, expected) => {
    const out = formatTerminalLink(text, url, fallback, supported, false);
    expect(out).toBe(expected);
    // Whatever controls remain are the link's own framing and kept SGR sequences.
    const framing = out
      .replaceAll(/\u001b\]8;;[^\u0000-\u001f\u007f-\u009f]*\u0007/g, '')
      .replaceAll(/\u001b\[[0-9;:]*m/g, '');
    expect(hasControls(framing)).toBe(false);
  });
});
