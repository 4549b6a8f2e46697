// Probot's entry (DESIGN.md §5): the only default export. `fixloop serve` and `probot run` both load it.
import type { Probot } from 'probot';
import { createApp } from './app.ts';
import { appOptionsFromEnvironment } from './app-environment.ts';

export default (app: Probot): void => {
  const options = appOptionsFromEnvironment(process.env, (error) => app.log.error({ err: String(error) }, 'job crashed'));
  if (options.sandbox.backend === 'process') {
    app.log.warn({ sandbox: 'process' }, 'runs use the process sandbox: no isolation beyond a scrubbed environment, timeouts and output caps');
  }
  createApp(options)(app);
};
