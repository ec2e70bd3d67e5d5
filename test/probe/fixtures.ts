/** Reading the recorded replies of real terminals (test/fixtures/replies). */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: two levels above this file (test/probe/). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Where the recordings live: inside the repository, with their provenance in a README beside them. */
export const REPLIES_DIR = path.resolve(REPO_ROOT, 'test', 'fixtures', 'replies');

/** One query's recording. */
export interface FixtureResult {
  readonly name: string;
  readonly query: string;
  readonly reply: string;
  readonly late: string;
  readonly sentinel: boolean;
}

/** One terminal's recording. */
export interface Fixture {
  readonly file: string;
  readonly env: Record<string, string>;
  readonly results: readonly FixtureResult[];
  readonly batch: { readonly reply: string; readonly late: string; readonly sentinel: boolean };
}

/** Every recording, by file name. */
export function loadFixtures(): Fixture[] {
  return readdirSync(REPLIES_DIR)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((file) => ({
      file,
      ...(JSON.parse(readFileSync(path.join(REPLIES_DIR, file), 'utf8')) as Omit<Fixture, 'file'>),
    }));
}

/** A fixture string (one char per byte, as recorded) as bytes. */
export function bytesOf(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

/**
 * A recorded terminal as a scripted one: what it answered to each query alone before the DA1
 * sentinel, what came after it (a multiplexer forwarding a reply late), and its DA1 reply.
 * Replaying these per query gives the stream the terminal would send for any batch.
 */
export interface RecordedAnswers {
  /** Its DA1 reply, '' when the recording never got one. */
  readonly da1: string;
  /**
   * The stream for a batch of queries (unwrapped, as recorded) ending in DA1: every answer in the
   * batch's order, the DA1 reply, then what each query's recording had late.
   */
  respond(queries: readonly string[]): string;
}

/** Reads a recording's single-query results as a scripted terminal. */
export function recordedAnswers(f: Fixture): RecordedAnswers {
  const da1Result = f.results.find((r) => r.name === 'DA1');
  // The DA1 query alone is answered twice: once for itself, once as the sentinel.
  const da1 = da1Result ? da1Result.reply.slice(da1Result.reply.length / 2) : '';
  const answers = new Map<string, { reply: string; late: string }>();
  for (const r of f.results) {
    const body = da1 !== '' && r.reply.endsWith(da1) ? r.reply.slice(0, -da1.length) : r.reply;
    answers.set(r.query, { reply: r.name === 'DA1' ? '' : body, late: r.late });
  }
  const DA1_QUERY = '\x1b[c';
  return {
    da1,
    respond(queries) {
      const asked = queries.filter((q) => q !== DA1_QUERY);
      return (
        asked.map((q) => answers.get(q)?.reply ?? '').join('') +
        (queries.includes(DA1_QUERY) ? da1 : '') +
        asked.map((q) => answers.get(q)?.late ?? '').join('')
      );
    },
  };
}
