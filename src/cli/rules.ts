/**
 * `termsight rules [--json]`: the rule tables detection uses, in priority order, then the whole
 * terminal database as a compact table (`--json` gives every row with its sources).
 */
import { GRAPHICS_DEFAULT, GRAPHICS_RULES } from '../env/graphics-rules.js';
import { PLACEMENT_RULES } from '../env/placement-rules.js';
import { describeRule } from '../env/rule.js';
import { TERMINALS } from '../terminals/database.js';
import { summarize } from '../terminals/describe.js';
import { INHERITED_VARIABLES } from '../terminals/inherited.js';
import { parse } from './args.js';
import type { CliContext } from './context.js';
import { styleFor } from './style.js';

/** Runs `termsight rules`; returns the exit code. */
export async function runRules(args: readonly string[], ctx: CliContext): Promise<number> {
  const { values } = parse('rules', args, { json: { type: 'boolean' } });
  if (values.json) {
    ctx.stdout.write(
      `${JSON.stringify(
        {
          graphics: GRAPHICS_RULES,
          graphicsDefault: GRAPHICS_DEFAULT,
          placements: PLACEMENT_RULES,
          terminals: TERMINALS,
          inherited: INHERITED_VARIABLES,
        },
        null,
        2,
      )}\n`,
    );
    return 0;
  }
  const style = styleFor(ctx.runtime.env, ctx.stdout.isTTY);
  const out: string[] = [style.bold('graphics (first match wins; TERMSIGHT_GRAPHICS overrides all)')];
  GRAPHICS_RULES.forEach((rule, i) => {
    out.push(`${String(i + 1).padStart(3)}. ${rule.id.padEnd(22)} ${describeRule(rule).padEnd(42)} -> ${rule.answer}`);
    out.push(`     ${style.dim(`${rule.note} [${rule.source}]`)}`);
  });
  out.push(`     otherwise -> ${GRAPHICS_DEFAULT}`, '', style.bold('placements (first match wins)'));
  PLACEMENT_RULES.forEach((rule, i) => {
    out.push(`${String(i + 1).padStart(3)}. ${rule.id.padEnd(22)} ${describeRule(rule).padEnd(42)} -> ${rule.answer}`);
    out.push(`     ${style.dim(`${rule.note} [${rule.source}]`)}`);
  });
  out.push('     otherwise -> false', '', style.bold('terminals (the database; --json gives every source)'));
  out.push(`  ${'terminal'.padEnd(26)} ${'draws'.padEnd(34)} facts`);
  for (const row of TERMINALS) {
    const summary = summarize(row);
    out.push(`  ${summary.terminal.padEnd(26)} ${summary.draws.padEnd(34)} ${summary.facts}`);
    out.push(`     ${style.dim(`identified by: ${summary.identifiedBy}`)}`);
  }
  out.push(
    '',
    style.bold("inherited identity variables (other terminals' children carry them: never over a terminal's answer)"),
  );
  for (const v of INHERITED_VARIABLES) out.push(`  ${v.variable.padEnd(24)} ${style.dim(v.source)}`);
  ctx.stdout.write(`${out.join('\n')}\n`);
  return 0;
}
