// Imports followed from test files to source files as the runtimes resolve them.
import { afterAll, describe, expect, it } from 'vitest';
import { importedInOrder, importedSourceFiles } from '../../src/core/imported-files.ts';
import { createTestFileMatcher } from '../../src/workspace/path-policy.ts';
import { DEFAULT_PROTECTED_PATHS } from '../../src/core/repo-config.ts';
import { makeRepo, removeAll } from '../support/git-fixture.ts';

const isTestFile = createTestFileMatcher(DEFAULT_PROTECTED_PATHS);
const dirs: string[] = [];
afterAll(() => removeAll(dirs));

async function imported(files: Record<string, string>, tests: string[]): Promise<string[]> {
  const root = await makeRepo(files, { git: false });
  dirs.push(root);
  return importedSourceFiles(root, tests, Object.keys(files), isTestFile);
}

describe('imports followed from the failing tests', () => {
  it("follows require('..') through package.json's main to the module it re-exports", async () => {
    const files = {
      'package.json': JSON.stringify({ name: 'bytes-ish', main: 'lib/index.js' }),
      'lib/index.js': "module.exports = require('./parse');\n",
      'lib/parse.js': 'module.exports = (s) => Number(s);\n',
      'test/parse.js': "const parse = require('..');\n",
    };
    expect(await imported(files, ['test/parse.js'])).toEqual(['lib/index.js', 'lib/parse.js']);
    // From a nested test folder, `require('../../')` names the root as well.
    expect(
      await imported({ ...files, 'test/issues/0570.js': "const parse = require('../../');\n" }, ['test/issues/0570.js']),
    ).toEqual(['lib/index.js', 'lib/parse.js']);
  });

  it('follows the package imported by its own name to the source twin of its build output', async () => {
    const files = {
      'package.json': JSON.stringify({
        name: 'defu-ish',
        exports: { '.': { import: './dist/index.mjs', types: './dist/index.d.mts' } },
      }),
      'src/index.ts': "export { merge } from './merge';\n",
      'src/merge.ts': 'export const merge = (a: object, b: object) => ({ ...b, ...a });\n',
      'test/merge.test.ts': "import { merge } from 'defu-ish';\n",
    };
    expect(await imported(files, ['test/merge.test.ts'])).toEqual(['src/index.ts', 'src/merge.ts']);
  });

  it('follows tsconfig path aliases, index files and TypeScript sources imported as .js', async () => {
    const files = {
      'tsconfig.json':
        '{\n  // comments are allowed here\n  "compilerOptions": { "baseUrl": ".", "paths": { "~/*": ["src/*"] }, },\n}\n',
      'src/utils/index.ts': "export * from './slug.js';\n",
      'src/utils/slug.ts': 'export const slug = (s: string) => s;\n',
      'test/slug.spec.ts': "import { slug } from '~/utils';\n",
    };
    expect(await imported(files, ['test/slug.spec.ts'])).toEqual(['src/utils/index.ts', 'src/utils/slug.ts']);
  });

  it('finds a Python package kept in lib/, and stops at the levels asked for, in the order found', async () => {
    const files = {
      'lib/shapes/__init__.py': 'from shapes.area import area\n',
      'lib/shapes/area.py': 'from shapes import units\n\ndef area(w, h):\n    return w * h\n',
      'lib/shapes/units.py': 'CM = 1\n',
      'tests/test_area.py': 'import shapes\n',
    };
    const root = await makeRepo(files, { git: false });
    dirs.push(root);
    expect(await importedInOrder(root, ['tests/test_area.py'], Object.keys(files), isTestFile, 1)).toEqual([
      'lib/shapes/__init__.py',
    ]);
    expect(await importedInOrder(root, ['tests/test_area.py'], Object.keys(files), isTestFile, 3)).toEqual([
      'lib/shapes/__init__.py',
      'lib/shapes/area.py',
      'lib/shapes/units.py',
    ]);
  });

  it('follows Python packages: from pkg import module, relative imports and __init__ re-exports', async () => {
    const files = {
      'textkit/__init__.py': 'from .wrap import fill\nfrom . import counting\n',
      'textkit/wrap.py': 'from ..textkit import helpers\ndef fill(s):\n    return s\n',
      'textkit/helpers.py': 'X = 1\n',
      'textkit/counting.py': 'def count(s):\n    return len(s)\n',
      'tests/test_fill.py': 'from textkit import fill\n',
      'tests/test_words.py': 'from textkit import (\n    counting,\n)\n',
    };
    expect(await imported(files, ['tests/test_fill.py'])).toEqual([
      'textkit/__init__.py',
      'textkit/counting.py',
      'textkit/helpers.py',
      'textkit/wrap.py',
    ]);
    expect(await imported(files, ['tests/test_words.py'])).toContain('textkit/counting.py');
  });
});
