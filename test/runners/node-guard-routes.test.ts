// The Node guard knows a test file by what was opened, whatever name reached it (guard-opened.cjs),
// and watches the routes below and beside `fs` from the repository's code (guard-routes.cjs,
// guard-children.cjs): in real node --test runs of a tiny project whose test files are listed, as the
// judge lists the baseline's. Each route from source is an event; the same routes taken honestly
// (the code's own data, a dependency's call, a child that keeps the environment) are not.
import { spawn } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { GuardRecord } from '../../src/core/guard-record.ts';
import { guardDirs, guardOf, project, removeProjects } from '../support/guarded-run.ts';
import { RUNNER_VARIABLE_SOURCES } from '../../src/runners/registry.ts';

vi.setConfig({ testTimeout: 60_000 });
afterAll(() => removeProjects());

const NODE = resolve('node_modules', 'node', 'bin', 'node');
const TEST =
  "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { add } from '../src/math.js';\n\ntest('add sums', () => assert.equal(add(2, 3), 5));\n";
const ADD = 'export function add(a, b) {\n  return a + b;\n}\n';

/** node --test in a project whose source is `lines` before `add`, the test file listed; the events, as `kind file:line detail`. */
async function eventsOf(lines: string[], files: Record<string, string> = {}): Promise<string[]> {
  const root = project({
    'package.json': JSON.stringify({ type: 'module' }),
    'src/math.js': `${lines.join('\n')}\n${ADD}`,
    'test/math.test.js': TEST,
    'data/rates.txt': 'rates\n',
    ...files,
  });
  const dirs = guardDirs();
  const guard = guardOf('node-test');
  const base = { PATH: `${dirname(NODE)}:${process.env.PATH ?? ''}`, HOME: root };
  const context = {
    command: 'node --test',
    env: base,
    packageScripts: {},
    root,
    testFiles: ['test/math.test.js'],
    runnerVariables: RUNNER_VARIABLE_SOURCES,
  };
  const asked = await guard.ask(context, dirs);
  const child = spawn(NODE, ['--test'], { cwd: root, env: { ...base, ...asked?.env }, stdio: 'ignore' });
  const code = await new Promise<number | null>((done) => child.on('close', done));
  expect(code).toBe(0);
  const records: GuardRecord[] = await guard.read(dirs);
  // Guarded for certain: the process that ran the test file keeps a record.
  expect(records.length).toBeGreaterThan(0);
  expect(records.every((r) => r.complete)).toBe(true);
  return records.flatMap((r) => r.events.map((e) => `${e.kind} ${e.file ?? '?'}:${e.line ?? '?'} ${e.detail}`));
}

/** The test file's path, computed (as a cheat hides it from the syntax check). */
const TEST_PATH = "const t = ['te', 'st'].join('') + '/math.test.js';";

describe('the Node guard, reads seen by what was opened', () => {
  it('names a read of the test file through /proc/self/cwd, a hard link, a symlink, a descriptor from /proc/self/root, and its folder copied', async () => {
    const events = await eventsOf([
      "import fs from 'node:fs';",
      "import { tmpdir } from 'node:os';",
      TEST_PATH,
      "const dir = fs.mkdtempSync(tmpdir() + '/links-');",
      "fs.readFileSync('/proc/self/cwd/' + t, 'utf8');",
      "fs.link(t, dir + '/hard', () => {}); fs.linkSync(t, dir + '/h');",
      "fs.readFileSync(dir + '/h', 'utf8');",
      "fs.symlinkSync(process.cwd() + '/./' + t, dir + '/s');",
      "await fs.promises.readFile(dir + '/s', 'utf8');",
      "fs.readFileSync(fs.openSync('/proc/self/root' + process.cwd() + '/src/../' + t), 'utf8');",
      "fs.cpSync(t.split('/')[0], dir + '/copy', { recursive: true });",
    ]);
    expect(events).toHaveLength(9);
    expect(events).toEqual(
      expect.arrayContaining([
        'test_file_read src/math.js:5 fs.readFileSync test/math.test.js (opened as /proc/self/cwd/test/math.test.js)',
        'test_file_read src/math.js:6 fs.link test/math.test.js',
        'test_file_read src/math.js:6 fs.linkSync test/math.test.js',
        'test_file_read src/math.js:8 fs.symlinkSync test/math.test.js',
        expect.stringMatching(
          /^test_file_read src\/math.js:7 fs.readFileSync test\/math.test.js \(opened as \/.*links-\w+\/h\)$/,
        ),
        expect.stringMatching(
          /^test_file_read src\/math.js:9 fs.promises.readFile test\/math.test.js \(opened as \/.*links-\w+\/s\)$/,
        ),
        expect.stringMatching(
          /^test_file_read src\/math.js:10 fs.openSync test\/math.test.js \(opened as \/proc\/self\/root\/.*\)$/,
        ),
        expect.stringMatching(/^test_file_read src\/math.js:10 fs.readFileSync test\/math.test.js \(opened as descriptor \d+\)$/),
        expect.stringMatching(/^test_file_read src\/math.js:11 fs.cpSync test\/math.test.js \(opened as \/.*\/test\)$/),
      ]),
    );
  });

  it('stays clean for source that reads and links its own data by the same routes', async () => {
    const events = await eventsOf([
      "import fs from 'node:fs';",
      "import { tmpdir } from 'node:os';",
      "const d = ['da', 'ta'].join('') + '/rates.txt';",
      "const dir = fs.mkdtempSync(tmpdir() + '/links-');",
      "fs.readFileSync('/proc/self/cwd/' + d, 'utf8');",
      "fs.linkSync(d, dir + '/h'); fs.readFileSync(dir + '/h', 'utf8');",
      "fs.symlinkSync(process.cwd() + '/' + d, dir + '/s'); fs.readFileSync(dir + '/s', 'utf8');",
      "fs.readFileSync(fs.openSync('/proc/self/root' + process.cwd() + '/' + d), 'utf8');",
      "fs.cpSync(d.split('/')[0], dir + '/copy', { recursive: true });",
    ]);
    expect(events).toEqual([]);
  });
});

describe('the Node guard, routes below fs and loader hooks', () => {
  it('names process.binding, a require.extensions entry, Module.prototype._compile and module.register from source', async () => {
    const events = await eventsOf([
      "import { createRequire, register } from 'node:module';",
      'const require = createRequire(import.meta.url);',
      "process.binding('fs');",
      "require.extensions['.txt'] = require.extensions['.js'];",
      "const Module = require('node:module'); const compile = Module.prototype._compile; Module.prototype._compile = compile;",
      "register('data:text/javascript,export async function load(u, c, n) { return n(u, c); }');",
    ]);
    expect(events).toEqual([
      'internal_binding src/math.js:3 process.binding("fs")',
      'loader_hook src/math.js:4 require.extensions[".txt"] set',
      'loader_hook src/math.js:5 Module.prototype._compile replaced',
      'loader_hook src/math.js:6 module.register("data:text/javascript,export async function load(u, c, n) { return n(u, c); }")',
    ]);
  });

  it("stays clean for a dependency's own process.binding and loader hook, made while the source imports it", async () => {
    const dependency = [
      "process.binding('constants');",
      "require.extensions['.txt'] = (m, f) => { m.exports = require('node:fs').readFileSync(f, 'utf8'); };",
      "const Module = require('node:module'); const c = Module.prototype._compile; Module.prototype._compile = c;",
      "module.exports = require('node:path').join;",
      '',
    ].join('\n');
    const events = await eventsOf(["import join from '../lib/node_modules/dep/index.cjs';", 'join();'], {
      'lib/node_modules/dep/index.cjs': dependency,
    });
    expect(events).toEqual([]);
  });
});

describe('the Node guard, worker threads', () => {
  it('names a worker started from source with code in a string or a data: URL, and not one started from a file', async () => {
    const reads = "require('node:fs').readFileSync('test/math.test.js', 'utf8')";
    const events = await eventsOf(
      [
        "import { Worker } from 'node:worker_threads';",
        `new Worker(${JSON.stringify(reads)}, { eval: true });`,
        `new Worker(new URL('data:text/javascript,' + encodeURIComponent(${JSON.stringify(`import { createRequire } from 'node:module'; createRequire('${'/'}x')('node:fs');`)})));`,
        "new Worker(new URL('./work.cjs', import.meta.url));",
      ],
      {
        'src/work.cjs':
          "require('node:fs').readFileSync(require('node:path').join(__dirname, '..', 'data', 'rates.txt'), 'utf8');\n",
      },
    );
    expect(events).toEqual([
      'dynamic_code src/math.js:2 a worker thread started from a string',
      'dynamic_code src/math.js:3 a worker thread started from a string',
    ]);
  });
});

describe('the Node guard, child processes', () => {
  it('names a child started from source with an empty environment, or with NODE_OPTIONS taken out, one started from a timer, by no file, and one given a module loader', async () => {
    const events = await eventsOf([
      "import { execFileSync, spawn, spawnSync } from 'node:child_process';",
      "execFileSync(process.execPath, ['-e', '0'], { env: {} });",
      "const env = { ...process.env }; delete env.NODE_OPTIONS; spawn(process.execPath, ['-e', '0'], { env });",
      "spawnSync(process.execPath, ['--experimental-loader', './hooks.mjs', '-e', '0'], { stdio: 'ignore' });",
      "delete process.env.NODE_OPTIONS; execFileSync('true');",
      "await new Promise((done) => { setTimeout(execFileSync, 0, 'true', [], { env: {}, stdio: 'ignore' }); setTimeout(done, 100); });",
    ]);
    expect(events).toEqual([
      `child_unguarded src/math.js:2 started \`${realpathSync(NODE)}\` with an environment without the guard's NODE_OPTIONS`,
      `child_unguarded src/math.js:3 started \`${realpathSync(NODE)}\` with an environment without the guard's NODE_OPTIONS`,
      `loader_hook src/math.js:4 started \`${realpathSync(NODE)}\` with a module loader (--loader)`,
      "child_unguarded src/math.js:5 started `true` with an environment without the guard's NODE_OPTIONS",
      "child_unguarded ?:? started `true` with an environment without the guard's NODE_OPTIONS: could not tell who started it",
    ]);
  });

  it('names a child of any program whose command line names a test file, however it is started', async () => {
    const events = await eventsOf([
      "import { execFileSync, execSync, spawnSync } from 'node:child_process';",
      "execFileSync('cat', ['test/math.test.js'], { stdio: 'ignore' });",
      "execSync('grep -c add ./test/math.test.js', { stdio: 'ignore' });",
      "spawnSync('sh', ['-c', `wc -l ${process.cwd()}/test/math.test.js`], { stdio: 'ignore' });",
      "execFileSync('cat', ['data/rates.txt'], { stdio: 'ignore' });",
    ]);
    expect(events).toEqual([
      'test_file_read src/math.js:2 started `cat` with the test file test/math.test.js on its command line',
      'test_file_read src/math.js:3 started `grep -c add ./test/math.test.js` with the test file test/math.test.js on its command line',
      'test_file_read src/math.js:4 started `sh` with the test file test/math.test.js on its command line',
    ]);
  });

  it('names a child whose command line reads a folder that holds the tests, searches its folder whole, or reads the committed files', async () => {
    const events = await eventsOf([
      "import { spawnSync } from 'node:child_process';",
      "const quiet = { stdio: 'ignore' };",
      "spawnSync('grep', ['-rho', 'add(.*)', '.'], quiet);",
      "spawnSync('sh', ['-c', 'cat te*/*.js'], quiet);",
      "spawnSync('rg', ['-o', 'add'], quiet);",
      "spawnSync('git', ['-C', process.cwd(), 'grep', '-h', 'add', 'HEAD'], quiet);",
      "spawnSync('git', ['log', '--format=%H'], quiet);",
      "spawnSync('grep', ['-c', 'rates', 'data/rates.txt'], quiet);",
      "spawnSync('tar', ['-cf', '/dev/null', 'data'], quiet);",
    ]);
    expect(events).toEqual([
      'test_file_read src/math.js:3 started `grep` with the folder `.`, which holds the tests',
      'test_file_read src/math.js:4 started `sh` with the folder `.`, which holds the tests',
      'test_file_read src/math.js:5 started `rg` with its working folder `.`, which holds the tests, searched whole',
      "test_file_read src/math.js:6 started `git` with the repository's files through `git grep`",
    ]);
  });

  it('stays clean for children that inherit the environment or are given a copy of it', async () => {
    const events = await eventsOf([
      "import { execFileSync, execSync, spawn, spawnSync } from 'node:child_process';",
      "execFileSync(process.execPath, ['-e', '0']);",
      "execSync('true', { env: process.env });",
      "spawnSync('true', [], { env: { ...process.env, EXTRA: '1' } });",
      "await new Promise((done) => spawn('true', { env: { ...process.env } }).on('close', done));",
    ]);
    expect(events).toEqual([]);
  });
});

describe('the Node guard, the runner detected through the environment', () => {
  it("names a runner's variable read by a name made at run time, asked for with `in`, and /proc's environ and cmdline read", async () => {
    const events = await eventsOf([
      "import fs from 'node:fs';",
      "const name = ['NODE', 'TEST', 'CONTEXT'].join('_');",
      'export const underTest = process.env[name] !== undefined;',
      "export const jest = ['JEST', 'WORKER', 'ID'].join('_') in process.env;",
      "fs.readFileSync('/proc/self/environ'); fs.readFileSync('/proc/' + process.ppid + '/cmdline');",
      "fs.readFileSync('/proc/self/root/proc/thread-self/environ');",
    ]);
    expect(events).toEqual([
      "runner_detected src/math.js:3 read the runner's variable NODE_TEST_CONTEXT from the environment",
      "runner_detected src/math.js:4 read the runner's variable JEST_WORKER_ID from the environment",
      'runner_detected src/math.js:5 read /proc/self/environ, what a process started with',
      'runner_detected src/math.js:5 read /proc/<pid>/cmdline, what a process started with',
      'runner_detected src/math.js:6 read /proc/thread-self/environ, what a process started with',
    ]);
  });

  it('leaves the variables the runner set out of a listing or a copy the code makes, and keeps those the code set', async () => {
    const events = await eventsOf([
      "const runners = (keys) => keys.filter((k) => k.startsWith('NODE_TEST') || k === 'TEST');",
      "if (runners(Object.keys(process.env)).length > 0) throw new Error('listed');",
      "if (runners(Object.keys({ ...process.env })).length > 0) throw new Error('copied');",
      "if (runners(Object.entries(process.env).map(([k]) => k)).length > 0) throw new Error('entries');",
      "process.env.TEST = 'the project\\'s own';",
      "if (runners(Object.keys(process.env)).join() !== 'TEST') throw new Error('its own variable was hidden');",
      "if (!('PATH' in { ...process.env })) throw new Error('PATH was hidden');",
    ]);
    expect(events).toEqual([]);
  });

  it("stays clean for the code's other variables, the test's own reads and a dependency's read of a runner's variable", async () => {
    const events = await eventsOf(
      [
        "import underTest from '../lib/node_modules/dep/index.cjs';",
        "export const mode = process.env.NODE_ENV ?? process.env.HOME ?? '';",
        'export const dependency = underTest();',
      ],
      {
        'lib/node_modules/dep/index.cjs': 'module.exports = () => process.env.NODE_TEST_CONTEXT !== undefined;\n',
        'test/math.test.js': `${TEST}test('under test', () => assert.ok(process.env.NODE_TEST_CONTEXT));\n`,
      },
    );
    expect(events).toEqual([]);
  });
});
