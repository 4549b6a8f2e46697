// One way to assemble a run, for every caller: `fixloop run`, the library's `run()`, the forge's run
// job and `fixloop replay` call this and add only their own I/O. From a request, in this process:
//   1. prepare (docs/design.md §1.6): the clone (a local working tree becomes a commit of the mirror), the
//      configuration (the repository's file with the caller's overrides on top, for a local run),
//      the suite with the repository's dependency cache, the engines, the setup, the baseline, and
//      the environment check (a broken environment ends the run as an error, before any engine);
//   2. the work, judged on a pristine replay (§3.2): the red phase and the fix loop, or, for a
//      replay, a stored run's patch;
//   3. the assessment (§3.3) of a judged green patch, between the judge and the report
//      (assess-run.ts): what else the patch changed, and the level (verified | review);
//   4. the end: duration and headline, and the report rendered once (Markdown and JSON, from the one
//      RunResult) and written to the artifacts; the caller shows or publishes those same texts.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConfigOverrides } from '../config/apply-overrides.ts';
import type { FixRequest } from '../core/fix-request.ts';
import { testCounts } from '../core/gate-summary.ts';
import type { RunEvent, RunResult } from '../core/run-result.ts';
import { emptyReport } from '../core/test-report.ts';
import { renderReport, type RenderedReport } from '../report/render-report.ts';
import type { CreatedWorkspace } from '../workspace/create-workspace.ts';
import { createArtifacts } from './artifacts.ts';
import { createRunEngines, openWorkspace, prepareSuite, runBaseline } from './prepare-run.ts';
import { replayStoredPatch, type StoredPatch } from './replay-stored-patch.ts';
import { createRunContext, type RunContext, type RunFixDeps } from './run-context.ts';
import { cleanRequest } from './clean-request.ts';
import { assessRun } from './assess-run.ts';
import { describeError, errorCode } from './run-error.ts';
import { fixAndVerify } from './run-phases.ts';
import { cancelledResult, trackCancellation } from './cancellation.ts';
import { withFlakiness } from './flaky-baseline.ts';

export type { RunProgress } from './progress.ts';
export type { RunFixDeps, SharedRunDeps } from './run-context.ts';
export type { StoredPatch } from './replay-stored-patch.ts';

export interface RunInput {
  request: FixRequest;
  /**
   * A local run's flags or options: the configuration becomes the repository's file as the run
   * starts with it (the working tree, or HEAD), read from the clone, with these on top. Without: `request.config` as it is (the App's run, read
   * by its trigger; a stored run's).
   */
  overrides?: ConfigOverrides;
  /** Replay this patch instead of fixing: no engine runs (`fixloop replay`). */
  replay?: StoredPatch;
}

export interface FinishedRun {
  result: RunResult;
  /** The report, rendered once from `result`: what report.md and result.json hold. */
  report: RenderedReport;
}

export async function runLocal(input: RunInput, given: RunFixDeps): Promise<FinishedRun> {
  // Before anything reads it: the request's text as its page shows it (clean-request.ts).
  const { request, removed } = cleanRequest(input.request);
  // Cancelled in any phase, the run ends as cancelled, in the phase the signal found it (cancellation.ts).
  const tracker = trackCancellation(given.signal);
  const deps: RunFixDeps = {
    ...given,
    onProgress: (p) => {
      tracker.saw(p);
      given.onProgress?.(p);
    },
  };
  const started = Date.now();
  const events: RunEvent[] = [];
  const artifacts = await createArtifacts(deps.artifactsDir ?? join(deps.artifactsRoot, request.runId));
  const scratch = await mkdtemp(join(deps.tmpRoot ?? tmpdir(), 'fixloop-'));
  const base = initialResult(request, deps, { artifactsDir: artifacts.dir, startedAt: new Date(started).toISOString(), events });
  const ctx = createRunContext(request, deps, { base, artifacts, scratch, events, started });
  const withRemoved = (result: RunResult): RunResult => (removed ? { ...result, request: { removed } } : result);
  let created: CreatedWorkspace | null = null;
  try {
    const judged = withRemoved(await work(ctx, input, (c) => (created = c)).catch((error: unknown) => failed(ctx, error)));
    const where = tracker.cancellation();
    return await reported(ctx, where ? cancelledResult(judged, where) : judged);
  } finally {
    await (created as CreatedWorkspace | null)?.workspace.dispose().catch(() => undefined);
    await rm(scratch, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** A request fixed, for callers that read only the result (tests, benchmarks): `runLocal` without overrides. */
export async function runFix(request: FixRequest, deps: RunFixDeps): Promise<RunResult> {
  return (await runLocal({ request }, deps)).result;
}

/**
 * Preparing, then the work judged, then assessed; a run that ends early (setup, environment)
 * returns its result as it is.
 */
async function work(ctx: RunContext, input: RunInput, onCreated: (created: CreatedWorkspace) => void): Promise<RunResult> {
  const opened = await openWorkspace(ctx, input.overrides ?? null, onCreated);
  const suite = await prepareSuite(ctx, opened);
  if (input.replay) {
    const prepared = await runBaseline(ctx, opened, suite);
    if ('status' in prepared) return prepared;
    return withFlakiness(await replayStoredPatch(ctx, prepared, input.replay), prepared.flakiness);
  }
  // The engines exist before the setup runs, so a misconfigured one ends the run at once.
  const kit = await createRunEngines(ctx, opened, suite.sandbox);
  const prepared = await runBaseline(ctx, opened, suite);
  if ('status' in prepared) return prepared;
  // The flaky tests the run found, at the baseline and after (docs/design.md §3.2.8).
  return withFlakiness(await assessRun(ctx, prepared, await fixAndVerify(ctx, prepared, kit)), prepared.flakiness);
}

/** The run's end: duration and headline, then the report rendered once and kept with the artifacts. */
async function reported(ctx: RunContext, judged: RunResult): Promise<FinishedRun> {
  const result = ctx.finish(judged);
  const report = renderReport(result);
  await ctx.artifacts.writeReport(report);
  return { result, report };
}

/** The result before anything ran: what was asked, and an error until a step says otherwise. */
export function initialResult(
  request: FixRequest,
  deps: RunFixDeps,
  fields: { artifactsDir: string; startedAt: string; events: RunEvent[] },
): RunResult {
  return {
    runId: request.runId,
    status: 'error',
    headline: '',
    repository: { source: request.repository.cloneUrl, ref: request.repository.ref, sha: request.repository.sha ?? '' },
    testCommand: request.config.test.command ?? '',
    engines: [...request.config.engines],
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
    startedAt: fields.startedAt,
    durationMs: 0,
    artifactsDir: fields.artifactsDir,
    events: fields.events,
  };
}

function failed(ctx: RunContext, error: unknown): RunResult {
  const code = errorCode(error);
  if (code === 'INTERNAL') ctx.note('error', describeError(error));
  return { ...ctx.base, status: 'error', error: { code, message: describeError(error) } };
}
