// `fixloop serve`: the GitHub App, configured by Probot's standard environment (APP_ID, PRIVATE_KEY or
// PRIVATE_KEY_PATH, WEBHOOK_SECRET, PORT, GHE_HOST, ...; see .env.example), checked before anything
// starts (serve-settings.ts), on fixloop's own HTTP server (src/github/start-app.ts).
import { existsSync, readFileSync } from 'node:fs';
import { registerApp } from './register-app.ts';
import { serveSettingsFrom } from './serve-settings.ts';

export async function serveCommand(options: { register?: boolean } = {}, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  if (existsSync('.env')) process.loadEnvFile('.env');
  if (options.register) return registerApp(env);
  const settings = serveSettingsFrom(env);
  const [{ appLogger }, { startApp }, { default: app }] = await Promise.all([
    import('../github/app-log.ts'),
    import('../github/start-app.ts'),
    import('../index.ts'),
  ]);
  const baseUrl = env.GHE_HOST ? `${env.GHE_PROTOCOL || 'https'}://${env.GHE_HOST}/api/v3` : 'https://api.github.com';
  await startApp(app, { ...settings, baseUrl, log: await appLogger(env), version: packageVersion() });
}

function packageVersion(): string {
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}
