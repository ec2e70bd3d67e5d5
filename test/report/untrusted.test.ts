/**
 * Replies and variables are text from outside: the report and everything the CLI prints from it
 * carry them decoded as UTF-8 where valid and with every control, bidi character and undecodable
 * byte escaped (`\e`, `\x9b`, `\u202e`), in the text form, in `--json` and in the reasons.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatReport } from '../../src/cli/detect.js';
import { runCli } from '../../src/cli/run.js';
import { factsFromReplies, replyTokens } from '../../src/probe/classify.js';
import { parseReply } from '../../src/probe/replies.js';
import { resolveReport } from '../../src/report/resolve.js';
import { context } from '../cli/show-support.js';

/** Anything a terminal must not receive as it is, as code points (the line breaks of the output aside). */
const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]/u;
const plain = { bold: (t: string) => t, dim: (t: string) => t };
const tty = { env: { TERM: 'xterm-256color' }, isTTY: { stdin: true, stdout: true, stderr: true } };

/** XTVERSION `DCS > | name ST` with `name` as raw bytes, then the DA1 sentinel. */
function xtversion(name: readonly number[]): Uint8Array {
  return Uint8Array.from([0x1b, 0x50, 0x3e, 0x7c, ...name, 0x1b, 0x5c, ...Buffer.from('\x1b[?62;c', 'latin1')]);
}
const utf8 = (text: string): number[] => [...Buffer.from(text, 'utf8')];

describe('the terminal name from XTVERSION', () => {
  it.each([
    { name: 'UTF-8 is decoded as UTF-8', bytes: utf8('tërm(1.0)'), terminal: 'tërm', version: '1.0' },
    { name: 'an RLO override is escaped', bytes: utf8('kitty\u202e(0.1)'), terminal: 'kitty\\u202e', version: '0.1' },
    { name: 'an isolate in the version', bytes: utf8('foot(1\u20662)'), terminal: 'foot', version: '1\\u20662' },
    { name: 'C1 CSI as a code point (UTF-8 c2 9b)', bytes: utf8('a\u009b2J'), terminal: 'a\\x9b2J', version: null },
    { name: 'a lone 8-bit byte is an escaped byte', bytes: [0x61, 0x9b, 0x62], terminal: 'a\\x9bb', version: null },
    { name: 'invalid UTF-8', bytes: [0x6b, 0xc3, 0x28, 0x29], terminal: 'k\\xc3', version: null },
    { name: 'C0 and DEL bytes', bytes: [0x6b, 0x01, 0x7f, 0x6c], terminal: 'k\\x01\\x7fl', version: null },
  ])('$name', ({ bytes, terminal, version }) => {
    const facts = factsFromReplies(replyTokens(xtversion(bytes)));
    const report = resolveReport(tty, facts, { stream: 'tty' });
    expect(report.terminal).toEqual({ name: terminal, version });
    expect(report.why.terminal.detail).not.toMatch(UNSAFE);
    expect(report.why.terminal.reply).not.toMatch(UNSAFE);
    const text = formatReport(report, plain);
    expect(text).not.toMatch(UNSAFE);
    expect(text).toContain(terminal);
  });

  it('the parsed reply keeps the decoded text (escaping is for showing it)', () => {
    const reply = parseReply(Uint8Array.from([0x1b, 0x50, 0x3e, 0x7c, ...utf8('tërm'), 0x1b, 0x5c]));
    expect(reply).toMatchObject({ type: 'xtversion', name: 'tërm' });
  });

  it('property: whatever bytes name the terminal, the report and its text form hold nothing unsafe', () => {
    const byte = fc.oneof(
      fc.constantFrom(0x1b, 0x07, 0x9b, 0x9c, 0xc2, 0xe2, 0x80, 0xae, 0xa6, 0x28, 0x29, 0x20),
      fc.integer({ min: 0x20, max: 0xff }),
    );
    fc.assert(
      fc.property(fc.array(byte, { minLength: 1, maxLength: 24 }), (name) => {
        // ESC \ would end the reply early: the scanner's business, not this test's.
        const bytes = name.filter((b) => b !== 0x1b);
        const report = resolveReport(tty, factsFromReplies(replyTokens(xtversion(bytes))), { stream: 'tty' });
        expect(JSON.stringify(report)).not.toMatch(UNSAFE);
        expect(formatReport(report, plain)).not.toMatch(UNSAFE);
      }),
      { numRuns: 300 },
    );
  });
});

describe('termsight detect prints variables escaped', () => {
  it.each<{ name: string; env: Record<string, string>; shown: string }>([
    { name: 'TERM_PROGRAM with C1 CSI', env: { TERM_PROGRAM: 'x\u009b2J' }, shown: 'x\\x9b2J' },
    {
      name: 'TERM_PROGRAM with an override',
      env: { TERM_PROGRAM: 'Apple\u202eTerminal' },
      shown: 'Apple\\u202eTerminal',
    },
    { name: 'LC_TERMINAL with ESC', env: { LC_TERMINAL: 'i\u001b]0;x\u0007' }, shown: 'i\\e]0;x\\a' },
    { name: 'XTERM_VERSION with a newline', env: { XTERM_VERSION: 'XTerm(1)\nroot#' }, shown: 'XTerm(1)\\x0aroot#' },
  ])('$name', async ({ env, shown }) => {
    for (const json of [false, true]) {
      const { ctx, stdout } = context({ env });
      expect(await runCli(['detect', '--no-probe', ...(json ? ['--json'] : [])], ctx)).toBe(0);
      expect(stdout.text).not.toMatch(UNSAFE);
      // JSON doubles the backslash of the escape; the text form shows it once.
      expect(stdout.text).toContain(json ? JSON.stringify(shown).slice(1, -1) : shown);
    }
  });

  it('a bad argument is echoed escaped', async () => {
    const { ctx, stderr } = context();
    expect(await runCli(['\u009b2J\u202e'], ctx)).toBe(2);
    expect(stderr.text).not.toMatch(UNSAFE);
  });
});
