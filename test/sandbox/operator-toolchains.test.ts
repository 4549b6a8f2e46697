// The sandbox runs a repository as the operator's shell would (docs/design.md §1.4), under bwrap, with
// real processes and no internet: a pytest project from a virtualenv whose packages the system
// Python lacks, `npm ci` of a real lockfile through a registry only the operator's npmrc names (an
// HTTPS stand-in with its own CA), and pyenv's shims. Each also shows it fails without the settings.
import { execFile } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bwrapWorks, createBwrapSandbox } from '../../src/sandbox/bwrap-sandbox.ts';
import { pyenvRootOfShim } from '../../src/sandbox/pyenv.ts';
import { selectSandbox } from '../../src/sandbox/select-sandbox.ts';
import { which } from '../../src/sandbox/toolchains.ts';
import { startNpmRegistryStandIn, type NpmRegistryStandIn } from '../support/npm-registry-stand-in.ts';
import { makeRepo } from '../support/git-fixture.ts';
import { hostHasPytest, hostPython3, makeOperatorVenv } from '../support/operator-venv.ts';
import { repoConfigSchema } from '../../src/core/repo-config.ts';
import { runFix } from '../../src/loop/local-run.ts';
import { newRunId } from '../../src/core/run-id.ts';

const bwrap = bwrapWorks();
const python3 = hostPython3;
/** The operator's shell: none of the npm_config_* variables of the npm that started this test runner. */
const operatorEnv = (extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv => ({
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k))),
  ...extra,
});

let root: string;
beforeAll(async () => {
  root = realpathSync(await mkdtemp(join(tmpdir(), 'fixloop-operator-')));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

// CI installs bubblewrap and sets FIXLOOP_REQUIRE_BWRAP: there, the suite below must not be skipped.
it.runIf(process.env.FIXLOOP_REQUIRE_BWRAP === '1')('bwrap is installed and works here', () => {
  expect(bwrap).toBe(true);
});

describe.runIf(bwrap && hostHasPytest)('a pytest project run from a virtualenv', () => {
  let venv: string;
  let project: string;
  beforeAll(async () => {
    // A venv of the operator's python3 with the base's packages (pytest) and one of its own: the
    // network is never needed, and the system Python has neither.
    venv = join(root, 'venv');
    const { site } = makeOperatorVenv(venv);
    await writeFile(join(site, 'fixloop_venv_probe.py'), 'def answer():\n    return 42\n');
    project = join(root, 'py-project');
    await mkdir(project, { recursive: true });
    await writeFile(
      join(project, 'test_probe.py'),
      'from fixloop_venv_probe import answer\n\n\ndef test_answer():\n    assert answer() == 42\n',
    );
  });

  it('passes inside bwrap with the venv first on the server’s PATH, and names what it showed', async () => {
    const env = operatorEnv({ PATH: `${join(venv, 'bin')}:${process.env.PATH ?? ''}`, VIRTUAL_ENV: venv });
    const { sandbox } = selectSandbox('bwrap', env, { commands: ['python3 -m pytest -q'] });
    const r = await sandbox.run({
      command: 'python3 -m pytest -q -p no:cacheprovider && python3 -c "import sys; print(sys.prefix)"',
      cwd: project,
      timeoutMs: 60_000,
    });
    expect(r.output).toMatch(/1 passed/);
    expect(r.output).toContain(venv);
    expect(r.exitCode).toBe(0);
    const python = sandbox.describe?.(['python3 -m pytest -q']).toolchains.find((t) => t.name === 'python3');
    expect(python).toMatchObject({ kind: 'virtualenv', prefix: venv, executable: join(venv, 'bin', 'python3') });
    expect(python?.bound).toContain(venv);
  });

  it('fails where the toolchain is not shown (the sandbox as it was)', async () => {
    const r = await createBwrapSandbox().run({
      command: 'python3 -m pytest -q -p no:cacheprovider',
      cwd: project,
      timeoutMs: 60_000,
    });
    expect(r.exitCode).not.toBe(0);
    expect(r.output).toMatch(/No module named '?(pytest|fixloop_venv_probe)/);
  });
});

describe.runIf(bwrap && python3 !== null && pyenvRootOfShim(python3 ?? '') !== null)('pyenv’s shims', () => {
  it('run the interpreter pyenv selects, from the version’s bin/ put in front of the shim on the server’s PATH', async () => {
    const { sandbox } = selectSandbox('bwrap', operatorEnv({}));
    const r = await sandbox.run({
      command: 'command -v python3; echo "PATH=$PATH"; python3 -c "import sys; print(sys.base_prefix)"',
      cwd: root,
      timeoutMs: 60_000,
    });
    const pyenvRoot = pyenvRootOfShim(python3 ?? '') ?? '';
    const [found = '', path = ''] = r.output.split('\n');
    // What `pyenv exec` would run, without its twenty bash processes; the shims stay behind it.
    expect(found).toMatch(new RegExp(`^${join(pyenvRoot, 'versions')}/[^/]+/bin/python3$`));
    expect(path.indexOf(join(pyenvRoot, 'shims'))).toBeGreaterThan(path.indexOf(join(pyenvRoot, 'versions')));
    expect(r.output).toContain(join(pyenvRoot, 'versions'));
    expect(r.exitCode).toBe(0);
  });

  it('leave a version that is not installed to the shim, which decides as it always has', async () => {
    const pinned = join(root, 'pinned-missing');
    await mkdir(pinned, { recursive: true });
    await writeFile(join(pinned, '.python-version'), '2.1.9\n');
    const { sandbox } = selectSandbox('bwrap', operatorEnv({}));
    const r = await sandbox.run({ command: 'command -v python3', cwd: pinned, timeoutMs: 60_000 });
    // (pyenv 2.6 then runs the system Python; older ones stop with "version `2.1.9' is not installed".)
    expect(r.output.trim()).toBe(join(pyenvRootOfShim(python3 ?? '') ?? '', 'shims', 'python3'));
    expect(r.exitCode).toBe(0);
  });
});

describe.runIf(bwrap && which('npm', process.env.PATH ?? '') !== null && which('openssl', process.env.PATH ?? '') !== null)(
  'npm ci through the operator’s registry settings',
  () => {
    let registry: NpmRegistryStandIn;
    let project: string;
    let operatorRc: string;
    beforeAll(async () => {
      registry = await startNpmRegistryStandIn(join(root, 'registry'), [
        { name: 'fixloop-tiny', version: '1.0.0', files: { 'index.js': "module.exports = 'tiny from the stand-in';\n" } },
      ]);
      // Only the operator's npmrc names the registry and its CA; its token must never reach the sandbox.
      operatorRc = join(root, 'operator.npmrc');
      await writeFile(
        operatorRc,
        `registry=${registry.url}\ncafile=${registry.caFile}\n//${registry.url.slice('https://'.length)}:_authToken=npm_operator_secret\n`,
      );
      project = join(root, 'js-project');
      await mkdir(project, { recursive: true });
      await writeFile(
        join(project, 'package.json'),
        JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, dependencies: { 'fixloop-tiny': '1.0.0' } }, null, 2),
      );
      // A real lockfile, made by npm against the stand-in (asynchronously: the stand-in answers from
      // this process).
      await promisify(execFile)(
        which('npm', process.env.PATH ?? '') ?? 'npm',
        ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund'],
        {
          cwd: project,
          env: operatorEnv({ NPM_CONFIG_USERCONFIG: operatorRc, npm_config_cache: join(root, 'host-npm-cache') }),
          timeout: 120_000,
        },
      );
      registry.requests.length = 0;
    });
    afterAll(async () => {
      await registry?.close();
    });

    it('installs inside bwrap with setup network, the token left out', async () => {
      const lock = JSON.parse(await readFile(join(project, 'package-lock.json'), 'utf8')) as {
        packages: Record<string, { resolved?: string }>;
      };
      expect(lock.packages['node_modules/fixloop-tiny']?.resolved).toContain(registry.url);
      const { sandbox } = selectSandbox('bwrap', operatorEnv({ NPM_CONFIG_USERCONFIG: operatorRc }), { commands: ['npm ci'] });
      const ws = join(root, 'ws-with-settings');
      await cp(project, ws, { recursive: true });
      const r = await sandbox.run({ command: 'npm ci --no-audit --no-fund', cwd: ws, timeoutMs: 120_000, network: true });
      expect(r.output).not.toMatch(/ERR!/);
      expect(r.exitCode).toBe(0);
      expect(await readFile(join(ws, 'node_modules', 'fixloop-tiny', 'index.js'), 'utf8')).toContain('tiny from the stand-in');
      expect(registry.requests.some((q) => q.path.endsWith('.tgz'))).toBe(true);
      expect(registry.requests.every((q) => !q.authorization)).toBe(true);
      const settings = sandbox.describe?.().packageSettings;
      expect(settings?.npmKeys).toEqual(expect.arrayContaining(['registry', 'cafile']));
      expect(settings?.dropped).toContain(`//${registry.url.slice('https://'.length)}:_authToken`);
      expect(settings?.shown).toContain(registry.caFile);
    });

    /** A repository whose value must come from the package, with its lockfile when `locked`. */
    async function valueRepo(locked: boolean): Promise<string> {
      return makeRepo({
        'package.json': await readFile(join(project, 'package.json'), 'utf8'),
        ...(locked ? { 'package-lock.json': await readFile(join(project, 'package-lock.json'), 'utf8') } : {}),
        'src/value.js': "module.exports = () => 'wrong';\n",
        'test/value.test.js':
          "const test = require('node:test');\nconst assert = require('node:assert');\nconst tiny = require('fixloop-tiny');\nconst value = require('../src/value.js');\ntest('value comes from the package', () => assert.strictEqual(value(), tiny));\n",
      });
    }

    /** One run of the script engine's fix of `repo` under bwrap, with `setup`; the registry's requests counted from its start. */
    async function fixValue(repo: string, setup: string, at: { out: string; tmpRoot: string; cacheDir: string }) {
      registry.requests.length = 0;
      const { sandbox } = selectSandbox('bwrap', operatorEnv({ NPM_CONFIG_USERCONFIG: operatorRc }));
      const config = repoConfigSchema.parse({
        test: { command: 'node --test' },
        setup: { command: setup },
        engines: ['script'],
        script: { command: 'printf "module.exports = () => require(\'fixloop-tiny\');\\n" > src/value.js' },
      });
      return runFix(
        {
          runId: newRunId(),
          repository: { cloneUrl: repo, ref: null, sha: null, baseRef: null },
          trigger: { kind: 'cli', number: null, deliveryId: null, actor: null },
          goal: 'fix',
          hints: [],
          config,
        },
        { sandbox, artifactsRoot: at.out, artifactsDir: at.out, tmpRoot: at.tmpRoot, setupNetwork: true, cacheDir: at.cacheDir },
      );
    }

    it('reuses the installed tree: the replay and the next run of the repository skip the install, each in its own cache', async () => {
      const repo = await valueRepo(true);
      const cacheDir = join(root, 'dependency-cache');
      const runOnce = async (n: number) => {
        const out = join(root, `reuse-run-${n}`);
        const result = await fixValue(repo, 'npm ci --no-audit --no-fund', { out, tmpRoot: root, cacheDir });
        return {
          result,
          setupLog: await readFile(join(out, 'setup.log'), 'utf8'),
          tarballs: registry.requests.filter((q) => q.path.endsWith('.tgz')).length,
        };
      };
      const first = await runOnce(1);
      expect(first.result.status).toBe('tests_green');
      expect(first.setupLog).not.toContain('not run');
      // Installed once for the workspace; the replay linked that tree instead of installing again.
      expect(first.tarballs).toBe(1);
      const second = await runOnce(2);
      expect(second.result.status).toBe('tests_green');
      expect(second.setupLog).toContain('not run: node_modules linked (read-only)');
      expect(second.tarballs).toBe(0);
      // The npm cache the setup wrote is this repository's own folder in fixloop's cache.
      const repositories = await readdir(join(cacheDir, 'repositories'));
      expect(repositories).toHaveLength(1);
      expect(existsSync(join(cacheDir, 'repositories', repositories[0] ?? '', 'npm'))).toBe(true);
      await rm(repo, { recursive: true, force: true });
    });

    it('reuses a tree no lockfile decides within its run only: the replay and the assessment skip the install, the next run does not', async () => {
      const repo = await valueRepo(false);
      const scratchRoot = join(root, 'unlocked-scratch');
      await mkdir(scratchRoot, { recursive: true });
      const runOnce = async (n: number) => {
        const at = { out: join(root, `unlocked-run-${n}`), tmpRoot: scratchRoot, cacheDir: join(root, 'unlocked-cache') };
        const result = await fixValue(repo, 'npm install --no-audit --no-fund', at);
        // npm asks the registry for the package's metadata at each install it runs, its cache notwithstanding.
        return { result, installs: registry.requests.filter((q) => q.path.endsWith('/fixloop-tiny')).length };
      };
      const first = await runOnce(1);
      expect(first.result.status).toBe('tests_green');
      expect(first.result.assessment?.notAssessed).toBeUndefined();
      // The workspace installed; its replay and the assessment's checkout got copies of that tree.
      expect(first.installs).toBe(1);
      // The tree went with the run's folder, and the next run installs again.
      expect(await readdir(scratchRoot)).toEqual([]);
      expect((await runOnce(2)).installs).toBe(1);
      await rm(repo, { recursive: true, force: true });
    });

    it('still has no network for a command that is not given it (tests)', async () => {
      const { sandbox } = selectSandbox('bwrap', operatorEnv({ NPM_CONFIG_USERCONFIG: operatorRc }));
      const ws = join(root, 'ws-offline');
      await cp(project, ws, { recursive: true });
      const r = await sandbox.run({
        command: 'npm ci --no-audit --no-fund',
        cwd: ws,
        timeoutMs: 120_000,
        env: { npm_config_fetch_retries: '0' },
      });
      expect(r.exitCode).not.toBe(0);
      expect(r.output).toMatch(/ECONNREFUSED|ENETUNREACH/);
    });

    it('fails with a certificate error when the operator’s settings are not passed', async () => {
      const ws = join(root, 'ws-without-settings');
      await cp(project, ws, { recursive: true });
      const r = await createBwrapSandbox().run({
        command: 'npm ci --no-audit --no-fund',
        cwd: ws,
        timeoutMs: 120_000,
        network: true,
        env: { npm_config_fetch_retries: '0' },
      });
      expect(r.exitCode).not.toBe(0);
      expect(r.output).toMatch(
        /SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT|self[- ]signed certificate/i,
      );
      expect(existsSync(join(ws, 'node_modules', 'fixloop-tiny'))).toBe(false);
    });
  },
);

describe('the process backend', () => {
  it('gives commands the same PATH, toolchain variables and package settings', async () => {
    const env = operatorEnv({ PATH: `/opt/fixloop-nowhere/bin:${process.env.PATH ?? ''}`, PYENV_VERSION: 'system' });
    const { sandbox } = selectSandbox('process', env);
    const r = await sandbox.run({
      command: 'echo "PATH=$PATH"; echo "NPMRC=$NPM_CONFIG_USERCONFIG"; echo "PYENV_VERSION=$PYENV_VERSION"',
      cwd: root,
      timeoutMs: 30_000,
    });
    expect(r.output).toContain(`PATH=/opt/fixloop-nowhere/bin:`);
    expect(r.output).toMatch(/NPMRC=\/.*fixloop-package-settings-[^/]+\/npmrc/);
    if (python3 && pyenvRootOfShim(python3)) expect(r.output).toContain('PYENV_VERSION=system');
    expect(sandbox.describe?.().toolchains.every((t) => t.bound.length === 0)).toBe(true);
  });
});
