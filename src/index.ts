// Probot's entry (DESIGN.md §5): the only default export. `fixloop serve` and `probot run` both load it.
import type { Probot } from 'probot';
import { createApp } from './app.ts';
import { appOptionsFromEnvironment } from './app-environment.ts';

export default (app: Probot): void => {
  const { options, sandboxWarning } = appOptionsFromEnvironment(process.env, (error) => app.log.error({ err: String(error) }, 'job crashed'));
  app.log.info({ sandbox: options.sandbox.backend, setupNetwork: options.setupNetwork === true }, 'sandbox chosen');
  if (sandboxWarning) app.log.warn({ sandbox: options.sandbox.backend }, sandboxWarning);
  createApp(options)(app);
};
