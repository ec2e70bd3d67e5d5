/**
 * The known findings in xterm.js (XTERMJS_FINDINGS in ../xtermjs-suite.ts), asserted strictly in the
 * cells that show them: red until termsight is fixed. Not part of `npm test`; `npm run test:findings`.
 */
import { XTERMJS_CASES, xtermjsSuite } from '../xtermjs-suite.js';

xtermjsSuite({
  title: 'known findings in xterm.js, asserted strictly',
  name: 'findings-xtermjs',
  cases: XTERMJS_CASES.filter((c) => c.findings.length > 0),
  strict: true,
});
