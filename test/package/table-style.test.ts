/**
 * One table style across the tests: `it.each` / `describe.each` over objects with a `name` field,
 * titled with `$name` (docs/contributing.md, Tests). A table of tuples titled with printf placeholders (`%s`,
 * `%j`) hides what each row checks and breaks silently when a column moves; a table titled by a
 * data field (`$text`) shows data, not what the row checks. This reads every test file's syntax
 * tree (TypeScript's parser, not a regular expression) and lists the tables titled either way;
 * `tableTitles` is pure and tested on made-up text first, so the check can fail.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const TEST = fileURLToPath(new URL('../', import.meta.url));

/** vitest's printf placeholders in an `.each` title (`%%` is a literal percent sign). */
const PLACEHOLDER = /%[sdifjoO#$]/;

/**
 * Files whose tables are not yet named rows: the probe's query batch, which other work is editing.
 * Converting one means removing it here; no file may join.
 */
const NOT_YET: ReadonlySet<string> = new Set<string>();

/**
 * Files whose tables are objects titled by a field other than `name`, each for a reason: keyed by
 * a field that is itself the row's name. No file may join.
 */
const TITLED_BY_A_FIELD: ReadonlyMap<string, string> = new Map([
  [
    'probe/fixtures.test.ts',
    'one row per recording, titled by its file, which the first test checks against the folder',
  ],
]);

/** The title of every `x.each(rows)(title, …)` table in `source` (a title not written as text: `<expression>`). */
function tableTitles(source: string): string[] {
  const file = ts.createSourceFile('t.ts', source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isCallExpression(node) &&
      ts.isCallExpression(node.expression) &&
      ts.isPropertyAccessExpression(node.expression.expression) &&
      node.expression.expression.name.text === 'each'
    ) {
      const title = node.arguments[0];
      out.push(title && ts.isStringLiteralLike(title) ? title.text : '<expression>');
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

/** The titles of the tables in `source` that use a printf placeholder. */
const positionalTables = (source: string): string[] => tableTitles(source).filter((t) => PLACEHOLDER.test(t));

/** The titles of the tables in `source` not titled with `$name`. */
const unnamedTables = (source: string): string[] => tableTitles(source).filter((t) => !t.includes('$name'));

/** Every `.ts` file under test/, as a path relative to it. */
function testFiles(dir = TEST): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : testFiles(full);
    return entry.name.endsWith('.ts') ? [path.relative(TEST, full).split(path.sep).join('/')] : [];
  });
}

describe('positionalTables (on made-up text)', () => {
  it.each([
    {
      name: 'tuples titled %s',
      source: "it.each([['a', 1]])('%s', (name, n) => {});",
      titles: ['%s'],
    },
    {
      name: 'a %j among words, in describe.each',
      source: "describe.each([[1]])('value %j is kept', (v) => {});",
      titles: ['value %j is kept'],
    },
    {
      name: 'the row index %#, in test.each with a type argument',
      source: "test.each<[number]>([[1]])('row %#', (v) => {});",
      titles: ['row %#'],
    },
    {
      name: 'a template literal title',
      source: 'it.each([[1]])(`%i cells`, (v) => {});',
      titles: ['%i cells'],
    },
    {
      name: 'named rows titled $name',
      source: "it.each([{ name: 'a', n: 1 }])('$name', ({ n }) => {});",
      titles: [],
    },
    {
      name: 'a literal percent sign',
      source: "it.each([{ name: 'half', n: 1 }])('$name is 50%%', ({ n }) => {});",
      titles: [],
    },
    {
      name: 'a placeholder in a plain it, not a table',
      source: "it('prints %s as is', () => {});",
      titles: [],
    },
    {
      name: 'a placeholder in a comment',
      source: "// it.each([[1]])('%s', () => {})\nit.each([{ name: 'x' }])('$name', () => {});",
      titles: [],
    },
  ])('$name', ({ source, titles }) => {
    expect(positionalTables(source)).toEqual(titles);
  });
});

describe('unnamedTables (on made-up text)', () => {
  it.each([
    {
      name: 'titled by a data field',
      source: "it.each([{ text: 'a' }])('$text', ({ text }) => {});",
      titles: ['$text'],
    },
    {
      name: 'a title with no field at all',
      source: "it.each([{ name: 'a' }])('always the same', () => {});",
      titles: ['always the same'],
    },
    {
      name: 'a title that is not written as text',
      source: "it.each([{ name: 'a' }])(title, () => {});",
      titles: ['<expression>'],
    },
    {
      name: 'tuples titled %s (caught by both checks)',
      source: "it.each([['a']])('%s', (a) => {});",
      titles: ['%s'],
    },
    {
      name: '$name with words and other fields around it',
      source: "describe.each([{ name: 'a', n: 1 }])('reads $name into $n cells', () => {});",
      titles: [],
    },
    {
      name: '$name in test.each with a type argument',
      source: "test.each<{ name: string }>([{ name: 'a' }])('$name', () => {});",
      titles: [],
    },
  ])('$name', ({ source, titles }) => {
    expect(unnamedTables(source)).toEqual(titles);
  });
});

describe('the test files', () => {
  const files = testFiles();

  it('are found (the walk reads this very file)', () => {
    expect(files).toContain('package/table-style.test.ts');
    expect(files.length).toBeGreaterThan(100);
  });

  it('use named rows, except the files listed as not yet converted', () => {
    const found = files
      .filter((file) => !NOT_YET.has(file))
      .flatMap((file) => positionalTables(readFileSync(path.join(TEST, file), 'utf8')).map((t) => `${file}: ${t}`));
    expect(found).toEqual([]);
  });

  it('title every table with $name, except the files listed with their reason', () => {
    const found = files
      .filter((file) => !NOT_YET.has(file) && !TITLED_BY_A_FIELD.has(file))
      .flatMap((file) => unnamedTables(readFileSync(path.join(TEST, file), 'utf8')).map((t) => `${file}: ${t}`));
    expect(found).toEqual([]);
  });

  it('list only files that exist, and only files that still need the exception', () => {
    expect([...NOT_YET, ...TITLED_BY_A_FIELD.keys()].filter((file) => !files.includes(file))).toEqual([]);
    const needless = [...TITLED_BY_A_FIELD.keys()].filter(
      (file) => unnamedTables(readFileSync(path.join(TEST, file), 'utf8')).length === 0,
    );
    expect(needless).toEqual([]);
  });
});
