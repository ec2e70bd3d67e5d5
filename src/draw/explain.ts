/**
 * A plan's decisions as lines a person reads (`termsight show --explain`): the decision, its value,
 * where it came from and why. Everything is escaped (`escapeBytes`): a reason may quote a
 * terminal's reply, which must never act on the terminal it is printed to.
 */
import { escapeBytes } from '../core/escape.js';
import type { Plan, PlanField } from './types.js';

const FIELDS: readonly PlanField[] = [
  'protocol',
  'box',
  'wrap',
  'colorDepth',
  'synchronizedOutput',
  'animation',
  'cellPixels',
  'encoder',
];

function shown(plan: Plan, field: PlanField): string {
  switch (field) {
    case 'protocol':
      return plan.protocol;
    case 'box':
      return `${plan.columns ?? '-'}x${plan.rows ?? '-'} ${plan.fit}${plan.align === 'left' ? '' : ` ${plan.align}`}`;
    case 'wrap':
      return plan.wrap ?? 'none';
    case 'colorDepth':
      return plan.colorDepth;
    case 'synchronizedOutput':
      return plan.synchronizedOutput ? 'yes' : 'no';
    case 'animation':
      return plan.animation ?? 'none';
    case 'cellPixels':
      return plan.cellPixels ? `${plan.cellPixels.width}x${plan.cellPixels.height}` : 'unknown';
    case 'encoder': {
      const { protocol: _protocol, ...rest } = plan.encoder;
      return Object.entries(rest)
        .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join('+') : String(v)}`)
        .join(' ');
    }
  }
}

/**
 * The plan as aligned lines, one per decision: name, value, source and reason; no control character
 * or bidi override survives (`escapeBytes`).
 *
 * @example explainPlan(plan)[0] // 'protocol            kitty  report: the report's graphics: …'
 */
export function explainPlan(plan: Plan): string[] {
  const rows = FIELDS.map((field) => ({
    field,
    value: escapeBytes(shown(plan, field)),
    because: `${plan.why[field].source}: ${escapeBytes(plan.why[field].detail)}`,
  }));
  const width = Math.max(...rows.map((r) => r.field.length));
  const valueWidth = Math.max(...rows.map((r) => r.value.length));
  return rows.map((r) => `${r.field.padEnd(width)}  ${r.value.padEnd(valueWidth)}  ${r.because}`.trimEnd());
}
