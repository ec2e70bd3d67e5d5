/**
 * The folder graph, read from the imports themselves: each layer of src/ may import only the
 * layers below it and, outside the top layers, nothing but Node's built-ins. The rule is data
 * (LAYERS); `violations` is pure and tested on made-up files first, so the check itself can fail.
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
  // sharp: the optional peer for AVIF/HEIF/TIFF/JPEG XL/SVG, loaded only by decode/sharp.ts when such a file arrives.
  decode: { may: ['core'], packages: ['sharp'] },
  compat: { may: ['core', 'terminals', 'env', 'probe', 'capability', 'report', 'render', 'decode'] },
  // The Ink component: any layer below the CLI, and Ink and React (optional peers, loaded only here).
  ink: {
    may: ['core', 'terminals', 'env', 'probe', 'capability', 'report', 'render', 'decode', 'compat'],
    packages: ['ink', 'react'],
  },
  // termsight/testing: scripted terminals from the database and the recordings; Node only.
  testing: { may: ['core', 'terminals', 'env'] },
  cli: { may: ['core', 'terminals', 'env', 'probe', 'capability', 'report', 'render', 'decode', 'compat'] },
  // The front door (src/index.ts) may re-export any layer.
  '.': { may: ['core', 'terminals', 'env', 'probe', 'capability', 'report', 'render', 'decode', 'compat', 'cli'] },
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

describe('src/', () => {
  it('imports only along the layer graph', () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(50);
    expect(violations(files)).toEqual([]);
  });
});
