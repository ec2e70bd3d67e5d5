/**
 * Judging `termsight detect --json` against a row of the table. Pure: the parsed JSON in, the list
 * of problems out (empty when the report is right), each naming the field and what was there.
 */
import { type Expectation, graphicsMatch } from '../cases.js';

/** The parts of the report the suite reads; anything may be missing in a broken report. */
interface ReportShape {
  graphics?: unknown;
  terminal?: { name?: unknown; version?: unknown };
  multiplexer?: { name?: unknown; passthrough?: unknown } | null;
  why?: { graphics?: { source?: unknown; detail?: unknown; reply?: unknown } };
  probeMs?: unknown;
}

/** The problems with `report` for `expected`. */
export function judgeReport(report: unknown, expected: Expectation): string[] {
  if (typeof report !== 'object' || report === null)
    return [`the report is not a JSON object: ${JSON.stringify(report)}`];
  const r = report as ReportShape;
  const problems: string[] = [];
  if (!graphicsMatch(expected.graphics, r.graphics)) {
    const wanted =
      expected.graphics === 'text' ? 'a text picture (braille, blocks or symbols)' : `"${expected.graphics}"`;
    problems.push(`graphics is ${JSON.stringify(r.graphics)}, expected ${wanted}`);
  }
  if (expected.terminal !== null) {
    const name = r.terminal?.name;
    if (typeof name !== 'string' || name.toLowerCase() !== expected.terminal) {
      problems.push(`terminal.name is ${JSON.stringify(name)}, expected "${expected.terminal}"`);
    }
  }
  const mux = r.multiplexer ?? null;
  if (expected.multiplexer === 'any') {
    // not checked
  } else if (expected.multiplexer === null) {
    if (mux !== null) problems.push(`multiplexer is ${JSON.stringify(mux)}, expected none`);
  } else if (mux === null || mux.name !== expected.multiplexer.name) {
    problems.push(`multiplexer is ${JSON.stringify(mux)}, expected ${expected.multiplexer.name}`);
  } else if (expected.multiplexer.passthrough !== undefined && mux.passthrough !== expected.multiplexer.passthrough) {
    problems.push(
      `multiplexer.passthrough is ${JSON.stringify(mux.passthrough)}, expected ${expected.multiplexer.passthrough}`,
    );
  }
  const why = r.why?.graphics;
  if (why === undefined) problems.push('why.graphics is missing');
  else {
    if (!expected.why.sources.includes(why.source as never)) {
      problems.push(
        `why.graphics.source is ${JSON.stringify(why.source)}, expected one of ${expected.why.sources.join(', ')}`,
      );
    }
    if (typeof why.detail !== 'string' || why.detail.trim() === '') problems.push('why.graphics.detail is empty');
    else if (expected.why.detail && !expected.why.detail.test(why.detail)) {
      problems.push(`why.graphics.detail ${JSON.stringify(why.detail)} does not match ${expected.why.detail}`);
    }
    if (expected.why.reply) {
      // The deciding reply is quoted in `reply`, or (when several replies decided together) in the sentence.
      const quoted = `${typeof why.reply === 'string' ? why.reply : ''}\n${typeof why.detail === 'string' ? why.detail : ''}`;
      if (!expected.why.reply.test(quoted)) {
        problems.push(
          `why.graphics quotes ${JSON.stringify(why.reply)} / ${JSON.stringify(why.detail)}, expected a reply matching ${expected.why.reply}`,
        );
      }
    }
  }
  if (r.probeMs !== null && typeof r.probeMs !== 'number') problems.push(`probeMs is ${JSON.stringify(r.probeMs)}`);
  else if (r.probeMs === null) problems.push('probeMs is null: no probe ran');
  return problems;
}
