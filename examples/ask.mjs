// An application that asks the terminal its own questions through termsight: the background colour
// (OSC 11) and the device status (DSR `CSI 5 n`), in the same round as termsight's probe (one batch,
// one DA1 sentinel), each reply to its asker, keys typed meanwhile left for the application.
//   node examples/ask.mjs
import { probeTerminal } from 'termsight';
import { askTerminal } from 'termsight/probe';

const [report, [background, status]] = await Promise.all([
  probeTerminal(),
  askTerminal(['\x1b]11;?\x1b\\', '\x1b[5n'], { stream: 'stdout' }),
]);
const text = (reply) => (reply === null ? 'no answer' : JSON.stringify(Buffer.from(reply).toString('latin1')));
console.log(`graphics: ${report.graphics}`);
console.log(`background (OSC 11): ${text(background)}`);
console.log(`device status (DSR 5): ${text(status)}`);
