// A small buggy Node project and a runFix call whose agent engine talks, through the real SDKs, to
// the scripted model server on loopback.
import { rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoConfigSchema, type RepoConfigInput } from '../../../src/core/repo-config.ts';
import { createMemorySpendLedger, type SpendLedger } from '../../../src/core/spend-ledger.ts';
import { runFix } from '../../../src/loop/local-run.ts';
import type { RunResult } from '../../../src/core/run-result.ts';
import { createProcessSandbox } from '../../../src/sandbox/process-sandbox.ts';
import type { FakeModelServer } from '../../support/fake-model-server.ts';

export const BUGGY =
  'export function total(items) {\n  let sum = 0;\n  for (const item of items) sum += item.price;\n  return sum;\n}\n';
export const FIXED =
  'export function total(items) {\n  let sum = 0;\n  for (const item of items) sum += item.price * item.quantity;\n  return sum;\n}\n';

export const CART_PROJECT: Record<string, string> = {
  'package.json': '{ "type": "module" }\n',
  'src/cart.js': BUGGY,
  'test/cart.test.js': [
    "import { test } from 'node:test';",
    "import assert from 'node:assert/strict';",
    "import { total } from '../src/cart.js';",
    "test('total multiplies price by quantity', () => {",
    '  assert.equal(total([{ price: 2, quantity: 3 }]), 6);',
    '});',
    "test('total of nothing is zero', () => {",
    '  assert.equal(total([]), 0);',
    '});',
    '',
  ].join('\n'),
};

/** The same project with only a passing test: the bug has no test yet (red → green). */
export const GREEN_PROJECT: Record<string, string> = {
  'package.json': CART_PROJECT['package.json'] ?? '',
  'src/cart.js': CART_PROJECT['src/cart.js'] ?? '',
  'test/cart.test.js': [
    "import { test } from 'node:test';",
    "import assert from 'node:assert/strict';",
    "import { total } from '../src/cart.js';",
    "test('total of nothing is zero', () => {",
    '  assert.equal(total([]), 0);',
    '});',
    '',
  ].join('\n'),
};

/** A test that shows the bug. */
export const NEW_TEST = [
  "import { test } from 'node:test';",
  "import assert from 'node:assert/strict';",
  "import { total } from '../src/cart.js';",
  "test('total counts the quantity', () => {",
  '  assert.equal(total([{ price: 3, quantity: 2 }]), 6);',
  '});',
  '',
].join('\n');

/** The model's fix of the cart, as an `edit_file` call. */
export const FIX_EDIT = {
  name: 'edit_file',
  input: { path: 'src/cart.js', old_text: 'sum += item.price;', new_text: 'sum += item.price * item.quantity;' },
};

/** A model turn that ends the attempt. */
export const complete = (summary: string) => ({ toolCalls: [{ name: 'complete', input: { summary } }] });

export interface AgentRunOptions {
  repo: string;
  server: FakeModelServer;
  provider: 'openai' | 'anthropic';
  config?: RepoConfigInput;
  env?: Record<string, string>;
  goal?: string;
  writeTestWhenGreen?: boolean;
  ledger?: SpendLedger;
}

export async function runAgent(options: AgentRunOptions): Promise<RunResult> {
  const providerEnv =
    options.provider === 'openai'
      ? { OPENAI_API_KEY: 'sk-test-agent-key', OPENAI_BASE_URL: options.server.openaiBaseUrl, FIXLOOP_MODEL: 'gpt-4.1-mini' }
      : {
          ANTHROPIC_API_KEY: 'sk-ant-test-agent-key',
          ANTHROPIC_BASE_URL: options.server.anthropicBaseUrl,
          FIXLOOP_MODEL: 'claude-haiku-4-5',
        };
  // The assessment is off: no scenario here is about what else a green patch changed (assessment.test.ts's are).
  const config = repoConfigSchema.parse({
    test: { command: 'node --test', timeout: 60 },
    engines: ['agent'],
    loop: { maxAttempts: 3, timeBudget: 300 },
    assessment: { enabled: false },
    ...options.config,
  });
  return runFix(
    {
      runId: `agent-${Math.random().toString(36).slice(2, 10)}`,
      repository: { cloneUrl: options.repo, ref: null, sha: null, baseRef: null },
      trigger: { kind: 'cli', number: null, deliveryId: null, actor: null },
      goal: options.goal ?? 'Make the failing tests pass.',
      ...(options.writeTestWhenGreen ? { writeTestWhenGreen: true } : {}),
      hints: [],
      config,
    },
    {
      sandbox: createProcessSandbox(),
      artifactsRoot: await artifactsFolder(),
      engineEnvironment: {
        env: { PATH: process.env.PATH, ...providerEnv, ...options.env },
        ledger: options.ledger ?? createMemorySpendLedger(),
      },
    },
  );
}

/** The folders of the scenarios' run records, until `removeAgentArtifacts` (call from afterAll). */
const artifactFolders: string[] = [];
async function artifactsFolder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'fixloop-agent-artifacts-'));
  artifactFolders.push(dir);
  return dir;
}

export function removeAgentArtifacts(): void {
  for (const dir of artifactFolders.splice(0)) rmSync(dir, { recursive: true, force: true });
}
