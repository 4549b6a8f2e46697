// The second observation: a fixed test run on its own must pass there too. Runners that list only
// failures (`pytest -q`) say so by their counts; an unknown runner means no second observation. A
// real jest, whose output lists no passing test when it runs several files: the test is selected by
// its name (its id holds the file, which `-t` never matches), from the view from inside the test
// processes where the guard's records name the tests, else from the baseline's failure. A quiet
// mocha whose tests only the records name.
import { execFileSync } from 'node:child_process';
import { symlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultRepoConfig } from '../../src/core/repo-config.ts';
import { createProcessSandbox } from '../../src/sandbox/process-sandbox.ts';
import { createSuiteRunner } from '../../src/gate/setup-then-gate.ts';
import { makeRepo, removeAll } from '../support/git-fixture.ts';
import type { GateResult } from '../../src/core/gate-result.ts';
import type { TestReport } from '../../src/core/test-report.ts';
import { observeAlone } from '../../src/verify/second-observation.ts';
import { userPath } from '../../src/sandbox/user-path.ts';
import { parseTestOutput } from '../../src/gate/parse-test-output.ts';
import type { SuiteRunner } from '../../src/gate/setup-then-gate.ts';

const counts = (passed: number, failed: number, tests: TestReport['tests'] = []): TestReport => ({
  format: 'pytest',
  parsed: true,
  passed,
  failed,
  skipped: 0,
  total: passed + failed,
  tests,
});
const final = counts(3, 0, [{ id: 'tests/test_stats.py::test_average', name: 'test_average', status: 'passed' }]);
const baseline = counts(2, 1, [{ id: 'tests/test_stats.py::test_average', name: 'test_average', status: 'failed' }]);

function suite(testCommand: string, answer: GateResult): SuiteRunner & { commands: string[] } {
  const commands: string[] = [];
  const runner: SuiteRunner & { commands: string[] } = {
    testCommand,
    setupCommand: null,
    commands,
    setup: async () => null,
    gate: async () => answer,
    gateWith: async (_cwd, command) => (commands.push(command), answer),
    plain: () => Promise.reject(new Error('this test runs no command of its own')),
    checkCommands: [],
    checks: async () => [],
    judged: () => runner,
  };
  return runner;
}

const dirs: string[] = [];
afterAll(() => removeAll(dirs));

describe('the second observation', () => {
  it('selects a jest test fixed in a suite of several files by its name, which only the baseline listed', async () => {
    const spec = (name: string, body: string) => `const m = require('../math.js');\ntest('${name}', () => ${body});\n`;
    const root = await makeRepo({
      'package.json': JSON.stringify({ name: 'obs' }),
      'math.js': 'exports.double = (x) => x * 3;\nexports.half = (x) => x / 2;\n',
      'test/double.test.js': spec('doubles', 'expect(m.double(2)).toBe(4)'),
      'test/half.test.js': spec('halves', 'expect(m.half(4)).toBe(2)'),
    });
    dirs.push(root);
    await symlink(resolve(import.meta.dirname, '../../node_modules'), join(root, 'node_modules'));
    const config = defaultRepoConfig();
    config.test.command = 'jest';
    config.env = { PATH: `${join(root, 'node_modules/.bin')}:${process.env.PATH ?? ''}`, NO_COLOR: '1' };
    const runner = createSuiteRunner({
      sandbox: createProcessSandbox(),
      config,
      signal: new AbortController().signal,
      setupNetwork: false,
    });
    const before = await runner.gate(root);
    expect(before.report.tests.filter((t) => t.status === 'failed').map((t) => [t.id, t.name])).toEqual([
      ['test/double.test.js › doubles', 'doubles'],
    ]);
    await writeFile(join(root, 'math.js'), 'exports.double = (x) => x * 2;\nexports.half = (x) => x / 2;\n');
    const after = await runner.gate(root);
    expect(after.passed).toBe(true);
    // jest's output lists no passing test of a run of several files; the view from inside the test
    // processes, where the guard's records name the tests, has it under the same id.
    expect(parseTestOutput(after.output).tests.find((t) => t.id === 'test/double.test.js › doubles')).toBeUndefined();
    const seen = after.report.tests.find((t) => t.id === 'test/double.test.js › doubles');
    if (after.report.view === 'inside') expect(seen?.status).toBe('passed');
    else expect(seen).toBeUndefined();

    const { observation, findings } = await observeAlone(
      runner,
      root,
      { final: after.report, baseline: before.report },
      ['test/double.test.js › doubles'],
      () => undefined,
    );
    expect(findings).toEqual([]);
    expect(observation).toEqual({ ran: 1, command: 'jest -t doubles' });
  }, 60_000);

  it("runs a node:test subtest with its parent, when the subtest's own name selects no test (node skips the parent)", async () => {
    const root = await makeRepo({
      'package.json': JSON.stringify({ name: 'obs', scripts: { test: 'node --test' } }),
      'math.js': 'exports.double = (x) => x * 3;\n',
      'test/math.test.js': [
        "const { test } = require('node:test');",
        "const assert = require('node:assert');",
        "const m = require('../math.js');",
        "test('math', async (t) => {",
        "  await t.test('doubles', () => assert.strictEqual(m.double(2), 4));",
        "  await t.test('keeps zero', () => assert.strictEqual(m.double(0), 0));",
        '});',
        '',
      ].join('\n'),
    });
    dirs.push(root);
    const config = defaultRepoConfig();
    config.test.command = 'node --test';
    const runner = createSuiteRunner({
      sandbox: createProcessSandbox(),
      config,
      signal: new AbortController().signal,
      setupNetwork: false,
    });
    const before = await runner.gate(root);
    await writeFile(join(root, 'math.js'), 'exports.double = (x) => x * 2;\n');
    const after = await runner.gate(root);
    expect(after.passed).toBe(true);
    const lines: string[] = [];
    const { observation, findings } = await observeAlone(
      runner,
      root,
      { final: after.report, baseline: before.report },
      ['math > doubles'],
      (line) => lines.push(line),
    );
    expect(findings).toEqual([]);
    expect(observation.ran).toBe(1);
    // Node 20's runner skips the parent the pattern does not name, and the subtest with it; a later
    // Node (24 here, when the operator's PATH has it first) runs the subtest by its own name.
    const widened = lines.some((l) => l.includes('with its parents'));
    if (sandboxNodeMajor() <= 20) expect(widened).toBe(true);
    expect(observation.command).toMatch(widened ? /--test-name-pattern='doubles\|math'/ : /--test-name-pattern=doubles$/);
  }, 60_000);

  it('accepts pytest -q passing the one test it was asked for, which it does not list', async () => {
    const s = suite('python3 -m pytest -q', { passed: true, report: counts(1, 0), output: '1 passed', durationMs: 1 });
    const { observation, findings } = await observeAlone(
      s,
      '/nowhere',
      { final, baseline },
      ['tests/test_stats.py::test_average'],
      () => undefined,
    );
    expect(findings).toEqual([]);
    expect(observation).toEqual({ ran: 1, command: 'python3 -m pytest -q tests/test_stats.py::test_average' });
  });

  it('refuses a fixed test that fails, or runs nothing, on its own', async () => {
    const failing = suite('python3 -m pytest -q', {
      passed: false,
      reason: 'NON_ZERO_EXIT',
      exitCode: 1,
      report: counts(0, 1),
      output: '1 failed',
      durationMs: 1,
    });
    expect(
      (await observeAlone(failing, '/nowhere', { final, baseline }, ['tests/test_stats.py::test_average'], () => undefined))
        .findings[0]?.kind,
    ).toBe('second_observation_failed');
    const empty = suite('python3 -m pytest -q', { passed: true, report: counts(0, 0), output: '', durationMs: 1 });
    expect(
      (await observeAlone(empty, '/nowhere', { final, baseline }, ['tests/test_stats.py::test_average'], () => undefined))
        .findings,
    ).toHaveLength(1);
  });

  it('runs a fixed test alone by the id the view from inside gave it, which the quiet output never printed', async () => {
    // `mocha --reporter dot`: the output names no test; the guard's records name both runs' tests.
    const id = 'add > adds two numbers';
    const named = (status: 'passed' | 'failed', passed: number, failed: number): TestReport => ({
      ...counts(passed, failed, [{ id, name: 'adds two numbers', file: 'test/add.test.js', status }]),
      format: 'unknown',
      view: 'inside',
    });
    const alone = (status: 'passed' | 'failed'): GateResult =>
      ({
        passed: status === 'passed',
        ...(status === 'failed' ? { reason: 'NON_ZERO_EXIT' as const, exitCode: 1 } : {}),
        report: named(status, status === 'passed' ? 1 : 0, status === 'failed' ? 1 : 0),
        output: status === 'passed' ? '.\n\n  1 passing' : '!\n\n  1 failing',
        durationMs: 1,
      }) as GateResult;
    const reports = { final: named('passed', 3, 0), baseline: named('failed', 2, 1) };
    const s = suite('npx mocha --reporter dot', alone('passed'));
    expect(await observeAlone(s, '/nowhere', reports, [id], () => undefined)).toEqual({
      observation: { ran: 1, command: "npx mocha --reporter dot --grep 'adds two numbers'" },
      findings: [],
    });
    // Passing as a whole, its own view of the test failed: not passed alone.
    const refused = await observeAlone(
      suite('npx mocha --reporter dot', { ...alone('failed'), passed: true } as GateResult),
      '/nowhere',
      reports,
      [id],
      () => undefined,
    );
    expect(refused.findings.map((f) => f.kind)).toEqual(['second_observation_failed']);
  });

  it('says no second observation was possible for a command that cannot select one test', async () => {
    const s = suite('make test', { passed: true, report: counts(1, 0), output: '', durationMs: 1 });
    expect(
      await observeAlone(s, '/nowhere', { final, baseline }, ['tests/test_stats.py::test_average'], () => undefined),
    ).toEqual({ observation: { ran: 0, command: null }, findings: [] });
    expect(s.commands).toEqual([]);
  });
});

/** The major version of the `node` the process sandbox starts: the first on the user's PATH. */
function sandboxNodeMajor(): number {
  const version = execFileSync('node', ['--version'], {
    env: { ...process.env, PATH: userPath(process.env.PATH) },
    encoding: 'utf8',
  });
  return Number(/^v(\d+)/.exec(version)?.[1] ?? 0);
}
