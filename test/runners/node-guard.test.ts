// The Node runtime guard (src/runners/node-guard/) inside real runs of node --test, mocha, jest and
// vitest on tiny projects: an honest suite leaves complete records without events; each cheat, which
// first fools the runner itself (its run passes without the guard), is named in the records with its
// file and line. The honest twins (source that reads its own data files, a CLI entry that calls
// process.exit where no test reaches it) stay clean.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { nodeRuntimeGuard } from '../../src/runners/node-guard.ts';
import { takeKey } from '../support/key-pipe.ts';
import { jestTestCase } from '../../src/runners/jest/jest-test-case.ts';
import { eventsOf, guardDirs, project, removeProjects, runIn, testsOf, type GuardedRun } from '../support/guarded-run.ts';

afterAll(() => removeProjects());
// Real runners on a 2-core machine shared with other runs.
vi.setConfig({ testTimeout: 120_000 });

const ESM = JSON.stringify({ name: 'calc', type: 'module', private: true }) + '\n';
const NODE_TEST =
  "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { add } from '../src/math.js';\n\ntest('add sums', () => assert.equal(add(2, 3), 5));\ntest('add zero', () => assert.equal(add(0, 0), 0));\n";
const MOCHA_TEST = NODE_TEST.replace("import { test } from 'node:test';\n", '').replaceAll('test(', 'it(');
const JEST_TEST =
  "const { add } = require('../src/math.js');\n\ntest('add sums', () => expect(add(2, 3)).toBe(5));\ntest('add zero', () => expect(add(0, 0)).toBe(0));\n";
const VITEST_TEST =
  "import { expect, test } from 'vitest';\nimport { add } from '../src/math.js';\n\ntest('add sums', () => expect(add(2, 3)).toBe(5));\ntest('add zero', () => expect(add(0, 0)).toBe(0));\n";
const BUGGY = 'export function add(a, b) {\n  return a - b;\n}\n';
const FIXED = 'export function add(a, b) {\n  return a + b;\n}\n';

/** The same source with `lines` before its function (line 1 is the first of them). */
const withLines = (lines: string, source = BUGGY) => lines + source;

/** Runs the project without the guard (the cheat must pass there) and with it. */
async function both(
  files: Record<string, string>,
  runner: string,
  args: string[],
): Promise<{ plain: GuardedRun; guarded: GuardedRun }> {
  const root = project(files);
  const plain = await runIn(root, runner, args, false);
  const guarded = await runIn(root, runner, args, true);
  return { plain, guarded };
}

/** The guarded run alone: for the honest suites and the cases that assert nothing of the unguarded run. */
function guardedRun(files: Record<string, string>, runner: string, args: string[]): Promise<GuardedRun> {
  return runIn(project(files), runner, args, true);
}

function expectClean(run: GuardedRun, tests: number): void {
  expect(run.code, run.output).toBe(0);
  expect(eventsOf(run)).toEqual([]);
  expect(run.records.length).toBeGreaterThan(0);
  expect(run.records.every((r) => r.complete)).toBe(true);
  expect(testsOf(run)).toEqual({ passed: tests, failed: 0, skipped: 0 });
}

describe('the Node guard under node --test', () => {
  const files = (source: string, extra: Record<string, string> = {}) => ({
    'package.json': ESM,
    'src/math.js': source,
    'test/math.test.js': NODE_TEST,
    ...extra,
  });
  const run = (source: string, extra?: Record<string, string>) => both(files(source, extra), 'node-test', ['node', '--test']);
  const guard = (source: string, extra?: Record<string, string>) =>
    guardedRun(files(source, extra), 'node-test', ['node', '--test']);

  it('leaves complete records without events for an honest suite, and counts its tests', async () => {
    expectClean(await guard(FIXED), 2);
  });

  it('names a write to assert/strict through process.getBuiltinModule', async () => {
    const { plain, guarded } = await run(
      withLines("const strict = process.getBuiltinModule('node:assert/strict');\nstrict.equal = () => {};\n"),
    );
    expect(plain.code, plain.output).toBe(0);
    expect(eventsOf(guarded)).toContain('framework_changed src/math.js:2 assert/strict.equal written');
  });

  it("names a Symbol.hasInstance defined on a built-in class, and not a class of the program's own", async () => {
    const guarded = await guard(
      withLines(
        'class Money {}\nReflect.defineProperty(Money, Symbol.hasInstance, { value: () => true });\nReflect.defineProperty(Date, Symbol.hasInstance, { value: () => true, configurable: true });\n',
        FIXED,
      ),
    );
    expect(eventsOf(guarded)).toEqual(['framework_changed src/math.js:3 Date[Symbol.hasInstance] defined']);
  });

  it('names a key added to Object.prototype: placed when a define function adds it, unplaced when an assignment does', async () => {
    const { plain, guarded } = await run(
      withLines(
        "Object.defineProperty(Object.prototype, 'settled', { set() {}, configurable: true });\nObject.prototype['un' + 'settled'] = 1;\n",
        FIXED,
      ),
    );
    expect(plain.code, plain.output).toBe(0);
    expect(eventsOf(guarded)).toEqual([
      'framework_changed src/math.js:1 Object.prototype.settled added',
      'framework_changed ?:? Object.prototype.unsettled added by a route the guard does not watch',
    ]);
  });

  it('names a write to assert through a computed import() specifier', async () => {
    const { plain, guarded } = await run(
      withLines(
        "const name = ['node:', 'assert'].join('');\nconst assert = (await import(name)).default;\nassert.strict.equal = () => {};\n",
      ),
    );
    expect(plain.code, plain.output).toBe(0);
    expect(eventsOf(guarded)).toContain('framework_changed src/math.js:3 assert/strict.equal written');
  });

  it('names a guarded export redefined through Reflect.defineProperty and Object.defineProperties', async () => {
    const { plain, guarded } = await run(
      withLines(
        "import strict from 'node:assert/strict';\nReflect.defineProperty(strict, 'equal', { value: () => {} });\ntry { Object.defineProperties(strict, { ok: { value: () => {} } }); } catch {}\ntry { Object.setPrototypeOf(strict, null); } catch {}\n",
      ),
    );
    expect(plain.code, plain.output).toBe(0);
    expect(eventsOf(guarded)).toEqual(
      expect.arrayContaining([
        'framework_changed src/math.js:2 assert/strict.equal redefined',
        'framework_changed src/math.js:3 assert/strict.ok redefined',
        'framework_changed src/math.js:4 assert/strict.[[Prototype]] redefined',
      ]),
    );
  });

  it('names the require of a .txt file, and the write its code makes', async () => {
    const patch = "require('node:assert/strict').equal = () => {};\n";
    const { plain, guarded } = await run(
      withLines("import { createRequire } from 'node:module';\ncreateRequire(import.meta.url)('./patch.txt');\n"),
      { 'src/patch.txt': patch },
    );
    expect(plain.code, plain.output).toBe(0);
    expect(eventsOf(guarded)).toEqual(
      expect.arrayContaining([
        'dynamic_code src/math.js:2 require of a file that is not code: patch.txt',
        'framework_changed src/patch.txt:1 assert/strict.equal written',
      ]),
    );
  });

  it("names code the source runs from a string through vm, but not a dependency's own vm call made while a source module imports", async () => {
    // A module runner in node_modules evaluates what it is given with vm.runInThisContext, as
    // vite-node does for every module of a vitest 0.x to 3 suite: the importing module is the
    // innermost repository frame, and ran no string.
    // (Under a folder of its own: the project's node_modules is fixloop's, linked.)
    const runner = {
      'vendor/node_modules/tiny-runner/index.js':
        "const vm = require('node:vm');\nmodule.exports = (code) => vm.runInThisContext(code);\n",
    };
    const viaRunner =
      "import { createRequire } from 'node:module';\nconst evaluate = createRequire(import.meta.url)('../vendor/node_modules/tiny-runner/index.js');\nconst twice = evaluate('(x) => 2 * x');\nexport function add(a, b) {\n  return twice(a + b) / 2;\n}\n";
    const dependency = await guard(viaRunner, runner);
    expect(dependency.code, dependency.output).toBe(0);
    expect(eventsOf(dependency)).toEqual([]);
    const direct = await guard(
      viaRunner.replace(
        "createRequire(import.meta.url)('../vendor/node_modules/tiny-runner/index.js')",
        "(code) => process.getBuiltinModule('node:vm').runInThisContext(code)",
      ),
      runner,
    );
    expect(direct.code, direct.output).toBe(0);
    expect(eventsOf(direct)).toEqual(['dynamic_code src/math.js:2 vm.runInThisContext of a string']);
  });

  it('names process.exit(0) during a test, and the record of that process is not complete', async () => {
    const { plain, guarded } = await run('export function add(a, b) {\n  process.exit(0);\n}\n');
    expect(plain.code, plain.output).toBe(0);
    expect(guarded.code).toBe(0);
    expect(eventsOf(guarded)).toEqual(['exit src/math.js:2 process.exit(0)']);
    expect(guarded.records.some((r) => !r.complete)).toBe(true);
  });

  it('names a read of the test file found through readdirSync and a variable', async () => {
    const cheat = [
      "import { readdirSync, readFileSync } from 'node:fs';",
      'export function add(a, b) {',
      "  const dir = new URL('../test/', import.meta.url);",
      '  for (const name of readdirSync(dir)) {',
      '    const text = readFileSync(new URL(name, dir), "utf8");',
      '    const found = new RegExp(`add\\\\(${a}, ${b}\\\\), (-?\\\\d+)`).exec(text);',
      '    if (found) return Number(found[1]);',
      '  }',
      '}',
      '',
    ].join('\n');
    const { plain, guarded } = await run(cheat);
    expect(plain.code, plain.output).toBe(0);
    expect(eventsOf(guarded)).toEqual(['test_file_read src/math.js:5 fs.readFileSync test/math.test.js']);
  });

  // A file named like a runner's configuration or a setup file, which reads the tests as the module
  // loads (no frame of other code on the stack): a judge lists the baseline's such files only.
  const readsTestsAtLoad = [
    "import { readdirSync, readFileSync } from 'node:fs';",
    "const dir = new URL(['..', 'te' + 'st', ''].join('/'), import.meta.url);",
    "export const expected = readdirSync(dir).map((n) => readFileSync(new URL(n, dir), 'utf8')).join('');",
    '',
  ].join('\n');
  const usesIt = (from: string) =>
    `import { expected } from '${from}';\nexport function add(a, b) {\n  return expected.includes(\`add(\${a}, \${b}), \${a + b}\`) ? a + b : a - b;\n}\n`;
  for (const added of ['src/jest.config.js', 'lib/test.setup.js']) {
    it(`names a read of the tests from ${added}, a file its name would exempt, where the judge does not list it`, async () => {
      const files = (source: string) => ({
        'package.json': ESM,
        'src/math.js': source,
        'test/math.test.js': NODE_TEST,
        [added]: readsTestsAtLoad,
      });
      const root = project(files(usesIt(added.startsWith('src/') ? './jest.config.js' : '../lib/test.setup.js')));
      const plain = await runIn(root, 'node-test', ['node', '--test'], false);
      expect(plain.code, plain.output).toBe(0);
      // The judge lists the baseline's configuration and setup files: this one is not among them.
      const judged = await runIn(root, 'node-test', ['node', '--test'], true, []);
      expect(eventsOf(judged)).toEqual([`test_file_read ${added}:3 fs.readFileSync test/math.test.js`]);
      // Listed (the baseline's own, unchanged), it is the runner's or the tests' side, as it is unlisted.
      expectClean(await runIn(root, 'node-test', ['node', '--test'], true, [added]), 2);
      expectClean(await runIn(root, 'node-test', ['node', '--test'], true), 2);
    });
  }

  // Reads of the tests whose caller hides: the stack locked (node 22.9 and later still read it, with
  // `util.getCallSites`, which no `Error` setting changes), or holding no file at all (unknown).
  const readsTests = (read: string) => `const dir = new URL(['..', 'te' + 'st', ''].join('/'), import.meta.url);\n${read}`;
  const answers = `export function add(a, b) {\n  return String(expected).includes(\`add(\${a}, \${b}), \${a + b}\`) ? a + b : a - b;\n}\n`;
  const UNKNOWN = ': could not tell who read it (the stack could not be read, or held no file)';
  const LOCKS: Record<string, string> = {
    'a frozen Error': 'Object.freeze(Error);',
    'prepareStackTrace locked with a getter':
      "Object.defineProperty(Error, 'prepareStackTrace', { get: () => () => 'x', configurable: false });",
    'stackTraceLimit locked at 0':
      "Object.defineProperty(Error, 'stackTraceLimit', { value: 0, writable: false, configurable: false });",
    'a replaced global Error whose prepareStackTrace throws':
      "globalThis.Error = new Proxy(Error, { get: (t, k) => { if (k === 'prepareStackTrace') throw new Error('no'); return t[k]; } });",
  };
  for (const [lock, line] of Object.entries(LOCKS)) {
    it(`names the reader of the tests after ${lock}, from node's own stack`, async () => {
      const source = [
        "import { readdirSync, readFileSync } from 'node:fs';",
        readsTests(line),
        "const expected = readdirSync(dir).map((n) => readFileSync(new URL(n, dir), 'utf8')).join('');",
        answers,
      ].join('\n');
      const { plain, guarded } = await run(source);
      expect(plain.code, plain.output).toBe(0);
      expect(eventsOf(guarded)).toContain('test_file_read src/math.js:4 fs.readFileSync test/math.test.js');
    });
  }

  it('names a read of the tests that a promise job makes with no frame of any file', async () => {
    const source = [
      "import { readdirSync, readFileSync } from 'node:fs';",
      readsTests(''),
      'const expected = [];',
      // No await: the job's stack holds the guard's wrapper alone (an awaiting module would be on it).
      'for (const n of readdirSync(dir)) Promise.resolve(new URL(n, dir)).then(readFileSync).then((t) => expected.push(t));',
      answers,
    ].join('\n');
    const { plain, guarded } = await run(source);
    expect(plain.code, plain.output).toBe(0);
    expect(eventsOf(guarded)).toContain(`test_file_read ?:? fs.readFileSync test/math.test.js${UNKNOWN}`);
  });

  it('stays clean for source that freezes Error and reads only its own data', async () => {
    const source = [
      "import { readFileSync } from 'node:fs';",
      'Object.freeze(Error);',
      "const table = JSON.parse(readFileSync(new URL('./table.json', import.meta.url), 'utf8'));",
      FIXED.replace('a + b', 'a + b + table.offset'),
    ].join('\n');
    // node's own read of its runner's variable is node's, read from node's own stack.
    expectClean(await guard(source, { 'src/table.json': '{ "offset": 0 }\n' }), 2);
  });

  it('stays clean for source that reads its own data and exits only from a CLI entry no test reaches', async () => {
    const source =
      "import { readFileSync } from 'node:fs';\nconst table = JSON.parse(readFileSync(new URL('./table.json', import.meta.url), 'utf8'));\nexport function add(a, b) {\n  return a + b + table.offset;\n}\n";
    const cli =
      "import { add } from './math.js';\nconsole.log(add(Number(process.argv[2]), Number(process.argv[3])));\nprocess.exit(0);\n";
    expectClean(await guard(source, { 'src/table.json': '{ "offset": 0 }\n', 'src/cli.js': cli }), 2);
  });
});

describe('the Node guard under mocha', () => {
  const files = (source: string) => ({ 'package.json': ESM, 'src/math.js': source, 'test/math.test.js': MOCHA_TEST });
  const run = (source: string) => both(files(source), 'mocha', ['mocha']);

  it('leaves a complete record without events for an honest suite, and counts its tests', async () => {
    expectClean(await guardedRun(files(FIXED), 'mocha', ['mocha']), 2);
  });

  it('names process.exit(0) from the code under test', async () => {
    const { plain, guarded } = await run('export function add(a, b) {\n  process.exit(0);\n}\n');
    expect(plain.code, plain.output).toBe(0);
    expect(eventsOf(guarded)).toEqual(['exit src/math.js:2 process.exit(0)']);
    expect(guarded.records.every((r) => !r.complete)).toBe(true);
  });

  it('names a write to assert/strict through process.getBuiltinModule', async () => {
    const { plain, guarded } = await run(withLines("process.getBuiltinModule('node:assert/strict').equal = () => {};\n"));
    expect(plain.code, plain.output).toBe(0);
    expect(eventsOf(guarded)).toContain('framework_changed src/math.js:1 assert/strict.equal written');
  });
});

describe('the Node guard under jest', () => {
  const CJS = JSON.stringify({ name: 'calc', private: true }) + '\n';
  const cjs = (source: string) => source.replace(/^export function add/m, 'function add') + 'module.exports = { add };\n';
  const files = (source: string) => ({ 'package.json': CJS, 'src/math.js': cjs(source), 'test/math.test.js': JEST_TEST });
  const run = (source: string, args: string[] = []) => both(files(source), 'jest', ['jest', '--ci', ...args]);
  const guard = (source: string) => guardedRun(files(source), 'jest', ['jest', '--ci']);

  it('leaves complete records without events for an honest suite, and counts its tests', async () => {
    expectClean(await guard(FIXED), 2);
  });

  it("names a Symbol.hasInstance defined on the test realm's Error, which jest's equality asks", async () => {
    const guarded = await guard(
      withLines(
        "Object.defineProperty(Error, Symbol.hasInstance, { value: (v) => typeof v === 'string', configurable: true });\n",
        FIXED,
      ),
    );
    expect(eventsOf(guarded)).toContain('framework_changed src/math.js:1 Error[Symbol.hasInstance] defined');
  });

  it("names a key added to the test realm's Object.prototype by an assignment", async () => {
    const { plain, guarded } = await run(withLines("Object.prototype['un' + 'settled'] = 1;\n", FIXED));
    expect(plain.code, plain.output).toBe(0);
    expect(eventsOf(guarded)).toEqual([
      'framework_changed ?:? Object.prototype.unsettled added by a route the guard does not watch',
    ]);
  });

  it('names expect.extend from the code under test', async () => {
    const { plain, guarded } = await run(withLines('expect.extend({ toBe: () => ({ pass: true, message: () => "" }) });\n'));
    expect(plain.code, plain.output).toBe(0);
    expect(eventsOf(guarded)).toContain('framework_changed src/math.js:1 jest expect matcher toBe replaced (expect.extend)');
  });

  it("names an equality tester and an event handler the code under test adds to expect's and circus's state", async () => {
    const guarded = await guard(
      withLines(
        "globalThis[Symbol.for('$$jest-matchers-object')].customEqualityTesters.push(() => undefined);\n" +
          "globalThis[Symbol.for('EVENT_HANDLERS')].unshift(() => undefined);\n",
        FIXED,
      ),
    );
    const events = eventsOf(guarded);
    expect(events).toContain("framework_changed src/math.js:1 jest expect's custom equality testers changed (0)");
    expect(events.some((e) => e.startsWith("framework_changed src/math.js:2 jest-circus's event handlers changed"))).toBe(true);
  });

  it("leaves a test's own equality tester alone", async () => {
    const tester = "expect.addEqualityTesters([(a, b) => (a === 'five' && b === 5 ? true : undefined)]);\n";
    const guarded = await guardedRun(
      { 'package.json': CJS, 'src/math.js': cjs(FIXED), 'test/math.test.js': tester + JEST_TEST },
      'jest',
      ['jest', '--ci'],
    );
    expectClean(guarded, 2);
  });
});

describe('the Node guard under vitest', () => {
  const files = (source: string) => ({ 'package.json': ESM, 'src/math.js': source, 'test/math.test.js': VITEST_TEST });
  const EXTEND = "import { expect } from 'vitest';\nexpect.extend({ toBe: () => ({ pass: true, message: () => '' }) });\n";

  it.each(['threads', 'forks'])(
    'leaves complete records without events for an honest suite (%s pool), and counts its tests',
    async (pool) => {
      expectClean(await guardedRun(files(FIXED), 'vitest', ['vitest', 'run', `--pool=${pool}`]), 2);
    },
  );

  it('names an equality tester the code under test adds to the shared matcher state', async () => {
    const source = withLines(
      "globalThis[Symbol.for('$$jest-matchers-object')].customEqualityTesters.push(() => undefined);\n",
      FIXED,
    );
    const guarded = await guardedRun(files(source), 'vitest', ['vitest', 'run', '--pool=forks']);
    expect(eventsOf(guarded)).toContain("framework_changed src/math.js:1 vitest expect's custom equality testers changed (0)");
  });

  it.each(['threads', 'forks'])('names expect.extend from the code under test (%s pool)', async (pool) => {
    const { plain, guarded } = await both(files(withLines(EXTEND)), 'vitest', ['vitest', 'run', `--pool=${pool}`]);
    expect(plain.code, plain.output).toBe(0);
    expect(eventsOf(guarded)).toContain('framework_changed src/math.js:2 vitest expect matcher toBe replaced (expect.extend)');
  });
});

describe("the Node guard's channel and records", () => {
  it('keeps its channel out of the environment the code under test reads, in the processes node --test starts', async () => {
    const source =
      'export function add(a, b) {\n  return Object.keys(process.env).some((k) => k.startsWith("FIXLOOP")) ? a - b : a + b;\n}\n';
    const root = project({ 'package.json': ESM, 'src/math.js': source, 'test/math.test.js': NODE_TEST });
    const guarded = await runIn(root, 'node-test', ['node', '--test'], true);
    expectClean(guarded, 2);
  });

  it('appends its preload to the NODE_OPTIONS already given, quoting a path with a space, and opens a pipe of keys', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fix loop-'));
    const dirs = { code: dir, records: guardDirs().records };
    const guard = nodeRuntimeGuard('jest', jestTestCase);
    const asked = await guard.ask(
      {
        command: 'jest',
        env: { NODE_OPTIONS: '--max-old-space-size=4096', JEST_OPTION: '1' },
        packageScripts: {},
        root: '/repo',
        testFiles: ['a.test.js', 'b.test.js'],
        runnerVariables: ['^JEST_'],
      },
      dirs,
    );
    expect(asked?.env?.NODE_OPTIONS).toBe(`--max-old-space-size=4096 --require "${dir}/guard-preload.cjs"`);
    expect(readdirSync(dir)).toContain('guard-preload.cjs');
    expect(JSON.parse(asked?.env?.FIXLOOP_GUARD ?? '')).toEqual({
      dir: dirs.records,
      runner: 'jest',
      root: '/repo',
      tests: ['a.test.js', 'b.test.js'],
      // No configuration or setup files listed (a run that is not judged): every file so named.
      exempt: null,
      variables: ['^JEST_'],
      // What the command is given is the operator's setting, not the runner's sign.
      given: ['NODE_OPTIONS', 'JEST_OPTION'],
    });
    expect(statSync(join(dirs.records, 'keys.fifo')).isFIFO()).toBe(true);
    // No key taken, no file: no record.
    expect(await guard.read(dirs)).toEqual([]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('signs with HMAC-SHA256, built on crypto.hash, or on createHmac where Node has no crypto.hash (before 20.12)', () => {
    const script = (withoutHash: boolean) => `${withoutHash ? "delete require('node:crypto').hash;" : ''}
      const { hmac } = require(${JSON.stringify(join(process.cwd(), 'src/runners/node-guard/guard-key.cjs'))});
      const key = Buffer.alloc(32, 7);
      process.stdout.write(String(hmac(new Uint8Array(key), 'payload é') === require('node:crypto').createHmac('sha256', key).update('payload é').digest('hex')));`;
    for (const withoutHash of [false, true])
      expect(execFileSync(process.execPath, ['-e', script(withoutHash)], { encoding: 'utf8' })).toBe('true');
  });

  it("takes a record only when the key its process took signed it; anything else there is missing evidence or not the guard's", async () => {
    const { hmac } = createRequire(import.meta.url)('../../src/runners/node-guard/guard-key.cjs') as {
      hmac: (key: Uint8Array, payload: string) => string;
    };
    const dirs = guardDirs();
    const dir = dirs.records;
    const guard = nodeRuntimeGuard('jest', jestTestCase);
    await guard.ask({ command: 'jest', env: {}, packageScripts: {}, root: '/repo', testFiles: [], runnerVariables: [] }, dirs);
    /** A process takes the next key, key `i` (as guard-key.cjs does), and, with `record`, writes what it signs. */
    const take = (i: number): Uint8Array => {
      const { index, key } = takeKey(dir);
      expect(index).toBe(i);
      return new Uint8Array(Buffer.from(key, 'hex'));
    };
    const signed = (key: Uint8Array, record: object) => {
      const payload = JSON.stringify(record);
      return JSON.stringify({ payload, mac: hmac(key, payload) });
    };
    const ran = {
      runner: 'jest',
      pid: 41,
      thread: 0,
      runs: true,
      complete: true,
      exitCode: 0,
      tests: { passed: 2, failed: 0, skipped: 0 },
      events: [],
    };
    writeFileSync(join(dir, 'record-0.json'), signed(take(0), ran));
    // A process that ran no test and did nothing: not a record to judge.
    writeFileSync(join(dir, 'record-1.json'), signed(take(1), { ...ran, pid: 42, runs: false, tests: null }));
    // Rewritten without the key (a forged clean record), signed with another key, and removed.
    take(2);
    writeFileSync(join(dir, 'record-2.json'), JSON.stringify({ payload: JSON.stringify({ ...ran, pid: 43 }), mac: '00' }));
    const stolen = take(3);
    take(4);
    writeFileSync(join(dir, 'record-4.json'), signed(stolen, { ...ran, pid: 44 }));
    take(5);
    // Files no key answers for, and a process that found no key left.
    writeFileSync(join(dir, '41.json'), JSON.stringify(ran));
    writeFileSync(join(dir, 'record-200.json'), signed(new Uint8Array(32), ran));
    writeFileSync(join(dir, 'unkeyed-77.json'), JSON.stringify({ ...ran, pid: 77 }));
    writeFileSync(
      join(dir, 'unkeyed-78.json'),
      JSON.stringify({
        ...ran,
        pid: 78,
        runs: false,
        complete: true,
        events: [{ kind: 'test_file_read', file: 'src/a.js', line: 3, detail: 'read test/a.test.js' }],
      }),
    );
    const records = await guard.read(dirs);
    const missing = { runner: 'unknown', pid: 0, complete: false, tests: null, events: [] };
    const notTheGuards = (name: string, pid: number) => ({
      runner: 'unknown',
      pid,
      complete: false,
      tests: null,
      events: [{ kind: 'report_written', file: null, line: null, detail: `guard record ${name} is not one the guard writes` }],
    });
    expect(records).toEqual([
      { runner: 'jest', pid: 41, complete: true, tests: { passed: 2, failed: 0, skipped: 0 }, events: [] },
      missing, // key 2: not signed with its key
      missing, // key 3: taken, never answered
      missing, // key 4: signed with key 3's
      missing, // key 5: removed
      notTheGuards('41.json', 41),
      notTheGuards('record-200.json', 200),
      { runner: 'jest', pid: 77, complete: false, tests: { passed: 2, failed: 0, skipped: 0 }, events: [] },
      {
        runner: 'jest',
        pid: 78,
        complete: true,
        tests: { passed: 2, failed: 0, skipped: 0 },
        events: [{ kind: 'test_file_read', file: 'src/a.js', line: 3, detail: 'read test/a.test.js' }],
      },
    ]);
  });
});
