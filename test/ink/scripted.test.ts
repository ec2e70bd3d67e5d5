/**
 * The provider and <Image> under real Ink on termsight/testing's scripted terminals (in-memory
 * streams as Ink's stdin and stdout): the probe is answered as each terminal does, and `drawn()`
 * reads the picture back from what Ink and the overlay wrote.
 */
import { join } from 'node:path';
import { Box, render, Text } from 'ink';
import { createElement as h } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Image, TerminalProvider, useTerminalReport } from '../../src/ink/index.js';
import { drawn } from '../../src/testing/drawn.js';
import { type ScriptedTerminalName, scriptedTerminal } from '../../src/testing/terminal.js';
import { REPO_ROOT } from '../probe/fixtures.js';

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
