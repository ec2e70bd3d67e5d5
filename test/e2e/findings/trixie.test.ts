/**
 * The known findings in Debian 13's terminals (FINDINGS in ../cases.ts, the rows of
 * TRIXIE_EXPECTATIONS that list them), asserted strictly: red until termsight is fixed. Not part
 * of `npm test`; `npm run test:findings` (with TERMSIGHT_E2E_TRIXIE naming the chroot).
 */
import { TRIXIE_CASES, terminalSuite } from '../suite.js';

terminalSuite({
  title: 'known findings in Debian 13 terminals, asserted strictly',
  name: 'findings-trixie',
  cases: TRIXIE_CASES.filter((c) => c.findings.length > 0),
  strict: true,
  system: 'trixie',
});
