// The repair engine on a real workspace with node's own runner, where every test run takes longer
// than an attempt's whole budget: an attempt that runs out of its own time leaves its candidates to
// the next one, which goes on with them (no second localization) from the same state of the code,
// and starts afresh from another state.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultRepoConfig, type RepoConfig } from '../../../src/core/repo-config.ts';
import type { AttemptContext } from '../../../src/engines/engine.ts';
import { createRepairEngine } from '../../../src/engines/repair/repair-engine.ts';
import { runGate } from '../../../src/gate/run-gate.ts';
import { createProcessSandbox } from '../../../src/sandbox/process-sandbox.ts';
import { createWorkspace } from '../../../src/workspace/create-workspace.ts';
import { createPathPolicy } from '../../../src/workspace/path-policy.ts';
import { makeRepo, removeAll } from '../../support/git-fixture.ts';

const dirs: string[] = [];
afterAll(() => removeAll(dirs));

// Each test sleeps longer than the first attempts' whole budget (1 s), whatever the machine's speed.
const SLOW = 'await new Promise((resolve) => setTimeout(resolve, 1100));';
const FILES = {
  'package.json': JSON.stringify({ name: 'shapes', scripts: { test: 'node --test' } }),
  'src/shapes.js': 'exports.area = (w, h) => w * h;\nexports.perimeter = (w, h) => 2 * (w - h);\n',
  'src/notes.js': '// notes\n',
  'test/shapes.test.js': [
    "const { test } = require('node:test');",
    "const assert = require('node:assert');",
    "const { area, perimeter } = require('../src/shapes.js');",
    `test('area', async () => { ${SLOW} assert.strictEqual(area(2, 3), 6); });`,
    `test('perimeter', async () => { ${SLOW} assert.strictEqual(perimeter(2, 3), 10); });`,
    '',
  ].join('\n'),
};

describe('the repair engine', () => {
  it('goes on in the next attempt with the candidates an attempt that ran out of its own time left, from the same state only', async () => {
    const source = await makeRepo(FILES);
    const tmpRoot = await mkdtemp(join(tmpdir(), 'fixloop-repair-'));
    dirs.push(source, tmpRoot);
    const config = defaultRepoConfig();
    config.test.command = 'node --test';
    const { workspace } = await createWorkspace({
      source,
      ref: null,
      sha: null,
      tmpRoot,
      policy: createPathPolicy(config.paths),
    });
    const sandbox = createProcessSandbox();
    const gate = await runGate(sandbox, { command: 'node --test', cwd: workspace.root, timeoutMs: 60_000, env: {} });
    expect(gate.report.tests.filter((t) => t.status === 'failed').map((t) => t.name)).toEqual(['perimeter']);

    const engine = createRepairEngine({ parallelism: 1 });
    const attempt = async (n: number, timeBudget: number) => {
      const lines: string[] = [];
      const ctx: AttemptContext = {
        attempt: n,
        maxAttempts: 5,
        workspace,
        sandbox,
        // No exploration after the first plausible candidate: this test is about the time budget.
        config: { ...config, repair: { ...config.repair, timeBudget, exploreTime: 0 } } satisfies RepoConfig,
        goal: 'fix the perimeter',
        lastGate: gate,
        baseline: gate,
        previousAttempts: [],
        hints: [],
        mode: 'fix',
        remainingTasks: [],
        signal: new AbortController().signal,
        deadline: Date.now() + 600_000,
        log: (line) => lines.push(line),
      };
      return { outcome: await engine.attempt(ctx), log: lines.join('\n') };
    };

    // One second cannot hold a single run of more than 1.1 s: every candidate is left for later.
    const first = await attempt(1, 1);
    expect(first.outcome).toMatchObject({ gaveUp: false, continues: true });
    expect(first.outcome.summary).toMatch(/^the attempt's time budget ran out \(0 of (\d+) candidates validated, .*\); \1 left$/);
    expect(first.log).toMatch(/suspicious lines/);
    expect(await workspace.diff()).toBe('');

    // Another state of the code (a changed file): its candidates are made afresh.
    await workspace.writeFile('src/notes.js', '// notes, changed\n');
    const fresh = await attempt(2, 1);
    expect(fresh.outcome.continues).toBe(true);
    expect(fresh.log).toMatch(/suspicious lines/);
    expect(fresh.log).not.toMatch(/going on with/);

    // The same state again, with time: it goes on with what the last attempt left, and fixes it.
    const resumed = await attempt(3, 300);
    expect(resumed.log).toMatch(/^repair: going on with the \d+ candidates the last attempt left \(0 of \d+ validated\)$/m);
    expect(resumed.log).not.toMatch(/suspicious lines/);
    expect(resumed.outcome.gaveUp).toBe(false);
    expect(resumed.outcome.continues).toBeUndefined();
    expect(resumed.outcome.summary).toMatch(/\(candidate \d+ of \d+, /);
    expect(await workspace.readFile('src/shapes.js')).toContain('2 * (w + h)');
  }, 180_000);
});
