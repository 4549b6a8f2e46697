// The command that validates candidates on the failing tests alone, chosen by running it on the
// unchanged code with a real jest: the failing test's file and name when what that reports failing is
// among the failing tests (narrowed to those), the name alone when a file path does not resolve, nothing when neither selects it.
// Each started without npm, as the checkout's bin folder allows (focused-direct.test.ts has why it may not be).
import { symlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chooseFocusedCommand } from '../../../src/engines/repair/focused-command.ts';
import { parseTestOutput } from '../../../src/gate/parse-test-output.ts';
import { createProcessSandbox } from '../../../src/sandbox/process-sandbox.ts';
import type { TestCaseResult } from '../../../src/core/test-report.ts';
import { makeRepo, removeAll } from '../../support/git-fixture.ts';
import { failingRunOutput } from '../../support/suite-output.ts';

const dirs: string[] = [];
afterAll(() => removeAll(dirs));

const MATH = 'exports.double = (x) => x * 3;\nexports.half = (x) => x / 2;\n';
const test = (name: string, body: string) => `const m = require('../math.js');\ntest('${name}', () => ${body});\n`;

describe('chooseFocusedCommand', () => {
  it('selects the failing test by file and name, falls back to its name when its file does not resolve, and to nothing when nothing selects it', async () => {
    const root = await makeRepo({
      'package.json': JSON.stringify({ name: 'focus', scripts: { test: 'jest' } }),
      'math.js': MATH,
      'test/double.test.js': test('doubles', 'expect(m.double(2)).toBe(4)'),
      'test/half.test.js': test('halves', 'expect(m.half(4)).toBe(2)'),
    });
    dirs.push(root);
    await symlink(resolve(import.meta.dirname, '../../../node_modules'), join(root, 'node_modules'));
    const env = { PATH: `${join(root, 'node_modules/.bin')}:${process.env.PATH ?? ''}`, NO_COLOR: '1' };
    const output = failingRunOutput('npm', ['test'], root, env);
    const failing = parseTestOutput(output).tests.filter((t) => t.status === 'failed');
    expect(failing.map((t) => [t.id, t.file])).toEqual([['test/double.test.js › doubles', 'test/double.test.js']]);

    const logged: string[] = [];
    const choose = (tests: TestCaseResult[]) =>
      chooseFocusedCommand({
        testCommand: 'npm test',
        failing: tests,
        packageScripts: { test: 'jest' },
        timeoutMs: 60_000,
        sandbox: createProcessSandbox(),
        root,
        linkedFolders: [],
        env,
        signal: new AbortController().signal,
        log: (line) => logged.push(line),
      });

    const direct = 'PATH="$PWD/node_modules/.bin:$PATH" jest';
    expect(await choose(failing)).toEqual({ command: `${direct} 'test\\/double\\.test\\.js' -t doubles`, failing: 1 });
    // A test that failed in the whole suite but passes alone (a timeout on a loaded machine) does not
    // make the selection wrong, and is left out of it: a candidate need not fix it, and its file may
    // be the slowest of the suite.
    const flaky = { id: 'test/half.test.js › halves', name: 'halves', file: 'test/half.test.js', status: 'failed' as const };
    expect(await choose([...failing, flaky])).toEqual({
      command: `${direct} 'test\\/double\\.test\\.js' -t doubles`,
      failing: 1,
      passedAlone: { command: `${direct} 'test\\/half\\.test\\.js' -t halves`, ids: ['test/half.test.js › halves'] },
    });
    expect(logged.at(-1)).toContain('1 of the 2 failing tests passed alone on the unchanged code; focusing on the 1 that fail');
    // A path printed relative to another folder selects no file: the name alone still finds the test.
    const elsewhere = failing.map((t) => ({ ...t, file: 'elsewhere/double.test.js' }));
    expect(await choose(elsewhere)).toEqual({ command: `${direct} -t doubles`, failing: 1 });
    expect(logged.at(-2)).toContain(`not focusing with \`${direct} 'elsewhere\\/double\\.test\\.js' -t doubles\``);
    expect(logged.at(-1)).toContain("not focusing with `npm test -- 'elsewhere\\/double\\.test\\.js' -t doubles`");
    // A name that selects no test: no focused command at all, the candidates meet the full suite.
    expect(await choose(failing.map((t) => ({ ...t, file: 'elsewhere/x.test.js', name: 'renamed since' })))).toBeNull();
  });
});
