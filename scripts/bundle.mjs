// The build's second step (after tsc): one file per entry point instead of a graph of ~80
// modules. Node's ESM loader pays per module (resolve, stat, read, compile, link), so on the
// 2-core machine `import('termsight')` took half the time bundled (docs/architecture.md,
// "Load cost"). Every entry of package.json's `exports` and the `bin` are bundled in ONE run,
// so code they share lands in shared chunks and each module still exists once: the capability
// registry that `termsight` and `termsight/capability` both reach stays one registry.
//
// The entry files are rewritten in place (dist/index.js, dist/cli/main.js, ...) and the shared
// chunks go to dist/chunks/: one folder below dist/, as every source file is one folder below
// src/, so the `new URL('../../package.json', import.meta.url)` of the CLI still finds the
// package. The unbundled modules tsc wrote stay beside them (declarations, deep imports by the
// benchmarks); nothing the package exports loads them. Dynamic imports (the CLI's commands, the
// decoders) stay dynamic: their code is split into chunks loaded only when used.
//
// Usage: node scripts/bundle.mjs [distDir]   (npm run build runs it)
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { rolldown } from 'rolldown';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = resolve(process.argv[2] ?? join(ROOT, 'dist'));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

/** Every file a user can load: the `import` target of each export, and the executable. */
function entryFiles() {
  const files = new Set();
  for (const target of Object.values(pkg.exports)) {
    const file = typeof target === 'string' ? target : target.import;
    if (file?.endsWith('.js')) files.add(file);
  }
  for (const file of Object.values(typeof pkg.bin === 'string' ? { [pkg.name]: pkg.bin } : pkg.bin)) files.add(file);
  return [...files].map((file) => join(DIST, relative('dist', file)));
}

// Dependencies (none today) and peers (ink, react) stay imports: the user's copy is the one used.
const external = new Set([
  ...Object.keys(pkg.dependencies ?? {}),
  ...Object.keys(pkg.peerDependencies ?? {}),
  ...builtinModules,
]);
const isExternal = (id) => id.startsWith('node:') || external.has(id) || external.has(id.split('/')[0]);

/** Every module `file` reaches by static imports of relative paths (tsc's output: one `from './x.js'` each). */
function reachable(file, seen = new Set()) {
  if (seen.has(file)) return seen;
  seen.add(file);
  const source = readFileSync(file, 'utf8');
  for (const m of source.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]/gm)) {
    reachable(resolve(dirname(file), m[1]), seen);
  }
  return seen;
}

// Chunks: each module in its own chunk costs Node a file to resolve, read and link, so the
// layers every program of the library uses go in two chunks: one for detecting and probing
// (core, terminals, env, probe, capability, report) and one for drawing (render), which imports
// the first. What the small entries reach (the drop-ins such as supports-color, and the CLI
// before it knows its command) is left out of both and split as usual, so they still load only
// their own few kilobytes. That set is closed under imports, so leaving it out of the groups
// cannot make two chunks import each other.
const small = entryFiles().filter((file) =>
  /[\\/](compat[\\/](supports-color|supports-hyperlinks|terminal-link)\.js|cli[\\/]main\.js)$/.test(file),
);
// The CLI's entry only turns on the compile cache and then imports cli/start.js dynamically;
// what start.js reaches belongs with it (the CLI before it knows its command), not in the
// commands' chunk.
const base = new Set([...small, join(DIST, 'cli', 'start.js')].flatMap((file) => [...reachable(file)]));
const layer = (names) => (id) => !base.has(id) && names.includes(relative(DIST, id).split(/[\\/]/)[0]);
// The decode layer's part that is loaded before the format is known (sniffing, limits, EXIF:
// what decode/load.js reaches by static imports); each decoder stays in its own lazy chunk.
const decodeStatic = reachable(join(DIST, 'decode', 'load.js'));
// What most decoders import (e.g. the reduction): loaded with the decode chunk instead of as a
// file of its own after the decoder's (load.js imports every decoder dynamically). Modules only
// two or three decoders share stay with them. (rolldown keeps some of these apart anyway, e.g.
// icc-chunks.js; the rule asks, it does not check.)
const DECODERS = [
  ...readFileSync(join(DIST, 'decode', 'load.js'), 'utf8').matchAll(/import\(['"](\.\/[^'"]+)['"]\)/g),
].map((m) => resolve(DIST, 'decode', m[1]));
const decoderUses = new Map();
for (const decoder of DECODERS) {
  for (const id of reachable(decoder)) decoderUses.set(id, (decoderUses.get(id) ?? 0) + 1);
}
const decodeShared = new Set(
  [...decoderUses].filter(([id, n]) => n > DECODERS.length / 2 && !DECODERS.includes(id)).map(([id]) => id),
);
// What the front door needs at import: the modules its entry reaches by static imports, not
// counting the drawing calls (loaded on first call, above); the probe's driver is reached only
// by the dynamic imports of probe/front.js and report/front.js.
const FRONT_DRAWING = join(DIST, 'render', 'front.js');
const frontStatic = reachable(join(DIST, 'index.js'), new Set([FRONT_DRAWING]));
// draw: the plan and the front door's drawing calls over render/front.js (which stays lazy).
const TMUX_CLIENT = reachable(join(DIST, 'probe', 'tmux-client.js'));
const showStatic = reachable(join(DIST, 'cli', 'show.js'));
const detecting = layer(['core', 'terminals', 'env', 'probe', 'capability', 'report', 'draw']);
// The few modules both the drop-ins and the CLI's first files reach (the escaper, the
// environment readers): one chunk, not one per combination of entries that use them (each file is
// a resolve, a read and a link for Node; `show` loaded seven such files of 0.1-1.3 kB). The rest
// of what cli/start.js reaches (the dispatcher, the terminal guard) goes in a chunk of its own.
const dropInBase = new Set(
  small.filter((file) => file !== join(DIST, 'cli', 'main.js')).flatMap((file) => [...reachable(file)]),
);
const START = join(DIST, 'cli', 'start.js');
const startStatic = reachable(START);
const groups = [
  {
    name: 'base',
    // With what both the CLI's first files and the front door reach (the runtime reader): in the
    // start chunk it would make `import('termsight')` load the CLI's own modules and node:fs.
    test: (id) => (dropInBase.has(id) || (startStatic.has(id) && frontStatic.has(id))) && !small.includes(id),
    priority: 4,
    includeDependenciesRecursively: false,
  },
  {
    name: 'start',
    // Not start.js itself: its top-level await waits for the command's chunk, which imports this
    // one; the two in one chunk would wait for each other forever (Node exits with code 13).
    test: (id) => startStatic.has(id) && !dropInBase.has(id) && id !== START,
    priority: 4,
    includeDependenciesRecursively: false,
  },
  {
    name: 'termsight',
    test: (id) => frontStatic.has(id) && (id === FRONT_DRAWING || detecting(id)),
    priority: 3,
    includeDependenciesRecursively: false,
  },
  // The byte readers, CRC, orientation and built-in loaders of core/ that decoding and drawing
  // use: a small chunk of their own, else they would sit in the probe's driver below and every
  // `termsight show --no-probe` would load (read, compile) the whole driver for them.
  { name: 'core', test: layer(['core']), priority: 3, includeDependenciesRecursively: false },
  // The rest of those layers: the probe's driver, and what only drawing or the CLI uses. Not the
  // tmux client (and its reply parser): `show --no-probe` asks tmux too, and must not load the
  // driver for it.
  {
    name: 'probe',
    test: (id) => detecting(id) && !TMUX_CLIENT.has(id),
    priority: 2,
    includeDependenciesRecursively: false,
  },
  { name: 'render', test: layer(['render']), priority: 1, includeDependenciesRecursively: false },
  {
    name: 'decode',
    test: (id) => layer(['decode'])(id) && (decodeStatic.has(id) || decodeShared.has(id)),
    priority: 1,
    includeDependenciesRecursively: false,
  },
  // The CLI's commands beyond its first file, loaded when a command runs: what `show` reaches
  // (with `detect`, which it uses) in one chunk, the other commands in another, so a one-shot
  // `show` loads no recording, replay or rule printing, nor the probe's driver they import.
  {
    name: 'cli',
    test: (id) => layer(['cli'])(id) && showStatic.has(id),
    priority: 1,
    includeDependenciesRecursively: false,
  },
  { name: 'cli-commands', test: layer(['cli']), priority: 1, includeDependenciesRecursively: false },
];

// In place means once: an entry that already imports chunks was bundled, and tsc must run again.
for (const file of entryFiles()) {
  if (/from ['"]\.\.?\/(\.\.\/)*chunks\//.test(readFileSync(file, 'utf8'))) {
    console.error(
      `${relative(ROOT, file)} is already bundled: run tsc -p tsconfig.build.json first (npm run build does)`,
    );
    process.exit(1);
  }
}

// The front door's drawing calls (render/front.js), loaded on their first call: first bundled on
// their own as one CommonJS file in chunks/, which the front door `require`s synchronously the
// first time one of them is called (Node 20 cannot `require` an ES module, and an `import()` would
// make them asynchronous). So `import('termsight')` for `detect` compiles no encoder. The file
// holds its own copy of the render code and of the few core/env modules it reaches;
// test/package/entry-points.test.ts checks that none of them keeps process-wide state.
// In CommonJS a module has its own `require`: `createRequire(import.meta.url)` (how an ES module
// gets one) becomes that, so the file needs no `__filename` either, which an application that
// bundles termsight into an ES module would not have.
const ownRequire = {
  name: 'own-require',
  transform(code, id) {
    if (!code.includes('createRequire(import.meta.url)')) return null;
    const out = code.replaceAll('createRequire(import.meta.url)', 'require');
    if (/\bconst require = require\b/.test(out)) throw new Error(`${relative(ROOT, id)}: name its require otherwise`);
    return { code: out, map: null };
  },
};
// Node reads, decodes and compiles every byte of a file it loads, and V8's first pass over a
// function it does not run yet still scans all of it: without whitespace and with short local
// names the chunks are a third smaller, and a one-shot `termsight show` spends less CPU time
// loading them (docs/cli.md, "Start-up"). Not `compress`: it rewrites expressions, and the
// pictures must stay what the source computes, byte for byte. Function and class names stay
// (`keepNames`), so profiles (bench/jpeg-stages.mjs), stack traces and `.name` read as in src/.
const MINIFY = { compress: false, mangle: { keepNames: true }, codegen: { removeWhitespace: true } };
const drawingBundle = await rolldown({
  input: { 'render-front': FRONT_DRAWING },
  platform: 'node',
  external: isExternal,
  plugins: [ownRequire],
});
const drawingOutput = (
  await drawingBundle.write({
    dir: DIST,
    format: 'cjs',
    entryFileNames: 'chunks/[name]-[hash].cjs',
    sourcemap: true,
    comments: false,
    minify: MINIFY,
    codeSplitting: false,
  })
).output;
await drawingBundle.close();
const drawingChunk = drawingOutput.find((o) => o.type === 'chunk' && o.isEntry);
const drawingCalls = createRequire(import.meta.url)(join(DIST, drawingChunk.fileName));
for (const name of drawingChunk.exports) {
  if (typeof drawingCalls[name] !== 'function') throw new Error(`render/front.js exports ${name}, not a function`);
}
// What stands in for render/front.js in the ES build: one forwarding function per call, each
// loading the CommonJS file on first use. It goes in the 'termsight' chunk (below), a sibling of
// the CommonJS file in chunks/, where Node finds it. An application bundled with termsight
// (esbuild, webpack, rolldown) has no such file beside it: there the plain `require` with a
// literal path is what its bundler saw, put in the bundle and made a function. (Not `require`
// first: `node -e` and the REPL have a global `require` that resolves from the working folder.)
// The bundler takes that path as relative to render/front.js and rewrites it for the chunk.
const drawingFile = basename(drawingChunk.fileName);
const drawingFacade = `import { createRequire } from 'node:module';
let drawing;
function loadDrawing() {
  try {
    return createRequire(import.meta.url)('./${drawingFile}');
  } catch (error) {
    if (error?.code !== 'MODULE_NOT_FOUND' || typeof require !== 'function') throw error;
    return require('../chunks/${drawingFile}');
  }
}
const load = () => (drawing ??= loadDrawing());
${drawingChunk.exports.map((name) => `export function ${name}(...args) { return load().${name}(...args); }`).join('\n')}`;
const drawingOnFirstCall = {
  name: 'drawing-on-first-call',
  load: (id) => (id === FRONT_DRAWING ? { code: drawingFacade, map: null } : null),
};

// The terminal database's row files, as the ES build loads them: each exported table as one JSON
// string parsed at import. V8 compiles a large object literal into bytecode that builds it, and
// JSON.parse reads the same data faster than that (import('termsight') 0.91x CPU time). The rows
// stay plain TypeScript in src/terminals/; here each is checked to survive JSON unchanged (no
// function, undefined or NaN), else the build stops.
const DATA_MODULES = ['emulators.js', 'multiplexers.js'].map((file) => join(DIST, 'terminals', file));
const dataAsJson = new Map();
for (const file of DATA_MODULES) {
  const exported = await import(pathToFileURL(file).href);
  const lines = Object.entries(exported).map(([name, value]) => {
    const json = JSON.stringify(value);
    if (json === undefined || !isDeepStrictEqual(JSON.parse(json), value)) {
      throw new Error(`${relative(ROOT, file)}: ${name} does not survive JSON unchanged`);
    }
    return `export const ${name} = /* @__PURE__ */ JSON.parse(${JSON.stringify(json)});`;
  });
  dataAsJson.set(file, lines.join('\n'));
}
const rowsAsJson = {
  name: 'rows-as-json',
  load: (id) => (dataAsJson.has(id) ? { code: dataAsJson.get(id), map: null } : null),
};

const input = Object.fromEntries(entryFiles().map((file) => [relative(DIST, file).replace(/\.js$/, ''), file]));
// 'allow-extension': the groups leave some modules to default splitting (see above), which needs it.
const bundle = await rolldown({
  input,
  platform: 'node',
  // The drawing file stays a `require` of its own file (above), not bundled again.
  external: (id) => isExternal(id) || id.endsWith(drawingFile),
  treeshake: true,
  preserveEntrySignatures: 'allow-extension',
  plugins: [drawingOnFirstCall, rowsAsJson],
});
const { output } = await bundle.write({
  dir: DIST,
  format: 'esm',
  entryFileNames: '[name].js',
  // .mjs: an ES module by its name, so Node's loader does not look up and read the package.json
  // above each chunk to learn its "type" (the entries keep .js: package.json's exports name them).
  chunkFileNames: 'chunks/[name]-[hash].mjs',
  sourcemap: true,
  // Leave that `require` as written: rolldown's stand-in for it would hide the path from the
  // application's bundler. Nothing else in the package uses a free `require`.
  polyfillRequire: false,
  // Doc comments are a quarter of a chunk, and Node reads, decodes and scans every byte of a file
  // it loads. They stay in the unbundled modules and the declarations beside the chunks.
  comments: false,
  minify: MINIFY,
  codeSplitting: { groups },
});
await bundle.close();
// Old chunks go after the new ones are written (a chunk's name is a hash of its content), so a
// test running the CLI while another rebuilds never finds an entry without its chunks.
const written = new Set([...output, ...drawingOutput].map((o) => o.fileName));
for (const file of readdirSync(join(DIST, 'chunks'))) {
  if (!written.has(`chunks/${file}`)) rmSync(join(DIST, 'chunks', file), { force: true });
}
const entries = output.filter((o) => o.type === 'chunk' && o.isEntry).length;
const chunks = output.filter((o) => o.type === 'chunk' && !o.isEntry).length;
// The build's last step: tests take dist/ as current while this stamp is newer than the sources
// (test/support/build.ts), instead of rebuilding it under each other.
writeFileSync(join(DIST, '.built'), `${new Date().toISOString()}\n`);
console.log(`bundled ${entries} entry points into ${DIST} (${chunks} shared or lazy chunks in chunks/)`);
