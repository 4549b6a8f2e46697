// Candidates validated in forks of a real workspace with a real mocha: a suite where one test fails
// only when the whole suite runs (it depends on what an earlier test did, as a timeout depends on the
// load), and passes alone. A candidate that fixes the real failing test is taken once that test also
// passes alone with it; a candidate that breaks it alone is not.
import { symlink } from 'node:fs/promises';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultRepoConfig } from '../../../src/core/repo-config.ts';
import { chooseFocusedCommand } from '../../../src/engines/repair/focused-command.ts';
import type { RankedCandidate } from '../../../src/engines/repair/rank-candidates.ts';
import { validateCandidates, type ValidationInput } from '../../../src/engines/repair/validate-candidates.ts';
import { parseTestOutput } from '../../../src/gate/parse-test-output.ts';
import { createProcessSandbox } from '../../../src/sandbox/process-sandbox.ts';
import { createWorkspace } from '../../../src/workspace/create-workspace.ts';
import { createPathPolicy } from '../../../src/workspace/path-policy.ts';
import { makeRepo, removeAll } from '../../support/git-fixture.ts';
import { failingRunOutput } from '../../support/suite-output.ts';

const dirs: string[] = [];
afterAll(() => removeAll(dirs));

const MATH = 'exports.double = (x) => x * 3;\nexports.settle = () => "settled";\n';
const FILES = {
  'package.json': JSON.stringify({ name: 'load', scripts: { test: 'mocha' } }),
  'math.js': MATH,
  'test/a-double.test.js':
    "const m = require('../math.js');\nconst assert = require('assert');\nit('doubles', () => assert.strictEqual(m.double(2), 4));\n",
  'test/b-load.test.js': "it('loads the machine', () => { global.loaded = true; });\n",
  'test/c-settle.test.js':
    "const m = require('../math.js');\nconst assert = require('assert');\nit('settles', () => { if (global.loaded) throw new Error('timed out under load'); assert.strictEqual(m.settle(), 'settled'); });\n",
};

function candidate(description: string, from: string, to: string): RankedCandidate {
  const start = MATH.indexOf(from);
  return {
    file: 'math.js',
    edits: [{ start, end: start + from.length, text: to }],
    template: 'arithmetic-operator',
    line: 1,
    description,
    size: to.length,
    score: 1,
    result: MATH.replace(from, to),
  };
}

describe('validateCandidates', () => {
  it('takes a candidate whose only failures in the whole suite are tests that fail there before it and pass alone, with it too', async () => {
    const source = await makeRepo(FILES);
    const tmpRoot = await mkdtemp(join(tmpdir(), 'fixloop-validate-'));
    dirs.push(source, tmpRoot);
    const { workspace } = await createWorkspace({
      source,
      ref: null,
      sha: null,
      tmpRoot,
      policy: createPathPolicy(defaultRepoConfig().paths),
    });
    await symlink(resolve(import.meta.dirname, '../../../node_modules'), join(workspace.root, 'node_modules'));
    const env = { PATH: `${join(workspace.root, 'node_modules/.bin')}:${process.env.PATH ?? ''}`, NO_COLOR: '1' };
    const sandbox = createProcessSandbox();
    const failing = parseTestOutput(failingRunOutput('npm', ['test'], workspace.root, env)).tests.filter(
      (t) => t.status === 'failed',
    );
    expect(failing.map((t) => t.name)).toEqual(['doubles', 'settles']);

    const signal = new AbortController().signal;
    const focused = await chooseFocusedCommand({
      testCommand: 'npm test',
      failing,
      packageScripts: { test: 'mocha' },
      timeoutMs: 60_000,
      sandbox,
      root: workspace.root,
      linkedFolders: [],
      env,
      signal,
      log: () => {},
    });
    expect(focused).toEqual({
      command: 'npm test -- --grep doubles',
      failing: 1,
      passedAlone: { command: 'npm test -- --grep settles', ids: [failing[1]!.id] },
    });

    const input = (candidates: RankedCandidate[]): ValidationInput => ({
      candidates,
      workspace,
      sandbox,
      testCommand: 'npm test',
      focused,
      failingIds: new Set(failing.map((t) => t.id)),
      failingCount: 2,
      env,
      parallelism: 1,
      runTimeoutMs: 60_000,
      deadline: Date.now() + 120_000,
      signal,
    });
    const fix = candidate('`* 3` → `* 2`', 'x * 3', 'x * 2');
    const counts: unknown[] = [];
    const result = await validateCandidates({ ...input([fix]), onProgress: (count) => counts.push(count) });
    expect(result.winner).toBe(fix);
    // The live count (the terminal's "candidate 1/1, 1 plausible"), after each candidate.
    expect(counts).toEqual([{ validated: 1, total: 1, plausible: 1 }]);
    // Three runs: the failing test, the whole suite (where `settles` fails again), `settles` alone.
    expect(result.testExecutions).toBe(3);

    // A candidate that also breaks `settles` when it runs alone is only what it is: a partial fix.
    const breaks = {
      ...candidate('`* 3` → `* 2` and a wrong settle', 'x * 3', 'x * 2'),
      result: MATH.replace('x * 3', 'x * 2').replace('"settled"', '"unsettled"'),
    };
    const partial = await validateCandidates(input([breaks]));
    expect(partial.winner).toBeNull();
    expect(partial.partial).toEqual({ candidate: breaks, failing: 1 });

    // Exploring, the first plausible candidate's rivals at its line are validated too, though the
    // list (the engine's cut) does not hold them: another edit there that the tests also accept.
    const rival = candidate('`* 3` → `+ 2`', 'x * 3', 'x + 2');
    const explored = await validateCandidates({
      ...input([fix]),
      exploreMs: 30_000,
      maxPlausible: 6,
      rivalsOf: (first) => (first === fix ? [fix, rival] : []),
    });
    expect(explored.plausible).toEqual([fix, rival]);
    expect(explored.winner).toBe(fix);
    const notExploring = await validateCandidates({ ...input([fix]), rivalsOf: () => [rival] });
    expect(notExploring.plausible).toEqual([fix]);
  }, 60_000);
});
