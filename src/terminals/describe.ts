/**
 * One row in words, for `termsight rules`: how it is identified, what it draws, what it is known
 * to do. Compact on purpose: the sources are in `--json`.
 */
import { describeCondition } from '../core/condition.js';
import { FACT_NAMES, type Fact, type TerminalRow } from './types.js';

/** A row as four short columns of text. */
export interface RowSummary {
  readonly terminal: string;
  readonly identifiedBy: string;
  readonly draws: string;
  readonly facts: string;
}

const since = (v: string | undefined) => (v === undefined ? '' : ` ${v}+`);
const fact = (name: string, f: Fact | undefined) =>
  f === undefined
    ? []
    : [`${f.value ? '' : 'no '}${name}${f.until ? ` ${f.since ?? ''}-${f.until} (not ${f.until})` : since(f.since)}`];

/** `notify` with the sequence the row reads: `notify (OSC 99)`. */
const notifyName = (row: TerminalRow) => {
  const dialect = row.facts.notify?.dialect;
  return dialect ? `notify (OSC ${dialect.slice(3)})` : 'notify';
};

/** The row's summary. */
export function summarize(row: TerminalRow): RowSummary {
  const id = row.identity;
  const ways = [
    ...id.env.map(
      (s) =>
        `${s.when.map(describeCondition).join(' and ')} (${s.priority}${s.names === false ? ', names no one row' : ''})`,
    ),
    ...(id.xtversion ? [`XTVERSION ${id.xtversion.example}`] : []),
    ...(id.fingerprints ?? []).map((f) => [f.da1 && `DA1 ${f.da1}`, f.da2 && `DA2 ${f.da2}`].filter(Boolean).join(' ')),
  ];
  const draws = row.draws.map(
    (d) => `${d.protocol}${since(d.since)}${d.onlyIf === 'da1' ? ' (DA1 4)' : d.onlyIf ? ' (kitty query OK)' : ''}`,
  );
  const facts = [
    ...FACT_NAMES.flatMap((name) => fact(name === 'notify' ? notifyName(row) : name, row.facts[name])),
    ...fact('passthrough', row.multiplexer?.passthrough),
    ...fact('passthrough all', row.multiplexer?.passthroughHidden),
    ...Object.entries(row.glyphs ?? {}).flatMap(([set, f]) => fact(`draws ${set}`, f)),
    ...(row.quirks ?? []).map(
      (q) => `${q.effect === 'bel' ? 'ends' : 'prints'} ${q.family}${q.effect === 'bel' ? ' with BEL' : ''}`,
    ),
    ...(row.multiplexer?.answers.length
      ? [`answers ${row.multiplexer.answers.map((a) => `${a.query}${since(a.since)}`).join(' ')}`]
      : []),
    ...(row.multiplexer?.dcsPacketBytes ? [`DCS packets < ${row.multiplexer.dcsPacketBytes.bytes} bytes`] : []),
  ];
  return {
    terminal: row.name,
    identifiedBy: (ways.join('; ') || 'its replies only') + (row.hosts ? `; inside ${row.hosts.join(', ')}` : ''),
    draws: draws.join(', ') || 'text only',
    facts: facts.join(', '),
  };
}
