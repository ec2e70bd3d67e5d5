/**
 * The terminal database sits between core and env: its files import only src/core, each other and
 * Node's built-ins. (The project-wide layer test on main lists the layers; this one holds the rule
 * for src/terminals until that list names it.)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const DIR = new URL('../../src/terminals/', import.meta.url);

/** The relative and package specifiers a file imports or re-exports. */
function specifiers(text: string): string[] {
  return [...text.matchAll(/(?:^|[\s;])(?:import|export)\b[^'"]*?\bfrom\s*['"]([^'"]+)['"]/gm)].map(
    (m) => m[1] as string,
  );
}

/** What is wrong with one specifier of a file in src/terminals, or null. */
function violation(spec: string): string | null {
  if (spec.startsWith('node:')) return null;
  if (spec.startsWith('./') && !spec.slice(2).includes('/')) return null;
  if (/^\.\.\/core\/[^/]+$/.test(spec)) return null;
  return `${spec} (terminals may import only core)`;
}

describe('src/terminals imports only core', () => {
  it.each([
    { name: 'a sibling', spec: './types.js', bad: false },
    { name: 'core', spec: '../core/condition.js', bad: false },
    { name: 'a Node built-in', spec: 'node:util', bad: false },
    { name: 'env', spec: '../env/runtime.js', bad: true },
    { name: 'probe', spec: '../probe/classify.js', bad: true },
    { name: 'a package', spec: 'fast-png', bad: true },
  ])('the rule itself: $name', ({ spec, bad }) => {
    expect(violation(spec) !== null).toBe(bad);
  });

  const files = readdirSync(DIR).filter((f) => f.endsWith('.ts'));
  it.each(files.map((file) => ({ name: file, file })))('$name', ({ file }) => {
    const text = readFileSync(new URL(file, DIR), 'utf8');
    expect(specifiers(text).map(violation).filter(Boolean)).toEqual([]);
  });
});
