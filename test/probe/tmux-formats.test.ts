/**
 * tmux's format answers: the pure parser (a table of named rows and a property over any bytes)
 * and the bounded subprocess, against a scripted tmux (test/fixtures/tmux/tmux) and, where tmux is
 * installed, a real tmux server on a private socket.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { askTmux } from '../../src/probe/tmux-client.js';
import { parseTmuxFormats, TMUX_DISPLAY_FORMAT, type TmuxFacts } from '../../src/probe/tmux-formats.js';

const SCRIPTED = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'tmux', 'tmux');

describe('parseTmuxFormats', () => {
  it.each<{ name: string; display: string | null; passthrough: string | null; facts: TmuxFacts | null }>([
    {
      name: 'tmux 3.5a in foot, passthrough off',
      display: '3.5a\nfoot(1.21.0)\n256,RGB,bpaste,clipboard,hyperlinks,sixel,sync\n1\n9\n18\n',
      passthrough: 'off\n',
      facts: {
        version: '3.5a',
        clientTermtype: 'foot(1.21.0)',
        clientFeatures: ['256', 'RGB', 'bpaste', 'clipboard', 'hyperlinks', 'sixel', 'sync'],
        sixelSupport: true,
        clientCell: { width: 9, height: 18 },
        allowPassthrough: 'off',
      },
    },
    {
      name: 'tmux 3.3a: no sixel_support format (empty), passthrough on',
      display: '3.3a\nXTerm(379)\n256,RGB\n\n',
      passthrough: 'on\n',
      facts: {
        version: '3.3a',
        clientTermtype: 'XTerm(379)',
        clientFeatures: ['256', 'RGB'],
        sixelSupport: null,
        clientCell: null,
        allowPassthrough: 'on',
      },
    },
    {
      name: 'built without sixel, passthrough all, no client XTVERSION, a cell side of 0',
      display: '3.4\n\nRGB\n0\n8\n0\n',
      passthrough: 'all',
      facts: {
        version: '3.4',
        clientTermtype: null,
        clientFeatures: ['RGB'],
        sixelSupport: false,
        clientCell: null,
        allowPassthrough: 'all',
      },
    },
    {
      name: 'display failed, show answered',
      display: null,
      passthrough: 'off\n',
      facts: {
        version: null,
        clientTermtype: null,
        clientFeatures: [],
        sixelSupport: null,
        clientCell: null,
        allowPassthrough: 'off',
      },
    },
    {
      name: 'CRLF line ends',
      display: '3.5a\r\nkitty(0.41.1)\r\nRGB,sync\r\n1\r\n10\r\n21\r\n',
      passthrough: 'all\r\n',
      facts: {
        version: '3.5a',
        clientTermtype: 'kitty(0.41.1)',
        clientFeatures: ['RGB', 'sync'],
        sixelSupport: true,
        clientCell: { width: 10, height: 21 },
        allowPassthrough: 'all',
      },
    },
    {
      name: 'a cell side that is not a whole number of pixels',
      display: '3.5a\nXTerm(398)\nsixel\n\n8.5\n17\n',
      passthrough: 'off\n',
      facts: {
        version: '3.5a',
        clientTermtype: 'XTerm(398)',
        clientFeatures: ['sixel'],
        sixelSupport: null,
        clientCell: null,
        allowPassthrough: 'off',
      },
    },
    { name: 'neither answered', display: null, passthrough: null, facts: null },
    { name: 'an error text and an unknown option value', display: '', passthrough: 'maybe\n', facts: null },
  ])('$name', ({ display, passthrough, facts }) => {
    expect(parseTmuxFormats(display, passthrough)).toStrictEqual(facts);
  });

  it('asks for the six formats, one per line', () => {
    expect(TMUX_DISPLAY_FORMAT.split('\n')).toEqual([
      '#{version}',
      '#{client_termtype}',
      '#{client_termfeatures}',
      '#{sixel_support}',
      '#{client_cell_width}',
      '#{client_cell_height}',
    ]);
  });

  it('property: any output parses to null or facts of the documented shapes', () => {
    const text = fc.option(fc.string({ unit: 'binary', maxLength: 200 }), { nil: null });
    fc.assert(
      fc.property(text, text, (display, passthrough) => {
        const facts = parseTmuxFormats(display, passthrough);
        if (facts === null) return;
        expect([null, 'off', 'on', 'all']).toContain(facts.allowPassthrough);
        expect([null, true, false]).toContain(facts.sixelSupport);
        if (facts.clientCell !== null) {
          for (const side of [facts.clientCell.width, facts.clientCell.height]) {
            expect(Number.isInteger(side) && side >= 1 && side <= 1000).toBe(true);
          }
        }
        for (const f of facts.clientFeatures) expect(f).toMatch(/^[^,\n]+$/);
        expect(facts.version === null || facts.version.trim() === facts.version).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});

describe('askTmux against a scripted tmux', () => {
  const scripted = (extra: Record<string, string>) => ({
    TMUX: '/tmp/tmux-0/default,1,0',
    PATH: process.env.PATH ?? '',
    ...extra,
  });

  it('asks tmux exactly the two questions and parses the answers', async () => {
    const log = path.join(mkdtempSync(path.join(tmpdir(), 'termsight-tmux-')), 'args');
    const facts = await askTmux(
      scripted({
        SCRIPTED_TMUX_LOG: log,
        SCRIPTED_TMUX_VERSION: '3.5a',
        SCRIPTED_TMUX_TERMTYPE: 'foot(1.21.0)',
        SCRIPTED_TMUX_FEATURES: 'RGB,sixel',
        SCRIPTED_TMUX_SIXEL: '1',
        SCRIPTED_TMUX_CELL_WIDTH: '8',
        SCRIPTED_TMUX_CELL_HEIGHT: '17',
        SCRIPTED_TMUX_PASSTHROUGH: 'all',
      }),
      { command: SCRIPTED },
    );
    expect(facts).toStrictEqual({
      version: '3.5a',
      clientTermtype: 'foot(1.21.0)',
      clientFeatures: ['RGB', 'sixel'],
      sixelSupport: true,
      clientCell: { width: 8, height: 17 },
      allowPassthrough: 'all',
    });
    // Two invocations, in either order (they run side by side); the format holds newlines itself.
    const asked = readFileSync(log, 'utf8');
    const display = `display-message|-p|${TMUX_DISPLAY_FORMAT}|\n`;
    const show = 'show-options|-Apv|allow-passthrough|\n';
    expect([display + show, show + display]).toContain(asked);
  });

  it('outside tmux asks nothing', async () => {
    expect(await askTmux({ PATH: process.env.PATH ?? '' }, { command: SCRIPTED })).toBeNull();
  });

  it('a tmux that hangs is cut off: no answer, no hang', async () => {
    expect(await askTmux(scripted({ SCRIPTED_TMUX_HANG: '1' }), { command: SCRIPTED, timeoutMs: 100 })).toBeNull();
  }, 10_000);

  it('a missing tmux is no answer', async () => {
    expect(await askTmux(scripted({}), { command: path.join(tmpdir(), 'no-such-tmux-here') })).toBeNull();
  });
});

const hasTmux = spawnSync('tmux', ['-V'], { stdio: 'ignore' }).status === 0;

describe.skipIf(!hasTmux)('askTmux against a real tmux server', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'termsight-tmux-real-'));
  const socket = path.join(dir, 'socket');
  afterAll(() => {
    spawnSync('tmux', ['-S', socket, 'kill-server'], { stdio: 'ignore' });
  });

  it('reads its version and allow-passthrough through TMUX', async () => {
    execFileSync('tmux', ['-S', socket, '-f', '/dev/null', 'new-session', '-d', '-s', 't', 'sleep 60']);
    execFileSync('tmux', ['-S', socket, 'set', '-g', 'allow-passthrough', 'on']);
    const version = execFileSync('tmux', ['-V'], { encoding: 'utf8' })
      .trim()
      .replace(/^tmux /, '');
    const pane = execFileSync('tmux', ['-S', socket, 'display', '-p', '-t', 't', '#{pane_id}'], {
      encoding: 'utf8',
    }).trim();
    const facts = await askTmux({ TMUX: `${socket},0,0`, TMUX_PANE: pane, PATH: process.env.PATH ?? '' });
    expect(facts?.version).toBe(version);
    expect(facts?.allowPassthrough).toBe('on');
  });
});
