/**
 * GNU screen 4.09 passes pictures and queries through to the outer terminal when they are wrapped
 * in its DCS packets (measured: test/fixtures/screen/README.md). The database row records it; the
 * probe does not use it yet, so the report answers a text picture behind screen, and says why.
 * These rows pin both halves, so whoever wires the probe up sees them change.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { escapeBytes } from '../../src/core/escape.js';
import { factsFromReplies } from '../../src/probe/classify.js';
import { resolveReport } from '../../src/report/resolve.js';
import { supports, terminalById } from '../../src/terminals/lookup.js';
import type { TerminalRow } from '../../src/terminals/types.js';

const FILE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  'fixtures',
  'screen',
  'xterm-vt340+screen-4.09.json',
);
const REC = JSON.parse(readFileSync(FILE, 'utf8')) as { readonly replies: string };
const SCREEN_ENV = { TERM: 'screen', STY: '4242.pts-1.host' };

describe('GNU screen 4.09 passthrough, as measured', () => {
  it("the outer terminal's answers come back through screen, after screen's own DA1", () => {
    const text = escapeBytes(REC.replies);
    expect(text.startsWith('\\e[?1;2c')).toBe(true);
    expect(text).toContain('\\eP>|XTerm(379)\\e\\');
    expect(text.endsWith('\\e[?63;1;2;4;6;9;15;16;22;28c')).toBe(true);
  });

  it('the database row says screen passes pictures through, with the measurement as its source', () => {
    const screen = terminalById('screen') as TerminalRow;
    expect(supports(screen, 'passthrough', '4.09')).toBe(true);
    expect(screen.multiplexer?.passthrough?.source).toMatch(/^test\/fixtures\/screen\/README\.md/);
    expect(screen.multiplexer?.dcsPacketBytes?.bytes).toBe(768);
  });

  it("not used yet: every DA1 behind screen is screen's, so the report draws text and names screen", () => {
    const facts = factsFromReplies(REC.replies, { multiplexer: 'screen', sentinel: true });
    expect(facts.terminal?.name).toBe('XTerm');
    const report = resolveReport({ env: SCREEN_ENV, isTTY: { stdin: true, stdout: true } }, facts);
    expect(['braille', 'blocks', 'symbols']).toContain(report.graphics);
    expect(report.multiplexer?.name).toBe('screen');
    expect(report.why.graphics.detail).toMatch(/GNU screen/);
  });
});
