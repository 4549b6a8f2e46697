// Probot's entry (docs/design.md §5): the only default export. `fixloop serve` and `probot run` both load it.
import type { Probot } from 'probot';
import { createApp } from './app.ts';
import { appOptionsFromEnvironment } from './app-environment.ts';

export default async (app: Probot): Promise<void> => {
  const { options, sandboxWarning } = await appOptionsFromEnvironment(process.env, (error, job) =>
    app.log.error({ err: String(error), job: job?.runId ?? null }, 'job crashed'),
  );
  const { sandbox, setupNetwork } = options.runDeps;
  app.log.info({ sandbox: sandbox.backend, setupNetwork: setupNetwork === true }, 'sandbox chosen');
  if (sandboxWarning) app.log.warn({ sandbox: sandbox.backend }, sandboxWarning);
  createApp(options)(app);
  // SIGTERM (a deploy, `docker stop`): stop claiming, let running attempts finish within the grace
  // period, then release their leases so the next process takes them up.
  const grace = Number(process.env.FIXLOOP_SHUTDOWN_GRACE_SECONDS ?? '25') * 1000;
  process.once('SIGTERM', () => {
    app.log.info({ graceMs: grace }, 'shutting down');
    void options.queue.shutdown(grace).finally(() => process.exit(0));
  });
};
