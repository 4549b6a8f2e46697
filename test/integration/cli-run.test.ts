// `fixloop run` end to end: real git repositories, real child processes, real test runners.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/core/run-result.ts';
import { git, makeRepo, removeAll } from '../support/git-fixture.ts';
import { FIXLOOP_BIN, runCli } from '../support/run-cli.ts';
import { withUserPath } from '../../src/sandbox/user-path.ts';
import { fullSuite } from '../support/suite-tier.ts';

const dirs: string[] = [];
afterAll(() => removeAll(dirs));

/**
 * The project's sources. The runs below test the loop, the judge and the command line; what else a
 * green patch changed (the assessment: a clone, a setup, three suite runs) is tested in
 * assessment.test.ts, and here only by the case that reads its result, on these sources alone.
 */
const NODE_SOURCES = {
  'package.json': '{ "name": "calc", "type": "module", "private": true }\n',
  'src/math.js': 'export function add(a, b) {\n  return a - b;\n}\n\nexport function mul(a, b) {\n  return a * b;\n}\n',
  'test/math.test.js': [
    "import assert from 'node:assert/strict';",
    "import { test } from 'node:test';",
    "import { add, mul } from '../src/math.js';",
    '',
    "test('add sums two numbers', () => {",
    '  assert.equal(add(2, 3), 5);',
    '});',
    '',
    "test('mul multiplies', () => {",
    '  assert.equal(mul(2, 3), 6);',
    '});',
    '',
  ].join('\n'),
};

/** The repository's fixloop.yml for runs that do not test the assessment. */
const NO_ASSESSMENT = 'assessment:\n  enabled: false\n';

const NODE_PROJECT = { ...NODE_SOURCES, 'fixloop.yml': NO_ASSESSMENT };

const FIX_ADD = "sed -i 's/a - b/a + b/' src/math.js";

async function repo(files: Record<string, string>, options: { git?: boolean } = {}): Promise<string> {
  const dir = await makeRepo(files, options);
  dirs.push(dir);
  return dir;
}

async function fixloop(args: string[], env: Record<string, string> = {}) {
  const cwd = await repo({});
  const out = join(cwd, 'out');
  const run = await runCli(['run', '--out', out, ...args], { cwd, env });
  return { ...run, out };
}

/** Whether the Node the user's PATH finds (fixloop's own install left out) loads TypeScript by itself. */
function userNodeStripsTypes(): boolean {
  const version = execFileSync('node', ['--version'], { encoding: 'utf8', env: withUserPath({ ...process.env }) }).trim();
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  return major > 23 || (major === 23 && minor >= 6) || (major === 22 && minor >= 18);
}

function json(stdout: string): RunResult {
  return JSON.parse(stdout) as RunResult;
}

function allArtifacts(out: string): string {
  return readdirSync(out)
    .map((f) => readFileSync(join(out, f), 'utf8'))
    .join('\n');
}

// A whole run each (the secret case's green run assesses its patch too): minutes on a loaded machine.
describe('fixloop run', { timeout: 180_000 }, () => {
  it('turns a failing node --test suite green with the script engine, replayed and compared per test', async () => {
    const project = await repo(NODE_PROJECT);
    const run = await fixloop([project, '--test', 'node --test', '--engine', 'script', '--script', FIX_ADD, '--json']);
    expect(run.code, run.stderr).toBe(0);
    const result = json(run.stdout);
    expect(result.status).toBe('tests_green');
    expect(result.attempts).toHaveLength(1);
    expect(result.engine).toBe('script');
    expect(result.patch).toContain('+  return a + b;');
    expect(result.filesChanged).toEqual([
      expect.objectContaining({ path: 'src/math.js', kind: 'modified', added: 1, removed: 1 }),
    ]);
    expect(result.baseline).toMatchObject({ passed: 1, failed: 1, total: 2, parsed: true });
    expect(result.final).toMatchObject({ passed: 2, failed: 0, total: 2 });
    expect(result.verification).toMatchObject({ replayed: true, passed: true, passToFail: [], findings: [] });
    expect(result.verification?.failToPass).toEqual([expect.stringContaining('add sums two numbers')]);
    for (const f of ['attempt-1.diff', 'attempt-1.log', 'report.md', 'result.json'])
      expect(existsSync(join(run.out, f)), f).toBe(true);
    expect(readFileSync(join(run.out, 'attempt-1.diff'), 'utf8')).toContain('a + b');
    // REPO itself is never modified without --apply.
    expect(readFileSync(join(project, 'src/math.js'), 'utf8')).toContain('a - b');
    expect(git(project, 'status', '--porcelain')).toBe('');
  });

  it('prints live progress and the Markdown report without --json', async () => {
    const project = await repo(NODE_PROJECT);
    const run = await fixloop([project, '--test', 'node --test', '--engine', 'script', '--script', FIX_ADD]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/baseline: 1 failing of 2/);
    expect(run.stderr).toMatch(/attempt 1\/5 \(script\)/);
    expect(run.stdout).toContain('## fixloop: ✅ Verified fix');
    expect(run.stdout).toContain('Fail → pass (1)');
    // The replay's whole output goes to the attempt's log, not the terminal: one line per step there.
    expect(run.stderr).toMatch(/replay: node --test/);
    expect(run.stderr).not.toMatch(/replay output|ℹ tests 2/);
    expect(readFileSync(join(run.out, 'attempt-1.log'), 'utf8')).toMatch(/==== replay output ====\n[\s\S]*ℹ tests 2/);
  });

  // A vitest suite fixed end to end: cli-repair's TypeScript case (`vitest run`, the repair engine)
  // and judge-cheats-vitest's honest runs (`npm test`, under each sandbox) run it, with the user's vitest.

  it.runIf(fullSuite)('fixes a pytest suite', async () => {
    const project = await repo({
      'calc.py': 'def average(values):\n    return sum(values) / (len(values) + 1)\n',
      'tests/test_calc.py':
        'from calc import average\n\n\ndef test_average():\n    assert average([2, 4]) == 3\n\n\ndef test_single():\n    assert average([5]) == 5\n',
      // Without the installed plugins' autoload (hypothesis, pytest-benchmark: ~2 s of every pytest
      // start here, of which this run has seven); the cheat suites run with it.
      'fixloop.yml': `env:\n  PYTEST_DISABLE_PLUGIN_AUTOLOAD: "1"\n${NO_ASSESSMENT}`,
    });
    // python3 as the user's PATH finds it (pyenv's shim here: the sandbox runs the version it selects).
    const run = await fixloop([
      project,
      '--test',
      'python3 -m pytest -q',
      '--engine',
      'script',
      '--script',
      "sed -i 's/(len(values) + 1)/len(values)/' calc.py",
      '--json',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const result = json(run.stdout);
    expect(result.status).toBe('tests_green');
    expect(result.baseline).toMatchObject({ failed: 2, passed: 0, format: 'pytest' });
    expect(result.verification?.failToPass).toEqual(['tests/test_calc.py::test_average', 'tests/test_calc.py::test_single']);
  });

  it('stops a script that never fixes anything, bounded, with the reason', async () => {
    const project = await repo(NODE_PROJECT);
    const run = await fixloop([
      project,
      '--test',
      'node --test',
      '--engine',
      'script',
      '--script',
      'echo trying',
      '--max-attempts',
      '4',
      '--json',
    ]);
    expect(run.code).toBe(1);
    const result = json(run.stdout);
    expect(result.status).toBe('escalated');
    expect(result.stopReason).toBe('no_progress');
    expect(result.attempts).toHaveLength(2);
    expect(result.patch).toBe('');
    expect(result.headline).toMatch(/no progress/);
  });

  it.runIf(fullSuite)('escalates after the consecutive-failure limit when every attempt fails differently', async () => {
    const project = await repo(NODE_PROJECT);
    // Each attempt breaks `add` in a new way: new failure messages, never fewer failing tests.
    const run = await fixloop([
      project,
      '--test',
      'node --test',
      '--engine',
      'script',
      '--script',
      'sed -i "s/return a - b.*/return a - b - $FIXLOOP_ATTEMPT;/" src/math.js',
      '--max-consecutive-failures',
      '2',
      '--json',
    ]);
    expect(run.code).toBe(1);
    const result = json(run.stdout);
    expect(result.status).toBe('escalated');
    expect(result.stopReason).toBe('consecutive_failures');
    expect(result.attempts).toHaveLength(2);
  });

  it('rejects a "fix" that edits a test, and one that deletes it, with the finding in the report', async () => {
    for (const script of [
      'printf \'import { test } from "node:test";\\ntest("ok", () => {});\\n\' > test/math.test.js',
      'rm test/math.test.js',
    ]) {
      const project = await repo(NODE_PROJECT);
      const run = await fixloop([project, '--test', 'node --test', '--engine', 'script', '--script', script, '--json']);
      expect(run.code, script).toBe(1);
      const result = json(run.stdout);
      expect(result.status).not.toBe('tests_green');
      expect(result.attempts[0]?.findings).toEqual([
        expect.objectContaining({ kind: 'path_protected', path: 'test/math.test.js' }),
      ]);
      expect(result.attempts[0]?.gate).toBeNull();
      const report = readFileSync(join(run.out, 'report.md'), 'utf8');
      expect(report).toContain('path_protected');
      expect(report).toContain('test/math.test.js');
    }
  });

  it.runIf(fullSuite)('does not call a run green when tests were removed, even where test files are not protected', async () => {
    const project = await repo({ ...NODE_PROJECT, 'fixloop.yml': "paths:\n  protected: ['.github/**']\n" });
    // Drops the failing test from the file: the suite passes, but it has fewer tests than the baseline.
    const script =
      "node -e \"const fs=require('fs');const p='test/math.test.js';fs.writeFileSync(p,fs.readFileSync(p,'utf8').replace(/test\\('add[\\s\\S]*?\\n\\}\\);\\n/,''))\"";
    const run = await fixloop([
      project,
      '--test',
      'node --test',
      '--engine',
      'script',
      '--script',
      script,
      '--max-attempts',
      '2',
      '--json',
    ]);
    expect(run.code).toBe(1);
    const result = json(run.stdout);
    expect(result.status).not.toBe('tests_green');
    const kinds = result.attempts.flatMap((a) => a.findings.map((f) => f.kind));
    expect(kinds).toContain('test_count_lower');
  });

  it.runIf(fullSuite)('says there is nothing to fix when the suite already passes', async () => {
    const project = await repo({
      ...NODE_PROJECT,
      'src/math.js': 'export const add = (a, b) => a + b;\nexport const mul = (a, b) => a * b;\n',
    });
    const run = await fixloop([project, '--test', 'node --test', '--engine', 'script', '--script', 'false', '--json']);
    expect(run.code).toBe(0);
    const result = json(run.stdout);
    expect(result.status).toBe('nothing_to_fix');
    expect(result.attempts).toEqual([]);
    expect(result.baseline).toMatchObject({ passed: 2, failed: 0 });

    // A goal no engine of the cascade can turn into a failing test is said to be unused, with the way to use it.
    const withGoal = await fixloop([project, '--test', 'node --test', '--goal', 'mul overflows on big numbers', '--json']);
    expect(withGoal.code).toBe(0);
    expect(json(withGoal.stdout)).toMatchObject({
      status: 'nothing_to_fix',
      redGreen: { notTried: 'no engine of the cascade (repair) can write tests' },
      headline: expect.stringMatching(
        /the goal was not used: no failing test was written first \(no engine of the cascade \(repair\) can write tests\)\. An engine that writes tests .* `--engine repair,agent`/,
      ),
    });
  });

  it('kills a hanging test command with its whole process tree; a baseline that times out is an error, not a bug', async () => {
    const project = await repo(NODE_PROJECT);
    const marker = String(900_000 + Math.floor(Math.random() * 99_999));
    const run = await fixloop([
      project,
      '--test',
      `sleep ${marker} & sleep ${marker}1; true`,
      '--timeout',
      '2',
      '--engine',
      'script',
      '--script',
      'true',
      '--max-attempts',
      '1',
      '--json',
    ]);
    expect(run.code).toBe(3);
    const result = json(run.stdout);
    expect(result.status).toBe('error');
    expect(result.error?.code).toBe('BASELINE_TIMEOUT');
    expect(result.error?.message).toMatch(/timed out after 2 s.*test\.timeout/s);
    expect(result.attempts).toEqual([]);
    const left = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
      .split('\n')
      .filter((l) => l.includes(`sleep ${marker}`));
    expect(left).toEqual([]);
  });

  it('ends a run whose environment is broken as an error with its cause, before any engine attempt', async () => {
    const project = await repo(NODE_PROJECT);
    const engineRan = join(project, '..', `engine-ran-${Date.now()}`);
    const script = ['--engine', 'script', '--script', `touch ${engineRan}`, '--json'];
    // Three runs of their own (each clones the project into its own workspace), started together.
    const [missing, none, module] = await Promise.all([
      fixloop([project, '--test', 'no-such-runner-xyz --run', ...script]),
      // node's runner in a folder with no test file: it runs, passes, and ran nothing.
      fixloop([project, '--test', 'cd src && node --test', ...script]),
      fixloop([project, '--test', 'python3 -c "import fixloop_absent_module_xyz"', ...script]),
    ]);
    expect(missing.code).toBe(3);
    expect(json(missing.stdout).error).toMatchObject({
      code: 'TEST_COMMAND_NOT_FOUND',
      message: expect.stringContaining('`no-such-runner-xyz` was not found'),
    });
    expect(json(none.stdout)).toMatchObject({ status: 'error', error: { code: 'NO_TESTS_RAN' } });
    expect(json(module.stdout)).toMatchObject({
      status: 'error',
      error: { code: 'MISSING_MODULE', message: expect.stringContaining('fixloop_absent_module_xyz') },
    });
    for (const run of [missing, none, module]) expect(json(run.stdout).attempts).toEqual([]);
    expect(existsSync(engineRan)).toBe(false);
  });

  // The user's Node runs the tests, as it should; before 22.18 it cannot load a `.ts` file, and no
  // change to the code can make such a suite pass: an environment error naming the Node that can.
  it.skipIf(userNodeStripsTypes())(
    "ends a TypeScript suite the user's Node cannot load as an error naming the cause and the Node that can (exit 3)",
    async () => {
      const project = await repo({
        'package.json': '{ "name": "power", "type": "module" }\n',
        'src/power.ts': 'export const power = (a: number, b: number): number => a * b;\n',
        'test/power.test.ts':
          "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { power } from '../src/power.ts';\n" +
          "test('cubes', () => assert.equal(power(2, 3), 8));\n",
        'fixloop.yml': NO_ASSESSMENT,
      });
      const run = await fixloop([project, '--test', 'node --test test/power.test.ts', '--json']);
      expect(run.code).toBe(3);
      const result = json(run.stdout);
      expect(result.error?.code).toBe('TEST_FILES_UNLOADABLE');
      expect(result.error?.message).toMatch(/Node \d+\.\d+\.\d+ cannot load `\.ts` files .*test\/power\.test\.ts/);
      expect(result.error?.message).toContain('Node 22.18 or later');
      expect(result.attempts).toEqual([]);
    },
  );

  it("keeps a failed setup's whole output as setup.log and shows the lines with the cause", async () => {
    const project = await repo(NODE_PROJECT);
    const setup = `echo "npm error code E404"; echo "npm error 404 Not Found - GET https://registry.invalid/left-padd"; for i in $(seq 1 40); do echo "progress line $i"; done; exit 1`;
    const run = await fixloop([project, '--test', 'node --test', '--setup', setup, '--json']);
    expect(run.code).toBe(3);
    const result = json(run.stdout);
    expect(result.error?.code).toBe('SETUP_FAILED');
    expect(result.error?.message).toContain('npm error 404 Not Found');
    expect(result.error?.message).toContain('setup.log');
    expect(result.error?.message).not.toContain('progress line 40');
    expect(readFileSync(join(run.out, 'setup.log'), 'utf8')).toContain('progress line 40');
  });

  it('never lets a secret of the parent environment reach the test command', async () => {
    const secret = 'ghp_notARealTokenButSecret0123456789abcd';
    const project = await repo(NODE_SOURCES);
    const run = await fixloop(
      [
        project,
        '--test',
        'env | sort; test -f fixed',
        '--evidence',
        'exit-code',
        '--engine',
        'script',
        '--script',
        'touch fixed',
        '--json',
      ],
      { GITHUB_TOKEN: secret, FIXLOOP_IT_SECRET: 'plain-secret-value-42' },
    );
    // A suite read by its exit code alone is green only by the operator's choice, and says so; which
    // tests failed at the baseline is unknown, so the assessment cannot look and asks for a review (exit 4).
    expect(JSON.parse(run.stdout)).toMatchObject({
      status: 'tests_green',
      verification: { evidence: 'exit-code', baselineView: 'none' },
      headline: expect.stringMatching(/^Tests pass by exit code only/),
      assessment: {
        level: 'review',
        notAssessed: expect.stringMatching(/^which tests failed is unknown \(the baseline's output could not be read per test\)/),
      },
    });
    expect(run.code, run.stderr).toBe(4);
    const baselineLog = readFileSync(join(run.out, 'attempt-0.log'), 'utf8');
    expect(baselineLog).toContain('CI=true');
    expect(baselineLog).not.toContain('GITHUB_TOKEN');
    expect(baselineLog).not.toContain('FIXLOOP_IT_SECRET');
    for (const text of [allArtifacts(run.out), run.stdout, run.stderr]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain('plain-secret-value-42');
    }
  });

  it.runIf(fullSuite)('applies the verified patch to REPO with --apply, onto the tree the run started from', async () => {
    const project = await repo(NODE_PROJECT);
    const ok = await fixloop([project, '--test', 'node --test', '--engine', 'script', '--script', FIX_ADD, '--apply']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(readFileSync(join(project, 'src/math.js'), 'utf8')).toContain('a + b');

    const dirty = await repo(NODE_PROJECT);
    writeFileSync(
      join(dirty, 'src/math.js'),
      'export function add(a, b) {\n  return a - b; // uncommitted\n}\nexport const mul = (a, b) => a * b;\n',
    );
    // The run starts from the uncommitted work, so its patch goes onto it (a file changed during the
    // run is refused: cli-working-tree.test.ts).
    const onDirty = await fixloop([dirty, '--test', 'node --test', '--engine', 'script', '--script', FIX_ADD, '--apply']);
    expect(onDirty.code, onDirty.stderr).toBe(0);
    expect(readFileSync(join(dirty, 'src/math.js'), 'utf8')).toBe(
      'export function add(a, b) {\n  return a + b; // uncommitted\n}\nexport const mul = (a, b) => a * b;\n',
    );
  });

  it.runIf(fullSuite)('clones a git URL, never touching the source repository', async () => {
    const project = await repo(NODE_PROJECT);
    const run = await fixloop([
      `file://${project}`,
      '--test',
      'node --test',
      '--engine',
      'script',
      '--script',
      FIX_ADD,
      '--json',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const result = json(run.stdout);
    expect(result.status).toBe('tests_green');
    expect(result.repository.sha).toBe(git(project, 'rev-parse', 'HEAD').trim());
  });

  it('stops on Ctrl-C (SIGINT) with a visible outcome and no process left behind', async () => {
    const project = await repo(NODE_PROJECT);
    const cwd = await repo({});
    const marker = String(600_000 + Math.floor(Math.random() * 99_999));
    const child = spawn(
      process.execPath,
      [
        FIXLOOP_BIN,
        'run',
        project,
        '--test',
        `sleep ${marker}`,
        '--engine',
        'script',
        '--script',
        'true',
        '--json',
        '--out',
        join(cwd, 'out'),
      ],
      { cwd, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    // Ctrl-C while the baseline runs: wait until its command is there (a fixed delay raced fixloop's
    // own start on a loaded machine, where Node's default SIGINT ended it before its handler was set).
    // (the sleep itself, not fixloop's own command line, which names it too)
    const running = () =>
      execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
        .split('\n')
        .some((l) => /^(\S*\/)?sleep$/.test(l.trim().split(' ')[0] ?? '') && l.trim().endsWith(` ${marker}`));
    for (let waited = 0; !running() && waited < 60_000; waited += 100) await new Promise((r) => setTimeout(r, 100));
    expect(running()).toBe(true);
    child.kill('SIGINT');
    const code = await new Promise<number | null>((r) => child.on('close', r));
    expect(code).toBe(130);
    expect(json(stdout)).toMatchObject({ status: 'failed_to_green', stopReason: 'cancelled', cancelled: { phase: 'baseline' } });
    const left = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
      .split('\n')
      .filter((l) => l.includes(`sleep ${marker}`));
    expect(left).toEqual([]);
  });

  it.runIf(fullSuite)('works on a plain folder that is not a git repository', async () => {
    const project = await repo(NODE_PROJECT, { git: false });
    const run = await fixloop([project, '--test', 'node --test', '--engine', 'script', '--script', FIX_ADD, '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(json(run.stdout).status).toBe('tests_green');
  });
});

describe('fixloop run: bad input', () => {
  it('names the key of a malformed config file (exit 2)', async () => {
    const project = await repo({ ...NODE_PROJECT, 'fixloop.yml': 'test:\n  command: node --test\nloop:\n  maxAttempts: many\n' });
    const run = await fixloop([project]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('fixloop.yml');
    expect(run.stderr).toContain('loop.maxAttempts');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('names the flag for usage errors (exit 2), never with a stack trace', async () => {
    const project = await repo(NODE_PROJECT);
    const cases: [string[], RegExp][] = [
      [[project, '--test', 'node --test', '--engine'], /--engine.*repair, fixers, script/],
      [[project, '--test', 'node --test', '--engine', 'magic'], /unknown engine `magic`.*repair, fixers, script/],
      [[project, '--test', 'node --test', '--max-attempts', '0'], /--max-attempts must be a positive integer/],
      [[project, '--test', 'node --test', '--timeout', 'soon'], /--timeout must be a positive integer/],
      [[project, '--test', 'node --test', '--evidence', 'vibes'], /--evidence: unknown kind `vibes`.*per-test, exit-code/],
      [[project], /no test command/],
      [[join(project, 'missing'), '--test', 'x'], /REPO `.*missing` does not exist/],
      [[project, '--test', 'node --test', '--engine', 'script'], /script engine needs a command/],
      [[project, '--test', 'x', '--bogus'], /unknown option '--bogus'/],
    ];
    // Each case is its own fixloop process in its own folder: started together, checked in order.
    const runs = await Promise.all(cases.map(([args]) => fixloop(args)));
    for (const [i, [args, message]] of cases.entries()) {
      const run = runs[i];
      expect(run?.code, args.join(' ')).toBe(2);
      expect(run?.stderr, args.join(' ')).toMatch(message);
      expect(run?.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('reports a repository that cannot be cloned as a system error naming it (exit 3)', async () => {
    const run = await fixloop(['http://127.0.0.1:9/nothing.git', '--test', 'true', '--engine', 'script', '--script', 'true']);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('127.0.0.1:9/nothing.git');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});
