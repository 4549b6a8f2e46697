// One GitHub run as a queued job: resolve the commit, open a check run, run the same loop the CLI
// runs, keep the status comment current, publish. Every failure ends in a visible message.
import type { Logger } from 'pino';
import type { RepoConfig } from '../config/schema.ts';
import type { Job, JobControl } from '../jobs/job-queue.ts';
import type { RunProgress } from '../loop/progress.ts';
import { runFix, type RunFixDeps } from '../loop/run-fix.ts';
import type { Sandbox } from '../sandbox/sandbox.ts';
import { fixRequestSchema } from '../triggers/fix-request.ts';
import { runKey, type RunPlan } from '../triggers/run-plan.ts';
import { git, gitMessage } from '../workspace/git.ts';
import type { Forge } from './forge.ts';
import { errorMessage, progressMessage } from './messages.ts';
import { publishResult } from './publish-result.ts';
import type { StatusComment } from './status-comment.ts';

export interface RunJobDeps {
  forge: Forge;
  config: RepoConfig;
  sandbox: Sandbox;
  artifactsRoot: string;
  tmpRoot: string;
  log: Logger;
  status: StatusComment;
  createEngines?: RunFixDeps['createEngines'];
  setupNetwork?: boolean;
}

export function createRunJob(plan: RunPlan, runId: string, deps: RunJobDeps): Job {
  return {
    key: runKey(plan),
    runId,
    actor: plan.actor,
    run: (control) => runJob(plan, runId, deps, control),
  };
}

async function runJob(plan: RunPlan, runId: string, deps: RunJobDeps, control: JobControl): Promise<void> {
  const { forge, log, status } = deps;
  const meta = { runId, repo: `${plan.owner}/${plan.repo}`, number: plan.number, kind: plan.kind };
  let checkRun: number | null = null;
  try {
    const auth = await forge.cloneAuth();
    const sha = plan.sha ?? (await headOf(plan.cloneUrl, plan.ref, auth, deps.tmpRoot));
    checkRun = await forge.startCheckRun(sha, `Run \`${runId}\` for #${plan.number}.`).catch((error: unknown) => {
      log.warn({ ...meta, err: describe(error) }, 'check run not created');
      return null;
    });
    let shown = '';
    const onProgress = (p: RunProgress) => {
      const key = `${p.phase}:${p.attempt ?? ''}:${p.failing ?? ''}`;
      control.report(p.phase === 'attempt' ? `attempt ${p.attempt}/${p.maxAttempts}` : p.phase);
      if (p.phase === 'done' || key === shown) return;
      shown = key;
      void status.update(progressMessage(runId, p));
    };
    const request = fixRequestSchema.parse({
      runId,
      repository: { cloneUrl: plan.cloneUrl, ref: plan.ref, sha, baseRef: plan.baseRef },
      trigger: { kind: plan.kind, number: plan.number, deliveryId: plan.deliveryId, actor: plan.actor },
      goal: plan.goal,
      ...(plan.instructions ? { instructions: plan.instructions } : {}),
      config: deps.config,
    });
    log.info(meta, 'run started');
    const result = await runFix(request, {
      sandbox: deps.sandbox,
      artifactsRoot: deps.artifactsRoot,
      auth,
      signal: control.signal,
      onProgress,
      tmpRoot: deps.tmpRoot,
      setupNetwork: deps.setupNetwork === true,
      ...(deps.createEngines ? { createEngines: deps.createEngines } : {}),
    });
    log.info({ ...meta, status: result.status, stopReason: result.stopReason, attempts: result.attempts.length, durationMs: result.durationMs }, 'run finished');
    const cancelledBy = control.signal.aborted ? cancelledByFrom(control.signal.reason) : null;
    const publication = await publishResult({ forge, plan, config: deps.config, result, tmpRoot: deps.tmpRoot, cancelledBy });
    await status.flush();
    await status.update(publication.status);
    if (checkRun !== null) await forge.completeCheckRun(checkRun, publication.check);
    log.info({ ...meta, pullRequest: publication.pullRequest?.number }, 'run published');
  } catch (error) {
    // The person who asked must see an outcome even when GitHub or git failed under us.
    log.error({ ...meta, err: describe(error) }, 'run failed');
    await status.flush();
    await status.update(errorMessage(runId, describe(error), deps.config.triggers.command));
    if (checkRun !== null) {
      await forge.completeCheckRun(checkRun, { conclusion: 'failure', title: 'Error', summary: describe(error) }).catch(() => undefined);
    }
  }
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

function cancelledByFrom(reason: unknown): string | null {
  const text = reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : '';
  return /cancelled by @?([\w-]+(\[bot\])?)/.exec(text)?.[1] ?? null;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
