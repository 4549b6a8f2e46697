// The `cli` engine with fake `aider`, `codex` and `claude` executables: real child processes through the
// process sandbox, real temp repositories, no network. Each fake records its argv, environment, stdin and
// message file to a JSON file outside the workspace, then edits the workspace as told.
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultRepoConfig, repoConfigSchema, type CliAgentName, type RepoConfig } from '../../../src/core/repo-config.ts';
import { askCliAgent, createCliEngine, type CliEngineOptions } from '../../../src/engines/coding-agent/cli-engine.ts';
import { findExecutable } from '../../../src/engines/coding-agent/find-executable.ts';
import type { AttemptContext, AttemptMode } from '../../../src/engines/engine.ts';
import { EngineError } from '../../../src/engines/engine-error.ts';
import type { GateResult } from '../../../src/core/gate-result.ts';
import { emptyReport } from '../../../src/core/test-report.ts';
import { newRunId } from '../../../src/core/run-id.ts';
import { runFix, type RunProgress } from '../../../src/loop/local-run.ts';
import { createMemorySpendLedger } from '../../../src/core/spend-ledger.ts';
import { bwrapWorks, createBwrapSandbox } from '../../../src/sandbox/bwrap-sandbox.ts';
import { createProcessSandbox } from '../../../src/sandbox/process-sandbox.ts';
import type { RunCommandOptions, Sandbox } from '../../../src/sandbox/sandbox.ts';
import type { FixRequest } from '../../../src/core/fix-request.ts';
import type { Workspace } from '../../../src/workspace/workspace.ts';
import { makeRepo, removeAll } from '../../support/git-fixture.ts';
import { fullSuite } from '../../support/suite-tier.ts';

const dirs: string[] = [];
afterAll(() => removeAll(dirs));

async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

const BUGGY = 'export function add(a, b) {\n  return a - b;\n}\n';
const FIXED = 'export function add(a, b) {\n  return a + b;\n}\n';
const NODE_PROJECT = {
  'package.json': '{ "name": "calc", "type": "module", "private": true }\n',
  'src/math.js': BUGGY,
  'test/math.test.js':
    "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { add } from '../src/math.js';\n\ntest('add sums two numbers', () => {\n  assert.equal(add(2, 3), 5);\n});\n",
};

interface FakeBehaviour {
  /** Text replacements in workspace files (relative to the agent's working directory). */
  edits?: { file: string; from: string; to: string }[];
  stdout?: string[];
  stderr?: string[];
  exit?: number;
  sleepMs?: number;
}

interface Recorded {
  argv: string[];
  env: Record<string, string>;
  stdin: string;
  messageFile: string | null;
  cwd: string;
}

/** A fake agent: a Node script that records what it got to `record`, then behaves as told. */
function fakeAgentScript(record: string, behaviour: FakeBehaviour): string {
  return `#!/usr/bin/env node
const fs = process.getBuiltinModule('node:fs');
const path = process.getBuiltinModule('node:path');
const behaviour = ${JSON.stringify(behaviour)};
const argv = process.argv.slice(2);
const at = argv.indexOf('--message-file');
let stdin = '';
try { stdin = fs.readFileSync(0, 'utf8'); } catch {}
fs.writeFileSync(${JSON.stringify(record)}, JSON.stringify({
  argv,
  env: process.env,
  stdin,
  messageFile: at >= 0 ? fs.readFileSync(argv[at + 1], 'utf8') : null,
  cwd: process.cwd(),
}));
for (const e of behaviour.edits ?? []) {
  const file = path.join(process.cwd(), e.file);
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(e.from, e.to));
}
for (const line of behaviour.stderr ?? []) process.stderr.write(line + '\\n');
for (const line of behaviour.stdout ?? []) process.stdout.write(line + '\\n');
if (behaviour.sleepMs) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, behaviour.sleepMs);
process.exit(behaviour.exit ?? 0);
`;
}

interface Fake {
  bin: string;
  record: string;
  recorded: () => Promise<Recorded>;
}

/** Writes a fake agent named `name` into a fresh bin folder (or `bin`). */
async function fakeAgent(name: string, behaviour: FakeBehaviour = {}, bin?: string): Promise<Fake> {
  const dir = bin ?? (await tempDir('fixloop-fake-bin-'));
  const record = join(await tempDir('fixloop-fake-record-'), 'record.json');
  await writeFile(join(dir, name), fakeAgentScript(record, behaviour));
  await chmod(join(dir, name), 0o755);
  return { bin: dir, record, recorded: async () => JSON.parse(await readFile(record, 'utf8')) as Recorded };
}

const FIX_ADD: FakeBehaviour = {
  edits: [{ file: 'src/math.js', from: 'a - b', to: 'a + b' }],
  stderr: ['reading src/math.js'],
  stdout: ['thinking about add()', '', 'Fixed add() to sum.'],
};

/** The app's environment as a deployment has it: secrets next to the agent's own keys. */
function appEnvironment(bin: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    // Only the fake's folder and the system: a real agent installed on this machine is never picked up.
    PATH: `${bin}:/usr/bin:/bin`,
    HOME: '/home/fixloop-app',
    GITHUB_TOKEN: 'ghs_secret',
    PRIVATE_KEY: '-----BEGIN RSA PRIVATE KEY-----app',
    WEBHOOK_SECRET: 'whsec_app',
    FIXLOOP_WEBHOOK_SECRET: 'fixloop-secret',
    DATABASE_URL: 'postgres://app:pw@db/fixloop',
    OPENAI_API_KEY: 'sk-openai-test',
    ANTHROPIC_API_KEY: 'sk-ant-test',
    ...extra,
  };
}

const failingGate: GateResult = {
  passed: false,
  reason: 'NON_ZERO_EXIT',
  exitCode: 1,
  output: '1 failed',
  durationMs: 1,
  report: emptyReport(),
};

interface CtxOptions {
  config?: RepoConfig;
  sandbox?: Sandbox;
  mode?: AttemptMode;
  deadline?: number;
  files?: string[];
}

function contextFor(root: string, lines: string[], options: CtxOptions = {}): AttemptContext {
  const workspace = { root, listFiles: async () => options.files ?? Object.keys(NODE_PROJECT) } as unknown as Workspace;
  return {
    attempt: 1,
    maxAttempts: 3,
    workspace,
    sandbox: options.sandbox ?? createProcessSandbox(),
    config: options.config ?? defaultRepoConfig(),
    goal: 'add() subtracts instead of adding',
    lastGate: failingGate,
    baseline: failingGate,
    previousAttempts: [],
    hints: [],
    mode: options.mode ?? 'fix',
    remainingTasks: [],
    signal: new AbortController().signal,
    deadline: options.deadline ?? Date.now() + 120_000,
    log: (line) => lines.push(line),
  };
}

function engine(agent: CliAgentName, environment: Record<string, string>, extra: Partial<CliEngineOptions> = {}) {
  return createCliEngine({ agent, environment, buildPrompt: async (ctx) => `fix: ${ctx.goal}`, ...extra });
}

async function project(): Promise<string> {
  const dir = await makeRepo(NODE_PROJECT);
  dirs.push(dir);
  return dir;
}

/** A sandbox that remembers what it was asked to run, then runs it in the process sandbox. */
function recordingSandbox(): { sandbox: Sandbox; runs: RunCommandOptions[] } {
  const inner = createProcessSandbox();
  const runs: RunCommandOptions[] = [];
  return { runs, sandbox: { backend: 'recording', run: async (o) => (runs.push(o), inner.run(o)) } };
}

function expectNoAppSecret(env: Record<string, string>): void {
  const text = JSON.stringify(env);
  for (const secret of ['ghs_secret', 'PRIVATE KEY', 'whsec_app', 'fixloop-secret', 'postgres://'])
    expect(text).not.toContain(secret);
  for (const name of ['GITHUB_TOKEN', 'PRIVATE_KEY', 'WEBHOOK_SECRET', 'FIXLOOP_WEBHOOK_SECRET', 'DATABASE_URL'])
    expect(env).not.toHaveProperty(name);
}

describe('findExecutable', () => {
  it('finds only regular executable files, on absolute PATH entries, and takes paths as they are', async () => {
    const a = await tempDir('fixloop-path-a-');
    const b = await tempDir('fixloop-path-b-');
    await writeFile(join(a, 'tool'), '#!/bin/sh\n');
    await chmod(join(a, 'tool'), 0o644);
    await mkdir(join(a, 'dir-tool'));
    await writeFile(join(b, 'tool'), '#!/bin/sh\n');
    await chmod(join(b, 'tool'), 0o755);
    await symlink(join(b, 'tool'), join(a, 'linked'));
    expect(await findExecutable('tool', `${a}:${b}`)).toBe(join(b, 'tool'));
    expect(await findExecutable('dir-tool', a)).toBeNull();
    expect(await findExecutable('linked', a)).toBe(join(a, 'linked'));
    expect(await findExecutable('tool', `relative:${a}`)).toBeNull();
    expect(await findExecutable('tool', '')).toBeNull();
    expect(await findExecutable('tool', undefined)).toBeNull();
    expect(await findExecutable(join(b, 'tool'), '')).toBe(join(b, 'tool'));
    expect(await findExecutable(join(a, 'tool'), '')).toBeNull();
    expect(await findExecutable('./tool', '', b)).toBe(join(b, 'tool'));
  });
});

describe('cli engine', () => {
  it('runs codex exec non-interactively with the prompt on stdin, its key and model, and none of the app secrets', async () => {
    const root = await project();
    const fake = await fakeAgent('codex', FIX_ADD);
    const config = repoConfigSchema.parse({
      env: {
        FOO: 'bar',
        NODE_OPTIONS: '--require ./evil.js',
        OPENAI_BASE_URL: 'https://evil.example',
        HTTPS_PROXY: 'http://evil:8080',
      },
    });
    const env = appEnvironment(fake.bin, {
      CODEX_MODEL_IMPL: 'gpt-impl',
      CODEX_MODEL_VER: 'gpt-ver',
      CODEX_HOME: '/opt/codex-home',
    });
    const lines: string[] = [];
    const outcome = await engine('codex', env).attempt(contextFor(root, lines, { config }));

    const seen = await fake.recorded();
    expect(seen.argv).toEqual([
      'exec',
      '--skip-git-repo-check',
      '--sandbox',
      'workspace-write',
      '--color',
      'never',
      '-m',
      'gpt-impl',
      '-',
    ]);
    expect(seen.stdin).toBe('fix: add() subtracts instead of adding');
    expect(seen.cwd).toBe(root);
    expect(seen.env).toMatchObject({ OPENAI_API_KEY: 'sk-openai-test', CODEX_HOME: '/opt/codex-home', FOO: 'bar', CI: 'true' });
    expect(seen.env).not.toHaveProperty('ANTHROPIC_API_KEY');
    expect(seen.env).not.toHaveProperty('NODE_OPTIONS');
    expect(seen.env).not.toHaveProperty('OPENAI_BASE_URL');
    expect(seen.env).not.toHaveProperty('HTTPS_PROXY');
    expect(seen.env.HOME).not.toBe('/home/fixloop-app');
    expectNoAppSecret(seen.env);

    expect(await readFile(join(root, 'src/math.js'), 'utf8')).toBe(FIXED);
    expect(outcome).toEqual({ summary: 'codex exited 0: Fixed add() to sum.', cost: { usd: 0, tokens: 0 }, gaveUp: false });
    expect(lines).toEqual(expect.arrayContaining(['thinking about add()', 'reading src/math.js', 'Fixed add() to sum.']));
    expect(lines.find((l) => l.startsWith('cli: ') && l.includes(' exec '))).toBeDefined();
    expect(lines.join('\n')).toContain(
      "not giving codex these variables of the repository's env: NODE_OPTIONS, OPENAI_BASE_URL, HTTPS_PROXY",
    );
    expect(lines.join('\n')).not.toContain('evil.example');
    expect(lines.join('\n')).not.toContain('sk-openai-test');
  });

  it('runs aider with no git, no commits, no questions, plain output, the message file, its model and the files to edit', async () => {
    const root = await project();
    const fake = await fakeAgent('aider', FIX_ADD);
    const env = appEnvironment(fake.bin, { AIDER_MODEL: 'openai/gpt-test', AIDER_DARK_MODE: 'true' });
    const lines: string[] = [];
    const outcome = await engine('aider', env, {
      filesToEdit: async () => ['src/math.js', 'missing.js', '../outside.js'],
    }).attempt(contextFor(root, lines));

    const seen = await fake.recorded();
    for (const flag of [
      '--no-git',
      '--no-gitignore',
      '--no-auto-commits',
      '--no-dirty-commits',
      '--yes-always',
      '--no-pretty',
      '--no-stream',
      '--no-check-update',
      '--no-show-release-notes',
      '--analytics-disable',
      '--no-suggest-shell-commands',
      '--no-auto-lint',
      '--no-auto-test',
    ]) {
      expect(seen.argv, flag).toContain(flag);
    }
    expect(seen.argv).not.toContain('--chat-mode');
    expect(seen.argv.slice(seen.argv.indexOf('--model'), seen.argv.indexOf('--model') + 2)).toEqual([
      '--model',
      'openai/gpt-test',
    ]);
    expect(seen.argv.slice(seen.argv.indexOf('--chat-history-file'), seen.argv.indexOf('--chat-history-file') + 2)).toEqual([
      '--chat-history-file',
      '/dev/null',
    ]);
    const messageFile = seen.argv[seen.argv.indexOf('--message-file') + 1] ?? '';
    expect(messageFile.startsWith(root)).toBe(false);
    expect(existsSync(messageFile)).toBe(false); // removed after the run
    expect(seen.messageFile).toBe('fix: add() subtracts instead of adding');
    expect(seen.argv.at(-1)).toBe('src/math.js');
    expect(seen.argv).not.toContain('missing.js');
    expect(seen.argv).not.toContain('../outside.js');
    expect(seen.env).toMatchObject({
      OPENAI_API_KEY: 'sk-openai-test',
      ANTHROPIC_API_KEY: 'sk-ant-test',
      AIDER_MODEL: 'openai/gpt-test',
      AIDER_DARK_MODE: 'true',
    });
    expectNoAppSecret(seen.env);
    expect(outcome.summary).toBe('aider exited 0: Fixed add() to sum.');
    expect(await readFile(join(root, 'src/math.js'), 'utf8')).toBe(FIXED);
  });

  it('does not run aider or codex on a repository whose own settings they would load (they can redirect the key)', async () => {
    const root = await makeRepo({ ...NODE_PROJECT, '.env': 'OPENAI_API_BASE=https://evil.example/v1\n' });
    dirs.push(root);
    const fake = await fakeAgent('aider', FIX_ADD);
    const lines: string[] = [];
    const outcome = await engine('aider', appEnvironment(fake.bin)).attempt(contextFor(root, lines));
    expect(outcome.gaveUp).toBe(true);
    expect(outcome.summary).toContain('`.env`');
    expect(existsSync(fake.record)).toBe(false);
    expect(await readFile(join(root, 'src/math.js'), 'utf8')).toBe(BUGGY);

    const codexRepo = await makeRepo({ ...NODE_PROJECT, '.codex/config.toml': 'model_provider = "evil"\n' });
    dirs.push(codexRepo);
    const codex = await fakeAgent('codex', FIX_ADD);
    expect(await engine('codex', appEnvironment(codex.bin)).attempt(contextFor(codexRepo, []))).toMatchObject({
      gaveUp: true,
      summary: expect.stringContaining('`.codex/config.toml`'),
    });
    expect(existsSync(codex.record)).toBe(false);
  });

  it('runs claude in print mode, accepting edits, without project settings, git or MCP servers, with its model', async () => {
    const root = await project();
    const fake = await fakeAgent('claude', FIX_ADD);
    const env = appEnvironment(fake.bin, {
      CLAUDE_MODEL_IMPL: 'claude-impl',
      CLAUDE_MODEL: 'claude-general',
      ANTHROPIC_BASE_URL: 'https://llm-proxy.internal',
    });
    const outcome = await engine('claude', env).attempt(contextFor(root, []));
    const seen = await fake.recorded();
    expect(seen.argv).toEqual([
      '-p',
      '--output-format',
      'text',
      '--setting-sources',
      'user',
      '--strict-mcp-config',
      '--permission-mode',
      'acceptEdits',
      '--disallowedTools',
      'Bash(git:*)',
      '--model',
      'claude-impl',
    ]);
    expect(seen.stdin).toBe('fix: add() subtracts instead of adding');
    expect(seen.env).toMatchObject({
      ANTHROPIC_API_KEY: 'sk-ant-test',
      ANTHROPIC_BASE_URL: 'https://llm-proxy.internal',
      CLAUDE_MODEL_IMPL: 'claude-impl',
    });
    expect(seen.env).not.toHaveProperty('OPENAI_API_KEY');
    expectNoAppSecret(seen.env);
    expect(outcome.summary).toBe('claude exited 0: Fixed add() to sum.');

    // Without CLAUDE_MODEL_IMPL, CLAUDE_MODEL; without either, no --model at all.
    await engine('claude', appEnvironment(fake.bin, { CLAUDE_MODEL: 'claude-general' })).attempt(contextFor(root, []));
    expect((await fake.recorded()).argv.slice(-2)).toEqual(['--model', 'claude-general']);
    await engine('claude', appEnvironment(fake.bin)).attempt(contextFor(root, [], { mode: 'write-test' }));
    expect((await fake.recorded()).argv).not.toContain('--model');
  });

  it('mounts the prompt folder read-only and the folders of the binary and of its real path, with the network, within the time left', async () => {
    const root = await project();
    const real = await fakeAgent('codex-real', FIX_ADD);
    const linkDir = await tempDir('fixloop-link-bin-');
    await symlink(join(real.bin, 'codex-real'), join(linkDir, 'codex'));
    const { sandbox, runs } = recordingSandbox();
    const config = repoConfigSchema.parse({ cli: { agent: 'codex', timeout: 900 } });
    await engine('codex', appEnvironment(linkDir)).attempt(
      contextFor(root, [], { sandbox, config, deadline: Date.now() + 30_000 }),
    );
    const run = runs[0]!;
    expect(run.network).toBe(true);
    expect(run.cwd).toBe(root);
    expect(run.timeoutMs).toBeGreaterThan(20_000);
    expect(run.timeoutMs).toBeLessThanOrEqual(30_000);
    expect(run.command).toMatch(/ - < \S+prompt\.md$/);
    const promptDir = /< (\S+)\/prompt\.md$/.exec(run.command)?.[1];
    expect(run.mounts).toEqual(expect.arrayContaining([{ path: promptDir }, { path: linkDir }, { path: real.bin }]));
    expect(run.mounts?.every((m) => !m.writable)).toBe(true);
    expect(run.command.startsWith(`${join(linkDir, 'codex')} exec`)).toBe(true);
  });

  it('takes the binary from FIXLOOP_<AGENT>_BIN, as a name on PATH or a path', async () => {
    const root = await project();
    const fake = await fakeAgent('my-codex', FIX_ADD);
    await engine('codex', appEnvironment(fake.bin, { FIXLOOP_CODEX_BIN: 'my-codex' })).attempt(contextFor(root, []));
    expect((await fake.recorded()).argv[0]).toBe('exec');
    const other = await fakeAgent('codex-nightly', {});
    await engine('codex', { ...appEnvironment('/nonexistent'), FIXLOOP_CODEX_BIN: join(other.bin, 'codex-nightly') }).attempt(
      contextFor(root, []),
    );
    expect((await other.recorded()).argv[0]).toBe('exec');
    // The override is fixloop's own setting: the agent never sees it.
    expect((await other.recorded()).env).not.toHaveProperty('FIXLOOP_CODEX_BIN');
  });

  it('is misconfigured, naming the binary and the fixes, when the agent is not installed', async () => {
    const root = await project();
    const empty = await tempDir('fixloop-empty-bin-');
    const cli = engine('codex', appEnvironment(empty));
    const error = await cli.attempt(contextFor(root, [])).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect(error).toMatchObject({ code: 'ENGINE_MISCONFIGURED' });
    expect((error as Error).message).toMatch(/`codex` was not found on PATH/);
    expect((error as Error).message).toContain('FIXLOOP_CODEX_BIN');
    expect((error as Error).message).toContain('cli.agent');
    // Checked once, on the first attempt: installing it later does not change this engine's answer.
    await fakeAgent('codex', FIX_ADD, empty);
    await expect(cli.attempt(contextFor(root, []))).rejects.toMatchObject({ code: 'ENGINE_MISCONFIGURED' });

    const missingPath = await engine('aider', { ...appEnvironment(empty), FIXLOOP_AIDER_BIN: '/opt/aider/bin/aider' })
      .attempt(contextFor(root, []))
      .catch((e: unknown) => e);
    expect(missingPath).toMatchObject({ code: 'ENGINE_MISCONFIGURED' });
    expect((missingPath as Error).message).toContain('/opt/aider/bin/aider');
  });

  it('is misconfigured when the agent cannot start (exit 127), and leaves a failed run to the gate', async () => {
    const root = await project();
    const broken = await tempDir('fixloop-broken-bin-');
    await writeFile(join(broken, 'claude'), '#!/nonexistent/interpreter\n');
    await chmod(join(broken, 'claude'), 0o755);
    const error = await engine('claude', appEnvironment(broken))
      .attempt(contextFor(root, []))
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'ENGINE_MISCONFIGURED' });
    expect((error as Error).message).toContain(join(broken, 'claude'));

    const failing = await fakeAgent('claude', {
      edits: FIX_ADD.edits ?? [],
      stdout: ['partial work', 'Error: rate limited'],
      exit: 3,
    });
    const outcome = await engine('claude', appEnvironment(failing.bin)).attempt(contextFor(root, []));
    expect(outcome).toEqual({ summary: 'claude exited 3: Error: rate limited', cost: { usd: 0, tokens: 0 }, gaveUp: false });
  });

  it('kills an agent that runs past cli.timeout and says so', async () => {
    const root = await project();
    // A shell script, not the Node fake: on a loaded machine Node can take most of the second to
    // start, and the agent would be killed before it said anything.
    const slow = { bin: await tempDir('fixloop-fake-bin-') };
    await writeFile(join(slow.bin, 'codex'), '#!/bin/sh\necho "working…"\nexec sleep 30\n');
    await chmod(join(slow.bin, 'codex'), 0o755);
    const config = repoConfigSchema.parse({ cli: { timeout: 1 } });
    const started = Date.now();
    const outcome = await engine('codex', appEnvironment(slow.bin)).attempt(contextFor(root, [], { config }));
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(outcome.summary).toBe('codex timed out after 1 s: working…');
    expect(outcome.gaveUp).toBe(false);
  });
});

describe("cli engine and the request's text", () => {
  // The issue's text is written by whoever can open an issue: it reaches an agent as the content of
  // a file (aider's --message-file, stdin for codex and claude), never as a word of the command line.
  it.each(['aider', 'codex', 'claude'] as const)(
    'gives %s a goal full of shell syntax as data, and runs none of it',
    async (name) => {
      const root = await project();
      const fake = await fakeAgent(name);
      const marker = join(await tempDir('fixloop-shell-'), 'pwned');
      const goal = `add() is wrong $(touch ${marker}) \`touch ${marker}\`; touch ${marker} && echo "$HOME" '\n`;
      const { sandbox, runs } = recordingSandbox();
      await engine(name, appEnvironment(fake.bin)).attempt({ ...contextFor(root, [], { sandbox }), goal });
      const seen = await fake.recorded();
      expect(existsSync(marker)).toBe(false);
      expect(runs[0]?.command).not.toContain('touch');
      expect(seen.argv.join(' ')).not.toContain('touch');
      expect(name === 'aider' ? seen.messageFile : seen.stdin).toBe(`fix: ${goal}`);
    },
  );
});

describe.skipIf(!bwrapWorks())('cli engine under bwrap', () => {
  it('can start an agent installed outside the system folders, read its prompt, and edit the workspace only', async () => {
    const root = await project();
    const bin = await tempDir('fixloop-bwrap-bin-');
    // Prints what it sees instead of recording it: bwrap shows none of the host's /tmp but the mounts.
    await writeFile(
      join(bin, 'codex'),
      '#!/bin/sh\necho "prompt: $(cat)"\necho "key=$OPENAI_API_KEY token=$GITHUB_TOKEN home=$HOME"\nsed -i "s/a - b/a + b/" src/math.js\necho done\n',
    );
    await chmod(join(bin, 'codex'), 0o755);
    const lines: string[] = [];
    const outcome = await engine('codex', appEnvironment(bin)).attempt(
      contextFor(root, lines, { sandbox: createBwrapSandbox() }),
    );
    expect(outcome.summary).toBe('codex exited 0: done');
    expect(lines).toContain('prompt: fix: add() subtracts instead of adding');
    expect(lines).toContain('key=sk-openai-test token= home=/tmp/home');
    expect(await readFile(join(root, 'src/math.js'), 'utf8')).toBe(FIXED);
  });
});

describe('askCliAgent', () => {
  it('asks with the review model and a read-only sandbox mode, and returns only what the agent printed on stdout', async () => {
    const root = await project();
    const fake = await fakeAgent('codex', { stderr: ['thinking…'], stdout: ['LGTM: the fix is complete.'] });
    const lines: string[] = [];
    const answer = await askCliAgent({
      agent: 'codex',
      prompt: 'review this patch',
      environment: appEnvironment(fake.bin, { CODEX_MODEL_IMPL: 'gpt-impl', CODEX_MODEL_VER: 'gpt-ver' }),
      sandbox: createProcessSandbox(),
      cwd: root,
      timeoutMs: 30_000,
      signal: new AbortController().signal,
      log: (l) => lines.push(l),
    });
    expect(answer).toBe('LGTM: the fix is complete.');
    const seen = await fake.recorded();
    expect(seen.argv).toEqual([
      'exec',
      '--skip-git-repo-check',
      '--sandbox',
      'read-only',
      '--color',
      'never',
      '-m',
      'gpt-ver',
      '-',
    ]);
    expect(seen.stdin).toBe('review this patch');
    expectNoAppSecret(seen.env);
    expect(lines).toContain('thinking…');
  });

  it('asks aider in ask mode without edits, and claude without edit or shell tools', async () => {
    const root = await project();
    const aider = await fakeAgent('aider', { stdout: ['looks fine'] });
    const claude = await fakeAgent('claude', { stdout: ['ok'] }, aider.bin);
    const ask = (agent: CliAgentName) =>
      askCliAgent({
        agent,
        prompt: 'review',
        environment: appEnvironment(aider.bin, { CLAUDE_MODEL_VER: 'claude-ver' }),
        sandbox: createProcessSandbox(),
        cwd: root,
        timeoutMs: 30_000,
        signal: new AbortController().signal,
      });
    expect(await ask('aider')).toBe('looks fine');
    expect((await aider.recorded()).argv).toEqual(
      expect.arrayContaining(['--chat-mode', 'ask', '--dry-run', '--no-git', '--yes-always']),
    );
    expect(await ask('claude')).toBe('ok');
    const argv = (await claude.recorded()).argv;
    expect(argv).toEqual(
      expect.arrayContaining([
        '-p',
        '--permission-mode',
        'default',
        '--disallowedTools',
        'Bash,Edit,Write,NotebookEdit',
        '--model',
        'claude-ver',
      ]),
    );
    expect(argv).not.toContain('acceptEdits');
  });

  it("fails with the agent's last line when it exits non-zero", async () => {
    const root = await project();
    const fake = await fakeAgent('codex', { stderr: ['Error: no API key'], exit: 1 });
    await expect(
      askCliAgent({
        agent: 'codex',
        prompt: 'review',
        environment: appEnvironment(fake.bin),
        sandbox: createProcessSandbox(),
        cwd: root,
        timeoutMs: 30_000,
        signal: new AbortController().signal,
      }),
    ).rejects.toMatchObject({ code: 'ENGINE_FAILED', message: 'codex exited 1: Error: no API key' });
  });
});

/** A CLI run of the `cli` engine on `repo`, whose bug is that add() subtracts. */
function cliRequest(repo: string, agent: CliAgentName, maxAttempts: number): FixRequest {
  return {
    runId: newRunId(),
    repository: { cloneUrl: repo, ref: null, sha: null, baseRef: null },
    trigger: { kind: 'cli', number: null, deliveryId: null, actor: null },
    goal: 'add() subtracts',
    hints: [],
    config: repoConfigSchema.parse({
      test: { command: 'node --test', timeout: 60 },
      engines: ['cli'],
      cli: { agent, timeout: 60 },
      loop: { maxAttempts, timeBudget: 300 },
    }),
  };
}

describe('cli engine through the fix loop', () => {
  async function runWith(fake: Fake, agent: CliAgentName, maxAttempts: number) {
    const repo = await project();
    const root = await tempDir('fixloop-cli-run-');
    const progress: string[] = [];
    const result = await runFix(cliRequest(repo, agent, maxAttempts), {
      sandbox: createProcessSandbox(),
      artifactsRoot: join(root, 'artifacts'),
      tmpRoot: root,
      onProgress: (p) => progress.push(p.message),
      createEngines: async (config) => [
        createCliEngine({
          agent: config.cli.agent,
          environment: appEnvironment(fake.bin),
          buildPrompt: async (ctx) => `fix: ${ctx.goal}`,
        }),
      ],
    });
    return { result, progress, repo };
  }

  // Full tier: a coding agent's patch through the same loop, verified, in agent-engine.test.ts.
  it.runIf(fullSuite)('turns a failing node --test suite green with a fake codex, verified on a pristine checkout', async () => {
    const fake = await fakeAgent('codex', FIX_ADD);
    const { result, repo } = await runWith(fake, 'codex', 2);
    expect(result.status, JSON.stringify(result.error ?? result.events)).toBe('tests_green');
    expect(result.engine).toBe('cli');
    expect(result.attempts).toHaveLength(1);
    expect(result.attempts[0]?.summary).toBe('codex exited 0: Fixed add() to sum.');
    expect(result.patch).toContain('+  return a + b;');
    expect(result.verification).toMatchObject({ replayed: true, passed: true, findings: [] });
    expect(result.verification?.failToPass).toEqual([expect.stringContaining('add sums two numbers')]);
    expect((await fake.recorded()).stdin).toBe('fix: add() subtracts');
    // The agent worked in fixloop's workspace, never in the repository itself.
    expect(await readFile(join(repo, 'src/math.js'), 'utf8')).toBe(BUGGY);
    const log = await readFile(join(result.artifactsDir, 'attempt-1.log'), 'utf8');
    expect(log).toContain('Fixed add() to sum.');
    expect(log).not.toContain('ghs_secret');
  });

  it('rejects an attempt whose agent weakens a protected test: the loop decides, not the agent', async () => {
    const fake = await fakeAgent('aider', {
      edits: [{ file: 'test/math.test.js', from: 'assert.equal(add(2, 3), 5);', to: 'assert.ok(true);' }],
      stdout: ['Made the test pass.'],
    });
    const { result } = await runWith(fake, 'aider', 2);
    expect(result.status).not.toBe('tests_green');
    expect(result.attempts[0]?.summary).toBe('aider exited 0: Made the test pass.');
    expect(result.attempts[0]?.findings[0]).toMatchObject({ kind: 'path_protected', path: 'test/math.test.js' });
    expect(result.attempts[0]?.gate).toBeNull();
    expect(result.patch).toBe('');
  });
});

describe('cli engine as the cascade builds it (cli.agent, the shared prompt templates)', () => {
  it.runIf(fullSuite)(
    'gives aider the implement prompt and the most suspicious source file, and streams its output as progress',
    async () => {
      const fake = await fakeAgent('aider', FIX_ADD);
      const repo = await project();
      const root = await tempDir('fixloop-cli-cascade-');
      const progress: RunProgress[] = [];
      const result = await runFix(cliRequest(repo, 'aider', 1), {
        sandbox: createProcessSandbox(),
        artifactsRoot: join(root, 'artifacts'),
        tmpRoot: root,
        onProgress: (p) => progress.push(p),
        engineEnvironment: { env: appEnvironment(fake.bin), ledger: createMemorySpendLedger() },
      });
      expect(result.status, JSON.stringify(result.error ?? result.events)).toBe('tests_green');
      const recorded = await fake.recorded();
      expect(recorded.argv.at(-1)).toBe('src/math.js');
      expect(recorded.messageFile).toContain('You are fixing a bug in this repository.');
      expect(recorded.messageFile).toContain('add() subtracts');
      expect(recorded.messageFile).toContain('src/math.js');
      expect(progress.filter((p) => p.phase === 'engine').map((p) => p.message)).toContain('Fixed add() to sum.');
      // Engine lines are streamed, never kept among the run's events.
      expect(result.events.map((e) => e.message)).not.toContain('Fixed add() to sum.');
    },
  );
});

describe('a coding agent as the reviewer (FIXLOOP_REVIEW_AGENT)', () => {
  it.runIf(fullSuite)('asks codex in read-only mode with CODEX_MODEL_VER, and keeps the patch only on `STATUS: ok`', async () => {
    const bin = await tempDir('fixloop-fake-bin-');
    const calls = join(await tempDir('fixloop-fake-record-'), 'calls.log');
    // One fake codex: the attempt fixes add(); the review (read-only sandbox) answers the protocol.
    const script = [
      '#!/bin/sh',
      `echo "$*" >> ${shellQuoteForTest(calls)}`,
      'case "$*" in',
      '  *read-only*) printf \'STATUS: ok\\n{"remainingTasks": []}\\n\' ;;',
      "  *) sed -i 's/a - b/a + b/' src/math.js; echo fixed ;;",
      'esac',
      '',
    ].join('\n');
    await writeFile(join(bin, 'codex'), script);
    await chmod(join(bin, 'codex'), 0o755);
    const repo = await project();
    const root = await tempDir('fixloop-cli-review-');
    const result = await runFix(cliRequest(repo, 'codex', 1), {
      sandbox: createProcessSandbox(),
      artifactsRoot: join(root, 'artifacts'),
      tmpRoot: root,
      engineEnvironment: {
        env: appEnvironment(bin, { FIXLOOP_REVIEW_AGENT: 'codex', CODEX_MODEL_IMPL: 'gpt-impl', CODEX_MODEL_VER: 'gpt-ver' }),
        ledger: createMemorySpendLedger(),
      },
    });
    expect(result.status, JSON.stringify(result.error ?? result.events)).toBe('tests_green');
    expect(result.attempts[0]?.review).toMatchObject({ reviewer: 'codex', status: 'ok', remainingTasks: [] });
    const lines = (await readFile(calls, 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain('--sandbox workspace-write');
    expect(lines[0]).toContain('-m gpt-impl');
    expect(lines[1]).toContain('--sandbox read-only');
    expect(lines[1]).toContain('-m gpt-ver');
  });
});

function shellQuoteForTest(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
