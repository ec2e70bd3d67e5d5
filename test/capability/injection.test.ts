/**
 * Injection attempts against every capability: whatever an argument carries, no control character
 * of it reaches the terminal inside (or around) a sequence. A `param`/`url` argument with one is
 * refused (the sanitized fallback is written), `text` loses it, `data` is encoded.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { capabilities, emit } from '../../src/capability/capability.js';
import type { Capability } from '../../src/capability/types.js';
import { hasBidiControls, hasControls, sanitizeText, stripUnsafe } from '../../src/core/sanitize.js';
import type { Runtime } from '../../src/env/runtime.js';

/** A runtime every built-in supports (stdout a TTY, and each capability's announcing variables). */
const everywhere: Runtime = {
  env: { WT_SESSION: '1', KITTY_WINDOW_ID: '1', TERM_PROGRAM: 'WezTerm' },
  isTTY: { stdout: true },
};
const vte: Runtime = { env: { VTE_VERSION: '7600' }, isTTY: { stdout: true } };

const CORPUS: [string, string][] = [
  ['BEL ends an OSC', 'a\u0007\u001b]2;pwned\u0007'],
  ['ESC \\ (ST) ends an OSC', 'a\u001b\\\u001b]8;;https://evil\u001b\\'],
  ['8-bit ST 0x9C', 'a\u009c\u009d2;pwned\u009c'],
  ['8-bit CSI 0x9B', 'a\u009b2J'],
  ['CSI clear screen', 'a\u001b[2J\u001b[H'],
  ['DCS', '\u001bP+q544e\u001b\\'],
  ['newline and carriage return', 'line1\r\nline2'],
  ['NUL', 'a\u0000b'],
  ['DEL', 'a\u007fb'],
  ['a C1 NEL', 'a\u0085b'],
  ['bidi override', 'https://x.dev/\u202Egnp.exe'],
  ['bidi isolate', 'a\u2066b\u2069'],
  ['tab', 'a\tb'],
];

/** Builds full args for a capability with `payload` in `key`, benign values elsewhere. */
function argsFor(cap: Capability, key: string, payload: string): Record<string, unknown> {
  const base: Record<string, Record<string, unknown>> = {
    link: { text: 'Docs', url: 'https://x.dev' },
    title: { title: 'T' },
    notify: { title: 'T', body: 'B' },
    clipboard: { text: 'x', target: 'clipboard' },
    progress: { state: 'normal', percent: 5 },
    sync: { phase: 'begin' },
  };
  return { ...base[cap.name], [key]: payload };
}

/** The output with the capability's own framing and kept SGR colours taken out: must hold no control. */
function residue(out: string): string {
  return out
    .replaceAll(/\u001b\](?:8;;|2;|9;4;|9;|99;[a-z0-9=:]*;|777;notify;|52;[cp];)/g, '')
    .replaceAll(/\u001b\\|\u0007/g, '')
    .replaceAll(/\u001b\[\?2026[hl]/g, '')
    .replaceAll(/\u001b\[[0-9;:]*m/g, '');
}

const stringArgs = capabilities().flatMap((cap) =>
  Object.entries(cap.args).map(([key, kind]) => [cap.name, key, kind, cap] as const),
);

describe('injection corpus, every capability, every string argument', () => {
  const rows = stringArgs.flatMap(([name, key, kind, cap]) =>
    CORPUS.map(([what, payload]) => ({ name: `${name}.${key} (${kind}): ${what}`, cap, key, kind, payload })),
  );
  it.each(rows)('$name', ({ cap, key, kind, payload }) => {
    // Enumerated params (state, phase, target) reject anything else with a TypeError: also safe.
    const enumerated = ['target', 'state', 'phase'].includes(key);
    for (const runtime of [everywhere, vte]) {
      if (enumerated) {
        expect(() => emit(runtime, cap.name, argsFor(cap, key, payload))).toThrow(TypeError);
        continue;
      }
      const out = emit(runtime, cap.name, argsFor(cap, key, payload));
      expect(hasControls(residue(out))).toBe(false);
      if (kind === 'param' || kind === 'url') {
        // Refused: the fallback, written from sanitized arguments, holds no control at all.
        expect(out).toBe(cap.fallback({ ...argsFor(cap, key, stripUnsafe(payload)) }, runtime));
        expect(hasControls(out)).toBe(false);
      }
      if (kind === 'text') expect(out).toContain(sanitizeText(payload));
      // A label reads as what it is: no bidi formatting character survives in shown text.
      if (kind === 'text') expect(hasBidiControls(residue(out))).toBe(false);
      if (kind === 'data' && runtime === vte) expect(out).toBe(''); // VTE has no OSC 52: nothing is written
      if (kind === 'data' && runtime === everywhere) {
        const base64 = /\u001b\]52;c;([A-Za-z0-9+/=]*)\u0007/.exec(out)?.[1];
        expect(Buffer.from(base64 ?? '!', 'base64').toString('utf8')).toBe(payload);
      }
    }
  });

  it('property: arbitrary strings in any argument never leave a control outside the framing', () => {
    const unit = fc.oneof(
      fc.constantFrom(
        '\u0007',
        '\u001b',
        '\\',
        ']',
        '[',
        ';',
        '\u009c',
        '\u009b',
        '\u009d',
        '\n',
        '\u0000',
        '\u007f',
        '\u202e',
        'm',
        '8',
        '2',
      ),
      fc.string({ minLength: 1, maxLength: 1 }),
    );
    const payload = fc.string({ unit, maxLength: 24 });
    const target = fc.constantFrom(...stringArgs.filter(([, key]) => !['target', 'state', 'phase'].includes(key)));
    fc.assert(
      fc.property(target, payload, fc.constantFrom(everywhere, vte), ([, key, , cap], text, runtime) => {
        const out = emit(runtime, cap.name, argsFor(cap, key, text));
        expect(hasControls(residue(out))).toBe(false);
        if (cap.args[key] === 'text') expect(hasBidiControls(residue(out))).toBe(false);
      }),
      { numRuns: 500 },
    );
  });
});
