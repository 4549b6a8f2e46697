// A hostile repository against the sandbox (docs/design.md §3): its setup and tests try to read the app's
// secrets, write outside the workspace, reach the network, exhaust processes and output, outlive the
// run, and plant git hooks and symlinks for fixloop's own commands. Each runs through the whole loop
// (runFix) under `bwrap`; the run must end with a visible outcome, contain the attack, and no secret
// may appear in its output, result, report, artifacts or progress. The last block documents what the
// `process` backend does not protect.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoConfigSchema, type RepoConfigInput } from '../../src/core/repo-config.ts';
import { newRunId } from '../../src/core/run-id.ts';
import { runFix } from '../../src/loop/local-run.ts';
import type { RunResult } from '../../src/core/run-result.ts';
import { bwrapWorks, createBwrapSandbox } from '../../src/sandbox/bwrap-sandbox.ts';
import { createProcessSandbox } from '../../src/sandbox/process-sandbox.ts';
import type { Sandbox } from '../../src/sandbox/sandbox.ts';
import { BUGGY_SHOP } from '../fixtures/shop.ts';
import { makeRepo, removeAll } from '../support/git-fixture.ts';

const marker = (kind: string) => `${kind}-${randomBytes(12).toString('hex')}`;
const SECRETS = {
  token: `ghs_${randomBytes(18).toString('hex')}`,
  llmKey: `sk-${randomBytes(24).toString('hex')}`,
  privateKey: marker('PRIVATE-KEY'),
  data: marker('DATA'),
  gitconfig: marker('GITCONFIG'),
  credentials: marker('CREDENTIALS'),
  otherWorkspace: marker('OTHER-WORKSPACE'),
};

let root: string;
let app: string;
let home: string;
let scratch: string;
let otherWorkspace: string;
let server: Server;
let port = 0;
const hits: string[] = [];
const dirs: string[] = [];
const savedEnv = { ...process.env };

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'fixloop-hostile-'));
  // The app's own files: a private key, a data directory, a home with git credentials.
  app = join(root, 'app');
  home = join(root, 'home');
  scratch = join(root, 'scratch');
  otherWorkspace = join(scratch, 'fixloop-other', 'work');
  await mkdir(join(app, 'data', 'runs'), { recursive: true });
  await mkdir(home, { recursive: true });
  await mkdir(otherWorkspace, { recursive: true });
  await writeFile(
    join(app, 'private-key.pem'),
    `-----BEGIN RSA PRIVATE KEY-----\n${SECRETS.privateKey}\n-----END RSA PRIVATE KEY-----\n`,
  );
  await writeFile(join(app, 'data', 'runs', 'result.json'), SECRETS.data);
  await writeFile(join(home, '.gitconfig'), `[user]\n\tname = ${SECRETS.gitconfig}\n`);
  await writeFile(join(home, '.git-credentials'), `https://x:${SECRETS.credentials}@github.com\n`);
  await writeFile(join(otherWorkspace, 'secret.txt'), SECRETS.otherWorkspace);
  // The app's secrets in its environment, as a deployment has them.
  Object.assign(process.env, {
    GITHUB_TOKEN: SECRETS.token,
    OPENAI_API_KEY: SECRETS.llmKey,
    PRIVATE_KEY_PATH: join(app, 'private-key.pem'),
    HOME: home,
  });
  // The app's own port on loopback.
  server = createServer((req, res) => {
    hits.push(req.url ?? '/');
    res.end('app');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  // Put back in the process's own environment (a new object would leave HOME changed for os.homedir()
  // and for every later test file of this worker).
  for (const name of Object.keys(process.env)) if (!(name in savedEnv)) delete process.env[name];
  Object.assign(process.env, savedEnv);
  await new Promise((resolve) => server.close(resolve));
  await removeAll(dirs);
  await rm(root, { recursive: true, force: true });
});

interface Hostile {
  result: RunResult;
  /** Everything fixloop produced: result, report, artifacts, progress. */
  everything: string;
}

/** A repository whose test command is `sh attack.sh` (failing), fixed by nothing, through the whole loop. */
async function runHostile(
  sandbox: Sandbox,
  attack: string,
  config: RepoConfigInput = {},
  setupNetwork = false,
): Promise<Hostile> {
  // attack.sh prints no per-test results: its exit code alone is the suite's verdict (test.evidence).
  const repo = await makeRepo({ 'attack.sh': `${attack}\nexit 1\n` });
  dirs.push(repo);
  const progress: string[] = [];
  const artifactsDir = join(root, 'artifacts', newRunId());
  const result = await runFix(
    {
      runId: newRunId(),
      repository: { cloneUrl: repo, ref: null, sha: null, baseRef: null },
      trigger: { kind: 'cli', number: null, deliveryId: null, actor: null },
      goal: 'hostile',
      hints: [],
      config: repoConfigSchema.parse({
        test: { command: 'sh attack.sh', timeout: 20, evidence: 'exit-code' },
        engines: ['script'],
        script: { command: 'true' },
        loop: { maxAttempts: 1, timeBudget: 120 },
        ...config,
      }),
    },
    {
      sandbox,
      artifactsRoot: join(root, 'artifacts'),
      artifactsDir,
      tmpRoot: scratch,
      setupNetwork,
      onProgress: (p) => progress.push(p.message),
    },
  );
  const files2 = (await readdir(artifactsDir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile());
  const texts = await Promise.all(files2.map((e) => readFile(join(e.parentPath, e.name), 'utf8')));
  return { result, everything: [JSON.stringify(result), ...texts, ...progress].join('\n') };
}

function expectNoSecret(text: string): void {
  for (const [name, secret] of Object.entries(SECRETS)) expect(text, `the ${name} leaked`).not.toContain(secret);
}

const baselineLog = (h: Hostile) => h.everything;

/** The attack ran and failed the gate, and the run says so: no crash, no green. */
function expectVisibleFailure(h: Hostile): void {
  expect(['escalated', 'failed_to_green']).toContain(h.result.status);
  expect(h.result.attempts[0]?.gate?.passed).toBe(false);
}

// CI installs bubblewrap and sets FIXLOOP_REQUIRE_BWRAP: there, the suite below must not be skipped.
it.runIf(process.env.FIXLOOP_REQUIRE_BWRAP === '1')('bwrap is installed and works here', () => {
  expect(bwrapWorks()).toBe(true);
});

describe.runIf(bwrapWorks())('a hostile repository under bwrap', () => {
  const sandbox = createBwrapSandbox();

  it("cannot read the app's environment, not even through /proc", async () => {
    const h = await runHostile(sandbox, 'env; for f in /proc/*/environ; do tr "\\0" "\\n" < "$f"; done; echo; ps -ef');
    expectVisibleFailure(h);
    expect(baselineLog(h)).toContain('HOME=/tmp/home');
    expectNoSecret(h.everything);
  });

  it("cannot read the app's private key, data directory, home, git credentials or another workspace", async () => {
    const h = await runHostile(
      sandbox,
      [
        `cat ${app}/private-key.pem ${app}/data/runs/result.json`,
        `cat ${home}/.gitconfig ${home}/.git-credentials ~/.gitconfig ~/.git-credentials /root/.gitconfig`,
        `cat ${otherWorkspace}/secret.txt`,
        `ls -la ${scratch} ${app} /root /home`,
        'cat "$PRIVATE_KEY_PATH"',
      ].join('\n'),
    );
    expect(baselineLog(h)).toMatch(/No such file or directory/);
    expectNoSecret(h.everything);
  });

  it('cannot write outside the workspace: not /etc, the home, the app, another workspace', async () => {
    const targets = ['/etc/fixloop-pwned', `${home}/pwned`, `${app}/pwned`, `${otherWorkspace}/pwned`, '/usr/fixloop-pwned'];
    const h = await runHostile(sandbox, targets.map((t) => `echo pwned > ${t}`).join('\n'), {
      setup: { command: targets.map((t) => `echo pwned > ${t}`).join('; ') + '; true' },
    });
    for (const target of targets) expect(existsSync(target), target).toBe(false);
    expect(baselineLog(h)).toMatch(/Read-only file system|No such file or directory/);
  });

  it("cannot reach the app's port on loopback, nor any other address; it sees no network interface but lo", async () => {
    const before = hits.length;
    const h = await runHostile(
      sandbox,
      [
        `node -e "fetch('http://127.0.0.1:${port}/leak').then(() => console.log('REACHED'), (e) => console.log('blocked', e.cause?.code))"`,
        `node -e "fetch('http://1.1.1.1/').then(() => console.log('REACHED'), (e) => console.log('blocked', e.cause?.code))"`,
        'cat /proc/net/dev',
      ].join('\n'),
    );
    expect(hits.length).toBe(before);
    expect(h.everything).not.toContain('REACHED');
    expect(baselineLog(h)).toContain('blocked');
    expect(baselineLog(h)).not.toMatch(/\b(eth|ens|enp|wlan|docker|veth)\w*:/);
  });

  it('gets the network for setup only when the operator allows it, and never for tests', async () => {
    const probe = (who: string) =>
      `node -e "fetch('http://127.0.0.1:${port}/${who}').then(() => console.log('${who} reached'), () => console.log('${who} blocked'))"`;
    const denied = await runHostile(sandbox, probe('test-a'), { setup: { command: probe('setup-a') } });
    const allowed = await runHostile(sandbox, probe('test-b'), { setup: { command: probe('setup-b') } }, true);
    expect(hits).not.toContain('/setup-a');
    expect(hits).toContain('/setup-b');
    expect(hits).not.toContain('/test-a');
    expect(hits).not.toContain('/test-b');
    expect(denied.everything).toContain('test-a blocked');
    expect(allowed.everything).toContain('test-b blocked');
  });

  it('a fork bomb is stopped, reported, and other runs keep being served', async () => {
    const repo = await makeRepo(BUGGY_SHOP);
    dirs.push(repo);
    const [bomb, normal] = await Promise.all([
      // The sleep is started before the bomb and waited for by a builtin: once the process limit is
      // reached, a `sleep` started after the bomb may fail to fork, and the script would end at once
      // (a failing suite) instead of running into its time limit, as it does on a loaded machine.
      runHostile(sandbox, 'sleep 30 &\nbomb() { bomb | bomb & }; bomb; wait', { test: { command: 'sh attack.sh', timeout: 5 } }),
      runFix(
        {
          runId: newRunId(),
          repository: { cloneUrl: repo, ref: null, sha: null, baseRef: null },
          trigger: { kind: 'cli', number: null, deliveryId: null, actor: null },
          goal: 'fix',
          hints: [],
          // The assessment off: the run is here to be served beside the bomb, not assessed.
          config: repoConfigSchema.parse({ test: { command: 'node --test' }, assessment: { enabled: false } }),
        },
        { sandbox, artifactsRoot: join(root, 'artifacts'), tmpRoot: scratch },
      ),
    ]);
    // The bomb runs as the baseline and is stopped there: an environment that never finishes is an error, not a bug.
    expect(bomb.result.status).toBe('error');
    expect(bomb.result.error?.code).toBe('BASELINE_TIMEOUT');
    expect(bomb.result.attempts).toEqual([]);
    expect(normal.status).toBe('tests_green');
    // Killed processes leave the process table when the kernel has reaped them: under load, after the run has ended.
    expect(await leftoverAfter('bomb', 10_000)).toEqual([]);
  });

  it('printing gigabytes is capped and reported, in bounded memory', async () => {
    const rssBefore = process.memoryUsage().rss;
    const h = await runHostile(sandbox, 'yes hostile-output-line | head -c 2147483648', {
      test: { command: 'sh attack.sh', timeout: 60 },
    });
    const gate = h.result.attempts[0]?.gate;
    expect(gate?.passed).toBe(false);
    expect(h.everything).toMatch(/the command printed more than \d+ bytes and was stopped/);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(512 * 1024 * 1024);
  });

  it('sleeping forever ends in a TIMEOUT with the whole tree killed', async () => {
    const h = await runHostile(sandbox, 'sleep 86400', { test: { command: 'sh attack.sh', timeout: 2 } });
    expect(h.result.error?.code).toBe('BASELINE_TIMEOUT');
    expect(h.result.error?.message).toContain('timed out after 2 s');
    expect(leftover('sleep 86400')).toEqual([]);
  });

  it('a daemon left running after the tests is killed with them', async () => {
    const h = await runHostile(sandbox, '(sleep 7777 &)\nnohup sh -c "sleep 7778" >/dev/null 2>&1 &\nsetsid sleep 7779 &');
    expectVisibleFailure(h);
    expect(leftover('sleep 777')).toEqual([]);
  });

  it("plants a git hook, core.fsmonitor, a pager, an external diff and a filter: none runs on fixloop's git commands", async () => {
    const mark = join(app, 'git-ran');
    const plant = [
      `printf '#!/bin/sh\\necho hook >> ${mark}\\n' > .git/hooks/post-checkout`,
      'cp .git/hooks/post-checkout .git/hooks/pre-commit; cp .git/hooks/post-checkout .git/hooks/pre-push; chmod +x .git/hooks/*',
      `git config core.fsmonitor "echo fsmonitor >> ${mark}"`,
      `git config core.pager "echo pager >> ${mark}"`,
      `git config diff.external "echo diff >> ${mark}"`,
      `git config filter.evil.clean "echo clean >> ${mark}"`,
      `echo '* filter=evil' > .gitattributes`,
    ].join('\n');
    // The script engine "fixes" the suite, so the loop goes on to diff, verify and replay.
    const h = await runHostile(sandbox, plant, {
      engines: ['script'],
      script: { command: "sed -i 's/^exit 1$/exit 0/' attack.sh" },
      paths: { allowed: ['**'], protected: ['.github/**'] },
    });
    expect(h.result.status).toBe('tests_green');
    expect(existsSync(mark)).toBe(false);
  });

  it('plants a symlink to a file outside: fixloop never reads through it nor writes through it', async () => {
    const keyPath = join(app, 'private-key.pem');
    const h = await runHostile(sandbox, 'true', {
      engines: ['script'],
      script: { command: `ln -s ${keyPath} leak.txt && ln -s ${app} appdir && sed -i 's/^exit 1$/exit 0/' attack.sh` },
    });
    expectNoSecret(h.everything);
    expect(h.result.status).not.toBe('tests_green');
    expect(h.result.attempts[0]?.findings.map((f) => f.kind)).toEqual(['symlink_escape', 'symlink_escape']);
    expect(await readFile(keyPath, 'utf8')).toContain(SECRETS.privateKey);
  });
});

describe('what the process backend does not protect (documented, not a defect)', () => {
  const sandbox = createProcessSandbox();

  it("keeps the app's environment away, but not its files, nor the network", async () => {
    const out = join(app, 'written-by-process-backend');
    const h = await runHostile(
      sandbox,
      [
        `env`,
        `cat ${app}/data/runs/result.json`,
        `echo pwned > ${out}`,
        `node -e "fetch('http://127.0.0.1:${port}/process').then(() => console.log('REACHED'), () => console.log('blocked'))"`,
      ].join('\n'),
    );
    // The environment is scrubbed on every backend...
    expect(h.everything).not.toContain(SECRETS.token);
    expect(h.everything).not.toContain(SECRETS.llmKey);
    // ...but files fixloop can read are readable, writes land outside, and loopback is reachable.
    expect(h.everything).toContain(SECRETS.data);
    expect(existsSync(out)).toBe(true);
    expect(hits).toContain('/process');
    await rm(out, { force: true });
  });
});

/** The processes still matching `pattern` once none is left, or `withinMs` has passed. */
async function leftoverAfter(pattern: string, withinMs: number): Promise<string[]> {
  const deadline = Date.now() + withinMs;
  let left = leftover(pattern);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((done) => setTimeout(done, 200));
    left = leftover(pattern);
  }
  return left;
}

function leftover(pattern: string): string[] {
  return execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(pattern) && !line.includes('ps -eo'));
}
