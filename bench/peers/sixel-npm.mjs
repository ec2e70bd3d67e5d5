// A whole-process peer for bench/show.mjs: what a Node program without termsight does to show a
// picture as sixel with the npm `sixel` package: decode the file with the usual pure-JS decoders
// (fast-png, jpeg-js, omggif's first frame: bench/images.mjs's decodeBytes), scale it down to the
// width by averaging boxes of source pixels (the package does not scale), and write `image2sixel`
// (256 colours) to stdout.
// Usage: node bench/peers/sixel-npm.mjs FILE WIDTH_PX
import { readFileSync } from 'node:fs';
import { image2sixel } from 'sixel';
import { boxResize, decodeBytes } from '../images.mjs';

const [file, widthArg] = process.argv.slice(2);
const source = decodeBytes(readFileSync(file));
const width = Math.min(source.width, Number(widthArg));
const height = Math.max(1, Math.round((source.height * width) / source.width));
const picture = boxResize(source, width, height);
process.stdout.write(image2sixel(picture.data, picture.width, picture.height, 256, 0));
