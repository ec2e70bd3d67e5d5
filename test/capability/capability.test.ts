import { afterEach, describe, expect, it } from 'vitest';
import {
  capabilities,
  capability,
  emit,
  register,
  resetCapabilities,
  supports,
} from '../../src/capability/capability.js';
import type { Runtime } from '../../src/env/runtime.js';

const tmux: Runtime = { env: { TERM: 'tmux-256color' }, isTTY: { stdout: true } };
const args = { text: 'Docs', url: 'https://x.dev' };

afterEach(() => resetCapabilities());

describe('registry', () => {
  it('lists the built-ins in order', () => {
    expect(capabilities().map((c) => c.name)).toEqual(['link', 'title', 'notify', 'clipboard', 'progress', 'sync']);
  });

  it('an unknown name is a TypeError naming the known ones', () => {
    expect(() => capability('blink')).toThrow(TypeError);
    expect(() => capability('blink')).toThrow(
      /unknown capability "blink" \(known: link, title, notify, clipboard, progress, sync\)/,
    );
    expect(() => supports(tmux, 'blink')).toThrow(TypeError);
    expect(() => emit(tmux, 'blink', {})).toThrow(TypeError);
  });

  it('the founding override: register replaces the capability for every later emit', () => {
    expect(JSON.stringify(emit(tmux, 'link', args))).toBe('"Docs (https://x.dev)"');
    register({ ...capability('link'), when: { tty: true, term: 'tmux-256color' } });
    expect(JSON.stringify(emit(tmux, 'link', args))).toBe('"\\u001b]8;;https://x.dev\\u0007Docs\\u001b]8;;\\u0007"');
    expect(supports(tmux, 'link')).toBe(true);
    resetCapabilities();
    expect(supports(tmux, 'link')).toBe(false);
  });

  it('a new capability can be registered and emitted', () => {
    register({ name: 'bell', when: { tty: true }, args: {}, sequence: () => '\u0007', fallback: () => '' });
    expect(emit(tmux, 'bell', {})).toBe('\u0007');
    expect(emit({ ...tmux, isTTY: { stdout: false } }, 'bell', {})).toBe('');
  });

  it("the stored copy is frozen and does not follow later edits of the caller's object", () => {
    const mine = {
      name: 'x',
      when: { termProgram: ['a'] as string[] },
      args: {},
      sequence: () => 's',
      fallback: () => 'f',
    };
    const stored = register(mine);
    mine.when.termProgram.push('b');
    expect(capability('x').when).toEqual({ termProgram: ['a'] });
    expect(Object.isFrozen(stored)).toBe(true);
  });

  const good = { name: 'ok', when: {}, args: {}, sequence: () => '', fallback: () => '' };
  it.each<{ name: string; input: unknown; message: RegExp }>([
    { name: 'not an object', input: 'link', message: /a capability must be an object/ },
    { name: 'no name', input: { ...good, name: '' }, message: /non-empty string name/ },
    { name: 'a numeric name', input: { ...good, name: 7 }, message: /non-empty string name/ },
    { name: 'when not an object', input: { ...good, when: true }, message: /when must be an object/ },
    { name: 'a misspelt when field', input: { ...good, when: { TERM: 'x' } }, message: /unknown when field 'TERM'/ },
    {
      name: 'termProgram not a list',
      input: { ...good, when: { termProgram: 'x' } },
      message: /termProgram must be an array of strings/,
    },
    { name: 'no sequence', input: { ...good, sequence: undefined }, message: /sequence must be a function/ },
    { name: 'fallback a string', input: { ...good, fallback: 'x' }, message: /fallback must be a function/ },
    {
      name: 'an unknown arg kind',
      input: { ...good, args: { url: 'link' } },
      message: /args\.url must be one of param, url, text, data/,
    },
    { name: 'sources not strings', input: { ...good, sources: [1] }, message: /sources must be an array of strings/ },
  ])('a malformed capability ($name) is a TypeError', ({ input, message }) => {
    expect(() => register(input as never)).toThrow(TypeError);
    expect(() => register(input as never)).toThrow(message);
    expect(capabilities().map((c) => c.name)).not.toContain('ok');
  });

  it('emit refuses args that are not an object, and declared args that are not strings', () => {
    expect(() => emit(tmux, 'link', null as never)).toThrow(/args must be an object/);
    expect(() => emit(tmux, 'link', { text: 'a', url: 5 } as never)).toThrow(/url must be a string/);
  });

  it('supports and emit read only the runtime: process.env does not count', () => {
    const saved = process.env.TERM_PROGRAM;
    try {
      process.env.TERM_PROGRAM = 'iTerm.app';
      expect(supports({ env: {}, isTTY: { stdout: true } }, 'link')).toBe(false);
    } finally {
      if (saved === undefined) delete process.env.TERM_PROGRAM;
      else process.env.TERM_PROGRAM = saved;
    }
  });
});
