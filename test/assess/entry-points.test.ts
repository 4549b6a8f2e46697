// Where the failing tests enter the program, for the assessment of a patch that changes no function
// the suite reaches (a table or a constant): the functions their files call, in the repository's
// own modules they import, resolved as Node and Python resolve them.
import { afterAll, describe, expect, it } from 'vitest';
import type { TestCaseResult } from '../../src/core/test-report.ts';
import { entryPoints, withEntryPoints } from '../../src/assess/entry-points.ts';
import { makeRepo, removeAll } from '../support/git-fixture.ts';

const dirs: string[] = [];
afterAll(() => removeAll(dirs));

const isTestFile = (path: string) => /(^|\/)(test|tests)\/|(^|\/)test_[^/]*\.py$|\.test\.js$/.test(path);
const failing = (test: Partial<TestCaseResult> & { id: string }): TestCaseResult => ({
  name: test.id.split(/ > |::/).at(-1) ?? test.id,
  status: 'passed',
  ...test,
});

async function entriesOf(
  files: Record<string, string>,
  fixed: TestCaseResult[],
  touched: string[] = [],
): Promise<Record<string, number[]>> {
  const dir = await makeRepo(files, { git: false });
  dirs.push(dir);
  const found = await entryPoints({ dir, fixed, isTestFile, touched: new Set(touched) });
  return Object.fromEntries([...found].map(([path, lines]) => [path, [...lines]]));
}

describe('the entry points of the failing tests', () => {
  it('JavaScript: the functions the test file calls, in the module it requires and the one that module re-exports (mocha names no file)', async () => {
    const entries = await entriesOf(
      {
        'package.json': '{ "name": "glob", "main": "index.js" }\n',
        'index.js': "module.exports = require('./lib/match');\n",
        'lib/match.js': [
          "const { TABLE } = require('./table');",
          '',
          'function match(text) {',
          '  return TABLE[text] ?? null;',
          '}',
          '',
          'function unused() {',
          '  return 1;',
          '}',
          '',
          'module.exports = { match, unused };',
          '',
        ].join('\n'),
        'lib/table.js': 'exports.TABLE = { a: 1 };\n',
        'test/match.test.js': [
          "const assert = require('assert');",
          "const glob = require('..');",
          '',
          "it('matches a', () => {",
          "  assert.equal(glob.match('a'), 1);",
          '});',
          '',
        ].join('\n'),
        'test/other.test.js': "it('does something else', () => {});\n",
      },
      [failing({ id: 'matches a' })],
      ['lib/table.js'],
    );
    expect(entries).toEqual({ 'lib/match.js': [3] });
  });

  it("JavaScript: follows a package entry that re-exports a module that takes the function from another (js-yaml's layout)", async () => {
    const entries = await entriesOf(
      {
        'package.json': '{ "name": "yamlish", "main": "index.js" }\n',
        'index.js': "module.exports = require('./lib/yamlish.js');\n",
        'lib/yamlish.js': "const dumper = require('./yamlish/dumper');\nmodule.exports.dump = dumper.dump;\n",
        'lib/yamlish/dumper.js':
          "const { STYLES } = require('./styles');\n\nfunction dump(value) {\n  return STYLES.plain(value);\n}\n\nmodule.exports = { dump };\n",
        'lib/yamlish/styles.js': 'exports.STYLES = { plain: String };\n',
        'test/dump.test.js': "const yaml = require('..');\n\nit('dumps null', () => {\n  yaml.dump(null);\n});\n",
      },
      [failing({ id: 'dumps null' })],
      ['lib/yamlish/styles.js'],
    );
    expect(entries).toEqual({ 'lib/yamlish/dumper.js': [3] });
  });

  it('JavaScript: a test that imports the package by its own name reaches the module its package.json exports', async () => {
    const entries = await entriesOf(
      {
        'package.json': '{ "name": "slugs", "type": "module", "exports": { ".": "./dist/index.js" } }\n',
        'src/index.ts': "export { slug } from './slug.ts';\n",
        'src/slug.ts': [
          "import { SEPARATOR } from './separator.ts';",
          '',
          'export function slug(text: string): string {',
          "  return text.toLowerCase().split(' ').join(SEPARATOR);",
          '}',
          '',
        ].join('\n'),
        'src/separator.ts': "export const SEPARATOR = '-';\n",
        'test/slug.test.js': [
          "import { slug } from 'slugs';",
          "import assert from 'node:assert';",
          '',
          "it('joins words with a dash', () => {",
          "  assert.equal(slug('A b'), 'a-b');",
          '});',
          '',
        ].join('\n'),
      },
      [failing({ id: 'joins words with a dash', file: 'test/slug.test.js' })],
      ['src/separator.ts'],
    );
    expect(entries).toEqual({ 'src/slug.ts': [3] });
  });

  it('Python: the functions and methods the failing test functions call, in the modules their file imports', async () => {
    const entries = await entriesOf(
      {
        'shop/__init__.py':
          'from shop.rates import RATES\n\n\ndef price(item):\n    return RATES[item]\n\n\ndef stock(item):\n    return 0\n',
        'shop/rates.py': 'RATES = {"a": 1}\n',
        'shop/cart.py': 'class Cart:\n    def total(self):\n        return 0\n\n    def clear(self):\n        pass\n',
        'tests/test_shop.py': [
          'import shop',
          'from shop.cart import Cart',
          '',
          '',
          'def test_price():',
          '    assert shop.price("a") == 1',
          '',
          '',
          'class TestCart:',
          '    def test_total(self):',
          '        assert Cart().total() == 0',
          '',
          '',
          'def test_stock():',
          '    assert shop.stock("a") == 0',
          '',
        ].join('\n'),
      },
      [
        failing({ id: 'tests/test_shop.py::test_price', file: 'tests/test_shop.py' }),
        failing({ id: 'tests/test_shop.py::TestCart::test_total', file: 'tests/test_shop.py' }),
      ],
      ['shop/rates.py'],
    );
    // `stock` is called by a test that did not fail; `clear` by none.
    expect(entries).toEqual({ 'shop/__init__.py': [4], 'shop/cart.py': [2] });
  });

  it('finds nothing where the failing tests call nothing of the repository', async () => {
    expect(
      await entriesOf({ 'tests/test_x.py': 'def test_x():\n    assert len([1]) == 1\n', 'x.py': 'def f():\n    return 1\n' }, [
        failing({ id: 'tests/test_x.py::test_x', file: 'tests/test_x.py' }),
      ]),
    ).toEqual({});
  });
});

describe('the entry points in a file a version changes', () => {
  it('are taken only when asked, and read from the original texts given, not from the checkout', async () => {
    const original = "'use strict';\nfunction count(text) {\n  return text.length;\n}\nmodule.exports = { count };\n";
    const files = {
      // The checkout holds another version (two lines more at the top), as after a probed run.
      'src/count.js': `// a\n// b\n${original}`,
      'test/count.test.js': "const { count } = require('../src/count.js');\n\nit('counts', () => {\n  count('ab');\n});\n",
    };
    const dir = await makeRepo(files, { git: false });
    dirs.push(dir);
    const fixed = [failing({ id: 'counts', file: 'test/count.test.js' })];
    const touched = new Set(['src/count.js']);
    expect((await entryPoints({ dir, fixed, isTestFile, touched })).size).toBe(0);
    const found = await entryPoints({
      dir,
      fixed,
      isTestFile,
      touched,
      inTouched: true,
      originals: new Map([['src/count.js', original]]),
    });
    expect(Object.fromEntries([...found].map(([path, lines]) => [path, [...lines]]))).toEqual({ 'src/count.js': [2] });
  });
});

describe('the entry functions added to the plans', () => {
  it("in a file a version changes, takes the entry's lines from the original plan's text, not from the checkout, which holds the version that ran last", async () => {
    const original = "'use strict';\nfunction count(text) {\n  return kindOf(text);\n}\n";
    const patched = `// two lines\n// added\n${original}`;
    // The checkout holds the patched version, as after the patched run.
    const dir = await makeRepo({ 'src/count.js': patched }, { git: false });
    dirs.push(dir);
    const plans = {
      original: { name: 'original', files: new Map([['src/count.js', { text: original, lines: new Set<number>() }]]) },
      versions: [{ name: 'patch', files: new Map([['src/count.js', { text: patched, lines: new Set([1]) }]]) }],
    };
    const added = await withEntryPoints(plans, new Map([['src/count.js', new Set([2])]]), dir);
    expect([...(added.original.files.get('src/count.js')?.lines ?? [])]).toEqual([2]);
    expect([...(added.versions[0]?.files.get('src/count.js')?.lines ?? [])]).toEqual([1, 4]);
    expect(added.versions[0]?.files.get('src/count.js')?.text).toBe(patched);
  });
});
