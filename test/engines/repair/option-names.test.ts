import { afterAll, describe, expect, it } from 'vitest';
import { optionNamesInTests } from '../../../src/engines/repair/option-names.ts';
import { makeRepo, removeAll } from '../../support/git-fixture.ts';

const dirs: string[] = [];
afterAll(() => removeAll(dirs));

describe('optionNamesInTests', () => {
  it("keeps the words of the failing tests' names that their test files pass as object keys", async () => {
    const root = await makeRepo({
      'test/scan.js':
        "it('should respect nonegate opts', () => {\n  assert.deepEqual(scan('!a', { nonegate: true, 'dot': false }), {});\n});\n",
      'test/other.js': "it('parses', () => parse('a', { windows: true }));\n",
    });
    dirs.push(root);
    // mocha's report names no file: every test file is read.
    const failing = [
      { id: 'picomatch .scan should respect nonegate opts', name: 'should respect nonegate opts', status: 'failed' as const },
    ];
    expect(await optionNamesInTests(root, failing, ['test/other.js', 'test/scan.js'])).toEqual(['nonegate']);
    // A word that is an option elsewhere, but not in the failing test's own file, is not this test's.
    const named = [
      {
        id: 'test/scan.js › windows dot nonegate',
        name: 'windows dot nonegate',
        file: 'test/scan.js',
        status: 'failed' as const,
      },
    ];
    expect(await optionNamesInTests(root, named, ['test/other.js', 'test/scan.js'])).toEqual(['dot', 'nonegate']);
  });
});
