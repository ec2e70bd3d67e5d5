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

  it.each([
    { name: 'stdout', which: 'isSupported' },
    { name: 'stderr', which: 'stderr.isSupported' },
  ])('$which ($name) is a boolean, equal to the incumbent', ({ which }) => {
    const of = (fn: typeof terminalLink) => (which === 'isSupported' ? fn.isSupported : fn.stderr.isSupported);
    expect(typeof of(terminalLink)).toBe('boolean');
    expect(of(terminalLink)).toBe(of(terminalLinkIncumbent as typeof terminalLink));
  });
});

describe('terminalLinkFor: the pure form', () => {
  const ghostty = { env: { TERM_PROGRAM: 'ghostty', COLORTERM: 'truecolor' }, isTTY: { stdout: true, stderr: false } };
  it.each<{ name: string; args: Parameters<typeof terminalLinkFor>; expected: string }>([
    {
      name: 'links on a linking terminal',
      args: [ghostty, 'Docs', 'https://x.dev'],
      expected: '\u001b]8;;https://x.dev\u0007Docs\u001b]8;;\u0007',
    },
    {
      name: 'stderr is not a TTY: fallback',
      args: [ghostty, 'Docs', 'https://x.dev', { target: 'stderr' }],
      expected: 'Docs https://x.dev',
    },
    {
      name: 'an unknown target falls back',
      args: [ghostty, 'Docs', 'https://x.dev', { target: 'elsewhere' }],
      expected: 'Docs https://x.dev',
    },
    {
      name: 'inside tmux: DCS passthrough with ESC doubled, as ansi-escapes',
      args: [{ ...ghostty, env: { ...ghostty.env, TMUX: '/tmp/tmux-1000/default,1,0' } }, 'Docs', 'https://x.dev'],
      expected: '\u001bPtmux;\u001b\u001b]8;;https://x.dev\u0007\u001b\\Docs\u001bPtmux;\u001b\u001b]8;;\u0007\u001b\\',
    },
    {
      name: 'TERM=screen counts as tmux',
      args: [{ ...ghostty, env: { ...ghostty.env, TERM: 'screen' } }, 'D', 'u'],
      expected: osc8Link('D', 'u', true),
    },
  ])('$name', ({ args, expected }) => {
    expect(terminalLinkFor(...args)).toBe(expected);
  });
});

// The deliberate difference from terminal-link: for these inputs only.
describe('control characters never reach the terminal raw', () => {
  const cases: {
    name: string;
    text: string;
    url: string;
    supported: boolean;
    fallback: TerminalLinkOptions['fallback'];
    expected: string;
  }[] = [
    {
      name: 'BEL in the URL refuses the link',
      text: 'Docs',
      url: 'https://x.dev\u0007evil',
      supported: true,
      fallback: undefined,
      expected: 'Docs https://x.devevil',
    },
    {
      name: 'ESC \\ in the URL refuses the link',
      text: 'Docs',
      url: 'https://x.dev\u001b\\\u001b]8;;https://evil',
      supported: true,
      fallback: undefined,
      expected: 'Docs https://x.dev\\]8;;https://evil',
    },
    {
      name: '8-bit ST (0x9C) in the URL refuses the link',
      text: 'Docs',
      url: 'https://x.dev\u009cX',
      supported: true,
      fallback: undefined,
      expected: 'Docs https://x.devX',
    },
    {
      name: 'a bidi override in the URL refuses the link',
      text: 'Docs',
      url: 'https://x.dev/\u202Egpj.exe',
      supported: true,
      fallback: undefined,
      expected: 'Docs https://x.dev/gpj.exe',
    },
    {
      name: 'an OSC 8 inside the text is removed',
      text: 'Do\u001b]8;;https://evil\u0007cs',
      url: 'https://x.dev',
      supported: true,
      fallback: undefined,
      expected: '\u001b]8;;https://x.dev\u0007Do]8;;https://evilcs\u001b]8;;\u0007',
    },
    {
      name: 'a bidi override in the text is removed, the link kept',
      text: 'Docs\u202e\u2066exe.txt\u2069',
      url: 'https://x.dev',
      supported: true,
      fallback: undefined,
      expected: '\u001b]8;;https://x.dev\u0007Docsexe.txt\u001b]8;;\u0007',
    },
    {
      name: 'a bidi mark in the text is removed from the fallback too',
      text: '\u200fDocs\u061c',
      url: 'https://x.dev',
      supported: false,
      fallback: undefined,
      expected: 'Docs https://x.dev',
    },
    {
      name: 'SGR colours in the text are kept',
      text: '\u001b[34mDocs\u001b[39m',
      url: 'https://x.dev',
      supported: true,
      fallback: undefined,
      expected: '\u001b]8;;https://x.dev\u0007\u001b[34mDocs\u001b[39m\u001b]8;;\u0007',
    },
    {
      name: '8-bit CSI (0x9B) in the text is removed',
      text: 'Docs\u009b2J',
      url: 'https://x.dev',
      supported: false,
      fallback: undefined,
      expected: 'Docs2J https://x.dev',
    },
    {
      name: 'fallback false still cleans the text',
      text: 'Docs\u0007\u0000',
      url: 'https://x.dev',
      supported: false,
      fallback: false,
      expected: 'Docs',
    },
    {
      name: 'a custom fallback receives clean arguments',
      text: 'Do\ncs',
      url: 'https://x.dev\r',
      supported: false,
      fallback: (t, u) => `${t}|${u}`,
      expected: 'Docs|https://x.dev',
    },
  ];
  it.each(cases)('$name', ({ text, url, supported, fallback, expected }) => {
    const out = formatTerminalLink(text, url, fallback, supported, false);
    expect(out).toBe(expected);
    // Whatever controls remain are the link's own framing and kept SGR sequences.
    const framing = out
      .replaceAll(/\u001b\]8;;[^\u0000-\u001f\u007f-\u009f]*\u0007/g, '')
      .replaceAll(/\u001b\[[0-9;:]*m/g, '');
    expect(hasControls(framing)).toBe(false);
  });
});
