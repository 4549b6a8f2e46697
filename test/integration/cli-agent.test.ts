// `fixloop run --engine agent` through `main(argv, io)`: the settings come from process.env and the
// flags, the agent talks through the real OpenAI SDK to the scripted model server on loopback, the
// repository is a real git repository and its tests run under node --test.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli.ts';
import { BUGGY, CART_PROJECT, complete, FIX_EDIT, GREEN_PROJECT, NEW_TEST } from '../engines/agent/agent-scenario.ts';
import { startFakeModelServer, systemAndUserText, type FakeModelServer } from '../support/fake-model-server.ts';
import { makeRepo, removeAll } from '../support/git-fixture.ts';

// Variables of the machine that would change what the CLI does: unset for each test, restored after.
const PROVIDER_VARIABLES = ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL'];
const isLeaky = (name: string) => name.startsWith('FIXLOOP_') || PROVIDER_VARIABLES.includes(name);

describe('fixloop run --engine agent', () => {
  let server: FakeModelServer;
  let saved: Record<string, string | undefined>;
  const dirs: string[] = [];

  beforeEach(async () => {
    saved = {};
    for (const name of Object.keys(process.env).filter(isLeaky)) {
      saved[name] = process.env[name];
      delete process.env[name];
    }
    server = await startFakeModelServer();
  });

  afterEach(async () => {
    for (const name of Object.keys(process.env).filter(isLeaky)) delete process.env[name];
    for (const [name, value] of Object.entries(saved)) if (value !== undefined) process.env[name] = value;
    expect(server.unexpected).toEqual([]);
    await server.close();
    await removeAll(dirs);
  });

  async function repo(files: Record<string, string>): Promise<string> {
    const dir = await makeRepo(files);
    dirs.push(dir);
    return dir;
  }

  async function fixloop(args: string[]) {
    const out = join(await repo({}), 'out');
    let stdout = '';
    let stderr = '';
    const code = await main(['run', '--out', out, ...args], {
      stdout: (t) => void (stdout += t),
      stderr: (t) => void (stderr += t),
    });
    return { code, stdout, stderr, out };
  }

  const useFakeOpenAI = () => {
    process.env.OPENAI_API_KEY = 'sk-cli-agent-test';
    process.env.OPENAI_BASE_URL = server.openaiBaseUrl;
  };

  it('fixes a failing node test with a scripted model: verified, with the spend in the report', async () => {
    useFakeOpenAI();
    server.script(
      { text: 'The total ignores the quantity.', toolCalls: [FIX_EDIT] },
      complete('multiply the price by the quantity'),
    );
    const project = await repo(CART_PROJECT);
    const run = await fixloop([
      project,
      '--test',
      'node --test',
      '--engine',
      'agent',
      '--model',
      'gpt-4.1-mini',
      '--provider',
      'openai',
    ]);

    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('✅ Verified fix');
    // 2 calls of 100 + 20 tokens at gpt-4.1-mini's price: $0.000144.
    expect(run.stdout).toContain('**Spend**: $0.0001, 240 tokens (agent $0.0001, 240 tokens).');
    expect(run.stdout).toContain('+  for (const item of items) sum += item.price * item.quantity;');
    expect(run.stdout).not.toContain('sk-cli-agent-test');
    expect(server.requests.map((r) => [r.protocol, r.body.model])).toEqual([
      ['openai', 'gpt-4.1-mini'],
      ['openai', 'gpt-4.1-mini'],
    ]);
    expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-cli-agent-test');
    expect(systemAndUserText(server.requests[0]!)).toContain('total multiplies price by quantity');
    expect(existsSync(join(run.out, 'report.md'))).toBe(true);
    // REPO itself is not changed without --apply.
    expect(readFileSync(join(project, 'src/cart.js'), 'utf8')).toBe(BUGGY);
  });

  it('names the provider keys when none is set, before anything is cloned', async () => {
    const project = await repo(CART_PROJECT);
    const run = await fixloop([project, '--test', 'node --test', '--engine', 'agent', '--model', 'gpt-4.1-mini']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'fixloop: the agent engine needs a model provider: set OPENAI_API_KEY (and OPENAI_BASE_URL for a compatible server) or ANTHROPIC_API_KEY, and FIXLOOP_MODEL\n',
    );
    expect(run.stdout).toBe('');
    expect(existsSync(run.out)).toBe(false);
    expect(server.requests).toEqual([]);
  });

  it('names FIXLOOP_MODEL when neither --model nor FIXLOOP_MODEL is given', async () => {
    useFakeOpenAI();
    const project = await repo(CART_PROJECT);
    const run = await fixloop([project, '--test', 'node --test', '--engine', 'agent']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'fixloop: the agent engine needs a model: set FIXLOOP_MODEL (or pass --model), e.g. FIXLOOP_MODEL=gpt-4.1 or claude-sonnet-4-5\n',
    );
    expect(run.stdout).toBe('');
    expect(existsSync(run.out)).toBe(false);
    expect(server.requests).toEqual([]);
  });

  it('names --cli-agent and the agents for an unknown agent', async () => {
    const project = await repo(CART_PROJECT);
    const run = await fixloop([project, '--test', 'node --test', '--engine', 'cli', '--cli-agent', 'nope']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('fixloop: --cli-agent: unknown agent `nope`; the agents are: aider, codex, claude\n');
    expect(run.stdout).toBe('');
    expect(existsSync(run.out)).toBe(false);
  });

  it('with --goal on a green suite, writes a failing test first, then fixes the code: red → green', async () => {
    useFakeOpenAI();
    const goal = 'Cart total ignores the quantity: two items at 3 should cost 6, not 3.';
    server.script(
      (request) => {
        expect(systemAndUserText(request)).toContain(goal);
        return { toolCalls: [{ name: 'write_file', input: { path: 'test/quantity.test.js', content: NEW_TEST } }] };
      },
      complete('a test of the quantity'),
      { toolCalls: [FIX_EDIT] },
      complete('multiply by the quantity'),
    );
    const project = await repo(GREEN_PROJECT);
    const run = await fixloop([project, '--test', 'node --test', '--engine', 'agent', '--model', 'gpt-4.1-mini', '--goal', goal]);

    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('✅ Verified fix');
    expect(run.stdout).toContain('### Red → green');
    expect(run.stdout).toMatch(/\| `total counts the quantity` \| failed: .* \| passed \|/);
    expect(run.stdout).toContain('+++ b/test/quantity.test.js');
    expect(run.stdout).toContain('**Spend**: $0.0003, 480 tokens (agent $0.0003, 480 tokens).');
    expect(server.requests).toHaveLength(4);
  });
});
