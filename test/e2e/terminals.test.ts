/**
 * termsight in real terminal emulators (issue 6): every cell of cases.ts, each check except those
 * a known finding breaks today (those run strictly in test/e2e/findings/). See suite.ts.
 */
import { CASES, terminalSuite } from './suite.js';

terminalSuite({ title: 'termsight in real terminals', name: 'terminals', cases: CASES, strict: false });
