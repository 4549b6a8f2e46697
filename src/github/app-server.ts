// The App's HTTP server: the webhook path (signature checked first), `GET /ping` for health checks,
// and `GET /` saying what this server is. fixloop's own rather than Probot's `run()`, whose setup
// mode and webhook proxy install smee-client with npx, and whose webhook errors log the payload.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { signatureMatches } from './webhook-signature.ts';

/** @octokit/webhooks' Node middleware, as Probot builds it: true when it answered the request. */
export type WebhookMiddleware = (request: IncomingMessage, response: ServerResponse) => Promise<boolean | void>;

export interface AppServerOptions {
  webhooks: WebhookMiddleware;
  secret: string;
  webhookPath: string;
  log: Logger;
  version: string;
}

/** GitHub's own limit on a delivery: anything bigger is not from GitHub. */
const MAX_BODY_BYTES = 25 * 1024 * 1024;

export function createAppServer(options: AppServerOptions): Server {
  const handle = requestHandler(options);
  return createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      options.log.error({ err: error, method: request.method, path: pathOf(request) }, 'request failed');
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: 'internal error' }));
    });
  });
}

export function listen(server: Server, port: number, host: string | undefined): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(error.code === 'EADDRINUSE' ? new Error(`port ${port} is already in use: set PORT to another one`) : error);
    });
    server.listen({ port, ...(host ? { host } : {}) }, () => resolve((server.address() as { port: number }).port));
  });
}

function requestHandler(options: AppServerOptions) {
  return async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const path = pathOf(request);
    if (path === options.webhookPath && request.method === 'POST') return webhook(options, request, response);
    // An App registered from the manifest (`fixloop serve --register`) has GitHub post to `/`.
    if (path === '/' && request.method === 'POST') {
      request.url = options.webhookPath;
      return webhook(options, request, response);
    }
    if (path === options.webhookPath) {
      await options.webhooks(request, response);
      return;
    }
    if (request.method === 'GET' && path === '/ping') {
      response.writeHead(200, { 'content-type': 'text/plain' }).end('PONG');
      return;
    }
    if (request.method === 'GET' && path === '/') {
      json(response, 200, about(options));
      return;
    }
    json(response, 404, { error: `no ${request.method} ${path} here`, see: 'GET / for what this server answers' });
  };
}

/** What an operator (or a curious browser) learns at `/`. */
function about(options: AppServerOptions) {
  return {
    name: 'fixloop',
    version: options.version,
    what: 'The fixloop GitHub App: it turns red tests green and answers with a verified pull request.',
    webhook: `POST ${options.webhookPath} (or POST /): GitHub's deliveries, signed with the webhook secret`,
    health: 'GET /ping answers 200 PONG while the server runs',
    docs: 'docs/github-app.md',
  };
}

async function webhook(options: AppServerOptions, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const body = await readBody(request);
  if (body === null) {
    json(response, 413, { error: 'a delivery is at most 25 MB' });
    return;
  }
  const signature = request.headers['x-hub-signature-256'];
  if (typeof signature === 'string' && !signatureMatches(options.secret, body, signature)) {
    const delivery = request.headers['x-github-delivery'] ?? null;
    const event = request.headers['x-github-event'] ?? null;
    // One line, no payload: a wrong secret sends every delivery here.
    options.log.warn(
      { delivery, event },
      "webhook refused: signature does not match (is WEBHOOK_SECRET the App's webhook secret?)",
    );
    json(response, 400, { error: 'signature does not match event payload and secret' });
    return;
  }
  // The middleware reads a body already read from `request.body` (as behind Express).
  Object.assign(request, { body });
  await options.webhooks(request, response);
}

function readBody(request: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    request.on('end', () => resolve(size > MAX_BODY_BYTES ? null : Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(`${JSON.stringify(body, null, 2)}\n`);
}

function pathOf(request: IncomingMessage): string {
  const path = (request.url ?? '/').split('?')[0] ?? '/';
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}
