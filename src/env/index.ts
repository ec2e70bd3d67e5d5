/**
 * `termsight/rules`: what termsight knows from the environment alone, as data — the graphics and
 * placement rule tables, the conditions they are made of, the override variable and the
 * multiplexer hints. `termsight rules` prints the tables. See docs/env.md.
 */
export { type Condition, compareVersions, matches } from './condition.js';
export { GRAPHICS_DEFAULT, GRAPHICS_RULES, type GraphicsRule } from './graphics-rules.js';
export { type MultiplexerHint, multiplexerFromEnv } from './multiplexer.js';
export { GRAPHICS_OVERRIDE, type GraphicsOverride, graphicsOverride } from './override.js';
export { PLACEMENT_RULES } from './placement-rules.js';
export { describeRule, firstMatch, type Rule } from './rule.js';
export { envValue, isRemote } from './runtime.js';
