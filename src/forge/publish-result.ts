// Publication (DESIGN.md §1.9): a verified patch becomes a branch and a pull request (or a new commit on
// fixloop's own branch); anything else becomes an escalation, a "nothing to fix" or an error message.
// A verified patch whose publication fails is kept (artifacts, result.json) and said so.
import { readFile } from 'node:fs/promises';
import type { RepoConfig } from '../core/repo-config.ts';
import type { RunResult } from '../core/run-result.ts';
import type { RunPlan } from './run-plan.ts';
import type { CheckRunOutput, Forge } from './forge.ts';
import { cancelledMessage, errorMessage, escalationMessage, forkNote, greenMessage, NEEDS_HUMAN_LABEL, nothingToFixMessage, retryHint } from './messages.ts';
import { pushPatch } from './push-patch.ts';

export interface Publication {
  /** The run's status comment, final form. */
  status: string;
  check: CheckRunOutput;
  pullRequest: { number: number; htmlUrl: string } | null;
}

export interface PublishInput {
  forge: Forge;
  plan: RunPlan;
  config: RepoConfig;
  result: RunResult;
  /** The run's Markdown report, as the run rendered it (report.md): the pull request's body, the check's summary. */
  report: string;
  tmpRoot: string;
  cancelledBy?: string | null;
}

export function prMarker(plan: RunPlan, runId: string): string {
  return `<!-- fixloop:pr run=${runId} for=${plan.number} -->`;
}

export function branchName(prefix: string, plan: RunPlan, runId: string): string {
  return `${prefix}${plan.number}-${runId.slice(-6)}`;
}

export async function publishResult(input: PublishInput): Promise<Publication> {
  const { result, config, plan, report } = input;
  const command = config.triggers.command;
  switch (result.status) {
    case 'tests_green':
      return publishGreen(input, report).catch((error: unknown) => ({
        status: `⚠️ **fixloop** run \`${result.runId}\` verified a fix but could not publish it: ${error instanceof Error ? error.message : String(error)}\n\nThe verified patch is kept with the run's artifacts. ${retryHint(command)}`,
        check: { conclusion: 'failure', title: 'Verified, not published', summary: report },
        pullRequest: null,
      }));
    case 'nothing_to_fix':
      return {
        status: nothingToFixMessage(result, plan.kind === 'check' ? 'check' : 'issue'),
        check: { conclusion: 'neutral', title: plan.kind === 'check' ? 'Failure not reproduced' : 'Nothing to fix', summary: report },
        pullRequest: null,
      };
    case 'failed_to_green':
    case 'escalated': {
      if (result.stopReason === 'cancelled') {
        return { status: cancelledMessage(result.runId, input.cancelledBy ?? null), check: { conclusion: 'cancelled', title: 'Cancelled', summary: report }, pullRequest: null };
      }
      await input.forge.addLabels(plan.number, [NEEDS_HUMAN_LABEL]);
      return {
        status: escalationMessage(result, command, await bestAttemptDiff(result)),
        check: { conclusion: 'failure', title: 'Not fixed: needs a human', summary: report },
        pullRequest: null,
      };
    }
    case 'error':
      return {
        status: errorMessage(result.runId, result.error?.message ?? 'unknown error', command),
        check: { conclusion: 'failure', title: 'Error', summary: report },
        pullRequest: null,
      };
  }
}

async function publishGreen(input: PublishInput, report: string): Promise<Publication> {
  const { forge, plan, config, result } = input;
  const verified = result.verification?.passed === true;
  const message = `fixloop: ${plan.title}\n\n${result.headline}\n\nRun ${result.runId}${plan.isPullRequest ? '' : `, for #${plan.number}`}.`;
  const push = async (branch: string) =>
    pushPatch({ fetchUrl: plan.cloneUrl, pushUrl: plan.pushUrl, auth: await forge.cloneAuth(), baseSha: result.repository.sha, patch: result.patch, branch, message, tmpRoot: input.tmpRoot });
  // A verdict on the exit code alone is not proof per test: a neutral check and a draft pull request.
  const exitCodeOnly = result.verification?.evidence === 'exit-code';
  const check: CheckRunOutput = { conclusion: exitCodeOnly ? 'neutral' : 'success', title: result.headline.slice(0, 255), summary: report };

  if (plan.target.kind === 'push') {
    await push(plan.target.branch);
    return { status: greenMessage(result, null, plan.target.branch), check, pullRequest: null };
  }
  const branch = branchName(config.pr.branchPrefix, plan, result.runId);
  await push(branch);
  const notes = [plan.isPullRequest ? `For #${plan.number}.` : `Fixes #${plan.number}`];
  if (plan.target.note === 'fork') notes.push(forkNote(plan.target.base));
  const pr = await forge.openPullRequest({
    title: `fixloop: ${plan.title}`.slice(0, 250),
    head: branch,
    base: plan.target.base,
    body: `${prMarker(plan, result.runId)}\n${notes.join('\n\n')}\n\n${report}`,
    draft: config.pr.draft === 'always' || !verified || exitCodeOnly,
  });
  await forge.addLabels(pr.number, config.pr.labels);
  return { status: greenMessage(result, pr, null), check, pullRequest: pr };
}

/** The attempt that left the fewest failing tests: shown collapsed so a person can start from it. */
async function bestAttemptDiff(result: RunResult): Promise<string> {
  const tried = result.attempts.filter((a) => a.gate && a.changes.length > 0);
  const best = tried.sort((a, b) => (a.gate?.counts.failed ?? Infinity) - (b.gate?.counts.failed ?? Infinity))[0];
  if (!best) return '';
  return readFile(best.diffPath, 'utf8').catch(() => '');
}
