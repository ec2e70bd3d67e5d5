/** Conditions on environment variables live in core (the terminal database uses them too); re-exported here. */
export { type Condition, compareVersions, describeCondition, matches } from '../core/condition.js';
