/**
 * The recorded replies of real terminals termsight/testing answers with: copied from the
 * repository's recordings (test/fixtures/replies/*.json, whose README says how each was made;
 * test/testing/recordings.test.ts checks the copy byte for byte), each query's answer when asked
 * alone before DA1. Data, not code.
 */

/** One recorded terminal. */
export interface Recording {
  readonly name: string;
  /** Where the bytes come from. */
  readonly provenance: string;
  /** The recording it was copied from, in the repository. */
  readonly file: string;
  /** What the terminal put in its programs' environment (the part termsight reads). */
  readonly env: Readonly<Record<string, string>>;
  /** Its DA1 reply (the sentinel). */
  readonly da1: string;
  /** Query (as sent) -> the reply before DA1 and what came after it (a multiplexer forwarding). */
  readonly answers: Readonly<Record<string, { readonly reply: string; readonly late: string }>>;
}

/** The recordings by id. */
export const RECORDINGS = {
  kitty: {
    name: 'kitty 0.26.5',
    provenance: 'kitty 0.26.5 on Debian 12, 80x24 under a virtual X display, November 2026',
    file: 'test/fixtures/replies/kitty.json',
    env: { COLORTERM: 'truecolor', KITTY_WINDOW_ID: '1', TERM: 'xterm-kitty' },
    da1: '\u001b[?62;c',
    answers: {
      '\u001b[>q': { reply: '\u001bP>|kitty(0.26.5)\u001b\\', late: '' },
      '\u001b[>c': { reply: '\u001b[>1;4000;26c', late: '' },
      '\u001b_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u001b\\': { reply: '\u001b_Gi=31;OK\u001b\\', late: '' },
      '\u001b[?2026$p': { reply: '\u001b[?2026;2$y', late: '' },
      '\u001b[?2027$p': { reply: '\u001b[?2027;0$y', late: '' },
      '\u001b[14t': { reply: '\u001b[4;456;800t', late: '' },
      '\u001b[16t': { reply: '\u001b[6;19;10t', late: '' },
      '\u001b[18t': { reply: '\u001b[8;24;80t', late: '' },
      '\u001b]10;?\u001b\\': { reply: '\u001b]10;rgb:dddd/dddd/dddd\u001b\\', late: '' },
      '\u001b]11;?\u001b\\': { reply: '\u001b]11;rgb:0000/0000/0000\u001b\\', late: '' },
      '\u001b[?u': { reply: '\u001b[?0u', late: '' },
      '\u001bP+q544e\u001b\\': { reply: '\u001bP1+r544e=787465726d2d6b69747479\u001b\\', late: '' },
      '\u001bP+q524742\u001b\\': { reply: '\u001bP0+r524742\u001b\\', late: '' },
      '\u001bP+q536d756c78\u001b\\': { reply: '\u001bP1+r536d756c78=5c455b343a25703125646d\u001b\\', late: '' },
      '\u001bP+q436f\u001b\\': { reply: '\u001bP1+r436f=323536\u001b\\', late: '' },
      '\u001bP$qm\u001b\\': { reply: '\u001bP1$rm\u001b\\', late: '' },
    },
  },
  'vscode-images': {
    name: 'VS Code (xterm.js with the image addon)',
    provenance:
      "@xterm/xterm 6.0.0 with @xterm/addon-image 0.9.0 in headless Chromium 156 (VS Code's terminal engine; VS Code itself not recorded), 2 December 2026",
    file: 'test/fixtures/replies/xtermjs-image.json',
    env: {},
    da1: '\u001b[?62;4;9;22c',
    answers: {
      '\u001b[>c': { reply: '\u001b[>0;276;0c', late: '' },
      '\u001b[?2026$p': { reply: '\u001b[?2026;2$y', late: '' },
      '\u001b[?2027$p': { reply: '\u001b[?2027;0$y', late: '' },
      '\u001b[?1;1;0S': { reply: '\u001b[?1;0;256S', late: '' },
      '\u001b[?2;1;0S': { reply: '\u001b[?2;0;626;360S', late: '' },
      '\u001b[14t': { reply: '\u001b[4;360;626t', late: '' },
      '\u001b[16t': { reply: '\u001b[6;15;8t', late: '' },
      '\u001b[18t': { reply: '\u001b[8;24;80t', late: '' },
      '\u001b]10;?\u001b\\': { reply: '\u001b]10;rgb:0000/0000/0000\u001b\\', late: '' },
      '\u001b]11;?\u001b\\': { reply: '\u001b]11;rgb:ffff/ffff/ffff\u001b\\', late: '' },
      '\u001bP$qm\u001b\\': { reply: '\u001bP1$r0m\u001b\\', late: '' },
    },
  },
  vscode: {
    name: 'VS Code (xterm.js, no image addon)',
    provenance:
      "@xterm/xterm 6.0.0 in headless Chromium 156 (VS Code's terminal engine; VS Code itself not recorded), 2 December 2026",
    file: 'test/fixtures/replies/xtermjs.json',
    env: {},
    da1: '\u001b[?1;2c',
    answers: {
      '\u001b[>c': { reply: '\u001b[>0;276;0c', late: '' },
      '\u001b[?2026$p': { reply: '\u001b[?2026;2$y', late: '' },
      '\u001b[?2027$p': { reply: '\u001b[?2027;0$y', late: '' },
      '\u001b]10;?\u001b\\': { reply: '\u001b]10;rgb:0000/0000/0000\u001b\\', late: '' },
      '\u001b]11;?\u001b\\': { reply: '\u001b]11;rgb:ffff/ffff/ffff\u001b\\', late: '' },
      '\u001bP$qm\u001b\\': { reply: '\u001bP1$r0m\u001b\\', late: '' },
    },
  },
  'tmux-kitty': {
    name: 'tmux 3.3a in kitty 0.26.5, allow-passthrough on',
    provenance: 'tmux 3.3a in kitty 0.26.5 on Debian 12, passthrough on, November 2026',
    file: 'test/fixtures/replies/kitty+tmux-pt.json',
    env: {
      COLORTERM: 'truecolor',
      TERM_PROGRAM_VERSION: '3.3a',
      TMUX: '<tmp>,20252,0',
      KITTY_WINDOW_ID: '1',
      TERM: 'tmux-256color',
      TERM_PROGRAM: 'tmux',
    },
    da1: '\u001b[?1;2c',
    answers: {
      '\u001b[>q': { reply: '\u001bP>|tmux 3.3a\u001b\\', late: '' },
      '\u001b[>c': { reply: '\u001b[>84;0;0c', late: '' },
      '\u001b[18t': { reply: '\u001b[8;80;23t', late: '' },
    },
  },
  screen: {
    name: 'GNU screen 4.09 in xterm 379',
    provenance: 'GNU screen 4.09 in xterm 379 on Debian 12, November 2026',
    file: 'test/fixtures/replies/xterm+screen.json',
    env: { XTERM_VERSION: 'XTerm(379)', TERM: 'screen', STY: '19595.tr19558' },
    da1: '\u001b[?1;2c',
    answers: {
      '\u001b[>c': { reply: '\u001b[>83;40900;0c', late: '' },
      '\u001b]11;?\u001b\\': { reply: '', late: '\u001b]11;rgb:ffff/ffff/ffff\u001b\\' },
    },
  },
  xterm: {
    name: 'xterm 379',
    provenance: 'xterm 379 on Debian 12, default resources, November 2026',
    file: 'test/fixtures/replies/xterm.json',
    env: { XTERM_VERSION: 'XTerm(379)', TERM: 'xterm' },
    da1: '\u001b[?64;1;2;6;9;15;16;17;18;21;22;28c',
    answers: {
      '\u001b[>q': { reply: '\u001bP>|XTerm(379)\u001b\\', late: '' },
      '\u001b[>c': { reply: '\u001b[>41;379;0c', late: '' },
      '\u001b[=c': { reply: '\u001bP!|00000000\u001b\\', late: '' },
      '\u001b[?2026$p': { reply: '\u001b[?2026;0$y', late: '' },
      '\u001b[?2027$p': { reply: '\u001b[?2027;0$y', late: '' },
      '\u001b[?1;1;0S': { reply: '\u001b[?1;3S', late: '' },
      '\u001b[?2;1;0S': { reply: '\u001b[?2;3S', late: '' },
      '\u001b]10;?\u001b\\': { reply: '\u001b]10;rgb:0000/0000/0000\u001b\\', late: '' },
      '\u001b]11;?\u001b\\': { reply: '\u001b]11;rgb:ffff/ffff/ffff\u001b\\', late: '' },
      '\u001bP$qm\u001b\\': { reply: '\u001bP1$r0m\u001b\\', late: '' },
    },
  },
} as const satisfies Record<string, Recording>;
