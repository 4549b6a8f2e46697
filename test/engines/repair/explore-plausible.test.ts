// The repair engine's exploration (docs/engines.md, "Exploring after the first plausible
// candidate"), on a real git repository with node's own runner: the first candidate that passes this
// weak suite turns the range check off whenever an option is set (a conjunct added to the guard of
// its throw); the right fix, one operator, comes later in the engine's order. With an exploration
// time the engine applies the right one and keeps the other as an alternative, with its reason;
// without, it applies the first, as it always did.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultRepoConfig, type RepoConfig } from '../../../src/core/repo-config.ts';
import type { AttemptContext, EngineOutcome } from '../../../src/engines/engine.ts';
import { createRepairEngine } from '../../../src/engines/repair/repair-engine.ts';
import { runGate } from '../../../src/gate/run-gate.ts';
import { createProcessSandbox } from '../../../src/sandbox/process-sandbox.ts';
import { createWorkspace } from '../../../src/workspace/create-workspace.ts';
import { createPathPolicy } from '../../../src/workspace/path-policy.ts';
import { git, makeRepo, removeAll } from '../../support/git-fixture.ts';

const dirs: string[] = [];
afterAll(() => removeAll(dirs));

// Volume levels run from 0 to 10; the bug rejects 10. The failing test happens to pass an option.
const LEVEL = [
  'function parseLevel(value, opts = {}) {',
  '  const n = Number(value);',
  '  if (n < 0 || n >= 10) {',
  "    throw new RangeError('Invalid level');",
  '  }',
  '  return opts.round ? Math.round(n) : n;',
  '}',
  'module.exports = { parseLevel };',
  '',
].join('\n');

const FILES = {
  'package.json': JSON.stringify({ name: 'volume', scripts: { test: 'node --test' } }),
  'src/level.js': LEVEL,
  'src/units.js': "exports.UNIT = 'dB';\n",
  'test/level.test.js': [
    "const { test } = require('node:test');",
    "const assert = require('node:assert');",
    "const { parseLevel } = require('../src/level.js');",
    "test('reads a level', () => assert.strictEqual(parseLevel('3'), 3));",
    "test('rounds a level with round', () => assert.strictEqual(parseLevel('2.6', { round: true }), 3));",
    "test('rejects a negative level', () => assert.throws(() => parseLevel('-1'), /Invalid level/));",
    "test('rejects a level above the top', () => assert.throws(() => parseLevel('11'), /Invalid level/));",
    "test('accepts the top level in strict mode', () => assert.strictEqual(parseLevel('10', { strict: true }), 10));",
    '',
  ].join('\n'),
};

async function attemptWith(exploreTime: number): Promise<{ outcome: EngineOutcome; diff: string; log: string; source: string }> {
  const source = await makeRepo(FILES);
  const tmpRoot = await mkdtemp(join(tmpdir(), 'fixloop-explore-'));
  dirs.push(source, tmpRoot);
  const config = defaultRepoConfig();
  config.test.command = 'node --test';
  const { workspace } = await createWorkspace({ source, ref: null, sha: null, tmpRoot, policy: createPathPolicy(config.paths) });
  const sandbox = createProcessSandbox();
  const gate = await runGate(sandbox, { command: 'node --test', cwd: workspace.root, timeoutMs: 60_000, env: {} });
  expect(gate.report.tests.filter((t) => t.status === 'failed').map((t) => t.name)).toEqual([
    'accepts the top level in strict mode',
  ]);
  // What an earlier attempt left: the alternatives must carry it, as the loop's final patch does.
  await workspace.writeFile('src/units.js', "exports.UNIT = 'decibel';\n");
  const lines: string[] = [];
  const ctx: AttemptContext = {
    attempt: 1,
    maxAttempts: 5,
    workspace,
    sandbox,
    // Few candidates (the right fix is the 5th), so that the exploration ends when they are all
    // validated, well within its time: what is found does not depend on the machine's speed.
    config: { ...config, repair: { ...config.repair, exploreTime, maxCandidates: 12 } } satisfies RepoConfig,
    goal: 'accept the top level',
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
  const outcome = await createRepairEngine({ parallelism: 1 }).attempt(ctx);
  return { outcome, diff: await workspace.diff(), log: lines.join('\n'), source };
}

describe('the repair engine exploring after the first plausible candidate', () => {
  it('applies the real fix and lists the candidate that turns the check off as an alternative, with its reason', async () => {
    const { outcome, diff, log, source } = await attemptWith(300);
    expect(outcome.gaveUp, log).toBe(false);
    expect(diff).toContain('+  if (n < 0 || n > 10) {');
    expect(outcome.chosen).toEqual({ summary: 'src/level.js:3 `>=` → `>` (template relational-operator)' });
    const weakening = outcome.alternatives?.find((a) => a.summary.includes('honor-option'));
    expect(weakening, JSON.stringify(outcome.alternatives, null, 2)).toMatchObject({
      weakens: 'weakens the check that throws "Invalid level" (a conjunct added: `!opts.strict &&`)',
      passedOver: expect.stringMatching(/^it weakens a check and candidate \d+ does not$/),
    });
    // A whole patch against the pristine commit, applicable where the final patch is.
    expect(weakening?.patch).toContain('+  if (!opts.strict && (n < 0 || n >= 10)) {');
    expect(weakening?.patch).toContain("+exports.UNIT = 'decibel';");
    expect(diff).toContain("+exports.UNIT = 'decibel';");
    const patchFile = join(source, '..', `alternative-${Date.now()}.patch`);
    await writeFile(patchFile, weakening?.patch ?? '');
    dirs.push(patchFile);
    expect(() => git(source, 'apply', '--check', patchFile)).not.toThrow();
    // `10` → `11` passes too, and is no weakening: it comes after the operator in the engine's order.
    expect(outcome.alternatives?.map((a) => a.summary)).toEqual([
      'src/level.js:3 `10` → `11` (template off-by-one-literal)',
      weakening?.summary,
    ]);
    expect(outcome.alternatives?.[0]?.passedOver).toMatch(
      /^candidate 5 comes first in the engine's order \(this one is candidate \d+\)$/,
    );
    expect(outcome.stats?.plausible).toBe(3);
    expect(outcome.summary).toMatch(/chosen among \d+ plausible, preferred to candidate 1, which weakens a check/);
  }, 240_000);

  it('applies the first plausible candidate with an exploration time of 0, as before', async () => {
    const { outcome, diff } = await attemptWith(0);
    expect(diff).toContain('+  if (!opts.strict && (n < 0 || n >= 10)) {');
    expect(outcome.stats?.plausible).toBe(1);
    expect(outcome.chosen).toEqual({
      summary: expect.stringContaining('(template honor-option)'),
      weakens: 'weakens the check that throws "Invalid level" (a conjunct added: `!opts.strict &&`)',
    });
    expect(outcome.alternatives).toEqual([]);
  }, 120_000);
});
