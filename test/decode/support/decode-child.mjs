// Decodes one file with the built library's decodeImage (every frame, the default limits) in this
// process and prints one line of JSON: the outcome, the frames kept and counted, the error's name
// and message, and the peak RSS in KiB (process.resourceUsage). Usage: node decode-child.mjs FILE
// [WIDTHxHEIGHT] (the maxSize box, as show and the Ink component pass).
import { readFileSync } from 'node:fs';

const { decodeImage } = await import(new URL('../../../dist/decode/index.js', import.meta.url).href);
const bytes = readFileSync(process.argv[2]);
const [width, height] = (process.argv[3] ?? '').split('x').map(Number);
let outcome;
try {
  const image = decodeImage(bytes, width ? { maxSize: { width, height } } : {});
  outcome = { ok: true, frames: image.frames.length, frameCount: image.frameCount };
} catch (error) {
  outcome = { ok: false, name: error.name, message: error.message };
}
process.stdout.write(`${JSON.stringify({ ...outcome, rssKiB: process.resourceUsage().maxRSS })}\n`);
