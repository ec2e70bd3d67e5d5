/**
 * The README's code, read as a reader would copy it: its fenced blocks and the first library
 * example (the first block under "## The library"). Pure; shared by the type-check of every block
 * (test/package/readme-code.test.ts) and the run of the first example in ptys (test/pty/draw.test.ts).
 */

/** One fenced block of the README: its language, its code and the line it starts on. */
export interface Block {
  readonly lang: string;
  readonly code: string;
  readonly line: number;
}

/** Every fenced code block of a Markdown text. */
export function codeBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i] as string);
    if (!open) continue;
    const end = lines.findIndex((l, j) => j > i && /^```\s*$/.test(l));
    if (end < 0) break;
    blocks.push({ lang: open[1] as string, code: lines.slice(i + 1, end).join('\n'), line: i + 1 });
    i = end;
  }
  return blocks;
}

/** Lines of code: not blank, not only a comment. */
export function codeLines(code: string): number {
  return code.split('\n').filter((l) => l.trim() !== '' && !/^\s*\/\//.test(l)).length;
}

/** The first block under "## The library" (its line numbered in the whole README), or undefined. */
export function firstLibraryExample(markdown: string): Block | undefined {
  const at = markdown.indexOf('## The library');
  if (at < 0) return undefined;
  const first = codeBlocks(markdown.slice(at))[0];
  if (!first) return undefined;
  return { ...first, line: first.line + markdown.slice(0, at).split('\n').length - 1 };
}
