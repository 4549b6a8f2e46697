// Failing checks that are not test suites, through `fixloop run --check`: real tools (fixloop's own
// ESLint and Prettier, linked into each repository as its node_modules; Debian's black and isort on
// the PATH), real git repositories, the tests beside the check guarding against regressions.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/core/run-result.ts';
import { makeRepo, removeAll } from '../support/git-fixture.ts';
import { runCli } from '../support/run-cli.ts';
import { fullSuite } from '../support/suite-tier.ts';

const dirs: string[] = [];
afterAll(() => removeAll(dirs));

/** fixloop's node_modules, which each repository links as its own: its ESLint and Prettier are the repository's. */
const MODULES = resolve(import.meta.dirname, '../../node_modules');
const LINKED = ['--setup', `ln -sfn ${MODULES} node_modules`];

async function check(
  files: Record<string, string>,
  args: string[],
): Promise<{ code: number | null; result: RunResult; stderr: string }> {
  const project = await makeRepo({ '.gitignore': 'node_modules\n', ...files });
  const cwd = await makeRepo({});
  dirs.push(project, cwd);
  // The sandbox shows the linked node_modules read-only, as an operator's FIXLOOP_SANDBOX_BIND would.
  const run = await runCli(['run', project, '--json', '--out', `${cwd}/out`, ...args], {
    cwd,
    env: { FIXLOOP_SANDBOX_BIND: MODULES },
  });
  return { code: run.code, result: JSON.parse(run.stdout) as RunResult, stderr: run.stderr };
}

const ADD_TEST = [
  "import { test } from 'node:test';",
  "import assert from 'node:assert/strict';",
  "import { add } from '../src/add.js';",
  "test('adds', () => assert.equal(add(1, 2), 3));",
  '',
].join('\n');
const NODE_PROJECT = { 'package.json': '{ "name": "shop", "type": "module", "private": true }\n', 'test/add.test.js': ADD_TEST };
const UNUSED = 'const unused = 1;\n\nexport function add(a, b) {\n  return a + b;\n}\n';
const NO_UNUSED_VARS =
  "export default [{ files: ['**/*.js'], languageOptions: { sourceType: 'module' }, rules: { 'no-unused-vars': 'error' } }];\n";

describe('fixloop run --check', { timeout: 240_000 }, () => {
  it('fixes a Prettier failure with the fixers engine at $0, the tests guarding', async () => {
    const { code, result, stderr } = await check(
      { ...NODE_PROJECT, 'src/add.js': 'export function add(a,b){\n  return a+b}\n' },
      ['--test', 'node --test', ...LINKED, '--check', 'npx prettier --check src'],
    );
    expect(result.status, stderr).toBe('tests_green');
    expect(result.engine).toBe('fixers');
    expect(result.attempts.map((a) => a.engine)).toEqual(['fixers']);
    expect(result.attempts[0]?.summary).toContain('prettier --write -- src/add.js');
    expect(result.patch).toContain('+export function add(a, b) {\n+  return a + b;\n+}');
    expect(result.checks?.baseline).toEqual([
      expect.objectContaining({ command: 'npx prettier --check src', tool: 'prettier', passed: false, diagnostics: 1 }),
    ]);
    expect(result.verification?.checks).toEqual([expect.objectContaining({ passed: true })]);
    expect(result.verification?.findings).toEqual([]);
    expect(result.cost).toEqual({ usd: 0, tokens: 0 });
    // A formatting patch changes no behaviour, and the assessment saw none.
    expect(result.assessment?.level).toBe('verified');
    expect(code).toBe(0);
    expect(result.headline).toMatch(
      /^Verified fix after 1 attempt: the check `npx prettier --check src` now passes \(1 diagnostic at the baseline\)/,
    );
  });

  it.runIf(fullSuite)("fixes black's and isort's failures in Python with their own fixers", async () => {
    for (const tool of ['black', 'isort'])
      expect(() => execFileSync('sh', ['-c', `command -v ${tool}`]), `install Debian's ${tool} (.ci/run does)`).not.toThrow();
    const { result, stderr } = await check(
      {
        'shop/__init__.py':
          'import sys\nimport os\n\n\ndef total(prices):\n    return sum( prices )\n\n\ndef names():\n    return [os.sep, sys.platform]\n',
        'tests/test_shop.py': 'from shop import total\n\n\ndef test_total():\n    assert total([1, 2]) == 3\n',
      },
      ['--test', 'python3 -m pytest -q', '--check', 'black --check .', '--check', 'isort --check-only .'],
    );
    expect(result.status, stderr).toBe('tests_green');
    expect(result.engine).toBe('fixers');
    expect(result.patch).toContain('-import sys\n import os\n+import sys\n');
    expect(result.patch).toContain('+    return sum(prices)');
    expect(result.verification?.checks?.map((c) => [c.command, c.passed])).toEqual([
      ['black --check .', true],
      ['isort --check-only .', true],
    ]);
  });

  it.runIf(fullSuite)(
    'hands a diagnostic no fixer fixes (no-unused-vars) to the repair engine, which removes the declaration',
    async () => {
      const { result, stderr } = await check({ ...NODE_PROJECT, 'eslint.config.js': NO_UNUSED_VARS, 'src/add.js': UNUSED }, [
        '--test',
        'node --test',
        ...LINKED,
        '--check',
        'npx eslint src',
      ]);
      expect(result.status, stderr).toBe('tests_green');
      expect(result.attempts.map((a) => a.engine)).toEqual(['fixers', 'repair']);
      expect(result.attempts[0]?.summary).toMatch(
        /^the fixers changed nothing \(`\.\/node_modules\/\.bin\/eslint --fix -- src\/add\.js`\)/,
      );
      // What the fixers left failing is what the repair engine was handed: the diagnostic, with its file, line and rule.
      expect(result.attempts[0]?.failingTests).toHaveLength(1);
      expect(result.attempts[0]?.failingTests[0]).toMatchObject({
        id: 'eslint: src/add.js:1:7 no-unused-vars',
        message: "src/add.js:1:7 'unused' is assigned a value but never used (no-unused-vars)",
      });
      expect(result.engine).toBe('repair');
      expect(result.patch).toContain('-const unused = 1;\n-\n export function add(a, b) {');
      // That line goes, with the blank line after it (it opened the file); nothing is added.
      expect(result.patch).not.toMatch(/^\+(?!\+\+ )/m);
      // A declaration nothing reads changes no behaviour, and the assessment saw none.
      expect(result.assessment?.level).toBe('verified');
    },
  );

  it('says that a lint command given as the test command is a check, and how to ask for one, before any engine', async () => {
    const { code, result } = await check(
      {
        ...NODE_PROJECT,
        'package.json': '{ "name": "shop", "type": "module", "private": true, "scripts": { "lint": "eslint src" } }\n',
        'eslint.config.js': NO_UNUSED_VARS,
        'src/add.js': UNUSED,
      },
      ['--test', 'npm run lint', ...LINKED],
    );
    expect(result.status).toBe('error');
    expect(result.error).toEqual({
      code: 'TEST_COMMAND_IS_A_CHECK',
      message:
        'the test command `npm run lint` runs eslint, a check, not a test suite: pass it as a check (--check "npm run lint", or `checks:` in fixloop.yml) and the tests as the test command, which then guard against regressions',
    });
    expect(result.attempts).toEqual([]);
    expect(code).toBe(2);
  });

  it('refuses a patch that silences the check instead of fixing it', async () => {
    const { code, result, stderr } = await check({ ...NODE_PROJECT, 'eslint.config.js': NO_UNUSED_VARS, 'src/add.js': UNUSED }, [
      '--test',
      'node --test',
      ...LINKED,
      '--check',
      'npx eslint src',
      '--engine',
      'script',
      '--script',
      "sed -i '1i // eslint-disable-next-line no-unused-vars' src/add.js",
      '--max-attempts',
      '2',
    ]);
    expect(result.status, stderr).toBe('escalated');
    expect(result.attempts[0]?.findings).toContainEqual(
      expect.objectContaining({
        kind: 'check_silenced',
        path: 'src/add.js',
        message: expect.stringContaining('silences eslint'),
      }),
    );
    expect(result.patch).toBe('');
    expect(code).toBe(1);
  });
});
