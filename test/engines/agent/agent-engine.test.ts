// The agent engine through the whole loop: the real OpenAI and Anthropic SDKs talk to a scripted
// model server on loopback; the repository is a real git repo, its tests run under node --test, and
// the loop (never the model) decides what is green.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemorySpendLedger, utcDay } from '../../../src/core/spend-ledger.ts';
import { renderMarkdownReport } from '../../../src/report/render-markdown.ts';
import {
  lastToolResults,
  startFakeModelServer,
  systemAndUserText,
  toolNames,
  type FakeModelServer,
} from '../../support/fake-model-server.ts';
import { makeRepo, removeAll } from '../../support/git-fixture.ts';
import { CART_PROJECT, complete, FIX_EDIT, removeAgentArtifacts, runAgent } from './agent-scenario.ts';
import { fullSuite } from '../../support/suite-tier.ts';

afterAll(() => removeAgentArtifacts());

describe('the agent engine', () => {
  let server: FakeModelServer;
  const dirs: string[] = [];
  beforeEach(async () => {
    server = await startFakeModelServer();
  });
  afterEach(async () => {
    // A failed expectation inside a scripted step is answered with a 500 and lands here.
    expect(server.unexpected).toEqual([]);
    await server.close();
    await removeAll(dirs);
  });
  const repo = async (files: Record<string, string> = CART_PROJECT) => {
    const dir = await makeRepo(files);
    dirs.push(dir);
    return dir;
  };

  it('reads the failing test, edits the source, runs the tests and completes: verified green (OpenAI Chat Completions)', async () => {
    server.script(
      { toolCalls: [{ name: 'read_file', input: { path: 'test/cart.test.js' } }] },
      (request) => {
        expect(lastToolResults(request)[0]?.content).toContain('total multiplies price by quantity');
        return { toolCalls: [{ name: 'read_file', input: { path: 'src/cart.js' } }] };
      },
      { toolCalls: [FIX_EDIT] },
      { toolCalls: [{ name: 'run_tests', input: {} }] },
      (request) => {
        expect(lastToolResults(request)[0]?.content).toMatch(/passed: 2 passed, 0 failed/);
        return complete('multiply the price by the quantity');
      },
    );
    const result = await runAgent({ repo: await repo(), server, provider: 'openai' });

    expect(result.status).toBe('tests_green');
    expect(result.engine).toBe('agent');
    expect(result.verification?.replayed).toBe(true);
    expect(result.verification?.failToPass).toEqual(['total multiplies price by quantity']);
    expect(result.patch).toContain('+  for (const item of items) sum += item.price * item.quantity;');
    expect(result.attempts[0]?.summary).toBe('multiply the price by the quantity');
    // What the model was told: the goal, the failing test with its message, where to look, the tools.
    const first = server.requests[0];
    expect(first?.protocol).toBe('openai');
    expect(first?.headers.authorization).toBe('Bearer sk-test-agent-key');
    const prompt = systemAndUserText(first!);
    expect(prompt).toContain('total multiplies price by quantity');
    expect(prompt).toContain('Expected values to be strictly equal');
    expect(prompt).toMatch(/src\/cart\.js/);
    expect(prompt).toContain('node --test');
    expect(toolNames(first!).sort()).toEqual([
      'complete',
      'edit_file',
      'list_files',
      'read_file',
      'run_tests',
      'search',
      'write_file',
    ]);
    // Tokens and cost in the result and the report: 5 calls of 100 + 20 tokens at gpt-4.1-mini's price.
    expect(result.cost.tokens).toBe(600);
    expect(result.cost.usd).toBeCloseTo((5 * (100 * 0.4 + 20 * 1.6)) / 1e6, 10);
    expect(result.spend).toMatchObject({ modelCalls: 5, toolCalls: 5, tokens: 600 });
    const report = renderMarkdownReport(result);
    expect(report).toContain('**Spend**: $0.0004, 600 tokens (agent $0.0004, 600 tokens)');
    expect(report).toMatch(/LLM budget used: 5 model calls, 5\/150 tool calls, 600\/2000000 tokens/);
    expect(report).not.toContain('sk-test-agent-key');
  });

  it.runIf(fullSuite)('works the same over Anthropic Messages', async () => {
    server.script({ text: 'The price is not multiplied.', toolCalls: [FIX_EDIT] }, complete('fixed total'));
    const result = await runAgent({ repo: await repo(), server, provider: 'anthropic' });
    expect(result.status).toBe('tests_green');
    expect(server.requests.map((r) => r.protocol)).toEqual(['anthropic', 'anthropic']);
    // The tool result went back as a tool_result block of the same tool_use id.
    expect(lastToolResults(server.requests[1]!)[0]).toMatchObject({ content: 'edited src/cart.js' });
    expect(result.cost.tokens).toBe(240);
    expect(result.cost.usd).toBeCloseTo((2 * (100 * 1 + 20 * 5)) / 1e6, 10);
  });

  it('refuses an edit of a protected test, tells the model, and reports it; the loop does not go green', async () => {
    server.script(
      {
        toolCalls: [
          {
            name: 'write_file',
            input: { path: 'test/cart.test.js', content: "import { test } from 'node:test';\ntest('nothing', () => {});\n" },
          },
        ],
      },
      (request) => {
        expect(lastToolResults(request)[0]?.content).toMatch(/^refused: `test\/cart\.test\.js` is protected/);
        return complete('weakened the test');
      },
    );
    const dir = await repo();
    const result = await runAgent({ repo: dir, server, provider: 'openai', config: { loop: { maxAttempts: 1 } } });
    expect(result.status).not.toBe('tests_green');
    expect(result.patch).toBe('');
    expect(result.attempts[0]?.notes).toEqual([
      expect.stringMatching(/^refused write_file: test\/cart\.test\.js: `test\/cart\.test\.js` is protected/),
    ]);
    expect(renderMarkdownReport(result)).toMatch(/Attempt 1: refused write_file: test\/cart\.test\.js/);
    expect(await readFile(join(dir, 'test/cart.test.js'), 'utf8')).toBe(CART_PROJECT['test/cart.test.js']);
  });

  it('stops a model that loops when the tool-call budget is used up, and reports the spend', async () => {
    server.repeat({ toolCalls: [{ name: 'read_file', input: { path: 'src/cart.js' } }] });
    const result = await runAgent({ repo: await repo(), server, provider: 'openai', config: { agent: { maxToolCalls: 4 } } });
    expect(result.status).toBe('failed_to_green');
    expect(result.stopReason).toBe('budget');
    expect(result.attempts).toHaveLength(1);
    expect(result.attempts[0]?.budgetStop).toMatchObject({ budget: 'tool_calls', limit: 4 });
    expect(result.headline).toContain('the tool-call budget of 4 calls per run is used up');
    expect(result.spend).toMatchObject({ toolCalls: 4, modelCalls: 5 });
    expect(renderMarkdownReport(result)).toMatch(/LLM budget used: 5 model calls, 4\/4 tool calls, 600\/\d+ tokens/);
  });

  it("holds the app's cost ceiling over a repository's larger budget, priced with FIXLOOP_PRICES", async () => {
    server.repeat({ toolCalls: [{ name: 'list_files', input: {} }] });
    const result = await runAgent({
      repo: await repo(),
      server,
      provider: 'openai',
      config: { agent: { maxCostUsd: 100 } },
      env: { FIXLOOP_MAX_COST_USD: '0.3', FIXLOOP_PRICES: '{"gpt-4.1-mini": {"input": 1000, "output": 1000}}' },
    });
    expect(result.stopReason).toBe('budget');
    // Each call costs $0.12: the third crosses $0.30 and nothing more is asked of the model.
    expect(server.requests).toHaveLength(3);
    expect(result.cost.usd).toBeCloseTo(0.36, 10);
    expect(result.attempts[0]?.budgetStop).toMatchObject({ budget: 'cost', limit: 0.3 });
  });

  it.runIf(fullSuite)('refuses a model without a known price when the operator caps money, and notes it otherwise', async () => {
    const capped = await runAgent({
      repo: await repo(),
      server,
      provider: 'openai',
      env: { FIXLOOP_MODEL: 'my-local-model', FIXLOOP_MAX_COST_USD: '1' },
    });
    expect(capped.status).toBe('error');
    expect(capped.error?.code).toBe('ENGINE_MISCONFIGURED');
    expect(capped.error?.message).toContain(
      'no price is known for the model `my-local-model`, so FIXLOOP_MAX_COST_USD / FIXLOOP_DAILY_COST_USD cannot hold: add it to FIXLOOP_PRICES',
    );
    expect(server.requests).toHaveLength(0);

    server.script({ toolCalls: [FIX_EDIT] }, complete('fixed'));
    const noted = await runAgent({ repo: await repo(), server, provider: 'openai', env: { FIXLOOP_MODEL: 'my-local-model' } });
    expect(noted.status).toBe('tests_green');
    expect(noted.cost).toEqual({ usd: 0, tokens: 240 });
    expect(noted.attempts[0]?.notes[0]).toMatch(/^no price is known for the model `my-local-model`: its cost counts as \$0/);
  });

  it("does not call the model at all when the repository's daily token budget is already spent", async () => {
    const ledger = createMemorySpendLedger();
    const dir = await repo();
    await ledger.addSpend(dir, utcDay(), { usd: 0, tokens: 5000 });
    const result = await runAgent({ repo: dir, server, provider: 'openai', env: { FIXLOOP_DAILY_TOKENS: '5000' }, ledger });
    expect(server.requests).toHaveLength(0);
    expect(result.stopReason).toBe('budget');
    expect(result.attempts[0]?.budgetStop).toMatchObject({ budget: 'daily_tokens', limit: 5000, spent: 5000 });
  });

  it.runIf(fullSuite)('sends a reviewer\'s remaining tasks into the next attempt: "missing" then "ok"', async () => {
    server.script(
      { toolCalls: [FIX_EDIT] },
      complete('multiply by quantity'),
      (request) => {
        expect(request.body.model).toBe('gpt-4.1-nano');
        expect(systemAndUserText(request)).toContain('+  for (const item of items) sum += item.price * item.quantity;');
        return { text: 'STATUS: missing\n{"remainingTasks": ["treat a missing quantity as 1"]}' };
      },
      (request) => {
        expect(request.body.model).toBe('gpt-4.1-mini');
        expect(systemAndUserText(request)).toContain('- treat a missing quantity as 1');
        return {
          toolCalls: [
            {
              name: 'edit_file',
              input: {
                path: 'src/cart.js',
                old_text: 'item.price * item.quantity',
                new_text: 'item.price * (item.quantity ?? 1)',
              },
            },
          ],
        };
      },
      complete('a missing quantity counts as 1'),
      { text: 'STATUS: ok\n{"remainingTasks": []}' },
    );
    const result = await runAgent({
      repo: await repo(),
      server,
      provider: 'openai',
      env: { FIXLOOP_REVIEW_MODEL: 'gpt-4.1-nano' },
    });
    expect(result.status).toBe('tests_green');
    expect(result.attempts.map((a) => a.review?.status)).toEqual(['missing', 'ok']);
    expect(result.attempts[0]?.review?.remainingTasks).toEqual(['treat a missing quantity as 1']);
    expect(result.patch).toContain('item.price * (item.quantity ?? 1)');
    // The review's tokens are part of the run's spend.
    expect(result.cost.tokens).toBe(6 * 120);
    const report = renderMarkdownReport(result);
    expect(report).toContain('review by openai gpt-4.1-nano: **missing**: treat a missing quantity as 1');
    expect(report).toContain('Attempt 2, review by openai gpt-4.1-nano: **ok**');
  });

  it.runIf(fullSuite)('counts a malformed review answer as a failed review: the patch is not accepted', async () => {
    server.script({ toolCalls: [FIX_EDIT] }, complete('fixed'), { text: 'Looks good to me!' }, complete('nothing more to do'), {
      text: 'STATUS: ok',
    });
    const result = await runAgent({
      repo: await repo(),
      server,
      provider: 'openai',
      env: { FIXLOOP_REVIEW_MODEL: 'gpt-4.1-nano' },
      config: { loop: { maxAttempts: 2 } },
    });
    expect(result.status).not.toBe('tests_green');
    expect(result.patch).toBe('');
    expect(result.attempts.map((a) => a.review?.status)).toEqual(['invalid', 'invalid']);
    expect(result.attempts[0]?.review?.reason).toMatch(/malformed review answer: expected exactly 2 lines/);
    expect(result.attempts[1]?.review?.reason).toMatch(/expected exactly 2 lines, got 1/);
    expect(renderMarkdownReport(result)).toContain('**failed review**: malformed review answer');
  });
});
