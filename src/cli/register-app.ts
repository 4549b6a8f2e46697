// `fixloop serve --register`: Probot's setup page registers a GitHub App from app.yml and writes
// APP_ID, PRIVATE_KEY and WEBHOOK_SECRET to .env. Left to itself that flow also opens a smee.io
// channel by installing smee-client with npx; here it downloads nothing: the webhook URL is
// WEBHOOK_PROXY_URL when the operator set one, else this server's, to change in the App's settings.
import { existsSync } from 'node:fs';
import { UsageError } from './usage-error.ts';

export async function registerApp(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  if (env.NODE_ENV === 'production')
    throw new UsageError(
      '--register runs on a development machine, not with NODE_ENV=production: register the App there (or by hand, docs/github-app.md#create-the-app) and give this server APP_ID, the private key and WEBHOOK_SECRET',
    );
  if (!existsSync('app.yml'))
    throw new UsageError("--register reads the App's manifest from app.yml in this folder: run it in fixloop's folder");
  process.env.NO_SMEE_SETUP = 'true';
  const { run } = await import('probot');
  // Setup mode is Probot's answer to a missing APP_ID; the key and the proxy are left out so that it
  // neither reads a key file that is not there yet nor starts a proxy (smee-client through npx).
  await run(() => undefined, { env: { ...env, APP_ID: '', PRIVATE_KEY: '', PRIVATE_KEY_PATH: '', WEBHOOK_PROXY_URL: '' } });
}
