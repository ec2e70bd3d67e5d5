#!/usr/bin/env node
/**
 * The `termsight` executable. It first turns on Node's compile cache (where Node has one), and
 * only then loads the CLI: the cache covers the modules compiled after it is on, so everything
 * the CLI needs is loaded by the dynamic import below, not by static imports of this file.
 */
import module from 'node:module';
import { type CompileCacheHost, startCompileCache } from './compile-cache.js';

startCompileCache(module as unknown as CompileCacheHost);
await import('./start.js');
