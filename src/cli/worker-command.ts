// `fixloop worker`: handles stored deliveries and runs from the shared run store (DATABASE_URL), with
// no web server: as many as needed, on as many machines, next to `fixloop serve` processes started
// with FIXLOOP_WORKERS=0 that only store what GitHub sends.
import { existsSync } from 'node:fs';
import { UsageError } from './usage-error.ts';

export async function workerCommand(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  if (existsSync('.env')) process.loadEnvFile('.env');
  if (!env.APP_ID || (!env.PRIVATE_KEY && !env.PRIVATE_KEY_PATH))
    throw new UsageError('a worker acts as the GitHub App: set APP_ID and PRIVATE_KEY or PRIVATE_KEY_PATH (see .env.example)');
  if (!env.DATABASE_URL)
    throw new UsageError(
      'DATABASE_URL is not set: workers on their own need the shared run store (PostgreSQL); one `fixloop serve` runs its own workers without it',
    );
  const [{ createProbot }, { default: app }] = await Promise.all([import('probot'), import('../index.ts')]);
  const probot = createProbot({ env });
  await probot.load(app);
  probot.log.info('worker started');
  // The queues' timers do not keep the process alive on their own; SIGTERM ends it (see index.ts).
  setInterval(() => undefined, 60_000);
  await new Promise<never>(() => undefined);
}
