// The load generator of bench/ack-latency.ts, in a process of its own so its work does not share the
// app's event loop: posts signed `/fix` comment deliveries and prints each one's latency as JSON.
// Run: node bench/lib/webhook-burst.ts <url> <secret> <deliveries> <concurrency> <first-index>
import { createHmac } from 'node:crypto';
import { createRequire } from 'node:module';

const [url = '', secret = '', deliveries = '1000', concurrency = '100', first = '0'] = process.argv.slice(2);

interface Example {
  action?: string;
  issue: { number: number; pull_request?: unknown };
  comment: { body: string };
  installation?: unknown;
}
const examples = createRequire(import.meta.url)('@octokit/webhooks-examples/api.github.com/index.json') as Array<{
  name: string;
  examples: Example[];
}>;
const template = examples
  .find((g) => g.name === 'issue_comment')
  ?.examples.find((e) => e.action === 'created' && !e.issue.pull_request) as Example;

async function post(i: number): Promise<{ ms: number; status: number }> {
  const payload = structuredClone(template);
  payload.installation = { id: 1 };
  payload.issue.number = i + 1;
  payload.comment.body = '/fix';
  const body = JSON.stringify(payload);
  const t0 = performance.now();
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-github-event': 'issue_comment',
      'x-github-delivery': `bench-${i}`,
      'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
    },
    body,
  });
  await res.text();
  return { ms: performance.now() - t0, status: res.status };
}

const results: Array<{ ms: number; status: number }> = [];
let next = Number(first);
const end = Number(first) + Number(deliveries);
await Promise.all(
  Array.from({ length: Number(concurrency) }, async () => {
    for (let i = next++; i < end; i = next++) results.push(await post(i));
  }),
);
process.stdout.write(JSON.stringify(results));
