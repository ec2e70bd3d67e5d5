/**
 * Whole sixel bands as a fact of the terminal database (`sixelPartialBand`): the report says
 * `sixelWholeBands` where what draws the sixel paints the rest of a short last band (Konsole,
 * foot, measured under Xvfb: docs/render.md "No band") or is unknown, not where it leaves it
 * (xterm), and `show` and the library then size sixel pictures to whole bands.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderOptionsOf } from '../../src/draw/options.js';
import { planDrawing } from '../../src/draw/plan.js';
import type { Env } from '../../src/env/runtime.js';
import { factsFromReplies } from '../../src/probe/classify.js';
import { draw } from '../../src/render/backend.js';
import { resolveReport } from '../../src/report/resolve.js';
import type { Report } from '../../src/report/types.js';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
const TTY = { stdin: true, stdout: true, stderr: true };

function fromRecording(file: string): Report {
  const rec = JSON.parse(readFileSync(path.join(FIXTURES, 'replies', file), 'utf8')) as {
    env: Env;
    batch: { reply: string };
  };
  return resolveReport({ env: rec.env, isTTY: TTY }, factsFromReplies(rec.batch.reply, { sentinel: true }), {
    stream: 'tty',
  });
}

const byReply = (replies: string): Report => resolveReport({ env: {}, isTTY: TTY }, factsFromReplies(replies, {}));

describe('sixelWholeBands', () => {
  it.each<{ name: string; report: () => Report; whole: boolean; row?: string; detail: RegExp }>([
    {
      name: 'xterm 379 as a VT340 (recorded): leaves a short band alone',
      report: () => fromRecording('xterm-vt340.json'),
      whole: false,
      row: 'xterm',
      detail: /names xterm, whose database row leaves the rest of a short last sixel band alone/,
    },
    {
      name: 'Konsole by its reply: register 0 paints the band',
      report: () => byReply('\x1bP>|Konsole 25.04.2\x1b\\\x1b[?62;4;22c'),
      whole: true,
      row: 'konsole',
      detail: /names Konsole, whose database row paints the rest of a short last sixel band/,
    },
    {
      name: 'foot by its reply: black below an opaque picture',
      report: () => byReply('\x1bP>|foot(1.21.0)\x1b\\\x1b[?62;4;22c'),
      whole: true,
      row: 'foot',
      detail: /names foot, whose database row paints/,
    },
    {
      name: 'an unknown terminal with sixel: whole bands',
      report: () => byReply('\x1b[?62;4c'),
      whole: true,
      detail: /not known to leave a short last sixel band alone/,
    },
  ])('$name', ({ report, whole, row, detail }) => {
    const r = report();
    expect(r.sixelWholeBands).toBe(whole);
    expect(r.why.sixelWholeBands.detail).toMatch(detail);
    expect(r.why.sixelWholeBands.row).toBe(row);
    // The plan of every caller (the library's, show's, the drop-in's) carries it to the encoder.
    const requests = [
      { columns: 20, rows: 20 },
      { columns: 20, rows: 20, wrapUnproven: true, defaultBox: 'screen' as const },
      { columns: 20, rows: 20, textPicture: 'blocks' as const },
    ];
    const plans = requests.map((request) => planDrawing(r, { ...request, protocol: 'sixel' }));
    for (const plan of plans) expect(plan.encoder.protocol === 'sixel' && plan.encoder.wholeBands).toBe(whole);
    const cli = renderOptionsOf(plans[0]!);
    expect(cli.wholeBands === true).toBe(whole);
    // A 96x93 picture: 90 rows where the band would be painted, else its own 93.
    const raster = { width: 96, height: 93, data: new Uint8Array(96 * 93 * 4).fill(255) };
    const d = draw(raster, 'sixel', { ...cli, cellPixels: { width: 8, height: 16 } });
    expect(d.layout.units.height).toBe(whole ? 90 : 93);
  });
});
