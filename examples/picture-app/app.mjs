// A small application with a picture: it asks the terminal what it can do and draws a file in the
// best protocol the terminal has, with a caption. Its streams and runtime are parameters, so its
// test (app.test.mjs) runs it against a scripted terminal instead of a real one.
//   node examples/picture-app/app.mjs photo.png
import { readFile } from 'node:fs/promises';
import { probeTerminal } from 'termsight';
import { createTerminalImage } from 'termsight/terminal-image';

/** Draws `file` `columns` cells wide on the terminal behind `terminal` (default: this process's). */
export async function showPicture(file, { columns = 40, terminal = {} } = {}) {
  const output = terminal.output ?? process.stdout;
  const image = createTerminalImage({
    report: () => probeTerminal(terminal),
    size: () => ({ columns: output.columns ?? 80, rows: output.rows ?? 24 }),
    write: (text) => output.write(text),
  });
  const picture = await image.buffer(await readFile(file), { width: columns });
  output.write(`${picture}\n${file}\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) await showPicture(process.argv[2] ?? 'assets/sample.png');
