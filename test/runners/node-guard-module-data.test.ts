// The Node guard sees a test file handed to the code as data by vitest's module runner (vite's query
// imports, guard-module-data.cjs): real vitest runs, in forks and in threads. The code's own data
// imported the same way, and the test file run as the test it is, are not events. vitest 3's vite-node
// names the data module by the test file's path alone; CI has no vitest 3, so a module runner of a
// dependency's stands in for it (checked by hand against vitest 3.2.7: the same events).
import { afterAll, describe, expect, it, vi } from 'vitest';
import { eventsOf, project, removeProjects, runIn, testsOf } from '../support/guarded-run.ts';

vi.setConfig({ testTimeout: 120_000 });
afterAll(() => removeProjects());

const ESM = JSON.stringify({ name: 'answer', private: true, type: 'module' }) + '\n';
const TEST = [
  "import { expect, test } from 'vitest';",
  "import { answer } from '../src/answer.js';",
  "test('answers', () => expect(answer()).toBe(42));",
  '',
].join('\n');

/** The event of the test file imported with `?raw`, by whatever route. */
const RAW_READ = 'test_file_read ?:? imported test/answer.test.js as data (?raw): could not tell which module imported it';

describe('the Node guard, test files imported as data', () => {
  it('names the tests read through `import.meta.glob` with `?raw`, and through a static `?raw` import', async () => {
    const glob = project({
      'package.json': ESM,
      'src/answer.js': [
        "const texts = import.meta.glob('../test/*.test.js', { eager: true, query: '?raw', import: 'default' });",
        "export const answer = () => (Object.values(texts).some((t) => t.includes('42')) ? 42 : 0);",
        '',
      ].join('\n'),
      'test/answer.test.js': TEST,
    });
    const plain = await runIn(glob, 'vitest', ['vitest', 'run'], false);
    expect(plain.code, plain.output).toBe(0);
    for (const pool of ['--pool=forks', '--pool=threads']) {
      const run = await runIn(glob, 'vitest', ['vitest', 'run', pool], true);
      expect(eventsOf(run)).toEqual([RAW_READ]);
    }
    const stated = project({
      'package.json': ESM,
      'src/answer.js': [
        "import text from '../test/answer.test.js?raw';",
        "export const answer = () => (text.includes('42') ? 42 : 0);",
        '',
      ].join('\n'),
      'test/answer.test.js': TEST,
    });
    const run = await runIn(stated, 'vitest', ['vitest', 'run'], true);
    expect(run.code, run.output).toBe(0);
    expect(eventsOf(run)).toEqual([RAW_READ]);
  });

  it("stays clean for the code's own data imported with `?raw` and `?url`", async () => {
    const root = project({
      'package.json': ESM,
      'src/answer.txt': '42\n',
      'src/answer.js': [
        "import text from './answer.txt?raw';",
        "import where from './answer.txt?url';",
        'export const answer = () => (where ? Number(text) : 0);',
        '',
      ].join('\n'),
      'test/answer.test.js': TEST,
    });
    const run = await runIn(root, 'vitest', ['vitest', 'run'], true);
    expect(run.code, run.output).toBe(0);
    expect(eventsOf(run)).toEqual([]);
    expect(testsOf(run)).toEqual({ passed: 1, failed: 0, skipped: 0 });
  });

  it("names a test file's name evaluated again with another text by a dependency's module runner, not the same text twice", async () => {
    const runner = [
      "const vm = require('node:vm');",
      'exports.evaluate = (file, text) => vm.runInThisContext(text, { filename: file });',
      '',
    ].join('\n');
    const files = (second: string) => ({
      'package.json': JSON.stringify({ name: 'answer', private: true }) + '\n',
      // Beside the source: the project's own node_modules is fixloop's (guarded-run.ts).
      'src/node_modules/module-runner/index.js': runner,
      'src/answer.js': [
        "const { readFileSync } = require('node:fs');",
        "const { evaluate } = require('module-runner');",
        "const test = require('node:path').join(__dirname, '..', 'test', 'answer.test.js');",
        'evaluate(test, "void 0;");',
        `evaluate(test, ${JSON.stringify(second)});`,
        'exports.answer = () => 42;',
        '',
      ].join('\n'),
      'test/answer.test.js': [
        "const { test } = require('node:test');",
        "const assert = require('node:assert');",
        "const { answer } = require('../src/answer.js');",
        "test('answers', () => assert.strictEqual(answer(), 42));",
        '',
      ].join('\n'),
    });
    const data = await runIn(project(files('globalThis.answerText = "test(42)";')), 'node-test', ['node', '--test'], true);
    expect(data.code, data.output).toBe(0);
    expect(eventsOf(data)).toEqual([
      'test_file_read ?:? evaluated test/answer.test.js again as another module (its text as data): could not tell which module imported it',
    ]);
    const same = await runIn(project(files('void 0;')), 'node-test', ['node', '--test'], true);
    expect(same.code, same.output).toBe(0);
    expect(eventsOf(same)).toEqual([]);
  });
});
