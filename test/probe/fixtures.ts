/** Reading the recorded replies of real terminals (../shared/fixtures/replies relative to the repo root). */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

/** The repository root: two levels above this file (test/probe/). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Where the recordings live: beside the clone, in ../shared. */
export const REPLIES_DIR = path.resolve(REPO_ROOT, '..', 'shared', 'fixtures', 'replies');

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
    .map((file) => ({ file, ...(JSON.parse(readFileSync(path.join(REPLIES_DIR, file), 'utf8')) as Omit<Fixture, 'file'>) }));
}

/** A fixture string (one char per byte, as recorded) as bytes. */
export function bytesOf(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}
