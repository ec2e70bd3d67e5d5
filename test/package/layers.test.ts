/**
 * The folder graph, read from the imports themselves: each layer of src/ may import only the
 * layers below it and, outside the top layers, nothing but Node's built-ins; and no file reaches
 * itself through its imports (an import circle), type-only imports included. The rules are data
 * (LAYERS); `violations` and `circles` are pure and tested on made-up files first, so the checks
 * themselves can fail.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** Each layer, the layers it may import, and the packages (besides `node:*`) it may load. */
const LAYERS: Record<string, { readonly may: readonly string[]; readonly packages?: readonly string[] }> = {
  core: { may: [] },
  terminals: { may: ['core'] },
  env: { may: ['core', 'terminals'] },
  probe: { may: ['core', 'terminals', 'env'] },
  capability: { may: ['core', 'terminals', 'env'] },
  report: { may: ['core', 'terminals', 'env', 'probe', 'capability'] },
  render: { may: ['core', 'env'] },
  // sharp: the optional peer for AVIF/HEIF/TIFF/JPEG XL/SVG, loaded only by decode/sharp.ts when such a file arrives;
  // libheif-js: the optional peer for HEIC where sharp has no HEVC decoder, loaded only by decode/heic.ts.
  // wasm-vips: the optional peer for JPEG XL where sharp has no libjxl, loaded only by decode/jxl.ts.
  decode: { may: ['core'], packages: ['sharp', 'libheif-js', 'wasm-vips'] },
  // From a report and a request to a plan, and drawing from plans (docs/draw.md): the report's
  // answers, render's encoders, decode for the one call that takes a file (loaded on the call).
  draw: { may: ['core', 'terminals', 'env', 'probe', 'report', 'render', 'decode'] },
  compat: { may: ['core', 'terminals', 'env', 'probe', 'capability', 'report', 'render', 'decode', 'draw'] },
  // The Ink component: any layer below the CLI, and Ink and React (optional peers, loaded only here).
  ink: {
    may: ['core', 'terminals', 'env', 'probe', 'capability', 'report', 'render', 'decode', 'draw', 'compat'],
    packages: ['ink', 'react'],
  },
  // termsight/testing: scripted terminals from the database and the recordings; Node only.
  testing: { may: ['core', 'terminals', 'env'] },
  cli: { may: ['core', 'terminals', 'env', 'probe', 'capability', 'report', 'render', 'decode', 'draw', 'compat'] },
  // The front door (src/index.ts) may re-export any layer.
  '.': {
    may: ['core', 'terminals', 'env', 'probe', 'capability', 'report', 'render', 'decode', 'draw', 'compat', 'cli'],
  },
};

/** One source file: its path under src/ and its text. */
interface SourceFile {
  readonly file: string;
  readonly text: string;
}

/** Every module specifier a file imports or re-exports (static and dynamic). */
function specifiers(source: string): string[] {
  // Comments hold examples (`@example import … from 'termsight/…'`), not imports.
  const text = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const out: string[] = [];
  for (const m of text.matchAll(/(?:^|[\s;])(?:import|export)\b[^'"]*?\bfrom\s*['"]([^'"]+)['"]/gm))
    out.push(m[1] as string);
  for (const m of text.matchAll(/(?:^|[\s;])import\s*['"]([^'"]+)['"]/gm)) out.push(m[1] as string);
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push(m[1] as string);
  return out;
}

/** The layer a path under src/ belongs to (`.` for files directly in src/). */
function layerOf(file: string): string {
  const parts = file.split('/');
  return parts.length === 1 ? '.' : (parts[0] as string);
}

/** Every import that goes against LAYERS, as `file: specifier (reason)`. */
function violations(files: readonly SourceFile[]): string[] {
  const out: string[] = [];
  for (const { file, text } of files) {
    const layer = layerOf(file);
    const rule = LAYERS[layer];
    if (!rule) {
      out.push(`${file}: folder '${layer}' is not a known layer`);
      continue;
    }
    for (const spec of specifiers(text)) {
      if (spec.startsWith('node:')) continue;
      if (spec.startsWith('.')) {
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
        if (target.startsWith('..')) {
          out.push(`${file}: ${spec} (outside src/)`);
          continue;
        }
        const to = layerOf(target);
        if (to !== layer && !rule.may.includes(to)) out.push(`${file}: ${spec} (${layer} may not import ${to})`);
        continue;
      }
      const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] as string);
      if (!(rule.packages ?? []).includes(name) && layer !== 'cli') {
        out.push(
          `${file}: ${spec} (${layer} may load only Node's built-ins${rule.packages ? ` and ${rule.packages.join(', ')}` : ''})`,
        );
      }
    }
  }
  return out;
}

/** The files under src/ a file imports (relative specifiers only; `x.js` is the source `x.ts`). */
function importsOf({ file, text }: SourceFile): string[] {
  return specifiers(text)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)).replace(/\.js$/, '.ts'));
}

/**
 * Every import circle among `files`: each strongly connected group of files (Tarjan's algorithm)
 * that has more than one file or a file importing itself, its files sorted.
 */
function circles(files: readonly SourceFile[]): string[][] {
  const graph = new Map(files.map((f) => [f.file, importsOf(f)]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop() as string;
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(group.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

function sourceFiles(dir = SRC, prefix = ''): SourceFile[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return sourceFiles(path.join(dir, entry.name), rel);
    return entry.name.endsWith('.ts') ? [{ file: rel, text: readFileSync(path.join(dir, entry.name), 'utf8') }] : [];
  });
}

describe('the layer check itself', () => {
  it.each([
    { name: 'a layer below', file: 'render/a.ts', text: "import { x } from '../core/raster.js';", bad: 0 },
    { name: 'its own layer', file: 'probe/a.ts', text: "export { y } from './b.js';", bad: 0 },
    { name: 'node built-in', file: 'core/a.ts', text: "import zlib from 'node:zlib';", bad: 0 },
    { name: 'render importing probe', file: 'render/a.ts', text: "import { x } from '../probe/query.js';", bad: 1 },
    {
      name: 'probe importing report',
      file: 'probe/a.ts',
      text: "import type { R } from '../report/types.js';",
      bad: 1,
    },
    { name: 'decode importing render', file: 'decode/a.ts', text: "import { y } from '../render/x.js';", bad: 1 },
    {
      name: 'the terminal database importing env',
      file: 'terminals/a.ts',
      text: "import { x } from '../env/rule.js';",
      bad: 1,
    },
    {
      name: 'env reading the terminal database',
      file: 'env/a.ts',
      text: "import { x } from '../terminals/views.js';",
      bad: 0,
    },
    { name: 'core importing env', file: 'core/a.ts', text: "export * from '../env/runtime.js';", bad: 1 },
    { name: 'a dynamic import upward', file: 'env/a.ts', text: "const m = await import('../cli/main.js');", bad: 1 },
    { name: 'a side-effect import upward', file: 'env/a.ts', text: "import '../report/resolve.js';", bad: 1 },
    { name: 'a package in core', file: 'core/a.ts', text: "import x from 'fast-png';", bad: 1 },
    {
      name: 'react outside the Ink layer',
      file: 'render/a.ts',
      text: "import { createElement } from 'react';",
      bad: 1,
    },
    { name: 'react in the Ink layer', file: 'ink/a.ts', text: "import { createElement } from 'react';", bad: 0 },
    {
      name: 'a package in decode (GIF is decoded by its own LZW)',
      file: 'decode/a.ts',
      text: "import omggif from 'omggif';",
      bad: 1,
    },
    {
      name: 'multi-line import',
      file: 'render/a.ts',
      text: "import {\n  a,\n  b,\n} from '../report/types.js';",
      bad: 1,
    },
    {
      name: 'an example in a comment',
      file: 'core/a.ts',
      text: "/**\n * @example import x from 'fast-png';\n */",
      bad: 0,
    },
    { name: 'an unknown folder', file: 'misc/a.ts', text: '', bad: 1 },
    { name: 'outside src', file: 'core/a.ts', text: "import { x } from '../../test/y.js';", bad: 1 },
  ])('$name', ({ file, text, bad }) => {
    expect(violations([{ file, text }])).toHaveLength(bad);
  });
});

describe('the circle check itself', () => {
  const f = (file: string, ...imports: string[]): SourceFile => ({
    file,
    text: imports.map((i) => `import { x } from '${i}';`).join('\n'),
  });
  it.each([
    { name: 'a chain', files: [f('a/x.ts', './y.js'), f('a/y.ts', '../b/z.js'), f('b/z.ts')], found: [] },
    { name: 'two files', files: [f('a/x.ts', './y.js'), f('a/y.ts', './x.js')], found: [['a/x.ts', 'a/y.ts']] },
    {
      name: 'three files across folders',
      files: [f('r/a.ts', './text/b.js'), f('r/text/b.ts', '../c.js'), f('r/c.ts', './a.js'), f('r/d.ts', './a.js')],
      found: [['r/a.ts', 'r/c.ts', 'r/text/b.ts']],
    },
    {
      name: 'a type-only import counts',
      files: [f('a/x.ts', './y.js'), { file: 'a/y.ts', text: "import type { T } from './x.js';" }],
      found: [['a/x.ts', 'a/y.ts']],
    },
    {
      name: 'a re-export counts',
      files: [f('a/x.ts', './y.js'), { file: 'a/y.ts', text: "export { T } from './x.js';" }],
      found: [['a/x.ts', 'a/y.ts']],
    },
    { name: 'a file importing itself', files: [f('a/x.ts', './x.js')], found: [['a/x.ts']] },
    {
      name: 'an import only in a comment',
      files: [f('a/x.ts', './y.js'), { file: 'a/y.ts', text: "// import { x } from './x.js';" }],
      found: [],
    },
    {
      name: 'two separate circles',
      files: [f('a/x.ts', './y.js'), f('a/y.ts', './x.js'), f('b/x.ts', './y.js'), f('b/y.ts', './x.js')],
      found: [
        ['a/x.ts', 'a/y.ts'],
        ['b/x.ts', 'b/y.ts'],
      ],
    },
  ])('$name', ({ files, found }) => {
    expect(circles(files).sort((a, b) => (a[0] as string).localeCompare(b[0] as string))).toEqual(found);
  });
});

describe('docs/architecture.md', () => {
  it('lists each layer with what LAYERS lets it import', () => {
    const doc = readFileSync(fileURLToPath(new URL('../../docs/architecture.md', import.meta.url)), 'utf8');
    const rows = [...doc.matchAll(/^\| `(\w+)` \| .* \| ([^|]+) \|$/gm)].map((m) => [
      m[1] as string,
      (m[2] as string).trim() === 'Node only' ? [] : (m[2] as string).split(',').map((l) => l.trim()),
    ]);
    expect(Object.fromEntries(rows)).toEqual(
      Object.fromEntries(
        Object.entries(LAYERS)
          .filter(([name]) => name !== '.')
          .map(([name, r]) => [name, [...r.may]]),
      ),
    );
  });
});

describe('src/', () => {
  it('has no import circle', () => {
    expect(circles(sourceFiles())).toEqual([]);
  });

  it('imports only along the layer graph', () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(50);
    expect(violations(files)).toEqual([]);
  });
});
