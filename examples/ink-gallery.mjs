// A small image browser in Ink: left/right (or h/l) move through a folder's pictures, q quits.
// Run after `npm run build`:  node examples/ink-gallery.mjs [folder]   (default test/fixtures/images)
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Box, render, Text, useApp, useInput, useStdout } from 'ink';
import { createElement as h, useState } from 'react';
import { Image, TerminalProvider, useTerminalReport } from '../dist/ink/index.js';

const folder = resolve(process.argv[2] ?? new URL('../test/fixtures/images', import.meta.url).pathname);
const pictures = readdirSync(folder)
  .filter((name) => /\.(png|jpe?g|gif)$/i.test(name))
  .sort();

function Gallery() {
  const [index, setIndex] = useState(0);
  const { exit } = useApp();
  const { stdout } = useStdout();
  const report = useTerminalReport();
  useInput((input, key) => {
    if (input === 'q' || key.escape) exit();
    if (key.rightArrow || input === 'l') setIndex((i) => (i + 1) % pictures.length);
    if (key.leftArrow || input === 'h') setIndex((i) => (i - 1 + pictures.length) % pictures.length);
  });
  if (pictures.length === 0) return h(Text, null, `no PNG, JPEG or GIF in ${folder}`);
  const name = pictures[index];
  const width = Math.min(60, (stdout.columns || 80) - 4);
  const height = Math.max(4, Math.min(20, (stdout.rows || 24) - 6));
  return h(
    Box,
    { flexDirection: 'column', borderStyle: 'round', paddingX: 1 },
    h(Text, { bold: true }, `${index + 1}/${pictures.length}  ${name}`),
    report === null
      ? h(Text, { dimColor: true }, 'asking the terminal…')
      : h(Image, { key: name, src: join(folder, name), width, height, alt: `(cannot show ${name})` }),
    h(Text, { dimColor: true }, `← → move · q quit · ${report?.graphics ?? '…'}`),
  );
}

const app = render(h(TerminalProvider, null, h(Gallery)));
await app.waitUntilExit();
