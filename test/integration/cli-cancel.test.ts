// Ctrl-C and SIGTERM as a person or a supervisor sends them, to the real `fixloop run` in temp
// folders: in the setup, in an attempt and in the replay of a green attempt, the run ends as
// cancelled (exit 130, 143 for SIGTERM), its folder and result are kept, `fixloop runs` lists it as
// cancelled, and no command it started is left running. Each signal is sent once the phase's progress
// line is on stderr and the phase's own command (a `sleep` with a number no other test uses) runs.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, readlinkSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/core/run-result.ts';
import { watchOutput } from '../support/child-output.ts';
import { makeRepo, removeAll } from '../support/git-fixture.ts';
import { FIXLOOP_BIN, runCli } from '../support/run-cli.ts';
import { fullSuite } from '../support/suite-tier.ts';

const dirs: string[] = [];
afterAll(() => removeAll(dirs));

const NODE_PROJECT = {
  'package.json': '{ "name": "calc", "type": "module", "private": true }\n',
  'src/math.js': 'export function add(a, b) {\n  return a - b;\n}\n',
  'test/math.test.js':
    "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { add } from '../src/math.js';\n\ntest('add sums', () => {\n  assert.equal(add(2, 3), 5);\n});\n",
};
/** The machine's own Node 20: fixloop hands over from it to its Node 24. */
const NODE_20 = '/usr/bin/node';

async function folder(files: Record<string, string> = {}): Promise<string> {
  const dir = await makeRepo(files);
  dirs.push(dir);
  return dir;
}

/** A number in a `sleep` command, so `ps` finds that command and no other test's. */
const marker = () => String(700_000 + Math.floor(Math.random() * 99_999));

const processes = () => execFileSync('ps', ['-eo', 'pid,pgid,args'], { encoding: 'utf8' }).split('\n');
/** The commands still running whose arguments end with `sleep <mark>` (bwrap's own, the sleep itself). */
const withMarker = (mark: string) =>
  processes().filter((line) => line.trim().endsWith(`sleep ${mark}`) || line.includes(`sleep ${mark};`));
const inGroup = (pgid: number) => processes().filter((line) => line.trim().split(/\s+/)[1] === String(pgid));

/** A run's start takes over 25 s on a 2-core machine under a load of 26: the waits allow far more. */
const WAIT_MS = 150_000;

async function until(what: () => boolean, ms = WAIT_MS): Promise<void> {
  for (let waited = 0; !what() && waited < ms; waited += 100) await new Promise((r) => setTimeout(r, 100));
  expect(what()).toBe(true);
}

interface Started {
  child: ChildProcess;
  data: string;
  cwd: string;
  exited: Promise<number | null>;
  output: ReturnType<typeof watchOutput>;
}

/** `fixloop run` in a folder of its own, its runs kept in a data folder of the test's. */
async function startRun(args: string[], options: { node?: string; detached?: boolean } = {}): Promise<Started> {
  const cwd = await folder();
  const data = join(cwd, 'data');
  const child = spawn(options.node ?? process.execPath, [FIXLOOP_BIN, 'run', ...args], {
    cwd,
    env: { ...process.env, FIXLOOP_DATA_DIR: data },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.detached === true,
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, data, cwd, exited, output: watchOutput(child) };
}

/** The run as `fixloop runs` lists it and `runs show` finds it, and its result.json in the folder it names. */
async function storedRun(started: Started): Promise<{ listed: string; result: RunResult; dir: string }> {
  const env = { FIXLOOP_DATA_DIR: started.data };
  const list = await runCli(['runs'], { cwd: started.cwd, env });
  expect(list.code, list.stderr).toBe(0);
  const runId = /^(\S+-\S+)\s+cancelled\s/m.exec(list.stdout)?.[1];
  expect(runId, list.stdout).toBeDefined();
  const show = await runCli(['runs', 'show', runId ?? ''], { cwd: started.cwd, env });
  expect(show.code, show.stderr).toBe(0);
  expect(show.stdout).toMatch(new RegExp(`^Run ${runId} \\(command line\\): cancelled`));
  const dir = /artifacts in (\S+)/.exec(show.stdout)?.[1] ?? '';
  return { listed: list.stdout, result: JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8')) as RunResult, dir };
}

async function expectCancelled(started: Started, code: number, phase: RunResult['cancelled'], words: RegExp, mark: string) {
  expect(await started.exited, started.output.text()).toBe(code);
  expect(started.output.text()).toMatch(words);
  expect(started.output.text()).not.toMatch(/Escalated|SETUP_FAILED|gave up|^\s+at /m);
  const { result, dir } = await storedRun(started);
  expect(result).toMatchObject({ status: 'failed_to_green', stopReason: 'cancelled', cancelled: phase });
  expect(result.error).toBeUndefined();
  expect(readFileSync(join(dir, 'report.md'), 'utf8')).toMatch(words);
  expect(withMarker(mark)).toEqual([]);
  return result;
}

describe('fixloop run, cancelled', { timeout: 400_000 }, () => {
  for (const sandbox of ['bwrap', 'process']) {
    it(`Ctrl-C in the setup (${sandbox}): exit 130, "Cancelled during the setup", not a failed setup; nothing left running`, async () => {
      const project = await folder(NODE_PROJECT);
      const mark = marker();
      const run = await startRun([project, '--test', 'node --test', '--setup', `sleep ${mark}`, '--sandbox', sandbox]);
      await run.output.until(`setup: sleep ${mark}`, WAIT_MS);
      await until(() => withMarker(mark).length > 0);
      run.child.kill('SIGINT');
      await expectCancelled(run, 130, { phase: 'setup' }, /Cancelled during the setup, after 0 attempts/, mark);
    });
  }

  it('Ctrl-C in an attempt (the script engine still working): exit 130, cancelled in attempt 1, not "every engine gave up"', async () => {
    const project = await folder(NODE_PROJECT);
    const mark = marker();
    const run = await startRun([project, '--test', 'node --test', '--engine', 'script', '--script', `sleep ${mark}`]);
    await run.output.until(/attempt 1\/\d+ \(script\)/, WAIT_MS);
    await until(() => withMarker(mark).length > 0);
    run.child.kill('SIGINT');
    const result = await expectCancelled(
      run,
      130,
      { phase: 'attempt', attempt: 1 },
      /Cancelled in attempt 1, after \d attempts?/,
      mark,
    );
    expect(result.baseline.failed).toBe(1);
  });

  it('SIGTERM in the replay of a green attempt: exit 143, cancelled while replaying it, no patch published as verified', async () => {
    // The setup sleeps only where the patch's new file is: on the pristine checkout the patch is replayed on.
    const project = await folder(NODE_PROJECT);
    const mark = marker();
    const setup = `if [ -f fixed.flag ]; then sleep ${mark}; fi`;
    const run = await startRun([
      project,
      '--test',
      'node --test',
      '--setup',
      setup,
      '--engine',
      'script',
      '--script',
      "sed -i 's/a - b/a + b/' src/math.js && touch fixed.flag",
    ]);
    await run.output.until('verifying on a pristine checkout', WAIT_MS);
    await until(() => withMarker(mark).length > 0);
    run.child.kill('SIGTERM');
    const result = await expectCancelled(
      run,
      143,
      { phase: 'verify', attempt: 1 },
      /Cancelled while replaying attempt 1 on a pristine checkout/,
      mark,
    );
    expect(result.status).not.toBe('tests_green');
  });

  it.runIf(fullSuite)(
    'Ctrl-C at a terminal under the hand-over from Node 20 (the whole group gets it): one cancel, exit 130, no process of the group left',
    async () => {
      const project = await folder(NODE_PROJECT);
      const mark = marker();
      const run = await startRun([project, '--test', 'node --test', '--engine', 'script', '--script', `sleep ${mark}`], {
        node: NODE_20,
        detached: true,
      });
      await run.output.until(/attempt 1\/\d+ \(script\)/, WAIT_MS);
      await until(() => withMarker(mark).length > 0);
      const group = run.child.pid ?? 0;
      // As a terminal sends Ctrl-C: to every process of the foreground group, the handed-over Node 24 too.
      process.kill(-group, 'SIGINT');
      await expectCancelled(run, 130, { phase: 'attempt', attempt: 1 }, /Cancelled in attempt 1/, mark);
      await until(() => inGroup(group).length === 0);
    },
  );
});

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });

/** `fixloop serve` started by Node 20 (which hands over to Node 24), as `command` starts it; its port. */
async function startServe(command: (args: string[]) => [string, string[]], extra: Record<string, string> = {}) {
  const dir = await folder();
  serveDirs.push(dir);
  const port = await freePort();
  const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  const [file, args] = command([NODE_20, FIXLOOP_BIN, 'serve']);
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    APP_ID: '1',
    PRIVATE_KEY: key,
    WEBHOOK_SECRET: 's',
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_FORMAT: 'json' as const,
    FIXLOOP_DATA_DIR: join(dir, 'data'),
    ...extra,
  };
  const child: ChildProcess = spawn(file, args, { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = watchOutput(child);
  await output.until('Listening on', WAIT_MS);
  return { child, port, output, dir };
}

const answers = (port: number) =>
  fetch(`http://127.0.0.1:${port}/ping`).then(
    () => true,
    () => false,
  );
/** The processes of `fixloop serve` running in `dir` (another test file's servers run elsewhere). */
const servers = (dir: string) =>
  processes().filter((line) => {
    if (!line.includes(`${FIXLOOP_BIN} serve`)) return false;
    try {
      return readlinkSync(`/proc/${line.trim().split(/\s+/)[0]}/cwd`) === dir;
    } catch {
      return false;
    }
  });
const serveDirs: string[] = [];

describe('fixloop serve, stopped by the pid of the process a person started', { timeout: 400_000 }, () => {
  // A server a failed test left running is stopped by its pid, as no test may leave one behind.
  afterEach(() => {
    for (const line of serveDirs.splice(0).flatMap(servers)) {
      const pid = Number(line.trim().split(/\s+/)[0]);
      if (pid) process.kill(pid, 'SIGKILL');
    }
  });

  it('SIGTERM to `node bin/fixloop.js serve` on Node 20: the handed-over server stops, the port closes, no process is left', async () => {
    const { child, port, dir } = await startServe((args) => [args[0] ?? '', args.slice(1)]);
    expect(await answers(port)).toBe(true);
    const handedOver = servers(dir).filter((line) => !line.trim().startsWith(`${child.pid} `));
    expect(handedOver.length).toBeGreaterThan(0);
    child.kill('SIGTERM');
    await until(() => child.exitCode !== null);
    await until(() => servers(dir).every((line) => !handedOver.includes(line)));
    expect(await answers(port)).toBe(false);
  });

  it('SIGTERM to npm, which passes it to its shell only (`npx fixloop serve`): the server sees its parent end and stops', async () => {
    // As npm runs a bin: through `sh -c`, with npm's variables; `; :` keeps sh from exec-ing the command.
    const { child, port, dir } = await startServe((args) => ['sh', ['-c', `${args.map((a) => `'${a}'`).join(' ')}; :`]], {
      npm_command: 'exec',
    });
    expect(await answers(port)).toBe(true);
    const before = servers(dir);
    expect(before.length).toBeGreaterThan(0);
    child.kill('SIGTERM');
    await until(() => servers(dir).every((line) => !before.includes(line)));
    expect(await answers(port)).toBe(false);
  });
});
