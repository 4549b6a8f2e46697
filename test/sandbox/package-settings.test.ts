// The package managers' settings a sandbox gets: registries, proxies and CA carried, credentials
// dropped unless the operator names them (FIXLOOP_PACKAGE_AUTH_KEYS), the CA files named kept for
// showing. The last block reads a real npm's effective settings from an npmrc in a temp folder.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bindGuardFrom } from '../../src/sandbox/bind-guard.ts';
import { readNpmConfig, renderNpmrc, type NpmConfig } from '../../src/sandbox/npm-settings.ts';
import { packageAuthKeysFrom } from '../../src/sandbox/package-auth-keys.ts';
import { packageSettingsFor, passedEnvironment } from '../../src/sandbox/package-settings.ts';
import { parsePipConfigList, renderPipConf } from '../../src/sandbox/pip-settings.ts';
import { which } from '../../src/sandbox/toolchains.ts';

let dir: string;
let rc: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fixloop-package-settings-test-'));
  rc = join(dir, 'operator.npmrc');
  await writeFile(join(dir, 'ca.pem'), '-----BEGIN CERTIFICATE-----\nnot a real one\n-----END CERTIFICATE-----\n');
  await writeFile(
    rc,
    [
      'registry=https://registry.example.com/',
      `cafile=${join(dir, 'ca.pem')}`,
      'strict-ssl=false',
      '@acme:registry=https://npm.acme.example/',
      '//registry.example.com/:_authToken=${FIXLOOP_TEST_NPM_TOKEN}',
      '//npm.acme.example/:_password=cGFzc3dvcmQ=',
      '_auth=dXNlcjpwYXNz',
      'omit-lockfile-registry-resolved=true',
      '',
    ].join('\n'),
  );
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const noAuth = packageAuthKeysFrom({});

describe('the generated npmrc', () => {
  const config = (): NpmConfig => ({
    values: {
      registry: 'https://registry.example.com/',
      cafile: join(dir, 'ca.pem'),
      ca: null,
      'strict-ssl': false,
      noproxy: ['localhost', ''],
      proxy: null,
      'https-proxy': 'http://me:secret@proxy.example:3128',
      '@acme:registry': 'https://npm.acme.example/',
      'omit-lockfile-registry-resolved': true,
    },
    files: [rc],
  });

  it('carries registries, CA, strict-ssl and noproxy, and drops every credential', () => {
    const out = renderNpmrc(config(), noAuth, { FIXLOOP_TEST_NPM_TOKEN: 'npm_secret_1' });
    expect(out.text).toContain('registry="https://registry.example.com/"');
    expect(out.text).toContain(`cafile="${join(dir, 'ca.pem')}"`);
    expect(out.text).toContain('strict-ssl=false');
    expect(out.text).toContain('noproxy="localhost"');
    expect(out.text).toContain('@acme:registry="https://npm.acme.example/"');
    expect(out.text).not.toMatch(/secret|_auth|_password|omit-lockfile/);
    expect(out.dropped.sort()).toEqual(
      ['//npm.acme.example/:_password', '//registry.example.com/:_authToken', '_auth', 'https-proxy'].sort(),
    );
    expect(out.paths).toEqual([join(dir, 'ca.pem')]);
    expect(out.env).toEqual({ YARN_CA_FILE_PATH: join(dir, 'ca.pem'), YARN_ENABLE_STRICT_SSL: 'false' });
  });

  it('keeps the credentials the operator names, read from the npmrc with ${VAR} expanded', () => {
    const auth = packageAuthKeysFrom({ FIXLOOP_PACKAGE_AUTH_KEYS: '//registry.example.com/:_authToken, https-proxy' });
    const out = renderNpmrc(config(), auth, { FIXLOOP_TEST_NPM_TOKEN: 'npm_secret_1' });
    expect(out.text).toContain('//registry.example.com/:_authToken="npm_secret_1"');
    expect(out.text).toContain('https-proxy="http://me:secret@proxy.example:3128"');
    expect(out.text).not.toMatch(/_password|_auth=/);
    expect(out.dropped.sort()).toEqual(['//npm.acme.example/:_password', '_auth']);
  });
});

describe('the generated pip.conf', () => {
  const listed = [
    "global.index-url='https://me:secret@pypi.example/simple'",
    "global.cert='/srv/certs/corp-ca.pem'",
    "global.find-links='/opt/wheels'",
    "global.constraint='/etc/constraints.txt'",
    "install.trusted-host='pypi.example\\nmirror.example'",
    ":env:.cert='/from/the/environment.pem'",
    "global.client-cert='/home/op/.pip/client.pem'",
  ].join('\n');

  it('carries index, CA and trusted hosts by section, and drops URLs with a password and client keys', () => {
    const out = renderPipConf(parsePipConfigList(listed), noAuth);
    expect(out.text).toContain('[global]\ncert = /srv/certs/corp-ca.pem\nfind-links = /opt/wheels\n');
    expect(out.text).toContain('[install]\ntrusted-host = pypi.example\n    mirror.example\n');
    expect(out.text).not.toMatch(/secret|constraint|client-cert|environment\.pem/);
    expect(out.dropped).toEqual(['index-url', 'client-cert']);
    expect(out.paths).toEqual(['/srv/certs/corp-ca.pem', '/opt/wheels']);
  });

  it('keeps a named pip key', () => {
    const out = renderPipConf(parsePipConfigList(listed), packageAuthKeysFrom({ FIXLOOP_PACKAGE_AUTH_KEYS: 'pip:index-url' }));
    expect(out.text).toContain('index-url = https://me:secret@pypi.example/simple');
  });
});

describe('the variables passed from the server’s environment', () => {
  const env = {
    NODE_EXTRA_CA_CERTS: '/srv/certs/corp-ca.pem',
    HTTPS_PROXY: 'http://me:secret@proxy.example:3128',
    NO_PROXY: 'localhost,127.0.0.1',
    PIP_INDEX_URL: 'file:///opt/simple',
    GITHUB_TOKEN: 'ghs_no',
  };

  it('passes CA and proxy variables, names their files, and drops a proxy with a password unless named', () => {
    const out = passedEnvironment(env, noAuth);
    expect(out.env).toEqual({
      NODE_EXTRA_CA_CERTS: '/srv/certs/corp-ca.pem',
      NO_PROXY: 'localhost,127.0.0.1',
      PIP_INDEX_URL: 'file:///opt/simple',
    });
    expect(out.paths).toEqual(['/srv/certs/corp-ca.pem', '/opt/simple']);
    expect(out.dropped).toEqual(['HTTPS_PROXY']);
    expect(passedEnvironment(env, packageAuthKeysFrom({ FIXLOOP_PACKAGE_AUTH_KEYS: 'env:HTTPS_PROXY' })).env.HTTPS_PROXY).toBe(
      'http://me:secret@proxy.example:3128',
    );
  });
});

describe.runIf(which('npm', process.env.PATH ?? '') !== null)('the operator’s npm, run once', () => {
  // The operator's shell: no npm_config_* of the npm that started this test runner.
  const operatorEnv = (): NodeJS.ProcessEnv => ({
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k))),
    NPM_CONFIG_USERCONFIG: rc,
    FIXLOOP_TEST_NPM_TOKEN: 'npm_secret_2',
    FIXLOOP_DATA_DIR: join(dir, 'data'),
  });

  it('reports the effective settings, without the protected ones', () => {
    const config = readNpmConfig(which('npm', process.env.PATH ?? '') ?? 'npm', operatorEnv());
    expect(config?.values).toMatchObject({
      registry: 'https://registry.example.com/',
      cafile: join(dir, 'ca.pem'),
      '@acme:registry': 'https://npm.acme.example/',
    });
    expect(JSON.stringify(config)).not.toContain('npm_secret_2');
    expect(config?.files).toContain(rc);
  });

  it('writes a fixloop-owned npmrc the environment points at, and shows the CA file', async () => {
    const env = operatorEnv();
    const settings = packageSettingsFor(env, bindGuardFrom(env));
    expect(settings.dir).not.toBeNull();
    expect(settings.env.NPM_CONFIG_USERCONFIG).toBe(join(settings.dir ?? '', 'npmrc'));
    expect(settings.env.npm_config_userconfig).toBe(settings.env.NPM_CONFIG_USERCONFIG);
    const npmrc = await readFile(settings.env.NPM_CONFIG_USERCONFIG ?? '', 'utf8');
    expect(npmrc).toContain('registry="https://registry.example.com/"');
    expect(npmrc).not.toContain('npm_secret_2');
    expect(settings.readOnly).toEqual(expect.arrayContaining([settings.dir, join(dir, 'ca.pem')]));
    expect(settings.dropped).toEqual(expect.arrayContaining(['//registry.example.com/:_authToken', '_auth']));
    // Once per process and environment: the same answer, not a second run of npm.
    expect(packageSettingsFor(env, bindGuardFrom(env))).toBe(settings);
  });
});
