// The work of `fixloop replay`: a stored run's verified patch, replayed on a pristine checkout of its
// commit and judged again (docs/design.md §3.2) against the baseline this run just took, as a fix run's
// green attempt is. The result is the replay's: green when the judge holds again.
import type { FileChange } from '../core/file-change.ts';
import type { RunResult } from '../core/run-result.ts';
import { replayPatch } from '../verify/replay-patch.ts';
import { AttemptLog } from './attempt-log.ts';
import type { PreparedRun } from './prepare-run.ts';
import type { RunContext } from './run-context.ts';

/** A patch a finished run verified, with the changes it makes (the constraints are checked on them). */
export interface StoredPatch {
  patch: string;
  changes: FileChange[];
}

export async function replayStoredPatch(ctx: RunContext, run: PreparedRun, stored: StoredPatch): Promise<RunResult> {
  ctx.progress({ phase: 'verify', message: 'replaying the stored patch on a pristine checkout' });
  const log = new AttemptLog();
  const verification = await replayPatch({
    mirror: run.created.mirror,
    seal: run.created.seal,
    baseSha: run.workspace.baseSha,
    patch: stored.patch,
    changes: stored.changes,
    baseline: run.baseline.report,
    baselinePassed: run.baseline.passed,
    flaky: run.flakiness.flaky,
    config: run.config,
    policy: run.policy,
    suite: run.suite,
    scratchDir: ctx.scratch,
    log: log.add,
    logSection: (title, body) => log.section(title, body),
  });
  await ctx.artifacts.writeLog('replay.log', log.text());
  return {
    ...ctx.base,
    replay: true,
    status: verification.passed ? 'tests_green' : 'failed_to_green',
    ...(verification.passed ? {} : { stopReason: 'verification_failed' as const }),
    patch: stored.patch,
    filesChanged: stored.changes,
    final: verification.gate?.counts ?? null,
    verification,
  };
}
