// The internet, shut for a child process and watched: a proxy on loopback that every request to a host
// other than loopback is sent to (Node's fetch with NODE_USE_ENV_PROXY, git and curl through their
// *_proxy variables), which refuses it and writes it down. A test then asserts it saw nothing.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface InternetGuard {
  /** The variables that send a child process's outside traffic here. */
  env: Record<string, string>;
  /** Every attempt to reach the outside (`CONNECT host:port`, `GET http://…`). */
  attempts: string[];
  close(): Promise<void>;
}

export async function startInternetGuard(): Promise<InternetGuard> {
  const attempts: string[] = [];
  const server = createServer((req, res) => {
    attempts.push(`${req.method ?? 'GET'} ${req.url ?? ''}`);
    res.writeHead(403).end();
  });
  server.on('connect', (req, socket) => {
    attempts.push(`CONNECT ${req.url ?? ''}`);
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxy = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const loopback = '127.0.0.1,localhost,::1';
  return {
    env: {
      NODE_USE_ENV_PROXY: '1',
      HTTP_PROXY: proxy,
      HTTPS_PROXY: proxy,
      // curl (and so git) reads only the lower-case name for plain http.
      http_proxy: proxy,
      https_proxy: proxy,
      ALL_PROXY: proxy,
      NO_PROXY: loopback,
      no_proxy: loopback,
    },
    attempts,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
