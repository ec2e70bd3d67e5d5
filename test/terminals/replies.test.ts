/**
 * Every reply the terminal database relies on has a recorded reply (test/fixtures/replies/*.json)
 * or a documented one (the "Documented replies" table of the README there, with its source): each
 * DA1/DA2 fingerprint is matched by one recording or one documented row, and each XTVERSION
 * example appears in one. A fingerprint or example added without its reply fails here.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TERMINALS } from '../../src/terminals/database.js';
import { loadFixtures, REPLIES_DIR } from '../probe/fixtures.js';

/** One party's replies: DA1 and DA2 bodies, XTVERSION bodies. */
interface Seen {
  readonly where: string;
  readonly da1: readonly string[];
  readonly da2: readonly string[];
  readonly xtversion: readonly string[];
}

/** The replies of a recording, found in every byte it holds (single queries and the batch). */
function recordedSeen(): Seen[] {
  return loadFixtures().map((f) => {
    const text = [...f.results.map((r) => r.reply + r.late), f.batch.reply, f.batch.late].join('');
    return {
      where: f.file,
      da1: [...text.matchAll(/\x1b\[(\?[\d;]*c)/g)].map((m) => m[1] as string),
      da2: [...text.matchAll(/\x1b\[(>[\d;]*c)/g)].map((m) => m[1] as string),
      xtversion: [...text.matchAll(/\x1bP>\|([^\x1b]*)\x1b\\/g)].map((m) => m[1] as string),
    };
  });
}

/** The documented rows of the README, by database row id. */
function documentedSeen(): (Seen & { row: string; source: string })[] {
  const readme = readFileSync(path.join(REPLIES_DIR, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Documented replies (not recorded)'));
  const cell = (text: string) => (text.trim() === '-' ? [] : [text.trim().replace(/^`|`$/g, '')]);
  return section
    .split('\n')
    .filter((line) => /^\| [a-z]/.test(line) && !line.startsWith('| row '))
    .map((line) => {
      const [row, xtversion, da1, da2, source] = line.split('|').slice(1, 6) as string[];
      return {
        where: `README: ${row?.trim()}`,
        row: (row ?? '').trim(),
        xtversion: cell(xtversion ?? ''),
        da1: cell(da1 ?? ''),
        da2: cell(da2 ?? ''),
        source: (source ?? '').trim(),
      };
    });
}

const RECORDED = recordedSeen();
const DOCUMENTED = documentedSeen();

describe('the documented replies', () => {
  it('has rows, each naming a database row and a source a reader can open', () => {
    expect(DOCUMENTED.length).toBeGreaterThan(10);
    for (const d of DOCUMENTED) {
      expect(
        TERMINALS.map((r) => r.id),
        d.where,
      ).toContain(d.row);
      expect(d.source, d.where).toMatch(/^https:\/\//);
    }
  });
});

const fingerprints = TERMINALS.flatMap((row) =>
  (row.identity.fingerprints ?? []).map((f, i) => ({ name: `${row.id} fingerprint ${i + 1}`, row, f })),
);

describe('every fingerprint has a reply that matches it', () => {
  it.each(fingerprints)('$name', ({ row, f }) => {
    const fits = (seen: Seen) =>
      (f.da1 === undefined || seen.da1.some((r) => new RegExp(f.da1 as string).test(r))) &&
      (f.da2 === undefined || seen.da2.some((r) => new RegExp(f.da2 as string).test(r)));
    const sources = [...RECORDED, ...DOCUMENTED.filter((d) => d.row === row.id)].filter(fits).map((s) => s.where);
    expect(sources.length, `no recorded or documented reply matches ${f.da1 ?? ''} ${f.da2 ?? ''}`).toBeGreaterThan(0);
  });
});

const examples = TERMINALS.filter((row) => row.identity.xtversion).map((row) => ({
  name: `${row.id}: ${row.identity.xtversion?.example}`,
  row,
  example: row.identity.xtversion?.example as string,
}));

describe('every XTVERSION example was recorded or is documented', () => {
  it.each(examples)('$name', ({ row, example }) => {
    const found = [...RECORDED, ...DOCUMENTED.filter((d) => d.row === row.id)].some((s) =>
      s.xtversion.includes(example),
    );
    expect(found).toBe(true);
  });
});
