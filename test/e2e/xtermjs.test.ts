/**
 * termsight in xterm.js (VS Code's terminal engine) in headless Chromium: every cell, each check
 * except those a known finding breaks today (those run strictly in test/e2e/findings/). See
 * xtermjs-suite.ts.
 */
import { XTERMJS_CASES, xtermjsSuite } from './xtermjs-suite.js';

xtermjsSuite({
  title: 'termsight in xterm.js (headless Chromium)',
  name: 'xtermjs',
  cases: XTERMJS_CASES,
  strict: false,
});
