// The floor plan's rules (docs/design.md §5) are real rules: these probes show each one refuses what it
// should and lets the legitimate case through, so a rule that silently stopped matching is noticed.
import { spawnSync } from 'node:child_process';
import { copyFile, mkdtemp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ESLint } from 'eslint';
import { cruise } from 'dependency-cruiser';
import { afterAll, describe, expect, it } from 'vitest';
import cruiserConfig from '../../.dependency-cruiser.mjs';

const eslint = new ESLint({ cwd: process.cwd() });

async function lintProbe(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.resolve(file) });
  return (result?.messages ?? []).map((m) => `${m.ruleId}: ${m.message}`);
}

describe('ESLint: which folder may import which', () => {
  it('refuses a stage importing a later one, at any depth', async () => {
    const messages = await lintProbe(
      'src/engines/agent/probe.ts',
      "import type { RunFixDeps } from '../../loop/run-fix.ts';\nexport type T = RunFixDeps;\n",
    );
    expect(messages.some((m) => m.startsWith('no-restricted-imports') && m.includes('A stage imports only earlier ones'))).toBe(
      true,
    );
    const fromCore = await lintProbe(
      'src/core/probe.ts',
      "import type { Sandbox } from '../sandbox/sandbox.ts';\nexport type T = Sandbox;\n",
    );
    expect(fromCore.some((m) => m.startsWith('no-restricted-imports'))).toBe(true);
  });

  it("lets a stage import an earlier one, and a subfolder that shares a later folder's name", async () => {
    expect(
      await lintProbe('src/loop/probe.ts', "import type { Engine } from '../engines/engine.ts';\nexport type T = Engine;\n"),
    ).toEqual([]);
    // A stage's subfolder named like a later folder (src/engines/cli/, as the coding agents' engine
    // was once called) is the stage's own folder, not the CLI entry point.
    expect(
      await lintProbe('src/engines/probe.ts', "import type { Probe } from './cli/probe.ts';\nexport type T = Probe;\n"),
    ).toEqual([]);
  });

  it('keeps Probot and Octokit in the GitHub adapter and the entry points', async () => {
    const code = "import type { Probot } from 'probot';\nexport type T = Probot;\n";
    expect((await lintProbe('src/forge/probe.ts', code)).some((m) => m.includes('Probot belongs to src/github/'))).toBe(true);
    const octokit = "import type { Octokit } from '@octokit/rest';\nexport type T = Octokit;\n";
    expect(
      (await lintProbe('src/triggers/probe.ts', octokit)).some((m) => m.includes('Octokit and Probot belong to src/github/')),
    ).toBe(true);
    expect(await lintProbe('src/github/probe.ts', code)).toEqual([]);
    expect(await lintProbe('src/app.ts', code)).toEqual([]);
  });

  it('limits files to 300 lines and functions to 100', async () => {
    const longFunction = `export function f(): number {\n  let n = 0;\n${'  n += 1;\n'.repeat(100)}  return n;\n}\n`;
    expect((await lintProbe('src/loop/probe.ts', longFunction)).some((m) => m.startsWith('max-lines-per-function'))).toBe(true);
    const longFile = Array.from({ length: 301 }, (_, i) => `export const c${i} = ${i};`).join('\n') + '\n';
    expect((await lintProbe('src/loop/probe.ts', longFile)).some((m) => m.startsWith('max-lines:'))).toBe(true);
  });

  it('holds the CommonJS that runs in test processes to the same sizes', async () => {
    const longFunction = `'use strict';\nfunction f() {\n  let n = 0;\n${'  n += 1;\n'.repeat(100)}  return n;\n}\nmodule.exports = { f };\n`;
    expect(await lintProbe('src/runners/node-guard/probe.cjs', longFunction)).toEqual([
      "max-lines-per-function: Function 'f' has too many lines (104). Maximum allowed is 100.",
    ]);
    const longFile = "'use strict';\n" + Array.from({ length: 300 }, (_, i) => `exports.c${i} = ${i};`).join('\n') + '\n';
    expect(await lintProbe('src/runners/node-guard/probe.cjs', longFile)).toEqual([
      'max-lines: File has too many lines (301). Maximum allowed is 300.',
    ]);
  });
});

describe("the code that runs inside the repository's processes is checked", () => {
  const dirs: string[] = [];
  afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  /** A folder holding `files`; `src/` in it is what a check's globs see. */
  async function tree(files: Record<string, string>): Promise<string> {
    const root = await mkdtemp(path.join(tmpdir(), 'fixloop-inside-checks-'));
    dirs.push(root);
    for (const [file, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(root, file)), { recursive: true });
      await writeFile(path.join(root, file), text);
    }
    return root;
  }

  /** Exit code and output (stdout, then stderr) of `command` run in `cwd`. */
  function run(command: string, args: string[], cwd: string): { code: number | null; output: string } {
    const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
    if (result.error) throw new Error(`${command} could not run: ${result.error.message}`);
    return { code: result.status, output: result.stdout + result.stderr };
  }

  it('type-checks the .cjs files by their JSDoc, as tsconfig.cjs.json says', async () => {
    const root = await tree({
      'src/part/good.cjs':
        "'use strict';\n/** @param {string} name */\nconst greet = (name) => `hi ${name}`;\nmodule.exports = { greet };\n",
      'src/part/bad.cjs':
        "'use strict';\nfunction twice(n) {\n  return n * 2;\n}\n/** @type {number} */\nconst count = 'one';\nmodule.exports = { twice, count };\n",
    });
    await copyFile('tsconfig.cjs.json', path.join(root, 'tsconfig.cjs.json'));
    // `types: ["node"]`: the project's own type packages.
    await symlink(path.resolve('node_modules'), path.join(root, 'node_modules'));
    const { code, output } = run(
      process.execPath,
      [path.resolve('node_modules/typescript/bin/tsc'), '-p', 'tsconfig.cjs.json'],
      root,
    );
    expect(code).not.toBe(0);
    const errors = output.split('\n').filter((line) => line.startsWith('src/'));
    expect(errors.map((line) => line.replace(/: error (TS\d+).*/, ' $1'))).toEqual([
      'src/part/bad.cjs(2,16) TS7006', // a parameter with no type
      'src/part/bad.cjs(6,7) TS2322', // a value that is not its declared type
    ]);
  });

  it("lints the Python with pyflakes (Debian's pyflakes3)", async () => {
    const root = await tree({
      'src/part/good.py': 'import os\n\n\ndef here():\n    return os.getcwd()\n',
      'src/part/bad.py': 'import os\n\n\ndef here():\n    return cwd\n',
    });
    const { code, output } = run('pyflakes3', ['src'], root);
    expect(code).toBe(1);
    expect(output.trim().split('\n')).toEqual([
      "src/part/bad.py:1:1: 'os' imported but unused",
      "src/part/bad.py:5:12: undefined name 'cwd'",
    ]);
  });

  it('parses the Python as Python 3.8 does, and holds it to 300 lines a file and 90 a function', async () => {
    /** A function of `lines` lines, from its `def` to its `return`. */
    const fn = (name: string, lines: number) => `def ${name}():\n${'    n = 0\n'.repeat(lines - 2)}    return n\n`;
    const root = await tree({
      'src/part/newer.py': 'def kind(x):\n    match x:\n        case 1:\n            return "one"\n',
      'src/part/long.py': Array.from({ length: 301 }, (_, i) => `C${i} = ${i}\n`).join(''),
      'src/part/functions.py': `${fn('fits', 90)}\n\n${fn('creeping', 91)}`,
    });
    const { code, output } = run('python3', [path.resolve('scripts/check-python.py'), 'src'], root);
    expect(code).toBe(1);
    const [functions, long, newer, ...rest] = output.trim().split('\n');
    expect(functions).toBe('src/part/functions.py:93: function `creeping` has 91 lines, more than 90');
    expect(long).toBe('src/part/long.py:1: 301 lines, more than 300: split it by concept');
    // The line and the words of a syntax error are the running Python's.
    expect(newer).toMatch(/^src\/part\/newer\.py:\d+: does not parse on Python 3\.8: /);
    expect(rest).toEqual([]);
  });
});

describe('ESLint: a runner is named only in its folder (src/runners/<runner>/)', () => {
  const restricted = (messages: string[], rule: string) => messages.filter((m) => m.startsWith(rule));

  it("refuses an import of a runner's folder from outside src/runners/, and lets the registry and the descriptor type through", async () => {
    const folder = await lintProbe(
      'src/gate/probe.ts',
      "import { jestRunner } from '../runners/jest/jest-runner.ts';\nexport const r = jestRunner;\n",
    );
    expect(restricted(folder, 'no-restricted-imports').some((m) => m.includes('only through the registry'))).toBe(true);
    const entryPoint = await lintProbe(
      'src/cli/probe.ts',
      "import { pytestRunner } from '../runners/pytest/pytest-runner.ts';\nexport const r = pytestRunner;\n",
    );
    expect(restricted(entryPoint, 'no-restricted-imports').some((m) => m.includes('only through the registry'))).toBe(true);
    expect(
      await lintProbe(
        'src/verify/probe.ts',
        "import { RUNNERS } from '../runners/registry.ts';\nimport type { TestRunner } from '../runners/runner.ts';\nexport const r: readonly TestRunner[] = RUNNERS;\n",
      ),
    ).toEqual([]);
  });

  it("refuses a runner's folder importing another runner's, and lets the registry import them all", async () => {
    const across = await lintProbe(
      'src/runners/jest/probe.ts',
      "import { parseMocha } from '../mocha/parse-mocha.ts';\nexport const p = parseMocha;\n",
    );
    expect(restricted(across, 'no-restricted-imports').some((m) => m.includes('does not import another runner'))).toBe(true);
    expect(
      await lintProbe(
        'src/runners/probe.ts',
        "import { jestRunner } from './jest/jest-runner.ts';\nexport const r = jestRunner;\n",
      ),
    ).toEqual([]);
    expect(
      await lintProbe(
        'src/runners/jest/probe.ts',
        "import type { TestRunner } from '../runner.ts';\nimport { shellQuote } from '../../sandbox/shell-quote.ts';\nexport type T = TestRunner;\nexport const q = shellQuote;\n",
      ),
    ).toEqual([]);
  });

  it("refuses a string or template literal outside src/runners/ that is a runner's id or names one as a word", async () => {
    for (const code of [
      "export const r = 'jest';\n",
      "export const r = 'node-test';\n",
      'export const c = `npx vitest run ${1}`;\n',
      "export const m = /x/.test('python -m pytest') ? 1 : 0;\n",
      "export type F = 'mocha' | 'tap';\n",
    ]) {
      const messages = await lintProbe('src/verify/probe.ts', code);
      expect(
        restricted(messages, 'no-restricted-syntax').some((m) => m.includes('Runner knowledge lives in src/runners/')),
        code,
      ).toBe(true);
    }
    // Entry points and every stage alike.
    expect(restricted(await lintProbe('src/cli/probe.ts', "export const r = 'jest';\n"), 'no-restricted-syntax')).toHaveLength(1);
  });

  it('lets comments, regular expressions, words that only contain a name, and src/runners/ itself through', async () => {
    const neutral = [
      '// jest, vitest and mocha print their summary last.\nexport const r = 1;\n',
      "export const ignored = ['.pytest_cache/', '_pytest/', 'node-test.xml', 'jester'];\n",
      'export const frameworks = /^(jest|mocha)$/;\n',
    ].join('');
    expect(await lintProbe('src/verify/probe.ts', neutral)).toEqual([]);
    expect(
      await lintProbe('src/runners/jest/probe.ts', "export const id = 'jest';\nexport const c = `npx jest ${id}`;\n"),
    ).toEqual([]);
    expect(await lintProbe('src/runners/probe.ts', "export const ids = ['node-test', 'pytest'];\n")).toEqual([]);
  });
});

describe('dependency-cruiser: no import cycle', () => {
  const dirs: string[] = [];
  afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  async function cruiseTree(files: Record<string, string>) {
    const root = await mkdtemp(path.join(tmpdir(), 'fixloop-cycles-'));
    dirs.push(root);
    for (const [file, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(root, file)), { recursive: true });
      await writeFile(path.join(root, file), text);
    }
    const previous = process.cwd();
    process.chdir(root);
    try {
      const result = await cruise(['src'], {
        validate: true,
        ruleSet: { forbidden: cruiserConfig.forbidden },
        includeOnly: '^src/',
      });
      if (typeof result.output === 'string') throw new Error('expected a cruise result');
      return result.output.summary.violations.map((v) => v.rule.name);
    } finally {
      process.chdir(previous);
    }
  }

  it('finds a cycle between folders that no single file shows', async () => {
    const violations = await cruiseTree({
      'src/a/one.js': "import { two } from '../b/two.js';\nexport const one = () => two;\n",
      'src/b/two.js': 'export const two = 2;\n',
      'src/b/three.js': "import { one } from '../a/one.js';\nexport const three = one;\n",
    });
    expect(violations).toContain('no-folder-cycle');
    expect(violations).not.toContain('no-file-cycle');
  });

  it('finds a cycle between files', async () => {
    const violations = await cruiseTree({
      'src/a/one.js': "import { two } from './two.js';\nexport const one = () => two;\n",
      'src/a/two.js': "import { one } from './one.js';\nexport const two = () => one;\n",
    });
    expect(violations).toContain('no-file-cycle');
  });

  it('accepts a tree whose dependencies point one way', async () => {
    expect(
      await cruiseTree({
        'src/a/one.js': "import { two } from '../b/two.js';\nexport const one = () => two;\n",
        'src/b/two.js': 'export const two = 2;\n',
      }),
    ).toEqual([]);
  });
});
