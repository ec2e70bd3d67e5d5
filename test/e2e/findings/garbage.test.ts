/**
 * The known findings (FINDINGS in ../cases.ts), asserted strictly in the cells that show them: red
 * until termsight is fixed. Not part of `npm test` (vitest.config.ts excludes this folder); run with
 * `npm run test:findings`. When this file passes, the lead drops the exclusion and the `findings`
 * of each row in cases.ts.
 */
import { CASES, terminalSuite } from '../suite.js';

terminalSuite({
  title: 'known findings, asserted strictly',
  name: 'findings',
  cases: CASES.filter((c) => c.findings.length > 0),
  strict: true,
});
