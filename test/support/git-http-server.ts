// A real git remote over HTTP on loopback, served by git's own `git http-backend` (CGI), so end-to-end
// tests exercise the same smart-HTTP protocol, auth header handling and pushes that a real host sees.
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);
// A developer's git configuration must not change what the server or the fixtures do.
const ISOLATED_GIT = { GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };

export interface GitHttpServer {
  url: string;
  repoUrl(name: string): string;
  root: string;
  /** Every request's Authorization header value as received (to check a token travelled as a header and only so). */
  authorizations: string[];
  /** Request URLs as received (to check that no credential was put into a URL). */
  urls: string[];
  close(): Promise<void>;
}

function fail(res: ServerResponse, message: string): void {
  // Headers may already be out when the backend dies mid-stream: then cutting the connection is all that is left.
  if (res.headersSent) return void res.destroy();
  res.writeHead(500, { 'Content-Type': 'text/plain' }).end(message);
}

/** Runs one request through `git http-backend` and relays its CGI response. */
function serveCgi(root: string, req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const header = (name: string): Record<string, string> => {
    const value = req.headers[name];
    return typeof value === 'string' ? { [`HTTP_${name.toUpperCase().replaceAll('-', '_')}`]: value } : {};
  };
  const env: Record<string, string> = {
    ...ISOLATED_GIT,
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    GIT_PROJECT_ROOT: root,
    GIT_HTTP_EXPORT_ALL: '1', // serve every repo under root without a git-daemon-export-ok marker
    PATH_INFO: decodeURIComponent(url.pathname),
    QUERY_STRING: url.search.slice(1),
    REQUEST_METHOD: req.method ?? 'GET',
    CONTENT_TYPE: req.headers['content-type'] ?? '',
    // Absent for chunked uploads (big pushes): http-backend then reads stdin to EOF.
    ...(req.headers['content-length'] ? { CONTENT_LENGTH: req.headers['content-length'] } : {}),
    ...header('content-encoding'), // git gzips large request bodies
    ...header('git-protocol'), // carries `version=2`; without it the backend falls back to protocol v0
    REMOTE_USER: 'test', // authenticated as far as the backend knows: the 401 gate sits in front of it
    REMOTE_ADDR: req.socket.remoteAddress ?? '127.0.0.1',
  };
  const child = spawn('git', ['http-backend'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.on('error', (err) => fail(res, `git http-backend: ${err.message}`));
  child.stdin.on('error', () => {}); // EPIPE when the backend answers without reading the body (e.g. 404)
  req.on('error', () => child.kill());
  req.pipe(child.stdin);

  let head = Buffer.alloc(0);
  const onHead = (chunk: Buffer): void => {
    head = Buffer.concat([head, chunk]);
    // CGI allows LF or CRLF line ends; take whichever blank line comes first.
    const ends = [head.indexOf('\r\n\r\n'), head.indexOf('\n\n')].filter((i) => i >= 0);
    if (ends.length === 0) return;
    const end = Math.min(...ends);
    const bodyStart = end + (head.indexOf('\r\n\r\n') === end ? 4 : 2);
    let status = 200;
    for (const line of head.subarray(0, end).toString('latin1').split(/\r?\n/)) {
      const colon = line.indexOf(':');
      if (colon <= 0) continue;
      const [name, value] = [line.slice(0, colon).trim(), line.slice(colon + 1).trim()];
      if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10) || 500;
      else res.appendHeader(name, value);
    }
    child.stdout.off('data', onHead);
    res.writeHead(status).write(head.subarray(bodyStart));
    child.stdout.pipe(res);
  };
  child.stdout.on('data', onHead);
  child.on('close', (code) => {
    if (!res.headersSent) fail(res, `git http-backend exited ${code} without a response: ${stderr}`);
  });
}

export async function startGitHttpServer(options: { requiredAuthorization?: string }): Promise<GitHttpServer> {
  const root = await mkdtemp(join(tmpdir(), 'fixloop-git-http-'));
  const [authorizations, urls]: [string[], string[]] = [[], []];
  const server = createServer((req, res) => {
    urls.push(req.url ?? '');
    const authorization = req.headers.authorization;
    if (authorization !== undefined) authorizations.push(authorization);
    if (options.requiredAuthorization !== undefined && authorization !== options.requiredAuthorization) {
      // With prompts off, git gives up on a 401: that is how tests see a missing or wrong token.
      return void res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="test"' }).end();
    }
    try {
      serveCgi(root, req, res);
    } catch (err) {
      fail(res, String(err)); // a broken request must fail that request, never the test process
    }
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    repoUrl: (name) => `${url}/${name}.git`,
    root,
    authorizations,
    urls,
    async close() {
      const closed = new Promise((resolve) => server.close(resolve));
      server.closeAllConnections(); // keep-alive sockets from git would otherwise hold close() open
      await closed;
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** Publishes a local work repo as `<root>/<name>.git` (pushes allowed) and returns its HTTP URL. */
export async function createBareRepoFrom(server: GitHttpServer, name: string, workDir: string): Promise<string> {
  if (!/^[\w-][\w.-]*$/.test(name)) throw new Error(`bad repo name: ${name}`);
  const bare = join(server.root, `${name}.git`);
  const env = { ...process.env, ...ISOLATED_GIT }; // async: a sync call would stall this process's server
  await execFileAsync('git', ['clone', '--bare', '-q', workDir, bare], { env });
  // Explicit, so pushes do not hinge on http-backend's default (allowed only when REMOTE_USER is set).
  await execFileAsync('git', ['--git-dir', bare, 'config', 'http.receivepack', 'true'], { env });
  return server.repoUrl(name);
}
