// The link capability's `when` clause and
// supports() answering from a runtime literal, never from process.
import { capability, supports } from 'termsight';

const link = capability('link');
const at = (env, tty = true) => supports({ env, isTTY: { stdout: tty } }, link);

console.log(JSON.stringify(link.when));
console.log(at({ TERM_PROGRAM: 'iTerm.app' }));
console.log(at({ VTE_VERSION: '7600' }));
console.log(at({ WT_SESSION: 'x' }));
console.log(at({ TERM_PROGRAM: 'iTerm.app' }, false));
console.log(at({ TERM_PROGRAM: 'iTerm.app', TERM: 'dumb' }));
console.log(at({}));
