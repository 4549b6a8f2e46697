// Webhook acknowledgement latency with the job persisted: a burst of signed `/fix` deliveries on
// loopback to the real app (Probot's middleware, the durable queue on SQLite in a temp data dir), with
// a fake GitHub API on loopback answering the calls the handler makes before it stores the job
// (installation token, config, permission, reaction, status comment).
// The load comes from another process (bench/lib/webhook-burst.ts), as GitHub's would.
// Run: node bench/ack-latency.ts [--deliveries 1000] [--concurrency 100]
import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
  const json = (status: number, body: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
  if (url.includes('/access_tokens'))
    return json(201, { token: 'ghs_bench', expires_at: new Date(Date.now() + 3_600_000).toISOString() });
  if (url.includes('/contents/'))
    return res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('test:\n  command: npm test\n');
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
const acceptTimes: number[] = [];
const timedAccept: typeof inbox.accept = async (event) => {
  const t0 = performance.now();
  try {
    return await inbox.accept(event);
  } finally {
    acceptTimes.push(performance.now() - t0);
  }
};
const options = {
  queue: { ...queue, start: async () => undefined },
  inbox: { ...inbox, accept: timedAccept, start: async () => undefined },
  runDeps: { sandbox: createProcessSandbox(), artifactsRoot: join(dataDir, 'runs'), tmpRoot: dataDir },
  installationToken: async () => 'ghs_bench',
};
const probot = new Probot({
  appId: 1,
  privateKey: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
  secret: SECRET,
  baseUrl: apiUrl,
  log: pino({ level: process.env.BENCH_LOG ?? 'silent' }),
  Octokit: ProbotOctokit.defaults((o: Record<string, unknown>) => ({
    ...o,
    throttle: { enabled: false },
    retry: { enabled: false },
  })),
});
const middleware = await createNodeMiddleware(createApp(options), { probot });
// Server side: from the request's arrival to the end of its answer.
const serverTimes: number[] = [];
const server = createServer((req, res) => {
  const t0 = performance.now();
  res.on('finish', () => serverTimes.push(performance.now() - t0));
  void middleware(req, res);
});
await new Promise<void>((resolve) => server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, resolve));
const hookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/github/webhooks`;

const BURST = fileURLToPath(new URL('./lib/webhook-burst.ts', import.meta.url));
/** Runs the load generator in its own process and returns each delivery's latency and status. */
function burst(deliveries: number, concurrency: number, first: number): Promise<Array<{ ms: number; status: number }>> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [BURST, hookUrl, SECRET, String(deliveries), String(concurrency), String(first)],
      { maxBuffer: 64 * 1024 * 1024 },
      (error, stdout) => (error ? reject(error) : resolve(JSON.parse(stdout) as Array<{ ms: number; status: number }>)),
    );
  });
}

// Warm-up (JIT, connections), not counted: 100 deliveries one at a time.
await burst(100, 1, DELIVERIES);
serverTimes.length = 0;
acceptTimes.length = 0;

const started = performance.now();
const results = await burst(DELIVERIES, CONCURRENCY, 0);
const latencies = results.map((r) => r.ms);
const failures = results.filter((r) => r.status >= 300).length;
const wall = performance.now() - started;
// Every delivery of the burst must be in the store (a second record of it is refused).
let stored = 0;
for (let i = 0; i < DELIVERIES; i++) if (!(await store.recordDelivery(`bench-${i}`, 'issue_comment'))) stored++;
const fmt = (v: number | null) => (v === null ? '–' : `${v.toFixed(1)} ms`);
console.log(
  `deliveries ${DELIVERIES}, concurrency ${CONCURRENCY}, failures ${failures}, deliveries stored before their answer ${stored}`,
);
console.log(
  `ack latency: p50 ${fmt(median(latencies))}, p90 ${fmt(percentile(latencies, 90))}, p99 ${fmt(percentile(latencies, 99))}, max ${fmt(Math.max(...latencies))}; ${(DELIVERIES / (wall / 1000)).toFixed(0)} deliveries/s`,
);
console.log(
  `server side (arrival to answer): p50 ${fmt(median(serverTimes))}, p99 ${fmt(percentile(serverTimes, 99))}, max ${fmt(Math.max(...serverTimes))}`,
);
console.log(
  `of which storing the delivery: p50 ${fmt(median(acceptTimes))}, p99 ${fmt(percentile(acceptTimes, 99))}, max ${fmt(Math.max(...acceptTimes))}`,
);
server.close();
github.close();
await store.close();
rmSync(dataDir, { recursive: true, force: true });
