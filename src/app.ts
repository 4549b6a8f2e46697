// The Probot app: it only registers handlers (docs/design.md §5). The intake stores deliveries, the
// inbox's workers hand them to the triggers (src/triggers/) through the GitHub adapter
// (src/github/), and the run lane's workers run the loop; nothing here waits for a run.
import type { Probot } from 'probot';
import { createRunRunner, type RunRunnerOptions } from './github/run-runner.ts';
import { registerIntake, storedEventRunner } from './github/webhook-intake.ts';
import { TRIGGERS } from './github/triggers.ts';
import type { JobQueue } from './jobs/job-queue.ts';

export interface AppOptions extends RunRunnerOptions {
  /** Fix runs (long). */
  queue: JobQueue;
  /** Webhook deliveries, stored before they are answered and handled by their own workers (quick). */
  inbox: JobQueue;
  /** Whether this process handles deliveries and runs (false: a web process that only stores them). */
  runWorkers?: boolean;
  /** fixloop's own app id: its own check suites never trigger a run. */
  appId?: number;
  /** How long handling one delivery may take before it ends failed (GitHub not answering). */
  deliveryDeadlineMs?: number;
}

export function createApp(options: AppOptions) {
  return (app: Probot): void => {
    registerIntake(app, TRIGGERS, options.inbox, options.appId);
    if (options.runWorkers === false) return;
    const { runner, onAbandoned } = createRunRunner(app, options);
    options.queue
      .start(runner, onAbandoned)
      .catch((error: unknown) => app.log.error({ err: String(error) }, 'the job queue did not start'));
    options.inbox
      .start(storedEventRunner(app, TRIGGERS, options))
      .catch((error: unknown) => app.log.error({ err: String(error) }, 'the webhook inbox did not start'));
  };
}
