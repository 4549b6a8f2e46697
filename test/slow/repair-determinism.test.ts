// The repair engine is deterministic: the same repository gives the same patch, chosen among the
// same plausible candidates, whatever order its parallel validations finish in (the winner is the
// first plausible candidate in rank order; the exploration after it takes at least the twenty
// candidates that follow). Two whole runs of the written off-by-one, which has two plausible
// candidates: `npm run test:full` runs it; CI's cli-repair pins the patch of one run.
import { afterAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/core/run-result.ts';
import { JS_PAGINATION } from '../fixtures/pagination.ts';
import { makeRepo, removeAll } from '../support/git-fixture.ts';
import { runCli } from '../support/run-cli.ts';

const dirs: string[] = [];
afterAll(() => removeAll(dirs));

/** One run of the repair engine, without the assessment (it comes after the patch is chosen). */
async function repairOnce(): Promise<RunResult> {
  const project = await makeRepo({ ...JS_PAGINATION, 'fixloop.yml': 'assessment:\n  enabled: false\n' });
  dirs.push(project, `${project}-out`);
  const run = await runCli(['run', project, '--test', 'node --test', '--json', '--out', `${project}-out`], { cwd: project });
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as RunResult;
}

describe('the repair engine, twice on the same repository', { timeout: 240_000 }, () => {
  it('chooses the same patch among the same plausible candidates', async () => {
    const first = await repairOnce();
    const second = await repairOnce();
    expect(first.status).toBe('tests_green');
    expect(first.patch).toContain('+  return items.slice(start, start + size);');
    expect(second.patch).toBe(first.patch);
    // The same candidate of the same list (how many were validated after it depends on the clock).
    const chosen = (result: RunResult) => /^.*?\(candidate \d+ of \d+/.exec(result.attempts[0]?.summary ?? '')?.[0];
    expect(chosen(first)).toMatch(/candidate \d+ of \d+$/);
    expect(chosen(second)).toBe(chosen(first));
  });
});
