// A stand-in for a GitHub Enterprise Server API on loopback, for tests where the app runs in a child
// process (nock cannot reach there): it answers the calls a run makes and records them, with what it
// answered. Requests are not checked against the OpenAPI description here; the tests do that with
// the recorded requests (test/support/openapi-check.ts).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeGitHubRequest {
  method: string;
  path: string;
  body: unknown;
  /** What the stand-in answered, so the tests can check the answers they rely on too. */
  status: number;
  response: unknown;
}

export interface FakeGitHub {
  /** What GHE_HOST should be (127.0.0.1:port); GHE_PROTOCOL=http. */
  host: string;
  requests: FakeGitHubRequest[];
  close(): Promise<void>;
}

export interface FakeGitHubOptions {
  token: string;
  config: string;
  /** Role of each user on the repository; anyone not named is an admin. */
  permissions?: Record<string, string>;
  /** Opt-in: the pull requests `GET /repos/{owner}/{repo}/pulls/{number}` knows (others are 404), as GitHub answers them. */
  pulls?: Record<number, unknown>;
  /** Opt-in: the comments already on an issue or pull request, by number (others have none). */
  comments?: Record<number, unknown[]>;
}

const PULL = /^\/repos\/[^/]+\/[^/]+\/pulls\/(\d+)$/;
const ISSUE_COMMENTS = /^\/repos\/[^/]+\/[^/]+\/issues\/(\d+)\/comments$/;

export async function startFakeGitHub(options: FakeGitHubOptions): Promise<FakeGitHub> {
  const requests: FakeGitHubRequest[] = [];
  let ids = 1000;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    req.on('data', (d: Buffer) => (raw += d.toString()));
    req.on('end', () => {
      const path = (req.url ?? '').replace(/^\/api\/v3/, '');
      const route = path.split('?')[0] ?? '';
      let body: unknown = raw;
      try {
        body = raw ? JSON.parse(raw) : null;
      } catch {
        // Not JSON: kept as text.
      }
      const request: FakeGitHubRequest = { method: req.method ?? 'GET', path, body, status: 0, response: null };
      requests.push(request);
      const json = (status: number, data: unknown) => {
        Object.assign(request, { status, response: data });
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(data));
      };
      if (path.includes('/access_tokens'))
        return json(201, { token: options.token, expires_at: new Date(Date.now() + 3_600_000).toISOString() });
      if (path.includes('/contents/')) {
        Object.assign(request, { status: 200, response: options.config });
        return res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(options.config);
      }
      if (path.includes('/permission')) {
        const role = options.permissions?.[/\/collaborators\/([^/]+)\/permission/.exec(path)?.[1] ?? ''] ?? 'admin';
        return json(200, { permission: role, role_name: role });
      }
      const pull = options.pulls && req.method === 'GET' ? PULL.exec(route) : null;
      if (pull) {
        const found = options.pulls?.[Number(pull[1])];
        return found === undefined ? json(404, { message: 'Not Found' }) : json(200, found);
      }
      const listed = options.comments && req.method === 'GET' ? ISSUE_COMMENTS.exec(route) : null;
      if (listed) return json(200, options.comments?.[Number(listed[1])] ?? []);
      if (req.method === 'GET' && path.includes('/comments')) return json(200, []);
      if (req.method === 'POST' && path.endsWith('/pulls'))
        return json(201, { number: 77, html_url: 'http://example.invalid/pull/77' });
      if (path.includes('/check-runs') || path.includes('/comments') || path.includes('/labels') || path.includes('/reactions'))
        return json(req.method === 'POST' ? 201 : 200, { id: ++ids });
      return json(404, { message: 'Not Found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    host: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
