// Harness tampering from source, found on the syntax tree of a patch's added lines: real patches
// (git's format, as the workspace writes them) applied to files in a temp folder, real Python.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { addedLines, harnessTampering, readsTests, testFileCheck } from '../../src/verify/harness-tampering.ts';
import { fileDiff } from '../../src/workspace/unified-diff.ts';
import { checkPatch, removeChecked } from '../support/harness-check.ts';

afterAll(() => removeChecked());

/** Each file as [before, after] (null: absent); returns the findings' messages and paths, all of them tampering. */
async function check(files: Record<string, [string | null, string | null]>, baselineTestFiles: string[] = []) {
  const { findings } = await checkPatch(files, baselineTestFiles);
  expect(findings.every((f) => f.kind === 'harness_tampering')).toBe(true);
  return { messages: findings.map((f) => f.message), paths: findings.map((f) => f.path) };
}

const MATH = 'export function add(a, b) {\n  return a - b;\n}\n';
const withLine = (line: string) => `${line}\nexport function add(a, b) {\n  return a + b;\n}\n`;

describe('harness tampering in added JavaScript', () => {
  it('flags ending the process or rewriting its exit status, named by file, line and rule', async () => {
    const cases = [
      'process.exit(0);',
      'setTimeout(() => process.exit(0), 0);',
      'process.exitCode = 0;',
      "process.on('exit', () => {});",
      "process.kill(process.pid, 'SIGKILL');",
      "import p from 'node:process';\np.exit(0);",
      "const { exit } = require('process');\nexit(0);",
      "Object.defineProperty(process, 'exitCode', { set() {} });",
      'globalThis.process.reallyExit(0);',
    ];
    for (const code of cases) {
      const { messages } = await check({ 'src/math.js': [MATH, withLine(code)] });
      expect(messages, code).toHaveLength(1);
      expect(messages[0], code).toMatch(
        /^`src\/math\.js:\d+` .*: code under test may not end the process or rewrite its exit status \(rule `exit`\)$/,
      );
    }
    expect((await check({ 'src/math.js': [MATH, withLine('process.exit(0);')] })).messages[0]).toContain(
      '`src/math.js:1` calls `process.exit(…)`',
    );
  });

  it('flags reaching into the assertion library or the test framework', async () => {
    const cases: Array<[string, RegExp]> = [
      ["import assert from 'node:assert';\nassert.strictEqual = () => {};", /assigns `assert\.strictEqual`/],
      ["const assert = require('assert/strict');\nassert.equal = function () {};", /assigns `assert\/strict\.equal`/],
      ["require('node:assert').deepStrictEqual = () => {};", /assigns `assert\.deepStrictEqual`/],
      ["import { expect } from 'chai';\nexpect.fail = () => {};", /assigns `chai\.expect\.fail`/],
      ['expect.extend({ toBe: () => ({ pass: true }) });', /calls `expect\.extend\(…\)`/],
      ["import chai from 'chai';\nchai.use(() => {});", /calls `chai\.use\(…\)`/],
      ["import { vi } from 'vitest';", /imports the test framework `vitest`/],
      ["const test = require('node:test');", /imports the test framework `node:test`/],
      ['globalThis.expect = () => ({ toBe() {} });', /assigns `expect`/],
      ["delete require.cache[require.resolve('./x.js')];", /deletes `require\.cache/],
    ];
    for (const [code, what] of cases) {
      const { messages } = await check({ 'src/math.ts': [MATH, withLine(code)] });
      expect(messages, code).toHaveLength(1);
      expect(messages[0], code).toMatch(what);
      expect(messages[0], code).toContain('(rule `test-framework`)');
    }
  });

  it("flags a property added to Object.prototype, which the runner's and the assertion library's objects inherit", async () => {
    const cases: Array<[string, RegExp]> = [
      [
        "Object.defineProperty(Object.prototype, 'toBe', { set() {}, configurable: true });",
        /changes `Object\.prototype` through `Object\.defineProperty`/,
      ],
      [
        'Reflect.defineProperty(Object.prototype, "fn", { get() { return 1; } });',
        /changes `Object\.prototype` through `Reflect\.defineProperty`/,
      ],
      [
        'Object.defineProperties(Object.prototype, { object: { set() {} } });',
        /changes `Object\.prototype` through `Object\.defineProperties`/,
      ],
      ['Object.prototype.flagged = true;', /assigns `Object\.prototype\.flagged`/],
      ["Object.prototype.__defineSetter__('fn', () => {});", /calls `Object\.prototype\.__defineSetter__\(…\)`/],
    ];
    for (const [code, what] of cases) {
      const { messages } = await check({ 'src/math.js': [MATH, withLine(code)] });
      expect(messages, code).toHaveLength(1);
      expect(messages[0], code).toMatch(what);
      expect(messages[0], code).toContain("a property every object inherits (the runner's and the assertion library's too)");
      expect(messages[0], code).toContain('(rule `test-framework`)');
    }
    // A class's own prototype, and reading Object.prototype's methods, are not that.
    const honest = withLine(
      'class Money {}\nMoney.prototype.toJSON = function () { return 1; };\nconst has = Object.prototype.hasOwnProperty;\nObject.defineProperty(Money.prototype, "cents", { get() { return 1; } });',
    );
    expect((await check({ 'src/math.js': [MATH, honest] })).messages).toEqual([]);
  });

  it('flags reading a test file at run time', async () => {
    const code =
      "import { readFileSync } from 'node:fs';\nimport { join } from 'node:path';\nconst expected = readFileSync(join(import.meta.dirname, '..', 'test', 'math.test.js'), 'utf8');";
    const { messages } = await check({ 'src/math.js': [MATH, withLine(code)] });
    expect(messages).toEqual([
      '`src/math.js:3` reads `../test/math.test.js` at run time (`readFileSync`): code under test may not read the tests (rule `reads-tests`)',
    ]);
    const imported = await check({ 'lib/sum.js': [MATH, withLine("import cases from './sum.spec.js';")] });
    expect(imported.messages).toEqual([expect.stringContaining('loads `./sum.spec.js`')]);
  });

  it('leaves an honest fix alone, even one that says `exit` in a string or a comment', async () => {
    const honest =
      "// process.exit(0) would end the tests early, so the error is thrown instead.\nconst message = 'call process.exit(1) on failure';\nexport function add(a, b) {\n  return a + b;\n}\n";
    expect((await check({ 'src/math.js': [MATH, honest] })).messages).toEqual([]);
  });

  it('does not flag what the patch did not add: a CLI that already exits, a test file that uses assert', async () => {
    const cli =
      "#!/usr/bin/env node\nimport { run } from './run.js';\n\nconst code = run(process.argv.slice(2));\nprocess.exit(code);\n";
    const fixed = cli.replace('slice(2)', 'slice(2).filter(Boolean)');
    expect((await check({ 'bin/cli.js': [cli, fixed] })).messages).toEqual([]);
    const test = "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\n";
    expect(
      (await check({ 'test/math.test.js': [test, `${test}assert.equal = () => {};\nprocess.exit(0);\n`] })).messages,
    ).toEqual([]);
    expect(
      (await check({ 'checks/cart_check.js': [test, `${test}process.exit(0);\n`] }, ['checks/cart_check.js'])).messages,
    ).toEqual([]);
  });

  it("does not flag an exit that runs only when the file is the program, nor names that are the file's own", async () => {
    const guarded = withLine('if (require.main === module) {\n  process.exit(main());\n}\nfunction main() { return 0; }');
    expect((await check({ 'src/math.cjs': [MATH, guarded] })).messages).toEqual([]);
    const local = withLine(
      "const expect = { rules: [] };\nexpect.rules = ['x'];\nfunction test(it) { it.done = true; }\nimport { readFileSync } from 'node:fs';\nconst prices = readFileSync('data/prices.json', 'utf8');\nimport { helper } from './helpers.js';",
    );
    expect((await check({ 'src/math.js': [MATH, local] })).messages).toEqual([]);
  });

  it('flags an added line inside an existing exit handler only when the handler itself is added', async () => {
    const before = "process.on('exit', () => {\n  console.log('bye');\n});\n";
    expect((await check({ 'src/cli.js': [before, before.replace("'bye'", "'bye now'")] })).messages).toEqual([]);
    expect(
      (
        await check({
          'src/cli.js': [before, before.replace("console.log('bye');", "console.log('bye');\n  process.exitCode = 0;")],
        })
      ).messages,
    ).toEqual([expect.stringContaining('`src/cli.js:3` assigns `process.exitCode`')]);
  });

  it('does not read through a symlink the patch planted', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fixloop-tamper-'));
    await writeFile(join(dir, 'outside.js'), 'process.exit(0);\n');
    await mkdir(join(dir, 'src'));
    await symlink(join(dir, 'outside.js'), join(dir, 'src', 'link.js'));
    const patch =
      'diff --git a/src/link.js b/src/link.js\nnew file mode 100644\n--- /dev/null\n+++ b/src/link.js\n@@ -0,0 +1 @@\n+process.exit(0);\n';
    expect(await harnessTampering({ dir, patch, isTestFile: () => false, log: () => undefined })).toEqual([]);
    await rm(dir, { recursive: true, force: true });
  });
});

const CALC = 'def average(values):\n    return sum(values) / (len(values) + 1)\n';
const pyWith = (lines: string) => `${lines}\n\ndef average(values):\n    return sum(values) / len(values)\n`;

describe('harness tampering in added Python', () => {
  it('flags ending the process, at import or at exit', async () => {
    const cases = [
      'import os\nos._exit(0)',
      'import sys\nsys.exit(0)',
      'import atexit, os\natexit.register(lambda: os._exit(0))',
      'from os import _exit as leave\nleave(0)',
      'import os, signal\nos.kill(os.getpid(), signal.SIGKILL)',
      'raise SystemExit(0)',
    ];
    for (const code of cases) {
      const { messages } = await check({ 'calc.py': [CALC, pyWith(code)] });
      expect(messages.length, code).toBeGreaterThanOrEqual(1);
      expect(
        messages.every((m) => m.startsWith('`calc.py:') && m.endsWith('(rule `exit`)')),
        code,
      ).toBe(true);
    }
  });

  it('flags reaching into pytest, the module table or the builtins', async () => {
    const cases: Array<[string, RegExp]> = [
      ['import pytest', /imports the test framework `pytest`/],
      ['from _pytest import runner', /imports the test framework `_pytest`/],
      ['import unittest', /imports the test framework `unittest`/],
      ['def pytest_runtest_makereport(item, call):\n    pass', /defines the pytest hook `pytest_runtest_makereport`/],
      ['import sys\nsys.modules["calc_check"] = None', /assigns `sys\.modules\[…\]`/],
      ['import sys\nsys.modules.update({})', /changes `sys\.modules`/],
      ['import builtins\nbuiltins.len = lambda v: 1', /assigns the builtin `len`/],
      ['import builtins\nsetattr(builtins, "len", None)', /changes Python's builtins/],
    ];
    for (const [code, what] of cases) {
      const { messages } = await check({ 'shop/calc.py': [CALC, pyWith(code)] });
      expect(messages, code).toHaveLength(1);
      expect(messages[0], code).toMatch(what);
      expect(messages[0], code).toContain('(rule `test-framework`)');
    }
  });

  it("flags a pytest hook made out of sight of a `def` (pluggy's marker, a name built in globals())", async () => {
    const code =
      'def _report(item, call):\n    pass\n\n\n_report.pytest_impl = {"hookwrapper": False}\nglobals()["pytest_" + "runtest_makereport"] = _report';
    const { messages } = await check({ 'hackplugin.py': [null, code] });
    expect(messages).toEqual([
      '`hackplugin.py:5` assigns a pytest hook or its marker out of sight of a `def`: code under test may not reach into the test framework or the assertion library (rule `test-framework`)',
      '`hackplugin.py:6` assigns a pytest hook or its marker out of sight of a `def`: code under test may not reach into the test framework or the assertion library (rule `test-framework`)',
    ]);
    expect((await check({ 'calc.py': [CALC, pyWith('globals()["VERSION"] = "1.0"')] })).messages).toEqual([]);
  });

  it('flags reading or importing the tests', async () => {
    const read = await check({
      'calc.py': [CALC, pyWith('import os\nEXPECTED = open(os.path.join("tests", "test_calc.py")).read()')],
    });
    expect(read.messages).toEqual([
      '`calc.py:2` reads `tests/test_calc.py` at run time: code under test may not read the tests (rule `reads-tests`)',
    ]);
    const imported = await check({ 'calc.py': [CALC, pyWith('from tests.test_calc import CASES')] });
    expect(imported.messages).toEqual([expect.stringContaining('imports the test module `tests.test_calc`')]);
    const dynamic = await check({
      'calc.py': [CALC, pyWith('import importlib\nCASES = importlib.import_module("tests." + "test_calc").CASES')],
    });
    expect(dynamic.messages).toEqual([expect.stringContaining('imports the test module `tests.test_calc`')]);
    const framework = await check({
      'calc.py': [CALC, pyWith('__import__("_py" + "test.python").python.Function.runtest = lambda self: None')],
    });
    expect(framework.messages).toEqual([expect.stringContaining('imports the test framework `_pytest.python`')]);
  });

  it('leaves honest fixes alone: `exit` in strings and comments, a script guard, exits already there, tests and conftest', async () => {
    const honest = '# sys.exit(0) here would hide the failure\nMESSAGE = "os._exit is not called"\n';
    expect((await check({ 'calc.py': [CALC, pyWith(honest)] })).messages).toEqual([]);
    expect(
      (await check({ 'calc.py': [CALC, `${pyWith('import sys')}\n\nif __name__ == "__main__":\n    sys.exit(main())\n`] }))
        .messages,
    ).toEqual([]);
    const cli = 'import sys\n\n\ndef main():\n    print(average([1]))\n    sys.exit(0)\n\n\n' + CALC;
    expect((await check({ 'cli.py': [cli, cli.replace('(len(values) + 1)', 'len(values)')] })).messages).toEqual([]);
    expect(
      (
        await check({
          'tests/test_calc.py': ['import pytest\n', 'import pytest\nimport sys\nsys.exit(0)\n'],
          'conftest.py': ['', 'def pytest_runtest_makereport(item):\n    pass\n'],
        })
      ).messages,
    ).toEqual([]);
    expect(
      (await check({ 'calc.py': [CALC, pyWith('import json\nPRICES = json.load(open("data/prices.json"))')] })).messages,
    ).toEqual([]);
  });
});

describe("the patch's added lines", () => {
  it("are read by the hunks' counts, so content that looks like a header is still content", () => {
    const patch = fileDiff({
      path: 'a.txt',
      before: Buffer.from('one\ntwo\nthree\n'),
      after: Buffer.from('one\n++ plus\ntwo\nthree\nfour\n'),
      mode: '100644',
    });
    expect([...(addedLines(patch).get('a.txt') ?? [])]).toEqual([2, 5]);
  });

  it('name test files by folder, by the globs, and relative to the file that reads them', () => {
    const isTest = testFileCheck([], new Set(['checks/cart_check.py']));
    expect(readsTests('../test/math.test.js', 'src/math.js', isTest)).toBe(true);
    expect(readsTests('./math.spec', 'src/math.js', isTest)).toBe(true);
    expect(readsTests('checks/cart_check.py', 'shop/cart.py', isTest)).toBe(true);
    expect(readsTests('./helpers.js', 'src/math.js', isTest)).toBe(false);
    expect(readsTests('data/prices.json', 'src/math.js', isTest)).toBe(false);
  });
});
