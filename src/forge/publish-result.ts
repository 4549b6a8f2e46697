// Publication (docs/design.md §1.10): a verified patch becomes a branch and a pull request (or a new commit on
// fixloop's own branch); anything else becomes an escalation, a "nothing to fix" or an error message.
// A verified patch whose publication fails is kept (artifacts, result.json) and said so; a forge that
// is rate limited or unavailable is tried again first, a refusal is named (publication-failure.ts).
import { readFile } from 'node:fs/promises';
import type { RepoConfig } from '../core/repo-config.ts';
import type { RunResult } from '../core/run-result.ts';
import type { RunPlan } from './run-plan.ts';
import type { Forge, StatusOutcome } from './forge.ts';
import { PUBLISH_RETRY_DELAYS_MS, withForgeRetry } from './forge-retry.ts';
import {
  cancelledMessage,
  errorMessage,
  escalationMessage,
  flakyMessage,
  forkNote,
  greenMessage,
  NEEDS_HUMAN_LABEL,
  nothingToFixMessage,
  retryHint,
} from './messages.ts';
import { unpublishedMessage } from './publication-failure.ts';
import { pushPatch } from './push-patch.ts';
import { needsReview } from '../core/assessment-level.ts';

export interface Publication {
  /** The run's status comment, final form. */
  status: string;
  /** The run's commit status (GitHub's check run), final form. */
  verdict: StatusOutcome;
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
  /** Pauses between tries of a forge call that failed for a passing reason (tests shorten them). */
  retryDelaysMs?: readonly number[];
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
        status: unpublishedMessage(result.runId, error, retryHint(command)),
        verdict: { conclusion: 'failure', title: 'Verified, not published', summary: report },
        pullRequest: null,
      }));
    case 'nothing_to_fix':
      return {
        status: nothingToFixMessage(result, plan.kind === 'check' ? 'check' : 'issue'),
        verdict: {
          conclusion: 'neutral',
          title: plan.kind === 'check' ? 'Failure not reproduced' : 'Nothing to fix',
          summary: report,
        },
        pullRequest: null,
      };
    // Flaky tests are measured, never repaired (docs/design.md §3.2.8): a reply, a neutral check, no pull request.
    case 'flaky':
      return {
        status: flakyMessage(result, plan.kind === 'check' ? 'check' : 'issue'),
        verdict: { conclusion: 'neutral', title: 'Flaky tests: nothing to repair', summary: report },
        pullRequest: null,
      };
    case 'failed_to_green':
    case 'escalated': {
      if (result.stopReason === 'cancelled') {
        return {
          status: cancelledMessage(result.runId, input.cancelledBy ?? null),
          verdict: { conclusion: 'cancelled', title: 'Cancelled', summary: report },
          pullRequest: null,
        };
      }
      await withForgeRetry(() => input.forge.addLabels(plan.number, [NEEDS_HUMAN_LABEL]), input.retryDelaysMs);
      return {
        status: escalationMessage(result, command, await bestAttemptDiff(result)),
        verdict: { conclusion: 'failure', title: 'Not fixed: needs a human', summary: report },
        pullRequest: null,
      };
    }
    case 'error':
      return {
        status: errorMessage(result.runId, result.error?.message ?? 'unknown error', command),
        verdict: { conclusion: 'failure', title: 'Error', summary: report },
        pullRequest: null,
      };
  }
}

async function publishGreen(input: PublishInput, report: string): Promise<Publication> {
  const { forge, plan, config, result } = input;
  const retrying = <T>(call: () => Promise<T>) => withForgeRetry(call, input.retryDelaysMs ?? PUBLISH_RETRY_DELAYS_MS);
  const verified = result.verification?.passed === true;
  const message = `fixloop: ${plan.title}\n\n${result.headline}\n\nRun ${result.runId}${plan.isPullRequest ? '' : `, for #${plan.number}`}.`;
  const push = async (branch: string) =>
    pushPatch({
      fetchUrl: plan.cloneUrl,
      pushUrl: plan.pushUrl,
      auth: await retrying(() => forge.cloneAuth()),
      baseSha: result.repository.sha,
      patch: result.patch,
      branch,
      message,
      tmpRoot: input.tmpRoot,
    });
  // A verdict on the exit code alone is not proof per test, and a patch the assessment found changes
  // behaviour elsewhere (or could not look at) asks a person first (docs/design.md §3.3): a neutral check
  // and a draft pull request, both.
  const exitCodeOnly = result.verification?.evidence === 'exit-code';
  const review = needsReview(result);
  const verdict: StatusOutcome = {
    conclusion: exitCodeOnly || review ? 'neutral' : 'success',
    title: result.headline.slice(0, 255),
    summary: report,
  };

  if (plan.target.kind === 'push') {
    await push(plan.target.branch);
    return { status: greenMessage(result, null, plan.target.branch), verdict, pullRequest: null };
  }
  const branch = branchName(config.pr.branchPrefix, plan, result.runId);
  await push(branch);
  const notes = [plan.isPullRequest ? `For #${plan.number}.` : `Fixes #${plan.number}`];
  if (plan.target.note === 'fork') notes.push(forkNote(plan.target.base));
  const opening = {
    title: `fixloop: ${plan.title}`.slice(0, 250),
    head: branch,
    base: plan.target.base,
    body: `${prMarker(plan, result.runId)}\n${notes.join('\n\n')}\n\n${report}`,
    draft: config.pr.draft === 'always' || !verified || exitCodeOnly || review,
  };
  const pr = await retrying(() => forge.openPullRequest(opening));
  await retrying(() => forge.addLabels(pr.number, config.pr.labels));
  return { status: greenMessage(result, pr, null, opening.draft), verdict, pullRequest: pr };
}

/** The attempt that left the fewest failing tests: shown collapsed so a person can start from it. */
async function bestAttemptDiff(result: RunResult): Promise<string> {
  const tried = result.attempts.filter((a) => a.gate && a.changes.length > 0);
  const best = tried.sort((a, b) => (a.gate?.counts.failed ?? Infinity) - (b.gate?.counts.failed ?? Infinity))[0];
  if (!best) return '';
  return readFile(best.diffPath, 'utf8').catch(() => '');
}
