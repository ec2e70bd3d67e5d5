/**
 * TERMSIGHT_GRAPHICS's precedence is written once (overrideDecision); the three places that ask it
 * (explainDetect, resolveReport, the drawing plan `show` draws from) must follow that one decision. Each row is
 * a value of the variable in a setting the override must win over (kitty by TERM and by the probe,
 * no tty, tmux without passthrough).
 */
import { describe, expect, it } from 'vitest';
import { planDrawing } from '../../src/draw/plan.js';
import { explainDetect } from '../../src/env/detect.js';
import { overrideDecision } from '../../src/env/override.js';
import type { Protocol } from '../../src/env/protocol.js';
import type { Env } from '../../src/env/runtime.js';
import type { ProbeFacts } from '../../src/probe/facts.js';
import { resolveReport } from '../../src/report/resolve.js';
import { textColor } from '../../src/report/text-picture.js';
import type { Report } from '../../src/report/types.js';

/** `show`'s protocol (its plan) and whether the environment's override decided it. */
function chooseProtocol(input: { env: Env; stdoutIsTTY: boolean; report: Report }) {
  const plan = planDrawing(input.report, { env: input.env, terminal: input.stdoutIsTTY, wrapUnproven: true });
  const why = plan.why.protocol;
  const because =
    why.source !== 'environment' ? why.source : why.detail.startsWith('TERMSIGHT_GRAPHICS=off') ? 'off' : 'override';
  return { protocol: plan.protocol, because };
}

const kittyFacts: ProbeFacts = {
  replies: [{ kind: 'dcs', text: '\\eP>|kitty(0.35.2)\\e\\' }],
  sentinel: true,
  timedOut: false,
  elapsedMs: 4,
  terminal: { name: 'kitty', version: '0.35.2', reply: '\\eP>|kitty(0.35.2)\\e\\' },
  kittyGraphics: { ok: true, reply: '\\e_Gi=31;OK\\e\\' },
};

const VALUES: ReadonlyArray<{
  name: string;
  value: string | undefined;
  decides: boolean;
  protocol?: Protocol | null;
  reason?: string;
  note?: string;
}> = [
  { name: 'unset', value: undefined, decides: false, note: '' },
  { name: 'empty (unset)', value: '', decides: false, note: '' },
  { name: 'a protocol', value: 'sixel', decides: true, protocol: 'sixel', reason: 'TERMSIGHT_GRAPHICS=sixel' },
  {
    name: 'case and spaces ignored',
    value: ' Blocks ',
    decides: true,
    protocol: 'blocks',
    reason: 'TERMSIGHT_GRAPHICS=blocks',
  },
  { name: 'off', value: 'off', decides: true, protocol: null, reason: 'TERMSIGHT_GRAPHICS=off: draw no images' },
  { name: 'OFF', value: 'OFF', decides: true, protocol: null, reason: 'TERMSIGHT_GRAPHICS=off: draw no images' },
  {
    name: 'an invalid value',
    value: 'png',
    decides: false,
    note: ' (TERMSIGHT_GRAPHICS="png" is not one of kitty, iterm2, sixel, braille, blocks, symbols, off; ignored)',
  },
];

const SETTINGS: ReadonlyArray<{ name: string; env: Env; stdout: boolean; facts?: ProbeFacts }> = [
  { name: 'kitty by TERM', env: { TERM: 'xterm-kitty' }, stdout: true },
  { name: 'kitty by the probe', env: { TERM: 'xterm-256color' }, stdout: true, facts: kittyFacts },
  { name: 'stdout not a terminal', env: { TERM: 'xterm-kitty' }, stdout: false },
  { name: 'tmux without passthrough proven', env: { TERM: 'tmux-256color', TMUX: '/tmp/t,1,0' }, stdout: true },
];

const withValue = (env: Env, value: string | undefined): Env =>
  value === undefined ? env : { ...env, TERMSIGHT_GRAPHICS: value };

describe('overrideDecision', () => {
  it.each(VALUES)('$name', ({ value, decides, protocol, reason, note }) => {
    const decision = overrideDecision(withValue({}, value));
    expect(decision.decides).toBe(decides);
    if (decision.decides)
      expect({ protocol: decision.protocol, reason: decision.reason }).toEqual({ protocol, reason });
    else expect(decision.note).toBe(note);
  });
});

describe('detect, the report and show follow the one decision', () => {
  const cases = VALUES.flatMap((v) => SETTINGS.map((s) => ({ ...v, setting: s, name: `${v.name}, ${s.name}` })));

  it.each(cases)('$name', ({ value, decides, protocol, reason, note, setting }) => {
    const env = withValue(setting.env, value);
    const withoutOverride = resolveReport(
      { env: setting.env, isTTY: { stdin: true, stdout: setting.stdout, stderr: true } },
      setting.facts,
    );
    const report = resolveReport({ env, isTTY: { stdin: true, stdout: setting.stdout, stderr: true } }, setting.facts);
    const detected = explainDetect(env);
    const shown = chooseProtocol({ env, stdoutIsTTY: setting.stdout, report });
    if (decides) {
      expect(report.graphics).toBe(protocol);
      expect(report.why.graphics).toMatchObject({ source: 'override', detail: reason });
      // detect always names a protocol: `off` leaves it to the rules.
      expect(detected.protocol).toBe(protocol ?? explainDetect(setting.env).protocol);
      // off: no pixel protocols, the text picture (symbols where text has colour, braille where none).
      const text = textColor(env, report.truecolor) === 'none' ? 'braille' : 'symbols';
      expect(shown).toMatchObject(protocol ? { protocol, because: 'override' } : { protocol: text, because: 'off' });
    } else {
      // Nothing decided: every answer is the one without the variable, the reason carries the note.
      expect(report.graphics).toBe(withoutOverride.graphics);
      // (where the text picture replaced braille, its sentence follows the note)
      expect(report.why.graphics.detail).toContain(note ?? '');
      expect(report.why.graphics.detail.replace(note ?? '', '')).toBe(withoutOverride.why.graphics.detail);
      expect(detected.protocol).toBe(explainDetect(setting.env).protocol);
      expect(shown.protocol).toBe(
        chooseProtocol({ env: setting.env, stdoutIsTTY: setting.stdout, report: withoutOverride }).protocol,
      );
    }
  });
});
