// Flakiness is measured, never repaired (docs/design.md §3.2.8), end to end: `fixloop run` on real
// git repositories with a real `node --test` suite. The flaky test is flaky by construction, not by
// luck: it counts its runs in a file outside the repository (every checkout's runs, the baseline's,
// the engines', the replay's, share it) and fails on the runs it is told to, so each case ends the
// same way every time. bench/flaky-repeat.ts runs the same repositories with `Math.random()`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/core/run-result.ts';
import { makeRepo, removeAll } from '../support/git-fixture.ts';
import { runCli } from '../support/run-cli.ts';

const dirs: string[] = [];
afterAll(() => removeAll(dirs));

const FIX_ADD = "sed -i 's/a - b/a + b/' src/math.js";

/**
 * `adds` fails while `add` subtracts; `flaky` fails on the runs of `failingRuns` (its 1st is the
 * baseline's), counted in `counter`. `jitter` is in the source, where an engine could "fix" it.
 */
function flakyProject(options: { addBroken: boolean; failingRuns: number[]; counter: string; config?: string }) {
  return {
    'package.json': '{ "name": "jitter", "type": "module", "private": true, "scripts": { "test": "node --test" } }\n',
    'src/math.js': [
      'export function add(a, b) {',
      `  return ${options.addBroken ? 'a - b' : 'a + b'};`,
      '}',
      '',
      '// Whether this run of the flaky test is one that fails.',
      'export function jitter(run) {',
      `  return ${JSON.stringify(options.failingRuns)}.includes(run);`,
      '}',
      '',
    ].join('\n'),
    'test/math.test.js': [
      "import assert from 'node:assert/strict';",
      "import { readFileSync, writeFileSync } from 'node:fs';",
      "import { test } from 'node:test';",
      "import { add, jitter } from '../src/math.js';",
      '',
      '/** The number of this run of `flaky`, counted across every checkout. */',
      'function nextRun() {',
      '  let n = 0;',
      '  try {',
      `    n = Number(readFileSync(${JSON.stringify(options.counter)}, 'utf8'));`,
      '  } catch {}',
      `  writeFileSync(${JSON.stringify(options.counter)}, String(n + 1));`,
      '  return n + 1;',
      '}',
      '',
      "test('adds', () => {",
      '  assert.equal(add(2, 3), 5);',
      '});',
      '',
      "test('flaky', () => {",
      "  assert.ok(!jitter(nextRun()), 'jittered');",
      '});',
      '',
    ].join('\n'),
    'fixloop.yml': `assessment:\n  enabled: false\n${options.config ?? ''}`,
  };
}

async function run(project: Record<string, string>, args: string[]) {
  const dir = await makeRepo(project);
  dirs.push(dir);
  const cwd = await makeRepo({});
  dirs.push(cwd);
  // The process sandbox: the counter outside the checkout must be written by every run.
  const cli = await runCli(
    ['run', dir, '--test', 'npm test', '--sandbox', 'process', '--json', '--out', join(cwd, 'out'), ...args],
    {
      cwd,
    },
  );
  return { ...cli, result: JSON.parse(cli.stdout) as RunResult, dir, out: join(cwd, 'out') };
}

async function counterFile(): Promise<string> {
  const dir = await makeRepo({}, { git: false });
  dirs.push(dir);
  return join(dir, 'runs');
}

describe('fixloop run: flaky tests', { timeout: 180_000 }, () => {
  it('ends `flaky`, exit 5, with no patch when the only failing test is flaky, naming it with its counts', async () => {
    const counter = await counterFile();
    const { code, stderr, result, out } = await run(flakyProject({ addBroken: false, failingRuns: [1, 3], counter }), []);
    expect(code, stderr).toBe(5);
    expect(result.status).toBe('flaky');
    expect(result.patch).toBe('');
    expect(result.attempts).toEqual([]);
    expect(result.flakiness).toMatchObject({
      reruns: 3,
      checked: 1,
      tests: [{ id: 'flaky', runs: 4, failed: 2, seen: 'baseline' }],
    });
    expect(result.flakiness?.command).toContain('--test-name-pattern=flaky');
    expect(result.headline).toContain('`flaky` (failed 2 of 4 runs)');
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toMatch(/### Flaky tests[\s\S]*`flaky`: failed 2 of 4 runs/);
    // The baseline and the three reruns: nothing else ran the test.
    expect(readFileSync(counter, 'utf8')).toBe('4');
  });

  it('runs a green baseline again before "nothing to fix": a test that fails in one of those runs ends the run `flaky`', async () => {
    const counter = await counterFile();
    const { code, stderr, result, out } = await run(flakyProject({ addBroken: false, failingRuns: [2], counter }), []);
    expect(code, stderr).toBe(5);
    expect(result.status).toBe('flaky');
    expect(result.patch).toBe('');
    expect(result.attempts).toEqual([]);
    expect(result.flakiness).toMatchObject({
      reruns: 3,
      command: 'npm test',
      checked: 0,
      suiteRuns: { runs: 4, failed: 1 },
      tests: [{ id: 'flaky', runs: 4, failed: 1, seen: 'baseline' }],
    });
    expect(result.headline).toContain('`flaky` (failed 1 of 4 runs)');
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain('The baseline passed; the whole suite ran 3 times more');
    expect(readFileSync(counter, 'utf8')).toBe('4');
  });

  it('ends `nothing_to_fix` when a green baseline passes again in each rerun, and says so', async () => {
    const counter = await counterFile();
    const { code, stderr, result, out } = await run(flakyProject({ addBroken: false, failingRuns: [], counter }), []);
    expect(code, stderr).toBe(0);
    expect(result.status).toBe('nothing_to_fix');
    expect(result.flakiness).toMatchObject({ suiteRuns: { runs: 4, failed: 0 }, tests: [] });
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain('None: the suite passed again in each of 3 more runs.');
    expect(readFileSync(counter, 'utf8')).toBe('4');
  });

  it('fixes `adds` and names `flaky`, not counted, with the repair engine: the flaky test is no target', async () => {
    const counter = await counterFile();
    const { code, stderr, result } = await run(flakyProject({ addBroken: true, failingRuns: [1, 3], counter }), []);
    expect(code, stderr).toBe(0);
    expect(result.status).toBe('tests_green');
    expect(result.engine).toBe('repair');
    expect(result.filesChanged.map((c) => c.path)).toEqual(['src/math.js']);
    expect(result.patch).toContain('+  return a + b;');
    expect(result.patch).not.toContain('jitter');
    expect(result.verification?.failToPass).toEqual(['adds']);
    expect(result.verification?.flaky).toEqual(['flaky']);
    expect(result.flakiness?.tests).toEqual([{ id: 'flaky', runs: 4, failed: 2, seen: 'baseline' }]);
    expect(result.headline).toContain('Flaky, not counted: `flaky` (failed 2 of 4 runs)');
  });

  it('runs a test that passed at the baseline and fails in the replay again: flaky, not a regression', async () => {
    // Runs: 1 the baseline (passes; `adds` alone runs again), 2 the attempt's gate, 3 the replay (fails), 4-6 again.
    const counter = await counterFile();
    const { code, stderr, result } = await run(flakyProject({ addBroken: true, failingRuns: [3], counter }), [
      '--engine',
      'script',
      '--script',
      FIX_ADD,
    ]);
    expect(code, stderr).toBe(0);
    expect(result.status).toBe('tests_green');
    expect(result.verification).toMatchObject({ passed: true, failToPass: ['adds'], passToFail: [], flaky: ['flaky'] });
    expect(result.verification?.gate).toMatchObject({ passed: false, counts: { failed: 1 } });
    expect(result.flakiness?.tests).toEqual([{ id: 'flaky', runs: 4, failed: 1, seen: 'replay' }]);
  });

  it("runs a test that passed at the baseline and fails in an attempt's gate again: flaky, and the attempt is green", async () => {
    const counter = await counterFile();
    const { code, stderr, result } = await run(flakyProject({ addBroken: true, failingRuns: [2], counter }), [
      '--engine',
      'script',
      '--script',
      FIX_ADD,
    ]);
    expect(code, stderr).toBe(0);
    expect(result.status).toBe('tests_green');
    expect(result.attempts).toHaveLength(1);
    expect(result.flakiness?.tests).toEqual([{ id: 'flaky', runs: 4, failed: 1, seen: 'attempt' }]);
    expect(result.verification?.passToFail).toEqual([]);
  });

  it('with `loop.flakyReruns: 0` measures nothing: the flaky failure is a failure like any other', async () => {
    const counter = await counterFile();
    const { result } = await run(
      flakyProject({ addBroken: false, failingRuns: [1], counter, config: 'loop:\n  flakyReruns: 0\n  maxAttempts: 1\n' }),
      ['--engine', 'script', '--script', 'true'],
    );
    expect(result.status).not.toBe('flaky');
    expect(result.flakiness).toBeUndefined();
  });
});
