// `fixloop serve`: the GitHub App on Probot's server, configured by Probot's standard environment
// (APP_ID, PRIVATE_KEY or PRIVATE_KEY_PATH, WEBHOOK_SECRET, PORT, GHE_HOST, ...; see .env.example).
import { existsSync } from 'node:fs';
import { UsageError } from './usage-error.ts';

export async function serveCommand(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  if (existsSync('.env')) process.loadEnvFile('.env');
  if (env.APP_ID) {
    // Probot would fall back to the secret "development": anyone could then send fixloop webhooks.
    if (!env.WEBHOOK_SECRET) throw new UsageError('WEBHOOK_SECRET is not set: set it to the webhook secret of the GitHub App (see .env.example)');
    if (!env.PRIVATE_KEY && !env.PRIVATE_KEY_PATH) throw new UsageError('neither PRIVATE_KEY nor PRIVATE_KEY_PATH is set: fixloop needs the GitHub App private key (see .env.example)');
    if (env.PRIVATE_KEY_PATH && !existsSync(env.PRIVATE_KEY_PATH)) throw new UsageError(`PRIVATE_KEY_PATH: no such file \`${env.PRIVATE_KEY_PATH}\``);
  }
  const [{ run }, { default: app }] = await Promise.all([import('probot'), import('../index.ts')]);
  await run(app);
}
