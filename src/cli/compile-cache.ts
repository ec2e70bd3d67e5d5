/**
 * Node's on-disk compile cache for the CLI (Node 22.8+ has `module.enableCompileCache`; 20 has
 * not). A one-shot `termsight show` spends much of its life compiling its own code; with the
 * cache a second run reads the compiled code back instead (docs/cli.md, "Start-up").
 */

/** What `node:module` offers here: the function only where the running Node has it. */
export interface CompileCacheHost {
  enableCompileCache?: (directory?: string) => { status: number } | undefined;
  constants?: { compileCacheStatus?: { FAILED: number } };
}

/** How turning the cache on went: `on`, `absent` (this Node has no cache) or `failed` (with why). */
export type CompileCacheOutcome = 'on' | 'absent' | 'failed';

/**
 * Turns the cache on in Node's own place: `NODE_COMPILE_CACHE` if the user set it, else
 * `node-compile-cache` in the OS temporary folder (Node's default); `NODE_DISABLE_COMPILE_CACHE`
 * is honoured by Node itself. Never throws: an unwritable folder only means no cache.
 */
export function startCompileCache(host: CompileCacheHost): CompileCacheOutcome {
  if (typeof host.enableCompileCache !== 'function') return 'absent';
  try {
    const result = host.enableCompileCache();
    // ENABLED, ALREADY_ENABLED and DISABLED (by NODE_DISABLE_COMPILE_CACHE) are all fine here.
    return result?.status === host.constants?.compileCacheStatus?.FAILED ? 'failed' : 'on';
  } catch {
    return 'failed';
  }
}
