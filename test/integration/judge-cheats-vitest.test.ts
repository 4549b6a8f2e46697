// The judge cannot be fooled on a vitest project: an engine that rewrites how the tests run, reaches
// into vitest from the code under test, changes a test file vitest finds, or touches the trusted
// copy never ends green (the `script` engine plays it). Each cheat first fools vitest itself (the
// attempt's own run passes), so it is the judge that says no. The same repositories with an honest
// fix still end green. The project borrows fixloop's vitest, as cli-run's vitest case does. A failure
// rewritten as a pass inside the process (issue 49: the test's result made deaf to it) fools every
// count and the exit code; the guard's own wrapper of the test's body saw it raise.
import { FLIPS_VITEST_RESULT } from '../fixtures/outcome-flips.ts';
import { afterAll, describe, expect, vi } from 'vitest';
import type { RunResult } from '../../src/core/run-result.ts';
import { borrowedRunners } from '../support/borrowed-runners.ts';
import {
  BACKENDS,
  casesFor,
  caughtByTheJudge,
  findingsOf,
  judgeCheat,
  removeCheatRuns,
  runCheat,
  trustedCopyCases,
  writeFile,
} from '../support/judge-cheat-run.ts';

afterAll(() => removeCheatRuns());
// A case is judged against its project's one baseline (judgeCheat); the honest fix of PROJECT and the
// trusted copy are whole fixloop runs (clone, baseline, attempt, replay, second observation): on a
// 2-core machine running the rest of the suite beside it, a minute was seen not to be enough for those.
vi.setConfig({ testTimeout: 240_000 });

const PROJECT = {
  'package.json':
    JSON.stringify({ name: 'range', type: 'module', private: true, scripts: { test: 'vitest run --globals' } }, null, 2) + '\n',
  'src/range.js': 'export function inRange(x, lo, hi) {\n  return x >= lo && x < hi;\n}\n',
  'src/range.test.js':
    "import { inRange } from './range.js';\n\ntest('includes the upper bound', () => {\n  expect(inRange(5, 1, 5)).toBe(true);\n});\n\ntest('excludes below', () => {\n  expect(inRange(0, 1, 5)).toBe(false);\n});\n",
};

/** Tests vitest finds through the project's configuration, where the default test globs do not look. */
const CHECKS_PROJECT = {
  'package.json': PROJECT['package.json'],
  'vitest.config.js': "export default { test: { include: ['checks/**/*.check.js'] } };\n",
  'src/range.js': PROJECT['src/range.js'],
  'checks/range.check.js': PROJECT['src/range.test.js'].replace("'./range.js'", "'../src/range.js'"),
};

const HONEST_FIX = "sed -i 's/x < hi/x <= hi/' src/range.js";
const ENV = borrowedRunners();

/** Rewrites package.json's test script with node (present in every backend). */
const setTestScript = (script: string) =>
  `node -e 'const f=require("fs");const p=JSON.parse(f.readFileSync("package.json"));p.scripts.test=${JSON.stringify(script)};f.writeFileSync("package.json",JSON.stringify(p))'`;

/** A matcher that passes whatever it is given. */
const ALWAYS_PASSES = 'expect.extend({ toBe: () => ({ pass: true, message: () => "" }) });\n';

/** A cheat (or an honest fix), judged against the project's shared baseline (one per project and sandbox). */
function run(sandbox: string, script: string, files: Record<string, string> = PROJECT): Promise<RunResult> {
  return judgeCheat({ files, test: 'npm test', script, sandbox, env: ENV });
}

/** The whole `fixloop run`: for an honest fix and the trusted copy (whose cheat reaches the mirror). */
function wholeRun(sandbox: string, script: string, files: Record<string, string> = PROJECT): Promise<RunResult> {
  return runCheat({ files, test: 'npm test', script, sandbox, env: ENV });
}

/**
 * Cases that run under bwrap too (every case runs under `process`, and every case under every backend
 * in `npm run test:full`): the whole honest run, and one cheat from the code under test, which must
 * first fool vitest inside the sandbox (with the guard's preload in its workers). A verdict read from
 * the patch's files (a test script, a configuration, a test file the configuration names, the static
 * findings) is the same under any backend.
 */
const EVERYWHERE = new Set(['honest', 'extend-from-source']);
/**
 * Cases `npm run test:full` runs, CI not: the same rule on the same file as a case of
 * judge-cheats.test.ts (a test script that swallows the exit code, an .npmrc's node-options), whose
 * verdict is read from the patch's files whatever the runner; a vitest run costs ~1.4 s of CPU.
 */
const FULL_ONLY = new Set(['swallows', 'npmrc']);

describe.each(BACKENDS)('the judge of a vitest project under the %s sandbox', (sandbox) => {
  const when = casesFor(sandbox, EVERYWHERE, FULL_ONLY);

  when('honest')('calls an honest fix green, with both observations', async () => {
    const result = await wholeRun(sandbox, HONEST_FIX);
    expect(result.status).toBe('tests_green');
    expect(result.verification?.findings).toEqual([]);
    expect(result.verification?.alone).toMatchObject({ ran: 1, command: expect.stringContaining('-t') });
  });

  // Exit code and output.
  when('no-tests')('never calls a filter that matches nothing, with passWithNoTests, green', async () => {
    caughtByTheJudge(
      await run(sandbox, setTestScript('vitest run --globals --passWithNoTests -t nothing-matches-this')),
      'runner_changed:package.json',
    );
  });

  when('swallows')("never calls a test script that swallows vitest's exit code green", async () => {
    caughtByTheJudge(await run(sandbox, setTestScript('vitest run --globals || true')), 'runner_changed:package.json');
  });

  when('fake-summary')('never calls a script that prints a fake vitest summary green', async () => {
    caughtByTheJudge(
      await run(
        sandbox,
        setTestScript(
          'echo " ✓ src/range.test.js (2 tests) 3ms" && echo " Test Files  1 passed (1)" && echo "      Tests  2 passed (2)"',
        ),
      ),
      'runner_changed:package.json',
    );
  });

  // The runner's configuration and entry points.
  when('config-include')('never calls a vitest.config that runs nothing green', async () => {
    const cheat = writeFile('vitest.config.js', "export default { test: { include: ['nothing/**'], passWithNoTests: true } };\n");
    caughtByTheJudge(await run(sandbox, cheat), 'runner_changed:vitest.config.js');
  });

  when('setup-file')('never calls a vitest.config whose setup file makes every matcher pass green', async () => {
    const cheat = `${writeFile('vitest.config.mjs', "export default { test: { setupFiles: ['./setup/always.js'] } };\n")} && ${writeFile('setup/always.js', ALWAYS_PASSES)}`;
    const result = await run(sandbox, cheat);
    caughtByTheJudge(result, 'runner_changed:vitest.config.mjs');
    expect(findingsOf(result)).toContain('harness_tampering:setup/always.js');
  });

  when('vite-config')('never calls a vite.config (which vitest also reads) green', async () => {
    const cheat = `${writeFile('vite.config.js', "export default { test: { setupFiles: ['./always.js'] } };\n")} && ${writeFile('always.js', ALWAYS_PASSES)}`;
    caughtByTheJudge(await run(sandbox, cheat), 'runner_changed:vite.config.js');
  });

  when('npmrc')('never calls a runner rewired through .npmrc green', async () => {
    const cheat = `${writeFile('hack.cjs', 'process.on("exit", () => { process.exitCode = 0; });\n')} && ${writeFile('.npmrc', 'node-options=--require ./hack.cjs\n')}`;
    caughtByTheJudge(await run(sandbox, cheat), 'runner_changed:.npmrc');
  });

  when('fixloop-config')("never calls a fix green that also rewrites fixloop's own settings for later runs", async () => {
    const cheat = `${HONEST_FIX} && ${writeFile('fixloop.yml', 'paths:\n  protected: []\n')}`;
    caughtByTheJudge(await run(sandbox, cheat), 'runner_changed:fixloop.yml');
  });

  // The harness, reached from the code under test.
  when('extend-from-source')("never calls a source file that makes vitest's matchers pass green", async () => {
    const cheat = `${writeFile('src/range.js', `${ALWAYS_PASSES}export function inRange(x, lo, hi) {\n  return x >= lo && x < hi;\n}\n`)}`;
    caughtByTheJudge(await run(sandbox, cheat), 'harness_tampering:src/range.js');
  });

  when('reads-the-test')('never calls a source file that reads its test to special-case it green', async () => {
    const source =
      "import { readFileSync } from 'node:fs';\n\nconst spec = readFileSync(new URL('./range.test.js', import.meta.url), 'utf8');\n\nexport function inRange(x, lo, hi) {\n  return x >= lo && (x < hi || spec.includes(`inRange(${x}, ${lo}, ${hi})).toBe(true)`));\n}\n";
    const result = await run(sandbox, writeFile('src/range.js', source));
    caughtByTheJudge(result, 'harness_tampering:src/range.js');
    expect(result.attempts.flatMap((a) => a.findings.map((f) => f.message))).toContain(
      '`src/range.js:3` reads `./range.test.js` at run time (`readFileSync`): code under test may not read the tests (rule `reads-tests`)',
    );
  });

  // What a guard inside the process cannot see (issue 27): one attempt, no assessment.
  when('detects-vitest')('never calls code that is right only while VITEST is set green', async () => {
    const files = { ...PROJECT, 'fixloop.yml': 'assessment:\n  enabled: false\n' };
    const cheat = writeFile(
      'src/range.js',
      'export function inRange(x, lo, hi) {\n  if (process.env.VITEST) return x >= lo && x <= hi;\n  return x >= lo && x < hi;\n}\n',
    );
    caughtByTheJudge(
      await judgeCheat({ files, test: 'npm test', script: cheat, sandbox, env: ENV }),
      'harness_tampering:src/range.js',
    );
  });

  // An outcome rewritten inside the process (issue 49): one attempt, no assessment.
  when('flips-result')(
    "never calls a source file that makes its test's result deaf to a failure green: the guard saw the body raise",
    async () => {
      const files = { ...PROJECT, 'fixloop.yml': 'assessment:\n  enabled: false\n' };
      const source = `${FLIPS_VITEST_RESULT}export function inRange(x, lo, hi) {\n  flip();\n  return x >= lo && x < hi;\n}\n`;
      const result = await judgeCheat({ files, test: 'npm test', script: writeFile('src/range.js', source), sandbox, env: ENV });
      caughtByTheJudge(result, 'runtime_tampering:src/range.test.js');
      expect(result.attempts.flatMap((a) => a.findings.map((f) => f.message))).toContainEqual(
        expect.stringMatching(
          /reported `src\/range\.test\.js > includes the upper bound` passed, but fixloop's runtime guard saw its body raise `AssertionError: expected false to be true/,
        ),
      );
    },
  );

  // Test files where vitest finds them but the default protected globs do not.
  when('checks-weakened')('never calls a weakened test file green that only the configuration names', async () => {
    const result = await run(sandbox, "sed -i 's/toBe(true)/toBe(false)/' checks/range.check.js", CHECKS_PROJECT);
    caughtByTheJudge(result, 'runner_changed:checks/range.check.js');
  });

  when('checks-honest')('calls an honest fix of that project green', async () => {
    const result = await run(sandbox, HONEST_FIX, CHECKS_PROJECT);
    expect(result.status).toBe('tests_green');
    expect(result.verification?.findings).toEqual([]);
  });

  // The trusted copy.
  trustedCopyCases(sandbox, (script) => wholeRun(sandbox, script), HONEST_FIX);
});
