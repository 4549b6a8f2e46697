// `fixloop action`: one GitHub Actions event, handled the App's way and run in this process, then the
// step's outputs, its summary and its exit code. A refusal, a reply or an escalation that was said on
// GitHub is the step doing its job (exit 0); a run that could not run or publish fails the step.
import { mkdir } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';
import type { CliIo } from '../command-context.ts';
import { EXIT, exitCodeFor } from '../exit-codes.ts';
import { Cancelled } from '../../jobs/job-queue.ts';
import { selectSandbox } from '../../sandbox/select-sandbox.ts';
import { readActionEnv, type ActionEnv } from './action-env.ts';
import { readActionSettings } from './action-settings.ts';
import { readRunnerEvent } from './event-file.ts';
import { handleEvent } from './handle-event.ts';
import { runStarted, type FinishedRun } from './run-started.ts';
import { writeOutputs, writeSummary } from './step-files.ts';
import { noRunSummary, runSummary } from './step-summary.ts';

export interface ActionCommandOptions {
  env: NodeJS.ProcessEnv;
  io: CliIo;
  /** Aborted when the workflow run is cancelled (the runner sends SIGINT, then SIGTERM). */
  signal: AbortSignal;
}

export async function actionCommand(options: ActionCommandOptions): Promise<number> {
  const { io } = options;
  const env = readActionEnv(options.env);
  const settings = readActionSettings(options.env);
  const event = await readRunnerEvent(env);
  const log = stepLogger(options.env, io);
  await mkdir(env.tempRoot, { recursive: true });

  const handled = await handleEvent(env, event, settings.overrides, log);
  if (handled.kind === 'ignored' || handled.job === null) {
    const summary = handled.kind === 'ignored' ? noRunSummary(event.name, handled.reason, []) : noRunSummary(event.name, null, handled.record.comments);
    io.stdout(`fixloop: ${handled.kind === 'ignored' ? handled.reason : 'no run started'}\n`);
    await finish(env, { status: handled.kind === 'ignored' ? 'ignored' : 'no-run', 'pull-request-url': '', 'run-id': '' }, summary);
    return EXIT.ok;
  }

  const { sandbox, warning } = selectSandbox(settings.sandbox, options.env);
  // An annotation on the workflow run, so the warning is seen without opening the log.
  if (warning) io.stdout(`::warning title=fixloop sandbox::${warning}\n`);
  const run = await runStarted(handled.job, handled.forge, { sandbox, setupNetwork: settings.setupNetwork, tempRoot: env.tempRoot, env: options.env, log, signal: cancellable(options.signal) });
  const url = pullRequestUrl(run, handled.record);
  const status = run.result?.status ?? 'error';
  io.stdout(`fixloop: run ${run.data.runId}: ${run.outcome.outcome}\n`);
  await finish(env, { status, 'pull-request-url': url, 'run-id': run.data.runId }, runSummary(run, url, env.tokenKind, warning));
  return exitFor(run, url);
}

async function finish(env: ActionEnv, outputs: Record<string, string>, summary: string): Promise<void> {
  await writeOutputs(env.outputPath, outputs);
  await writeSummary(env.summaryPath, summary);
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
  if (outcome.state === 'failed' || (result.status === 'tests_green' && data.plan.target.kind === 'pull-request' && !url)) return EXIT.system;
  // Not fixed, but escalated on GitHub (status comment, label): the step did its job.
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

function stepLogger(env: NodeJS.ProcessEnv, io: CliIo): Logger {
  const stream = new Writable({ write: (chunk: Buffer, _encoding, done) => (io.stderr(chunk.toString()), done()) });
  return pino({ level: env.RUNNER_DEBUG === '1' ? 'debug' : 'info', base: null }, stream);
}
