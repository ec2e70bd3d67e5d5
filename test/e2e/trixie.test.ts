/**
 * termsight in Debian 13 (trixie)'s terminals (issue 14): kitty 0.41 and tmux 3.5a, xterm 398 as a
 * VT340 under tmux's own sixel, rxvt-unicode 9.31, GNOME Terminal on VTE 0.80, Konsole 25.04 direct
 * and in tmux with passthrough, foot 1.21 (in weston 14 on the X display) direct and under tmux's
 * own sixel, mosh 1.4, each with
 * the terminal's environment and a scrubbed one. The programs run in the chroot `.ci/run` builds
 * (`.ci/trixie-chroot.sh`, named by TERMSIGHT_E2E_TRIXIE); the X server, the screenshots and the
 * judgement are the machine's, as in terminals.test.ts. Without the chroot the suite is skipped with
 * the reason; under CI=true that is a failure. See suite.ts.
 */
import { TRIXIE_CASES, terminalSuite } from './suite.js';

terminalSuite({
  title: 'termsight in Debian 13 terminals',
  name: 'trixie',
  cases: TRIXIE_CASES,
  strict: false,
  system: 'trixie',
});
