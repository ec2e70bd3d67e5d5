/**
 * The provider and <Image> under real Ink on termsight/testing's scripted terminals (in-memory
 * streams as Ink's stdin and stdout): the probe is answered as each terminal does, and `drawn()`
 * reads the picture back from what Ink and the overlay wrote.
 */
import { join } from 'node:path';
import { createElement as h, useEffect, useState } from 'react';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { drawn } from '../../src/testing/drawn.js';
import { type ScriptedTerminalName, scriptedTerminal } from '../../src/testing/terminal.js';
import { REPO_ROOT } from '../probe/fixtures.js';
import { hideCiFromInk } from './hide-ci.js';

// Before Ink is first imported (below): under CI=true it would write no frames.
afterAll(hideCiFromInk());

const { Box, render, Text, useInput } = await import('ink');
const { Image, TerminalProvider, useTerminalAsk, useTerminalReport } = await import('../../src/ink/index.js');

const camera = join(REPO_ROOT, 'test', 'fixtures', 'images', 'camera.png');

function App() {
  const report = useTerminalReport();
  return h(
    Box,
    { flexDirection: 'column' },
    h(Text, null, `graphics:${report?.graphics ?? 'pending'}`),
    h(Image, { src: camera, width: 8, height: 4 }),
  );
}

describe('the provider and <Image> on scripted terminals', () => {
  it.each([
    { name: 'kitty', terminal: 'kitty' as ScriptedTerminalName, graphics: 'kitty', protocol: 'kitty' },
    { name: 'foot (database row)', terminal: 'foot' as ScriptedTerminalName, graphics: 'sixel', protocol: 'sixel' },
    {
      name: 'iTerm2 (database row)',
      terminal: 'iterm2' as ScriptedTerminalName,
      graphics: 'iterm2',
      protocol: 'iterm2',
    },
  ])('$name', async ({ terminal, graphics, protocol }) => {
    const t = scriptedTerminal(terminal, { latencyMs: 5 });
    const app = render(h(TerminalProvider, { runtime: t.runtime, budgetMs: 500, follow: false }, h(App)), {
      stdin: t.input as never,
      stdout: t.output as never,
      patchConsole: false,
      exitOnCtrlC: false,
    });
    try {
      await vi.waitFor(() => expect(t.written()).toContain(`graphics:${graphics}`), { timeout: 5000 });
      await vi.waitFor(() => expect(drawn(t.written())?.protocol).toBe(protocol), { timeout: 5000 });
      expect(t.rounds()).toBe(1);
    } finally {
      app.unmount();
    }
  });
});

/** An app that asks its own OSC 11 and DSR once the report is in, and shows the answers and its keys. */
function Asking() {
  const report = useTerminalReport();
  const ask = useTerminalAsk();
  const [answers, setAnswers] = useState('asking');
  const [keys, setKeys] = useState('');
  useInput((input) => setKeys((k) => k + input));
  useEffect(() => {
    if (report === null) return;
    ask(['\x1b]11;?\x1b\\', '\x1b[5n']).then((replies) =>
      setAnswers(
        replies
          .map((r) => (r === null ? 'none' : Buffer.from(r).toString('latin1').replaceAll('\x1b', '^[')))
          .join(' '),
      ),
    );
  }, [report, ask]);
  return h(Text, null, `answers:${answers} keys:[${keys}]`);
}

describe("an Ink app's own queries through the provider (useTerminalAsk)", () => {
  it.each([
    { name: 'without the resize watch', follow: false },
    { name: 'while the resize watch holds stdin', follow: true },
  ])('$name: each reply to its asker, none to useInput, keys typed meanwhile to useInput', async ({ follow }) => {
    const t = scriptedTerminal('kitty', { latencyMs: 5, answers: { '\x1b[5n': '\x1b[0n' } });
    const app = render(h(TerminalProvider, { runtime: t.runtime, budgetMs: 500, follow }, h(Asking)), {
      stdin: t.input as never,
      stdout: t.output as never,
      patchConsole: false,
      exitOnCtrlC: false,
    });
    try {
      await vi.waitFor(() => expect(t.rounds()).toBe(2), { timeout: 5000 });
      t.type('k');
      await vi.waitFor(() => expect(t.written()).toContain('answers:^[]11;rgb:0000/0000/0000^[\\ ^[[0n keys:[k]'), {
        timeout: 5000,
      });
    } finally {
      app.unmount();
    }
  });
});
