/**
 * The package's entry points, as a user imports them: every subpath of package.json's `exports`
 * resolves through the package's own name (no hook, no path into dist/), exports exactly the
 * names the README's section for it lists, and the front door loads nothing beyond Node.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { answerFor, escapeSequences, isSentinel, loadTerminal } from '../pty/harness.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as {
  name: string;
  exports: Record<string, string | { types?: string; import?: string }>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};
const readme = readFileSync(`${root}README.md`, 'utf8');

/**
 * Each entry point and the README heading whose tables list its exports: named by the specifier a
 * user imports it by, with its key in the exports map.
 */
const ENTRY_POINTS = Object.keys(pkg.exports)
  .filter((key) => key !== './package.json')
  .map((key) => ({ name: key === '.' ? pkg.name : `${pkg.name}/${key.slice(2)}`, key }));

/** Every name (values and types) the built declaration file of an entry point exports. */
function declaredExports(key: string): string[] {
  const target = pkg.exports[key];
  const types = typeof target === 'string' ? target.replace(/\.js$/, '.d.ts') : target?.types;
  if (!types) throw new Error(`exports["${key}"] names no types`);
  const file = `${root}${types.replace(/^\.\//, '')}`;
  const program = ts.createProgram([file], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
  });
  const source = program.getSourceFile(file);
  if (!source) throw new Error(`${types} was not built`);
  const checker = program.getTypeChecker();
  const symbol = checker.getSymbolAtLocation(source);
  return symbol
    ? checker
        .getExportsOfModule(symbol)
        .map((s) => s.getName())
        .sort()
    : [];
}

/** The names the README lists for an entry point: first-column identifiers of the tables under its heading. */
function documentedExports(specifier: string): string[] | null {
  const heading = new RegExp(`^#{3,4} \`${specifier.replace(/[/.-]/g, '\\$&')}\`.*$`, 'm');
  const start = readme.search(heading);
  if (start < 0) return null;
  const rest = readme.slice(start).split('\n').slice(1);
  const end = rest.findIndex((line) => /^#{2,4} /.test(line));
  const names = new Set<string>();
  // Only tables headed `| export | …` list exports; in their first cell, what follows → is a return type.
  let inExports = false;
  for (const line of rest.slice(0, end < 0 ? undefined : end)) {
    if (/^\|[-|: ]+\|$/.test(line)) continue;
    const cell = /^\| (.+?) \|/.exec(line)?.[1];
    if (cell === undefined) {
      inExports = false;
      continue;
    }
    if (cell === 'export') inExports = true;
    if (!inExports || cell === 'export' || /^-+$/.test(cell)) continue;
    const names_ = (cell.split('→')[0] as string).matchAll(/`([A-Za-z_$][\w$]*)/g);
    for (const m of names_) names.add(m[1] as string);
  }
  return [...names].sort();
}

/** What a fresh process sees when it imports `specifier` by the package's own name. */
function importInChild(specifier: string): { names: string[]; loaded: string[] } {
  // The hook records every module URL the import loads, so the test sees what a user pays for.
  const hook = { after: "(r) => { process.stderr.write('LOADED ' + r.url + '\\n'); return r; }" };
  const script = `import { hookResolve } from ${JSON.stringify(pathToFileURL(join(root, 'test/support/resolve-hook.mjs')).href)};
await hookResolve(${JSON.stringify(hook)});
const m = await import(${JSON.stringify(specifier)});
process.stdout.write(JSON.stringify(Object.keys(m).sort()));`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`import('${specifier}') failed: ${run.stderr}`);
  const loaded = run.stderr
    .split('\n')
    .filter((l) => l.startsWith('LOADED '))
    .map((l) => l.slice(7));
  return { names: JSON.parse(run.stdout) as string[], loaded };
}

describe.each(ENTRY_POINTS)('$name', ({ key, name: specifier }) => {
  const declared = declaredExports(key);
  it('resolves by the package name and exports at run time what its declarations say', () => {
    const { names } = importInChild(specifier);
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(declared).toContain(name);
  });
  it('exports exactly what the README lists under its heading', () => {
    expect(documentedExports(specifier)).toEqual(declared);
  });
});

describe('the README and the exports map', () => {
  it('document the same entry points', () => {
    const headings = [...readme.matchAll(/^#{3,4} `(termsight[^`]*)`/gm)].map((m) => m[1]);
    expect(headings.sort()).toEqual(ENTRY_POINTS.map((e) => e.name).sort());
  });
});

describe('no runtime dependency (what the README says)', () => {
  it('package.json declares none', () => {
    expect(pkg.dependencies ?? {}).toEqual({});
  });
  it('no built file imports a package but the optional peers', () => {
    const peers = Object.keys(pkg.peerDependencies ?? {});
    const files = readdirSync(`${root}dist`, { recursive: true, encoding: 'utf8' }).filter((f) => /\.[cm]?js$/.test(f));
    expect(files.length).toBeGreaterThan(0);
    const packages = new Set<string>();
    for (const file of files) {
      // Code lines only: doc comments name `import('termsight')` and the like.
      const code = readFileSync(join(root, 'dist', file), 'utf8')
        .split('\n')
        .filter((line) => !/^\s*(\*|\/\*|\/\/)/.test(line))
        .join('\n');
      for (const m of code.matchAll(
        /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\(\s*|^import\s*)["']([^"'./][^"']*)["']/gm,
      )) {
        const spec = m[1] as string;
        if (spec.startsWith('node:')) continue;
        packages.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] as string));
      }
    }
    expect([...packages].filter((name) => !peers.includes(name)).sort()).toEqual([]);
  });
});

describe('the front door', () => {
  it('loads only its own files and Node built-ins: no decoder, no dependency', () => {
    const { loaded } = importInChild(pkg.name);
    const foreign = loaded.filter((url) => !url.startsWith('node:') && !url.startsWith(`file://${root}dist/`));
    expect(foreign).toEqual([]);
    // Bundled, a decoder would sit in a chunk, so look at what the loaded files define.
    const decoders = loaded
      .filter((url) => url.startsWith('file:'))
      .filter((url) =>
        /(?:^|[;{}])function (decodePng|decodeJpeg|decodeGifFrames|decodeImage)\(/m.test(
          readFileSync(new URL(url), 'utf8'),
        ),
      );
    expect(decoders).toEqual([]);
  });
  it('is a few files, not a graph of ~80 modules (npm run build bundles each entry point)', () => {
    const own = new Set(importInChild(pkg.name).loaded.filter((url) => url.startsWith(`file://${root}dist/`)));
    expect(own.size).toBeGreaterThan(0);
    expect(own.size).toBeLessThanOrEqual(10);
  });
  it('loads no built-in only drawing or tmux needs (zlib, crypto, child_process load on first use)', () => {
    const { loaded } = importInChild(pkg.name);
    expect(loaded.filter((url) => ['node:zlib', 'node:crypto', 'node:child_process'].includes(url))).toEqual([]);
  });
  it('makes Node load none of its heavier built-ins, by import or by require (tty, net, stream, zlib, crypto)', () => {
    // process.moduleLoadList names every built-in Node has loaded, however it was reached; it is
    // read before process.stdout, whose first use loads node:net or node:tty.
    const script = `const before = new Set(process.moduleLoadList);
await import('termsight');
const added = JSON.stringify(process.moduleLoadList.filter((m) => !before.has(m)));
process.stdout.write(added);`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    const added = JSON.parse(run.stdout) as string[];
    const heavy = added.filter((m) => /^NativeModule (tty|net|stream|zlib|crypto|child_process)$/.test(m));
    expect(heavy).toEqual([]);
  });
  it('compiles no encoder at import: its drawing calls load their code on the first call', () => {
    const script = `import { createRequire } from 'node:module';
const cache = createRequire(import.meta.url).cache;
const m = await import('termsight');
const before = Object.keys(cache);
m.toTerminal({ width: 2, height: 2, data: new Uint8Array(16).fill(255) }, 'blocks', { columns: 2, rows: 1 });
process.stdout.write(JSON.stringify({ before, after: Object.keys(cache) }));`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    const { before, after } = JSON.parse(run.stdout) as { before: string[]; after: string[] };
    expect(before.filter((file) => file.startsWith(root))).toEqual([]);
    expect(after.filter((file) => file.startsWith(root))).toEqual([
      expect.stringMatching(/[\\/]dist[\\/]chunks[\\/]render-front-[\w-]+\.cjs$/),
    ]);
    const encoders = importInChild(pkg.name)
      .loaded.filter((url) => url.startsWith('file:'))
      .filter((url) =>
        /(?:^|[;{}])function (encodeSixel|brailleLines|encodePng)\(/m.test(readFileSync(new URL(url), 'utf8')),
      );
    expect(encoders).toEqual([]);
  });
  it('draws byte for byte what termsight/render draws, through the file it loads on first call', () => {
    // A raster with every byte value in play, so each encoder has real work; kitty's image id is random.
    const script = `const main = await import('termsight');
const { toTerminal } = await import('./dist/render/backend.js');
const raster = { width: 37, height: 23, data: new Uint8Array(37 * 23 * 4).map((_, i) => (i * 7919) % 251) };
const out = {};
for (const p of main.PROTOCOLS) {
  const id = (s) => s.replace(/i=\\d+/g, 'i=ID');
  out[p] = [id(main.toTerminal(raster, p, { columns: 10, rows: 5 })), id(toTerminal(raster, p, { columns: 10, rows: 5 }))];
}
process.stdout.write(JSON.stringify(out));`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    const out = JSON.parse(run.stdout) as Record<string, [string, string]>;
    expect(Object.keys(out).sort()).toEqual(['blocks', 'braille', 'iterm2', 'kitty', 'sixel', 'symbols']);
    for (const [protocol, [front, render]] of Object.entries(out)) {
      expect(front.length, protocol).toBeGreaterThan(0);
      expect(front, protocol).toBe(render);
    }
  });
  it('still draws inside an application that bundles termsight into one ES module (its bundler takes the drawing file in)', async () => {
    // rolldown stands for the application's bundler (esbuild and webpack treat a literal
    // `require` path the same way); the bundle runs from a folder with nothing of termsight beside it.
    const { rolldown } = await import('rolldown');
    const dir = mkdtempSync(join(tmpdir(), 'termsight-bundled-'));
    try {
      const app = join(dir, 'app.mjs');
      writeFileSync(
        app,
        `import { toTerminal } from ${JSON.stringify(`${root}dist/index.js`)};
process.stdout.write(toTerminal({ width: 2, height: 2, data: new Uint8Array(16).fill(255) }, 'blocks', { columns: 2, rows: 1 }));`,
      );
      const bundle = await rolldown({ input: app, platform: 'node' });
      await bundle.write({ dir: join(dir, 'out'), format: 'esm', codeSplitting: false });
      await bundle.close();
      expect(readdirSync(join(dir, 'out')).filter((f) => f.endsWith('.cjs'))).toEqual([]);
      const bundled = spawnSync(process.execPath, [join(dir, 'out', 'app.js')], { cwd: dir, encoding: 'utf8' });
      const direct = spawnSync(process.execPath, [app], { cwd: dir, encoding: 'utf8' });
      expect(bundled.stderr).toBe('');
      expect(direct.stderr).toBe('');
      expect(bundled.stdout.length).toBeGreaterThan(0);
      expect(bundled.stdout).toBe(direct.stdout);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it('loads drawing code that keeps no process-wide state of its own (it is a second copy of render)', () => {
    // The CommonJS file bundles render and the core/env modules it reaches; a module holding state
    // that must be one per process (the files kitty reads, the capability registry) must not be among them.
    const chunks = readdirSync(`${root}dist/chunks`).filter((f) => /^render-front-[\w-]+\.cjs\.map$/.test(f));
    expect(chunks).toHaveLength(1);
    const { sources } = JSON.parse(readFileSync(`${root}dist/chunks/${chunks[0]}`, 'utf8')) as { sources: string[] };
    const modules = sources.map((s) => s.replace(/^(\.\.\/)+/, ''));
    expect(modules).toContain('render/pixels/sixel.js');
    const STATEFUL = /^(core\/graphics-file|render\/kitty-file|capability\/|probe\/|report\/|terminals\/)/;
    expect(modules.filter((m) => STATEFUL.test(m))).toEqual([]);
  });
  it('probes through the driver it loads on the first call: the facts and bytes of the driver itself', async () => {
    // Two fake terminals that answer with kitty's recorded replies; the same facts either way, and
    // the same bytes written.
    type Probe = (options: object) => Promise<{ terminal?: { name?: string } }>;
    const front = (await import(`${root}dist/index.js`)) as { probeTty: Probe; probeTerminal: unknown };
    const probe = (await import(`${root}dist/probe/driver.js`)) as { probeTty: Probe };
    const kitty = loadTerminal('kitty');
    const ask = async (probeTty: Probe) => {
      const input = new PassThrough();
      const written: Buffer[] = [];
      const output = {
        write(chunk: Uint8Array) {
          written.push(Buffer.from(chunk));
          const queries = escapeSequences(Buffer.concat(written).toString('latin1'));
          if (queries.some(isSentinel)) {
            setImmediate(() => input.write(answerFor(kitty, queries).replies.join('') + kitty.da1));
          }
          return true;
        },
      };
      const runtime = { env: { TERM: 'xterm-kitty' }, isTTY: { stdin: true, stdout: true }, platform: 'linux' };
      // The whole round is answered at once (DA1 included), so the budget is never waited for; it
      // is long because the front's first call loads the driver first, which is slow on a busy machine.
      const facts = await probeTty({ runtime, input, output, budgetMs: 5000, lateMs: 0 });
      // What differs run to run: the time taken and the random name of the kitty probe file.
      return {
        facts: { ...facts, elapsedMs: 0 },
        written: Buffer.concat(written)
          .toString('latin1')
          .replace(/t=t,f=24;[A-Za-z0-9+/=]+/, 't=t,f=24;FILE'),
      };
    };
    const viaFront = await ask(front.probeTty);
    const viaProbe = await ask(probe.probeTty);
    expect(viaFront.facts.terminal?.name).toBe('kitty');
    expect(viaFront).toEqual(viaProbe);
  });
  it('stays small: a few dozen names', () => {
    expect(declaredExports('.').length).toBeLessThanOrEqual(60);
  });
});
