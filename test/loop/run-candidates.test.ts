// The candidates an engine chose among reach the run: the fix loop keeps the final green attempt's
// `chosen` and `alternatives` (not an earlier attempt's), and `fixAndVerify` puts them in
// `ctx.candidates`, where `runLocal` reads them; on a real repository, a real gate and a real replay.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { FixRequest } from '../../src/core/fix-request.ts';
import { repoConfigSchema } from '../../src/core/repo-config.ts';
import type { RunEvent, RunResult } from '../../src/core/run-result.ts';
import type { AlternativeCandidate, Engine, EngineOutcome } from '../../src/engines/engine.ts';
import { createArtifacts } from '../../src/loop/artifacts.ts';
import { createRunEngines, openWorkspace, prepareSuite, runBaseline } from '../../src/loop/prepare-run.ts';
import { createRunContext } from '../../src/loop/run-context.ts';
import { fixAndVerify } from '../../src/loop/run-phases.ts';
import { createProcessSandbox } from '../../src/sandbox/process-sandbox.ts';
import { emptyReport } from '../../src/core/test-report.ts';
import { testCounts } from '../../src/core/gate-summary.ts';
import { BUGGY_SHOP, FIXED_DISCOUNT } from '../fixtures/shop.ts';
import { makeRepo, removeAll } from '../support/git-fixture.ts';

const dirs: string[] = [];
afterAll(() => removeAll(dirs));

const ALTERNATIVE: AlternativeCandidate = {
  patch: 'diff --git a/src/discount.js b/src/discount.js\n',
  summary: 'src/discount.js:2 `100` → `99` (template off-by-one-literal)',
  passedOver: "candidate 1 comes first in the engine's order (this one is candidate 4)",
};

/** Attempt 1: a change that fixes nothing, with a choice of its own; attempt 2: the fix, with another. */
function choosingEngine(): Engine {
  return {
    name: 'repair',
    async attempt(ctx): Promise<EngineOutcome> {
      const zero = { usd: 0, tokens: 0 };
      if (ctx.attempt === 1) {
        await ctx.workspace.writeFile('src/discount.js', FIXED_DISCOUNT.replace('>= 100', '> 101'));
        return {
          summary: 'a wrong one',
          cost: zero,
          gaveUp: false,
          chosen: { summary: 'not this one' },
          alternatives: [{ ...ALTERNATIVE, summary: 'nor this one' }],
        };
      }
      await ctx.workspace.writeFile('src/discount.js', FIXED_DISCOUNT);
      return {
        summary: 'the fix',
        cost: zero,
        gaveUp: false,
        chosen: { summary: 'src/discount.js:2 `>` → `>=` (template relational-operator)' },
        alternatives: [ALTERNATIVE],
      };
    },
  };
}

describe('the candidates of a green run', () => {
  it("are in ctx.candidates after fixAndVerify: the green attempt's choice and alternatives", async () => {
    const repo = await makeRepo(BUGGY_SHOP);
    const work = await mkdtemp(join(tmpdir(), 'fixloop-run-candidates-'));
    dirs.push(repo, work);
    const request: FixRequest = {
      runId: 'candidates-1',
      repository: { cloneUrl: repo, ref: null, sha: null, baseRef: null },
      trigger: { kind: 'label', number: 1, deliveryId: null, actor: 'alice' },
      goal: 'fix the discount',
      hints: [],
      config: repoConfigSchema.parse({ test: { command: 'node --test' }, loop: { maxAttempts: 3 } }),
    };
    const deps = {
      sandbox: createProcessSandbox(),
      artifactsRoot: join(work, 'runs'),
      tmpRoot: work,
      createEngines: async () => [choosingEngine()],
      reviewer: null,
    };
    const events: RunEvent[] = [];
    const artifacts = await createArtifacts(join(work, 'runs', request.runId));
    const base = {
      runId: request.runId,
      status: 'error',
      headline: '',
      repository: { source: repo, ref: null, sha: '' },
      testCommand: 'node --test',
      engines: ['repair'],
      engine: null,
      sandbox: deps.sandbox.backend,
      attempts: [],
      patch: '',
      filesChanged: [],
      baseline: testCounts(emptyReport()),
      baselineTests: [],
      final: null,
      verification: null,
      cost: { usd: 0, tokens: 0 },
      startedAt: new Date().toISOString(),
      durationMs: 0,
      artifactsDir: artifacts.dir,
      events,
    } satisfies RunResult;
    const ctx = createRunContext(request, deps, { base, artifacts, scratch: work, events, started: Date.now() });
    expect(ctx.candidates).toEqual({ alternatives: [] });

    let result: RunResult | null = null;
    let dispose = async () => undefined as void;
    try {
      const opened = await openWorkspace(ctx, null, (created) => (dispose = () => created.workspace.dispose()));
      const suite = await prepareSuite(ctx, opened);
      const kit = await createRunEngines(ctx, opened, suite.sandbox);
      const prepared = await runBaseline(ctx, opened, suite);
      if ('status' in prepared) throw new Error(`the baseline ended the run: ${prepared.status}`);
      result = await fixAndVerify(ctx, prepared, kit);
    } finally {
      ctx.finish(result ?? base);
      await dispose();
    }
    expect(result.status).toBe('tests_green');
    expect(result.attempts.map((a) => a.attempt)).toEqual([1, 2]);
    expect(ctx.candidates).toEqual({
      chosen: { summary: 'src/discount.js:2 `>` → `>=` (template relational-operator)' },
      alternatives: [ALTERNATIVE],
    });
  }, 120_000);
});
