// Webhook acknowledgement latency with the job persisted: a burst of signed `/fix` deliveries on
// loopback to the real app (Probot's middleware, the durable queue on SQLite in a temp data dir), with
// a fake GitHub API on loopback answering the calls the handler makes before it stores the job
// (installation token, config, permission, reaction, status comment).
// Run: node bench/ack-latency.ts [--deliveries 1000] [--concurrency 100]
import { createHmac, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { pino } from 'pino';
import { createNodeMiddleware, Probot, ProbotOctokit } from 'probot';
import { createApp } from '../src/app.ts';
import { createDurableQueue } from '../src/jobs/durable-queue.ts';
import { openSqliteStore } from '../src/jobs/sqlite-store.ts';
import { createProcessSandbox } from '../src/sandbox/process-sandbox.ts';
import { median, percentile } from './lib/stats.ts';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const DELIVERIES = arg('deliveries', 1000);
const CONCURRENCY = arg('concurrency', 100);
const SECRET = 'bench-secret';

// The fake GitHub: every answer the handler needs, at loopback speed.
let commentId = 0;
const github = createServer((req: IncomingMessage, res: ServerResponse) => {
  const url = req.url ?? '';
  req.resume();
  const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
  if (url.includes('/access_tokens')) return json(201, { token: 'ghs_bench', expires_at: new Date(Date.now() + 3_600_000).toISOString() });
  if (url.includes('/contents/')) return res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('test:\n  command: npm test\n');
  if (url.includes('/permission')) return json(200, { permission: 'admin', role_name: 'admin' });
  if (url.includes('/reactions')) return json(201, { id: 1, content: 'eyes' });
  if (req.method === 'GET' && url.includes('/comments')) return json(200, []);
  if (url.includes('/comments')) return json(201, { id: ++commentId });
  return json(404, { message: 'Not Found' });
});
await new Promise<void>((resolve) => github.listen(0, '127.0.0.1', resolve));
const apiUrl = `http://127.0.0.1:${(github.address() as AddressInfo).port}`;

const dataDir = mkdtempSync(join(tmpdir(), 'fixloop-ack-'));
const store = await openSqliteStore(dataDir);
const queue = createDurableQueue({ store, concurrency: 1 });
const inbox = createDurableQueue({ store, concurrency: 4, lane: 'event', pollMs: 50 });
// Deliveries are stored and answered; handling them (and the runs) is not what is measured here.
const options = { queue: { ...queue, start: async () => undefined }, inbox: { ...inbox, start: async () => undefined }, sandbox: createProcessSandbox(), artifactsRoot: join(dataDir, 'runs'), tmpRoot: dataDir, installationToken: async () => 'ghs_bench' };
const probot = new Probot({
  appId: 1,
  privateKey: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
  secret: SECRET,
  baseUrl: apiUrl,
  log: pino({ level: process.env.BENCH_LOG ?? 'silent' }),
  Octokit: ProbotOctokit.defaults((o: Record<string, unknown>) => ({ ...o, throttle: { enabled: false }, retry: { enabled: false } })),
});
const middleware = await createNodeMiddleware(createApp(options), { probot });
const server = createServer((req, res) => void middleware(req, res));
await new Promise<void>((resolve) => server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, resolve));
const hookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/github/webhooks`;

interface Example { action?: string; issue: { number: number; pull_request?: unknown }; comment: { body: string }; installation?: unknown }
const examples = createRequire(import.meta.url)('@octokit/webhooks-examples/api.github.com/index.json') as Array<{ name: string; examples: Example[] }>;
const template = examples.find((g) => g.name === 'issue_comment')?.examples.find((e) => e.action === 'created' && !e.issue.pull_request) as Example;

function delivery(i: number): { body: string; id: string } {
  const payload = structuredClone(template);
  payload.installation = { id: 1 };
  payload.issue.number = i + 1;
  payload.comment.body = '/fix';
  return { body: JSON.stringify(payload), id: `bench-${i}` };
}

async function post(i: number): Promise<number> {
  const { body, id } = delivery(i);
  const res = await fetch(hookUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-github-event': 'issue_comment', 'x-github-delivery': id, 'x-hub-signature-256': `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}` },
    body,
  });
  await res.text();
  return res.status;
}

// Warm-up (JIT, connections), not counted: 100 deliveries one at a time.
for (let i = 0; i < 100; i++) await post(DELIVERIES + i);

const latencies: number[] = [];
let failures = 0;
let next = 0;
const started = performance.now();
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    for (;;) {
      const i = next++;
      if (i >= DELIVERIES) return;
      const t0 = performance.now();
      const status = await post(i);
      latencies.push(performance.now() - t0);
      if (status >= 300) failures++;
    }
  }),
);
const wall = performance.now() - started;
// Every delivery of the burst must be in the store (a second record of it is refused).
let stored = 0;
for (let i = 0; i < DELIVERIES; i++) if (!(await store.recordDelivery(`bench-${i}`, 'issue_comment'))) stored++;
const fmt = (v: number | null) => (v === null ? '–' : `${v.toFixed(1)} ms`);
console.log(`deliveries ${DELIVERIES}, concurrency ${CONCURRENCY}, failures ${failures}, deliveries stored before their answer ${stored}`);
console.log(`ack latency: p50 ${fmt(median(latencies))}, p90 ${fmt(percentile(latencies, 90))}, p99 ${fmt(percentile(latencies, 99))}, max ${fmt(Math.max(...latencies))}; ${(DELIVERIES / (wall / 1000)).toFixed(0)} deliveries/s`);
server.close();
github.close();
await store.close();
rmSync(dataDir, { recursive: true, force: true });
