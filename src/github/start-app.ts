// Starts the App as `fixloop serve` runs it: Probot with the checked settings and fixloop's logger,
// GitHub's API behind a deadline, and fixloop's HTTP server (app-server.ts) in front of Probot's
// webhook middleware. A webhook proxy only when the operator asked for one.
import type { Server } from 'node:http';
import { Probot, type ApplicationFunction } from 'probot';
import type { Logger } from 'pino';
import { createAppServer, listen } from './app-server.ts';
import { timedFetch } from './timed-fetch.ts';
import { startWebhookProxy } from './webhook-proxy.ts';

export interface AppStartOptions {
  appId: number;
  privateKey: string;
  secret: string;
  /** GitHub's API: https://api.github.com, or a GitHub Enterprise Server's `https://HOST/api/v3`. */
  baseUrl: string;
  port: number;
  host: string | undefined;
  webhookPath: string;
  webhookProxy: string | undefined;
  githubTimeoutMs: number;
  log: Logger;
  version: string;
}

export async function startApp(appFn: ApplicationFunction, options: AppStartOptions): Promise<{ server: Server; port: number }> {
  const { log } = options;
  const probot = new Probot({
    appId: options.appId,
    privateKey: options.privateKey,
    secret: options.secret,
    baseUrl: options.baseUrl,
    webhookPath: options.webhookPath,
    log,
    request: { fetch: timedFetch(options.githubTimeoutMs) },
  });
  await probot.load(appFn, {
    cwd: process.cwd(),
    addHandler: () => {
      throw new Error('fixloop adds no HTTP routes through Probot');
    },
  });
  const webhooks = await probot.getNodeMiddleware({ log: probot.log.child({ name: 'webhooks' }), path: options.webhookPath });
  const server = createAppServer({
    webhooks,
    secret: options.secret,
    webhookPath: options.webhookPath,
    log: probot.log.child({ name: 'server' }),
    version: options.version,
  });
  const port = await listen(server, options.port, options.host);
  const shown = options.host && options.host !== '0.0.0.0' && options.host !== '::' ? options.host : 'localhost';
  probot.log.info(`Listening on http://${shown}:${port}`);
  if (options.webhookProxy) {
    const proxy = await startWebhookProxy(options.webhookProxy, `http://127.0.0.1:${port}${options.webhookPath}`, log);
    if (proxy) server.once('close', () => proxy.close());
  }
  return { server, port };
}
