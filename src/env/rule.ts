/**
 * A rule: when every condition holds, the answer. Tables of rules are evaluated in order and the
 * first match wins (chafa's term-db works the same way: knowledge as data, not code).
 */
import { type Condition, describeCondition, matches } from './condition.js';
import type { Env } from './runtime.js';

/** One row of a rule table. */
export interface Rule<A> {
  /** A stable id, shown in reports (`kitty-window-id`). */
  readonly id: string;
  /** Every condition must hold. */
  readonly when: readonly Condition[];
  readonly answer: A;
  /** Why the rule is true, citing the terminal's documentation. */
  readonly note: string;
  /** The documentation it rests on (a link a reader can open). */
  readonly source: string;
  /** Set on the rows of the founding table, whose order and answers are kept exactly. */
  readonly founding?: true;
}

/** The first rule of `table` whose conditions all hold in `env`, or undefined. */
export function firstMatch<A>(table: readonly Rule<A>[], env: Env): Rule<A> | undefined {
  return table.find((rule) => rule.when.every((condition) => matches(env, condition)));
}

/** The rule's conditions as one line of text. */
export function describeRule(rule: Rule<unknown>): string {
  return rule.when.map(describeCondition).join(' and ');
}
