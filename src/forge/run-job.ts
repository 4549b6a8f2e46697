// One forge run as a job: resolve the commit, start its status, run the same loop the CLI runs, keep
// the status comment current, publish. Every failure ends in a visible message, its cause named by
// the ForgeError's code; a run that has a result keeps it in the store; a restart pauses it.
import type { Logger } from 'pino';
import { Cancelled, Shutdown, type JobControl, type JobOutcome } from '../jobs/job-queue.ts';
import type { RunJobData } from './run-job-data.ts';
import type { RunProgress } from '../loop/progress.ts';
import { runLocal, type SharedRunDeps } from '../loop/local-run.ts';
import { fixRequestSchema } from '../core/fix-request.ts';
import { git, gitMessage } from '../workspace/git.ts';
import type { RunResult } from '../core/run-result.ts';
import type { Forge, StatusOutcome } from './forge.ts';
import { withForgeRetry } from './forge-retry.ts';
import { forgeFailureText } from './publication-failure.ts';
import { errorMessage, progressMessage, restartingMessage } from './messages.ts';
import { publishResult } from './publish-result.ts';
import type { StatusComment } from './status-comment.ts';

export interface RunJobDeps {
  forge: Forge;
  log: Logger;
  status: StatusComment;
  /** What every run of this process gets; the job adds the run's own auth, signal and progress. */
  runDeps: SharedRunDeps;
  /** Pauses between tries of a forge call that failed for a passing reason (tests shorten them). */
  retryDelaysMs?: readonly number[];
}

export async function runJob(data: RunJobData, deps: RunJobDeps, control: JobControl): Promise<JobOutcome> {
  const { forge, log, status, runDeps } = deps;
  const { plan, config, runId } = data;
  const meta = { runId, repo: `${plan.owner}/${plan.repo}`, number: plan.number, kind: plan.kind };
  let statusId: string | null = null;
  let result: RunResult | null = null;
  // A status that cannot be completed is logged: it must not turn a published fix into an error.
  const completeStatus = (outcome: StatusOutcome) =>
    statusId === null
      ? Promise.resolve()
      : forge
          .completeStatus(statusId, outcome)
          .catch((error: unknown) => log.warn({ ...meta, err: describe(error) }, 'status not completed'));
  try {
    const auth = await withForgeRetry(() => forge.cloneAuth(), deps.retryDelaysMs);
    const sha = plan.sha ?? (await headOf(plan.cloneUrl, plan.ref, auth, runDeps.tmpRoot));
    statusId = await forge.startStatus(sha, `Run \`${runId}\` for #${plan.number}.`).catch((error: unknown) => {
      log.warn({ ...meta, err: describe(error) }, 'status not started');
      return null;
    });
    const onProgress = progressListener(runId, { log, status, control }, meta);
    const request = requestOf(data, sha);
    log.info(meta, 'run started');
    const finished = await runLocal({ request }, { ...runDeps, auth, signal: control.signal, onProgress });
    result = finished.result;
    log.info(
      {
        ...meta,
        status: result.status,
        stopReason: result.stopReason,
        attempts: result.attempts.length,
        durationMs: result.durationMs,
      },
      'run finished',
    );
    if (control.signal.reason instanceof Shutdown) {
      await status.flush();
      await status.update(restartingMessage(runId));
      return { state: 'cancelled', outcome: 'interrupted by a restart', artifactsDir: result.artifactsDir };
    }
    const cancelledBy = control.signal.reason instanceof Cancelled ? control.signal.reason.by : null;
    const publication = await publishResult({
      forge,
      plan,
      config,
      result,
      report: finished.report.markdown,
      tmpRoot: runDeps.tmpRoot,
      cancelledBy,
      ...(deps.retryDelaysMs ? { retryDelaysMs: deps.retryDelaysMs } : {}),
    });
    await status.flush();
    await status.update(publication.status);
    await completeStatus(publication.verdict);
    log.info({ ...meta, pullRequest: publication.pullRequest?.number }, 'run published');
    const state = result.stopReason === 'cancelled' ? 'cancelled' : result.status === 'error' ? 'failed' : 'done';
    const outcome = publication.pullRequest
      ? `${result.headline} Pull request #${publication.pullRequest.number}.`
      : result.headline;
    return { state, outcome, artifactsDir: result.artifactsDir };
  } catch (error) {
    // The person who asked must see an outcome even when the forge or git failed under us; a run that
    // got as far as a result keeps its artifacts in the store, so its patch can be published again.
    log.error({ ...meta, err: describe(error), code: (error as { code?: unknown }).code }, 'run failed');
    await status.flush();
    await status.update(errorMessage(runId, forgeFailureText(error), config.triggers.command));
    await completeStatus({ conclusion: 'failure', title: 'Error', summary: describe(error) });
    return { state: 'failed', outcome: describe(error), ...(result ? { artifactsDir: result.artifactsDir } : {}) };
  }
}

/**
 * Tells the run's progress: the job's heartbeat each step, the status comment once per new step (not
 * every heartbeat), and an engine's own lines (an agent's output) to the app's log, not the comment.
 */
function progressListener(
  runId: string,
  to: { log: Logger; status: StatusComment; control: JobControl },
  meta: Record<string, unknown>,
): (p: RunProgress) => void {
  let shown = '';
  return (p) => {
    if (p.phase === 'engine') {
      to.log.debug({ ...meta, attempt: p.attempt }, p.message.slice(0, 2000));
      return;
    }
    const key = `${p.phase}:${p.attempt ?? ''}:${p.failing ?? ''}`;
    to.control.report(p.phase === 'attempt' ? `attempt ${p.attempt}/${p.maxAttempts}` : p.phase);
    if (p.phase === 'done' || key === shown) return;
    shown = key;
    void to.status.update(progressMessage(runId, p));
  };
}

/** The stored job as the loop's request, at the commit the status was started on. */
function requestOf({ plan, config, runId }: RunJobData, sha: string) {
  return fixRequestSchema.parse({
    runId,
    repository: { cloneUrl: plan.cloneUrl, ref: plan.ref, sha, baseRef: plan.baseRef },
    trigger: { kind: plan.kind, number: plan.number, deliveryId: plan.deliveryId, actor: plan.actor },
    goal: plan.goal,
    writeTestWhenGreen: !plan.isPullRequest,
    ...(plan.instructions ? { instructions: plan.instructions } : {}),
    ...(plan.failedCommand ? { failedCommand: plan.failedCommand } : {}),
    config,
  });
}

/** The branch's current commit, so the check run and the run agree on what was worked on. */
async function headOf(cloneUrl: string, ref: string, auth: { header: string }, cwd: string): Promise<string> {
  try {
    const out = await git(cwd, { auth }).listRemote([cloneUrl, `refs/heads/${ref}`]);
    const sha = out.split(/\s/)[0];
    if (!sha) throw new Error(`branch \`${ref}\` not found`);
    return sha;
  } catch (error) {
    throw new Error(`could not read \`${ref}\` of the repository: ${gitMessage(error)}`, { cause: error });
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
