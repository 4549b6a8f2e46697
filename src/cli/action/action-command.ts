// `fixloop action`: one GitHub Actions event, handled the App's way and run in this process, then the
// step's outputs, its summary and its exit code. A refusal, a reply or an escalation that was said on
// GitHub is the step doing its job (exit 0); a run that could not run or publish fails the step, and
// so does a step that could not start (its outputs and summary say `error` all the same).
import { mkdir } from 'node:fs/promises';
import type { CliIo } from '../command-context.ts';
import { EXIT, exitCodeFor } from '../exit-codes.ts';
import { Cancelled } from '../../jobs/job-queue.ts';
import { describeError } from '../../loop/run-error.ts';
import { selectSandbox } from '../../sandbox/select-sandbox.ts';
import { readActionEnv, type ActionEnv } from './action-env.ts';
import { readActionSettings } from './action-settings.ts';
import { readRunnerEvent } from './event-file.ts';
import { handleEvent } from './handle-event.ts';
import { runStarted, type FinishedRun } from './run-started.ts';
import { writeOutputs, writeSummary } from './step-files.ts';
import { noRunOutputs, runOutputs, type StepOutputs } from './step-outputs.ts';
import { stepLog } from './step-log.ts';
import { failureSummary, noRunSummary, runSummary } from './step-summary.ts';
import { annotation } from './workflow-commands.ts';

export interface ActionCommandOptions {
  env: NodeJS.ProcessEnv;
  io: CliIo;
  /** Aborted when the workflow run is cancelled (the runner sends SIGINT, then SIGTERM). */
  signal: AbortSignal;
}

type StepFiles = Pick<ActionEnv, 'outputPath' | 'summaryPath'>;

export async function actionCommand(options: ActionCommandOptions): Promise<number> {
  try {
    return await handleOneEvent(options);
  } catch (error) {
    // Later steps read `status` whatever happened; the CLI's error report (stderr, exit code) follows.
    const message = describeError(error);
    options.io.stdout(annotation('error', 'fixloop', message));
    await finish(stepFilesOf(options.env), noRunOutputs('error'), failureSummary(message)).catch(() => undefined);
    throw error;
  }
}

async function handleOneEvent(options: ActionCommandOptions): Promise<number> {
  const { io } = options;
  const env = readActionEnv(options.env);
  const settings = readActionSettings(options.env);
  const event = await readRunnerEvent(env);
  const { log, notes } = stepLog(options.env, io);
  await mkdir(env.tempRoot, { recursive: true });

  const handled = await handleEvent(env, event, settings.overrides, log);
  if (handled.kind === 'ignored' || handled.job === null) {
    const summary =
      handled.kind === 'ignored'
        ? noRunSummary(event.name, handled.reason, [], [])
        : noRunSummary(event.name, null, handled.record.comments, notes);
    io.stdout(`fixloop: ${handled.kind === 'ignored' ? handled.reason : 'no run started'}\n`);
    await finish(env, noRunOutputs(handled.kind === 'ignored' ? 'ignored' : 'no-run'), summary);
    return EXIT.ok;
  }

  const { sandbox, warning } = selectSandbox(settings.sandbox, options.env);
  // An annotation on the workflow run, so the warning is seen without opening the log.
  if (warning) io.stdout(annotation('warning', 'fixloop sandbox', warning));
  const run = await runStarted(handled.job, handled.forge, {
    sandbox,
    setupNetwork: settings.setupNetwork,
    tempRoot: env.tempRoot,
    env: options.env,
    log,
    signal: cancellable(options.signal),
  });
  const url = pullRequestUrl(run, handled.record);
  io.stdout(`fixloop: run ${run.data.runId}: ${run.outcome.outcome}\n`);
  await finish(env, runOutputs(run.data.runId, run.result, url), runSummary(run, url, env.tokenKind, warning));
  const code = exitFor(run, url);
  // The cause on the workflow run's page: the log's last line may be one of many.
  if (code !== EXIT.ok) io.stdout(annotation('error', 'fixloop', run.result?.error?.message ?? run.outcome.outcome));
  return code;
}

async function finish(files: StepFiles, outputs: StepOutputs, summary: string): Promise<void> {
  await writeOutputs(files.outputPath, { ...outputs });
  await writeSummary(files.summaryPath, summary);
}

/** Where the outputs and the summary go, read on their own: the rest of the environment may be what failed. */
function stepFilesOf(env: NodeJS.ProcessEnv): StepFiles {
  return { outputPath: env.GITHUB_OUTPUT?.trim() || null, summaryPath: env.GITHUB_STEP_SUMMARY?.trim() || null };
}

/** The pull request the run opened, or the one it pushed a commit to. */
function pullRequestUrl(run: FinishedRun, record: { opened: string | null; pullRequests: Map<number, string> }): string {
  if (run.result?.status !== 'tests_green') return '';
  const { target } = run.data.plan;
  return target.kind === 'push' ? (record.pullRequests.get(target.pullRequest) ?? '') : (record.opened ?? '');
}

function exitFor(run: FinishedRun, url: string): number {
  const { result, outcome, data } = run;
  // No result: the run failed before its loop (GitHub or git refused); said on GitHub, still a failure.
  if (!result) return EXIT.system;
  if (result.status === 'error') return exitCodeFor(result);
  // A verified fix that is not on GitHub (publication failed) is not a success.
  if (outcome.state === 'failed' || (result.status === 'tests_green' && data.plan.target.kind === 'pull-request' && !url))
    return EXIT.system;
  // Not fixed, but escalated on GitHub (status comment, label), or a fix at level `review` opened as a
  // draft: the step did its job; the `assessment` output tells a verified fix from one to review.
  return EXIT.ok;
}

/** The workflow's cancellation as the App's `/fix cancel`: the run stops and says it was cancelled. */
function cancellable(signal: AbortSignal): AbortSignal {
  const controller = new AbortController();
  const cancel = () => controller.abort(new Cancelled(null));
  if (signal.aborted) cancel();
  else signal.addEventListener('abort', cancel, { once: true });
  return controller.signal;
}
