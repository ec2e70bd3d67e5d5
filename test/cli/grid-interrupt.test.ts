// `show --grid` stopped mid-row (the in-process half of Ctrl-C; signals-pty.test.ts has the pty
// half): the open sequence is closed, and with kitty every picture of the row cut short is
// deleted by id, whole or half uploaded; rows finished before it stay.
import { beforeAll, describe, expect, it } from 'vitest';
import { runShowWith } from '../../src/cli/show.js';
import { context, report, scratchDir, screenAfter, writePng } from './show-support.js';

let files: string[] = [];
beforeAll(() => {
  const dir = scratchDir();
  files = [1, 2, 3, 4, 5, 6].map((i) => writePng(dir, `p${i}.png`, 300, 200, i));
});

/** kitty APCs in order: the image ids uploaded (`a=T`) and deleted (`a=d,d=I`). */
function kittyIds(text: string): { uploaded: number[]; deleted: number[] } {
  const uploaded: number[] = [];
  const deleted: number[] = [];
  for (const m of text.matchAll(/\x1b_G([^;\x1b]*)/g)) {
    const keys = Object.fromEntries((m[1] ?? '').split(',').map((kv) => kv.split('=') as [string, string]));
    const id = Number(keys.i);
    if (keys.a === 'T' && !uploaded.includes(id)) uploaded.push(id);
    if (keys.a === 'd' && keys.d === 'I') deleted.push(id);
  }
  return { uploaded, deleted };
}

const args = (...more: string[]) => [...files, '--grid', '3x2', '--protocol', 'kitty', ...more];

describe('show --grid with kitty, stopped', () => {
  it.each([
    { name: 'in the first row, during its first upload', stopAt: 1, rowsDone: 0 },
    { name: 'in the first row, during its second upload', stopAt: 2, rowsDone: 0 },
    { name: 'in the second row', stopAt: 4, rowsDone: 1 },
  ] as const)(
    '$name: that row deleted by id, earlier rows kept, a clean tail, exit 130',
    async ({ stopAt, rowsDone }) => {
      const controller = new AbortController();
      let uploads = 0;
      const { ctx, stdout } = context({
        env: { COLUMNS: '90', LINES: '30' },
        onWrite: (chunk) => {
          uploads += chunk.match(/a=T/g)?.length ?? 0;
          if (uploads >= stopAt) controller.abort();
        },
      });
      const code = await runShowWith(args(), ctx, { report: report(), signal: controller.signal });
      expect(code).toBe(130);
      const { uploaded, deleted } = kittyIds(stdout.text);
      // Three pictures a row: the ids of the rows drawn whole are kept, the cut row's are deleted.
      const kept = uploaded.slice(0, rowsDone * 3);
      const cut = uploaded.slice(rowsDone * 3);
      expect(cut.length).toBe(stopAt - rowsDone * 3);
      // Each id the cut row uploaded is deleted (so is any of its ids not reached yet: harmless, q=2).
      for (const id of cut) expect(deleted).toContain(id);
      expect(deleted.length).toBeLessThanOrEqual(3);
      for (const id of kept) expect(deleted).not.toContain(id);
      expect(stdout.text.endsWith('\x1b[?25h')).toBe(true);
      const screen = await screenAfter(stdout.text, 'STILL-VISIBLE');
      expect(screen).toContain('STILL-VISIBLE');
    },
  );

  it('not stopped: every picture kept (nothing deleted), exit 0', async () => {
    const { ctx, stdout } = context({ env: { COLUMNS: '90', LINES: '30' } });
    expect(await runShowWith(args(), ctx, { report: report() })).toBe(0);
    const { uploaded, deleted } = kittyIds(stdout.text);
    expect(uploaded).toHaveLength(6);
    expect(deleted).toEqual([]);
  });
});
