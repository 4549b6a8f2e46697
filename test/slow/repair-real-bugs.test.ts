// The embedded `repair` engine fixes a real bug from a real project's history through `fixloop run`:
// ufo's Windows drive letter taken for a protocol, under vitest, in TypeScript (bench/real, a snapshot
// at the fix's parent with the fix's tests). The patch must be the upstream fix itself, replayed green
// on a pristine checkout. `npm run test:full` runs it, not CI: its fix is candidate 39, about two
// minutes of vitest runs on an idle machine and three under CI's load. CI validates vitest's
// candidates on TypeScript with a written bug (cli-repair), mocha's in validate-candidates; the whole
// real corpus is measured by `node bench/run-real.ts` (docs/benchmarks.md).
//
// No network: the project borrows fixloop's own vitest (a setup command links node_modules,
// FIXLOOP_SANDBOX_BIND shows the folder to the sandbox). The engine's budget is wall-clock, so it is
// set far above what the bug needs on an idle machine (about two minutes): a slow machine makes the
// test slower, not red.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { loadRealCorpus, materializeReal, patchHash, type RealBug } from '../../bench/lib/real-corpus.ts';
import type { RunResult } from '../../src/core/run-result.ts';
import { borrowedRunners } from '../support/borrowed-runners.ts';
import { makeRepo, removeAll } from '../support/git-fixture.ts';
import { runCli } from '../support/run-cli.ts';

vi.setConfig({ testTimeout: 30 * 60_000 });

const FIXLOOP_MODULES = resolve(import.meta.dirname, '../../node_modules');
const CORPUS = loadRealCorpus(resolve(import.meta.dirname, '../../bench/real'));
const dirs: string[] = [];
afterAll(() => removeAll(dirs));

function bug(id: string): RealBug {
  const found = CORPUS.find((b) => b.id === id);
  if (!found) throw new Error(`bench/real has no bug ${id}`);
  return found;
}

/** Materializes the bug, runs `fixloop run` on it with the repair engine and returns its result. */
async function repairRealBug(id: string): Promise<{ result: RunResult; stderr: string; code: number | null }> {
  const project = materializeReal(bug(id), 'it');
  dirs.push(project);
  // What is tested here is the engine finding the upstream fix and the judge holding it; what else
  // that fix changes (the assessment) and the engine's exploration after it are measured on the same
  // bugs in bench/ (docs/benchmarks.md, "The assessment"), and would triple this file's time in CI.
  writeFileSync(join(project, 'fixloop.yml'), 'repair:\n  timeBudget: 1500\n  exploreTime: 0\nassessment:\n  enabled: false\n');
  const cwd = await makeRepo({});
  dirs.push(cwd);
  const run = await runCli(
    [
      'run',
      project,
      '--test',
      bug(id).test,
      '--setup',
      `ln -s ${FIXLOOP_MODULES} node_modules`,
      '--json',
      '--out',
      join(cwd, 'out'),
    ],
    {
      cwd,
      env: borrowedRunners(),
    },
  );
  return { code: run.code, stderr: run.stderr, result: JSON.parse(run.stdout) as RunResult };
}

const upstreamFix = (id: string) => patchHash(readFileSync(join(bug(id).dir, 'fix.patch'), 'utf8'));

describe('the repair engine on a real bug, through fixloop run', () => {
  it('fixes ufo-04 under vitest with the upstream fix', async () => {
    const { code, result, stderr } = await repairRealBug('ufo-04');
    expect(code, stderr.slice(-3000)).toBe(0);
    expect(result.status).toBe('tests_green');
    expect(result.baseline.format).toBe('vitest');
    expect(result.verification?.failToPass).toEqual(['test/utilities.test.ts > hasProtocol > C:/test']);
    expect(patchHash(result.patch)).toBe(upstreamFix('ufo-04'));
  });
});
