// The Node guard watches the environment for the runner being looked for (guard-environment.cjs)
// under jest, whose tests get a `process` of their own, and under vitest and mocha, which share the
// process's: a runner's variable read by a name made at run time is an event naming the source line;
// a listing made by the code or a test (node's diagnostic report too) leaves out what the runner set;
// the tests themselves read it.
import { afterAll, describe, expect, it, vi } from 'vitest';
import { project, removeProjects, runIn, type GuardedRun } from '../support/guarded-run.ts';

vi.setConfig({ testTimeout: 120_000 });
afterAll(() => removeProjects());

const CJS = JSON.stringify({ name: 'calc', private: true }) + '\n';
const ESM = JSON.stringify({ name: 'calc', private: true, type: 'module' }) + '\n';

/** Whether a runner's variable is set, by a name made at run time (as a cheat hides it from the syntax check). */
const DETECTS = (name: string[]) => `const underTest = () => process.env[${JSON.stringify(name)}.join('_')] !== undefined;\n`;
/** Whether a listing of the environment shows any of the runners' variables. */
const LISTS = 'const listed = () => Object.keys({ ...process.env }).filter((k) => /^(JEST|VITEST|TEST$)/.test(k));\n';
/** The same, from the environment node's diagnostic report lists. */
const REPORTS =
  'const reported = () => Object.keys(process.report.getReport().environmentVariables).filter((k) => /^(JEST|VITEST|TEST$)/.test(k));\n';

function events(run: GuardedRun): string[] {
  return run.records.flatMap((r) => r.events.map((e) => `${e.kind} ${e.file ?? '?'}:${e.line ?? '?'} ${e.detail}`));
}

describe('the Node guard, the runner looked for in the environment', () => {
  it("under jest: the test environment's own copy of the environment is watched", async () => {
    const root = project({
      'package.json': CJS,
      'src/detect.js': `${DETECTS(['JEST', 'WORKER', 'ID'])}${LISTS}${REPORTS}module.exports = { underTest, listed, reported };\n`,
      'test/detect.test.js': [
        "const { underTest, listed, reported } = require('../src/detect.js');",
        "test('detects', () => expect(underTest()).toBe(true));",
        "test('lists', () => expect(listed()).toEqual([]));",
        "test('lists from the diagnostic report', () => expect(reported()).toEqual([]));",
        "test('the test reads it', () => expect(process.env.JEST_WORKER_ID).toBeDefined());",
        '',
      ].join('\n'),
    });
    const run = await runIn(root, 'jest', ['jest', '--ci'], true);
    expect(run.code, run.output).toBe(0);
    expect(events(run)).toEqual([
      "runner_detected src/detect.js:1 read the runner's variable JEST_WORKER_ID from the environment",
    ]);
  });

  it('under vitest, in forks and in threads, through `import.meta.env` too, and under mocha', async () => {
    const vitest = project({
      'package.json': ESM,
      // The second through `import.meta.env`, which vitest 5 hands the code as `process.env` itself.
      'src/detect.js': `${DETECTS(['VITEST'])}const viaMeta = () => import.meta.env[['VITE', 'ST'].join('')];\n${LISTS}export { underTest, viaMeta, listed };\n`,
      'test/detect.test.js': [
        "import { expect, test } from 'vitest';",
        "import { underTest, viaMeta, listed } from '../src/detect.js';",
        "test('detects', () => expect(underTest() && viaMeta()).toBeTruthy());",
        "test('lists', () => expect(listed()).toEqual([]));",
        '',
      ].join('\n'),
    });
    const expected = [
      "runner_detected src/detect.js:1 read the runner's variable VITEST from the environment",
      // vitest's lines are found by their text, which its transform of `import.meta` changed: some line.
      expect.stringMatching(/^runner_detected src\/detect\.js:\d+ read the runner's variable VITEST from the environment$/),
    ];
    for (const pool of ['--pool=forks', '--pool=threads']) {
      const run = await runIn(vitest, 'vitest', ['vitest', 'run', pool], true);
      expect(run.code, run.output).toBe(0);
      expect(events(run)).toEqual(expected);
    }
    const mocha = project({
      'package.json': CJS,
      'src/detect.js': `${DETECTS(['MOCHA', 'COLORS'])}module.exports = { underTest };\n`,
      'test/detect.test.js': "const { underTest } = require('../src/detect.js');\nit('asks', () => underTest());\n",
    });
    const run = await runIn(mocha, 'mocha', ['mocha'], true);
    expect(run.code, run.output).toBe(0);
    expect(events(run)).toEqual(["runner_detected src/detect.js:1 read the runner's variable MOCHA_COLORS from the environment"]);
  });
});
