// The GitHub App with the agent engine: a labeled issue whose tests all pass becomes red → green
// (the model writes the failing test, then the fix), the pull request shows both and the spend, and
// the repository's daily spend lands in the run store. GitHub is nock; the model is the scripted
// server on loopback, reached through the real OpenAI SDK.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repositoryKey } from '../../src/core/repository-key.ts';
import { utcDay } from '../../src/core/spend-ledger.ts';
import { startFakeModelServer, systemAndUserText, type FakeModelServer } from '../support/fake-model-server.ts';
import { examplePayload, mockConfig, mockInstallationTokens, type Payload } from '../support/github-app-harness.ts';
import { OWNER, REPO, startScenario, type Scenario } from '../support/app-scenario.ts';
import { createMemorySpendLedger } from '../../src/core/spend-ledger.ts';
import { GREEN_PROJECT, NEW_TEST } from '../engines/agent/agent-scenario.ts';

let s: Scenario;
let model: FakeModelServer;

beforeEach(async () => {
  model = await startFakeModelServer();
  // The app's environment names the model; the ledger is replaced by the scenario's store below.
  s = await startScenario(
    {
      engineEnvironment: {
        env: {
          OPENAI_API_KEY: 'sk-app-model-key',
          OPENAI_BASE_URL: model.openaiBaseUrl,
          FIXLOOP_MODEL: 'gpt-4.1-mini',
          FIXLOOP_DAILY_COST_USD: '10',
        },
        ledger: createMemorySpendLedger(),
      },
    },
    { allowHosts: [new URL(model.url).host] },
  );
  s.options.runDeps.engineEnvironment = { env: s.options.runDeps.engineEnvironment?.env ?? {}, ledger: s.store };
});

afterEach(async () => {
  expect(model.unexpected).toEqual([]);
  await s.close();
  await model.close();
});

function labeledIssue(cloneUrl: string): Payload {
  const payload = examplePayload('issues', 'labeled');
  payload.label.name = 'fixloop';
  payload.repository.clone_url = cloneUrl;
  payload.repository.default_branch = 'main';
  payload.issue.title = 'Cart total ignores the quantity';
  payload.issue.body = 'Two items at 3 should cost 6, the cart says 3.';
  return payload;
}

// Green runs explore and assess their patch too: minutes on a loaded machine.
describe('the GitHub App with the agent engine', { timeout: 180_000 }, () => {
  it('turns an issue without a failing test into a red → green pull request, and counts the day’s spend in the store', async () => {
    const { h } = s;
    const cloneUrl = await s.publish(await s.makeWork(GREEN_PROJECT));
    mockInstallationTokens(h, 2);
    mockConfig(h, OWNER, REPO, 'test:\n  command: node --test\nengines: [repair, agent]\n');
    s.permission('Codertocat', 'admin');
    const statusOf = s.mockStatusComment(1, 700);
    s.mockCheckRun(55);
    h.scope
      .post(`/repos/${OWNER}/${REPO}/pulls`)
      .reply(201, { number: 2, html_url: 'https://github.com/Codertocat/Hello-World/pull/2' });
    model.script(
      (request) => {
        expect(systemAndUserText(request)).toContain('Two items at 3 should cost 6');
        return { toolCalls: [{ name: 'write_file', input: { path: 'test/quantity.test.js', content: NEW_TEST } }] };
      },
      { toolCalls: [{ name: 'complete', input: { summary: 'a test of the quantity' } }] },
      {
        toolCalls: [
          {
            name: 'edit_file',
            input: { path: 'src/cart.js', old_text: 'sum += item.price;', new_text: 'sum += item.price * item.quantity;' },
          },
        ],
      },
      { toolCalls: [{ name: 'complete', input: { summary: 'multiply by the quantity' } }] },
    );

    await h.receive('issues', labeledIssue(cloneUrl));
    await s.options.queue.drain();

    expect(h.finish()).toEqual([]);
    const pr = s.bodiesOf(/^POST \/repos\/.*\/pulls$/)[0] ?? {};
    expect(pr.body).toContain('✅ Verified fix');
    expect(pr.body).toContain('### Red → green');
    expect(pr.body).toMatch(/\| `total counts the quantity` \| failed: .* \| passed \|/);
    // The cascade: the agent wrote the red test, repair tried the fix for free first, then the agent fixed it.
    expect(pr.body).toMatch(/\| 1 \| agent \(writes a test\) \|/);
    expect(pr.body).toMatch(/\| 2 \| repair \|/);
    expect(pr.body).toMatch(/\| 3 \| agent \| previous \| green \|/);
    expect(pr.body).toContain('**Spend**: $0.0003, 480 tokens (agent $0.0003, 480 tokens; repair $0, 0 tokens).');
    expect(String(pr.body)).not.toContain('sk-app-model-key');
    expect(statusOf().at(-1)).toContain('opened #2');
    // The repository's day, in the shared store: what the daily budget of every later run reads.
    expect(await s.store.spentOn(repositoryKey(cloneUrl), utcDay())).toEqual({
      usd: expect.closeTo((4 * (100 * 0.4 + 20 * 1.6)) / 1e6, 12),
      tokens: 480,
    });
    await s.expectTokenNowhere([String(pr.body)]);
  });
});
