// Red → green for an issue without a failing test: the agent first writes a test that fails on the
// pristine code (checked by the loop), then fixes the code without touching that test.
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderMarkdownReport } from '../../../src/report/render-markdown.ts';
import {
  lastToolResults,
  startFakeModelServer,
  systemAndUserText,
  type FakeModelServer,
} from '../../support/fake-model-server.ts';
import { makeRepo, removeAll } from '../../support/git-fixture.ts';
import { complete, GREEN_PROJECT, NEW_TEST, removeAgentArtifacts, runAgent } from './agent-scenario.ts';

afterAll(() => removeAgentArtifacts());

const GOAL = 'Cart total ignores the quantity: two items at 3 should cost 6, not 3.';

describe('red → green', () => {
  let server: FakeModelServer;
  const dirs: string[] = [];
  beforeEach(async () => {
    server = await startFakeModelServer();
  });
  afterEach(async () => {
    expect(server.unexpected).toEqual([]);
    await server.close();
    await removeAll(dirs);
  });

  it('writes a failing test first, then fixes the code; the report shows it failing before and passing after', async () => {
    const repo = await makeRepo(GREEN_PROJECT);
    dirs.push(repo);
    server.script(
      (request) => {
        const prompt = systemAndUserText(request);
        expect(prompt).toContain('write a test that shows the bug');
        expect(prompt).toContain(GOAL);
        // In the red phase, the code under test may not change.
        return {
          toolCalls: [
            {
              name: 'edit_file',
              input: { path: 'src/cart.js', old_text: 'sum += item.price;', new_text: 'sum += item.price * item.quantity;' },
            },
          ],
        };
      },
      (request) => {
        expect(lastToolResults(request)[0]?.content).toMatch(/^refused: `src\/cart\.js` is outside the allowed paths/);
        return { toolCalls: [{ name: 'write_file', input: { path: 'test/quantity.test.js', content: NEW_TEST } }] };
      },
      complete('a test of the quantity'),
      (request) => {
        const prompt = systemAndUserText(request);
        expect(prompt).toContain('You are fixing a bug');
        expect(prompt).toContain('total counts the quantity');
        return {
          toolCalls: [
            {
              name: 'edit_file',
              input: { path: 'src/cart.js', old_text: 'sum += item.price;', new_text: 'sum += item.price * item.quantity;' },
            },
          ],
        };
      },
      complete('multiply by the quantity'),
    );
    const result = await runAgent({ repo, server, provider: 'openai', goal: GOAL, writeTestWhenGreen: true });

    expect(result.status).toBe('tests_green');
    expect(result.attempts.map((a) => a.phase)).toEqual(['write-test', 'fix']);
    expect(result.attempts[0]?.notes).toEqual([expect.stringMatching(/^refused edit_file: src\/cart\.js/)]);
    expect(result.redGreen).toMatchObject({
      testFiles: ['test/quantity.test.js'],
      failedBefore: [{ id: 'total counts the quantity', status: 'failed' }],
      after: [{ id: 'total counts the quantity', status: 'passed' }],
    });
    expect(result.redGreen?.failedBefore[0]?.message).toMatch(/3 !== 6|Expected values to be strictly equal/);
    // The patch holds the test and the fix; the replay judged it against the red state.
    expect(result.patch).toContain('+++ b/test/quantity.test.js');
    expect(result.patch).toContain('+  for (const item of items) sum += item.price * item.quantity;');
    expect(result.verification?.failToPass).toEqual(['total counts the quantity']);
    const report = renderMarkdownReport(result);
    expect(report).toContain('### Red → green');
    expect(report).toMatch(/\| `total counts the quantity` \| failed: .* \| passed \|/);
  });

  it('refuses a fix that changes the test written first', async () => {
    const repo = await makeRepo(GREEN_PROJECT);
    dirs.push(repo);
    server.script(
      { toolCalls: [{ name: 'write_file', input: { path: 'test/quantity.test.js', content: NEW_TEST } }] },
      complete('a test of the quantity'),
      // A fix phase that weakens the red test instead of fixing the code is refused by the workspace.
      { toolCalls: [{ name: 'write_file', input: { path: 'test/quantity.test.js', content: NEW_TEST.replace('6);', '3);') } }] },
      complete('adjusted the test'),
    );
    const result = await runAgent({
      repo,
      server,
      provider: 'openai',
      goal: GOAL,
      writeTestWhenGreen: true,
      config: { loop: { maxAttempts: 2 } },
    });
    expect(result.status).not.toBe('tests_green');
    expect(result.attempts[1]?.notes).toEqual([expect.stringMatching(/refused write_file: test\/quantity\.test\.js/)]);
  });

  it('says there is nothing to fix when no test that fails on the pristine code is written', async () => {
    const repo = await makeRepo(GREEN_PROJECT);
    dirs.push(repo);
    const passing = NEW_TEST.replace("test('total counts the quantity'", "test('total of one item'").replace(
      'quantity: 2 }]), 6)',
      'quantity: 1 }]), 3)',
    );
    server.script(
      { toolCalls: [{ name: 'write_file', input: { path: 'test/one.test.js', content: passing } }] },
      complete('a test'),
      (request) => {
        expect(systemAndUserText(request)).toContain('the new test passes on the pristine code');
        return complete('nothing more');
      },
    );
    const result = await runAgent({ repo, server, provider: 'openai', goal: GOAL, writeTestWhenGreen: true });
    expect(result.status).toBe('nothing_to_fix');
    expect(result.patch).toBe('');
    expect(result.attempts.map((a) => a.phase)).toEqual(['write-test', 'write-test']);
    expect(result.headline).toBe(
      'Nothing to fix: every test passes, and no test that fails on the pristine code could be written (no test was written).',
    );
    expect(renderMarkdownReport(result)).toContain('Without such a test there is nothing to fix.');
  });
});
