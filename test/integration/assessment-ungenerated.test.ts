// A patch to a function whose arguments are objects of a class (docs/design.md §3.3, entry-look.ts): no
// input can be generated around its calls, so the suite's own calls are all it compares. The
// assessment looks again at the function the failing test calls, which takes plain data: a wrong
// patch's change is seen there, outside the failing tests (`review`); the fix is `verified`, seen
// at work on inputs generated there.
import { afterAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/core/run-result.ts';
import { removeScriptedRuns, scriptedRun } from '../support/scripted-run.ts';
import { writeFile } from '../support/judge-cheat-run.ts';
import { EVERY_MINUS_DROPPED, FIXED_TOKENS, TOKENS_PROJECT } from '../fixtures/number-tokens.ts';

afterAll(removeScriptedRuns);

async function runWith(patched: string): Promise<RunResult> {
  return (await scriptedRun(TOKENS_PROJECT, 'node --test', writeFile('src/tokens.js', patched))).result;
}

describe('the assessment of a patch whose changed function takes objects of a class', () => {
  it('shows a wrong patch at review, at an input generated around the public function the tests call', async () => {
    const result = await runWith(EVERY_MINUS_DROPPED);
    expect(result.status).toBe('tests_green');
    expect(result.assessment?.level).toBe('review');
    const outside = result.assessment?.behaviourChanges.filter((c) => !c.nearFailing) ?? [];
    expect(outside).toContainEqual(
      expect.objectContaining({ function: 'countNumbers', input: "countNumbers('a 1 2-')", before: '1', after: '2' }),
    );
  });

  it('keeps the fix verified, with inputs generated at the public function', async () => {
    const result = await runWith(FIXED_TOKENS);
    expect(result.status).toBe('tests_green');
    expect(result.assessment?.level).toBe('verified');
    expect(result.assessment?.atEntryPoints).toBe(true);
    expect(result.assessment?.counts.generatedInputs).toBeGreaterThan(0);
  });
});
