/**
 * Recording a terminal's replies in the format of test/fixtures/replies/ (see its README): each
 * query alone followed by DA1 as the sentinel, then the whole batch followed by one DA1. The
 * terminal is reached through `exchange`, which sends bytes and returns what came back until the
 * wanted number of DA1 replies arrived, plus what came in a grace window after.
 */
import { escapeBytes } from '../../../src/core/escape.js';

/** One query of a recording. */
export interface RecordedQuery {
  readonly name: string;
  readonly query: string;
}

/** What one exchange brought back. */
export interface Exchanged {
  readonly reply: string;
  readonly late: string;
  readonly sentinel: boolean;
  readonly latencyMs: number;
}

/** Sends `bytes`, waits for `da1Count` DA1 replies (bounded), then a grace window. */
export type Exchange = (bytes: string, da1Count: number) => Promise<Exchanged>;

/** The DA1 sentinel query. */
export const DA1 = '\x1b[c';

const round = (ms: number) => Math.round(ms * 100) / 100;

/** Records every query alone and the batch, in the fixtures' shape. */
export async function record(
  header: Record<string, unknown>,
  queries: readonly RecordedQuery[],
  exchange: Exchange,
): Promise<Record<string, unknown>> {
  const results = [];
  const summary: Record<string, string> = {};
  for (const { name, query } of queries) {
    const got = await exchange(query + DA1, name === 'DA1' ? 2 : 1);
    // The summary holds the query's own answer: the reply without the sentinel's DA1 at its end.
    const own = got.sentinel ? got.reply.replace(/\x1b\[\?[\d;]*c$/, '') : got.reply;
    summary[name] = escapeBytes(own);
    results.push({
      name,
      query,
      queryPretty: escapeBytes(query),
      reply: got.reply,
      replyPretty: escapeBytes(got.reply),
      sentinel: got.sentinel,
      latencyMs: round(got.latencyMs),
      late: got.late,
      latePretty: escapeBytes(got.late),
    });
  }
  const batch = await exchange(
    queries.map((q) => q.query).join('') + DA1,
    queries.some((q) => q.name === 'DA1') ? 2 : 1,
  );
  return {
    ...header,
    summary,
    allSentinels: results.every((r) => r.sentinel),
    maxLatencyMs: Math.max(...results.map((r) => r.latencyMs)),
    results,
    batch: {
      queryCount: queries.length,
      reply: batch.reply,
      replyPretty: escapeBytes(batch.reply),
      sentinel: batch.sentinel,
      totalLatencyMs: round(batch.latencyMs),
      late: batch.late,
      latePretty: escapeBytes(batch.late),
    },
  };
}
