// An npm registry over HTTPS on 127.0.0.1 with a CA of its own (made with openssl), serving the
// packuments and tarballs of tiny packages built here: what an operator's private registry or
// TLS-intercepting proxy looks like to npm, without the internet. Clients trust it only when given
// its CA (`cafile`), so a test can show that the operator's settings reached the sandbox.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export interface TinyPackage {
  name: string;
  version: string;
  /** Files besides package.json, by path inside the package. */
  files: Record<string, string>;
}

export interface NpmRegistryStandIn {
  /** `https://127.0.0.1:<port>/` */
  url: string;
  /** The CA certificate (PEM) that signed the server's certificate. */
  caFile: string;
  /** Every request: method, path and whether it carried an Authorization header. */
  requests: Array<{ method: string; path: string; authorization: boolean }>;
  close(): Promise<void>;
}

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'ignore', timeout: 60_000 });
}

/** A CA, and a certificate for 127.0.0.1 it signed. */
async function makeCertificates(dir: string): Promise<{ ca: string; key: string; cert: string }> {
  openssl(dir, [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=fixloop test registry CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  openssl(dir, ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1']);
  await writeFile(
    join(dir, 'server.ext'),
    'subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n',
  );
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.pem',
    '-days',
    '2',
    '-extfile',
    'server.ext',
  ]);
  return {
    ca: join(dir, 'ca.pem'),
    key: await readFile(join(dir, 'server.key'), 'utf8'),
    cert: await readFile(join(dir, 'server.pem'), 'utf8'),
  };
}

/** `<name>-<version>.tgz` as npm packs it (a `package/` folder), with its sha1 and sha512 integrity. */
async function packTarball(dir: string, pkg: TinyPackage): Promise<{ file: string; shasum: string; integrity: string }> {
  const root = join(dir, 'packages', pkg.name);
  await mkdir(join(root, 'package'), { recursive: true });
  await writeFile(
    join(root, 'package', 'package.json'),
    JSON.stringify({ name: pkg.name, version: pkg.version, main: 'index.js' }, null, 2),
  );
  for (const [path, text] of Object.entries(pkg.files)) await writeFile(join(root, 'package', path), text);
  const file = join(dir, `${pkg.name}-${pkg.version}.tgz`);
  execFileSync('tar', ['-czf', file, '-C', root, 'package'], { stdio: 'ignore' });
  const bytes = await readFile(file);
  return {
    file,
    shasum: createHash('sha1').update(bytes).digest('hex'),
    integrity: `sha512-${createHash('sha512').update(bytes).digest('base64')}`,
  };
}

export async function startNpmRegistryStandIn(dir: string, packages: TinyPackage[]): Promise<NpmRegistryStandIn> {
  await mkdir(dir, { recursive: true });
  const { ca, key, cert } = await makeCertificates(dir);
  const tarballs = new Map<string, Buffer>();
  const packuments = new Map<string, () => object>();
  let url = '';
  for (const pkg of packages) {
    const packed = await packTarball(dir, pkg);
    const path = `/${pkg.name}/-/${pkg.name}-${pkg.version}.tgz`;
    tarballs.set(path, await readFile(packed.file));
    packuments.set(`/${pkg.name}`, () => ({
      name: pkg.name,
      'dist-tags': { latest: pkg.version },
      versions: {
        [pkg.version]: {
          name: pkg.name,
          version: pkg.version,
          main: 'index.js',
          dist: { tarball: `${url}${path.slice(1)}`, shasum: packed.shasum, integrity: packed.integrity },
        },
      },
    }));
  }
  const requests: NpmRegistryStandIn['requests'] = [];
  const server = createServer({ key, cert }, (req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    requests.push({ method: req.method ?? 'GET', path, authorization: req.headers.authorization !== undefined });
    const tarball = tarballs.get(path);
    const packument = packuments.get(decodeURIComponent(path));
    if (tarball) {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': tarball.length });
      res.end(tarball);
    } else if (packument) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(packument()));
    } else {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":"not found"}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    url,
    caFile: ca,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
