// One way for a test's child process to hook module resolution (a package made missing, an Ink
// major aliased, every resolved URL logged), on every Node the package supports. Node 22.15+ has
// module.registerHooks (synchronous, in this thread); Node 20 has only module.register (hooks on
// their own thread), which Node 26 deprecates (DEP0205) with a warning on stderr, where the tests
// read one-line messages and Ink draws its screen.
import module from 'node:module';

/**
 * Installs a resolve hook made of the sources of two functions, each optional and self-contained
 * (they may run on another thread): `before(specifier, context)` returns the specifier to resolve
 * (or throws), `after(resolved, specifier, context)` returns the resolution to use. `imports` is
 * module text placed above them (e.g. `import { appendFileSync } from 'node:fs';`).
 * @param {{ imports?: string, before?: string, after?: string }} hook
 */
export async function hookResolve({ imports = '', before = 'null', after = 'null' }) {
  const source = `${imports}
export const before = ${before};
export const after = ${after};
export async function resolve(specifier, context, next) {
  const asked = before ? before(specifier, context) : specifier;
  const resolved = await next(asked, context);
  return after ? after(resolved, asked, context) : resolved;
}`;
  const url = `data:text/javascript,${encodeURIComponent(source)}`;
  if (typeof module.registerHooks !== 'function') {
    module.register(url);
    return;
  }
  const hooks = await import(url);
  module.registerHooks({
    resolve(specifier, context, next) {
      const asked = hooks.before ? hooks.before(specifier, context) : specifier;
      const resolved = next(asked, context);
      return hooks.after ? hooks.after(resolved, asked, context) : resolved;
    },
  });
}

/**
 * Appends `PKG <name>` to `logFile` for each package under node_modules a resolution lands in: what
 * an import costs a user, in packages. A file, not stderr: on Node 20 the hook's thread may
 * outlive nothing (a process exiting right after an import) and a full stderr pipe fails a
 * synchronous write with EAGAIN (Node 22, the clean-clone CI of 2 December 2026).
 * @param {string} logFile
 */
export function logResolvedPackages(logFile) {
  return hookResolve({
    imports: "import { appendFileSync } from 'node:fs';",
    after: `(resolved) => {
  const m = /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(resolved.url);
  if (m) appendFileSync(${JSON.stringify(logFile)}, 'PKG ' + m[1] + '\\n');
  return resolved;
}`,
  });
}

/**
 * Makes the named packages fail to resolve as a package that is not installed fails
 * (ERR_MODULE_NOT_FOUND): an optional peer made missing.
 * @param {readonly string[]} names
 */
export function missingPackages(names) {
  return hookResolve({
    before: `(specifier) => {
  const missing = ${JSON.stringify(names)};
  if (missing.some((name) => specifier === name || specifier.startsWith(name + '/'))) {
    const error = new Error("Cannot find package '" + specifier + "'");
    error.code = 'ERR_MODULE_NOT_FOUND';
    throw error;
  }
  return specifier;
}`,
  });
}
