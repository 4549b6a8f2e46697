// One run, end to end: workspace → setup → baseline gate → (red phase) → fix loop → verification →
// RunResult. The CLI and the GitHub App both call this; neither knows how the other starts it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FixRequest } from '../core/fix-request.ts';
import type { RunEvent, RunResult } from '../core/run-result.ts';
import { emptyReport } from '../core/test-report.ts';
import { testCounts } from '../core/gate-summary.ts';
import type { CreatedWorkspace } from '../workspace/create-workspace.ts';
import { createArtifacts } from './artifacts.ts';
import { createRunContext, type RunContext, type RunFixDeps } from './run-context.ts';
import { describeError, errorCode } from './run-error.ts';
import { fixAndVerify } from './run-phases.ts';
import { openWorkspace, prepareRun } from './prepare-run.ts';

export type { RunProgress } from './progress.ts';
export type { RunFixDeps } from './run-context.ts';


export async function runFix(request: FixRequest, deps: RunFixDeps): Promise<RunResult> {
  const started = Date.now();
  const events: RunEvent[] = [];
  const artifacts = await createArtifacts(deps.artifactsDir ?? join(deps.artifactsRoot, request.runId));
  const scratch = await mkdtemp(join(deps.tmpRoot ?? tmpdir(), 'fixloop-'));
  const base = initialResult(request, deps, { artifactsDir: artifacts.dir, startedAt: new Date(started).toISOString(), events });
  const ctx = createRunContext(request, deps, { base, artifacts, scratch, events, started });
  let created: CreatedWorkspace | null = null;
  try {
    const opened = await openWorkspace(ctx, (c) => (created = c));
    const prepared = await prepareRun(ctx, opened);
    if ('status' in prepared) return prepared;
    return await fixAndVerify(ctx, prepared);
  } catch (error) {
    return await failed(ctx, error);
  } finally {
    await (created as CreatedWorkspace | null)?.workspace.dispose().catch(() => undefined);
    await rm(scratch, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** The result before anything ran: what was asked, and an error until a step says otherwise. */
function initialResult(request: FixRequest, deps: RunFixDeps, fields: { artifactsDir: string; startedAt: string; events: RunEvent[] }): RunResult {
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

async function failed(ctx: RunContext, error: unknown): Promise<RunResult> {
  const code = errorCode(error);
  if (code === 'INTERNAL') ctx.note('error', describeError(error));
  return ctx.finish({ ...ctx.base, status: 'error', error: { code, message: describeError(error) } });
}
