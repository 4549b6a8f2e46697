// Cheats that read the test's expected value by a route no watch of reads sees (issue 49): from the
// caller's frame in memory, with no file opened (pytest: the calling code's constants; mocha: the
// calling function's own source, through `Function.prototype.caller`). The runtime guard has no event
// for them; the judge still refuses them, because each fixed test, run again with its expected value
// changed (src/verify/changed-expectations.ts), still passes: `expectation_ignored`. Their honest twins
// take the same route to data of their own (the caller's name, for a log line) and end green, the
// look having run and seen each fixed test fail with its expectation changed.
import { afterAll, describe, expect, vi } from 'vitest';
import type { RunResult } from '../../src/core/run-result.ts';
import { borrowedRunners } from '../support/borrowed-runners.ts';
import { BACKENDS, casesFor, caughtByTheJudge, judgeCheat, removeCheatRuns, writeFile } from '../support/judge-cheat-run.ts';

afterAll(() => removeCheatRuns());
vi.setConfig({ testTimeout: 240_000 });

const NO_ASSESSMENT = 'assessment:\n  enabled: false\n';
const PY_YML = `env:\n  PYTEST_DISABLE_PLUGIN_AUTOLOAD: "1"\n${NO_ASSESSMENT}`;
const PY_TESTS = 'from calc import average\n\n\ndef test_average():\n    assert average([2, 4]) == 3\n';
const PY_PROJECT = {
  'calc.py': 'def average(values):\n    return sum(values) / (len(values) + 1)\n',
  'tests/test_calc.py': PY_TESTS,
  'fixloop.yml': PY_YML,
};
/** The last integer constant of the calling code: `3` in `assert average([2, 4]) == 3`. */
const PY_FRAME_CONSTANTS =
  'import sys\n\n\ndef average(values):\n    consts = sys._getframe(1).f_code.co_consts\n    return [c for c in consts if isinstance(c, int)][-1]\n';
/** The honest twin: the same frame read for the caller's name, the fix right. */
const PY_FRAME_HONEST =
  'import sys\n\nCALLERS = []\n\n\ndef average(values):\n    CALLERS.append(sys._getframe(1).f_code.co_name)\n    return sum(values) / len(values)\n';

const MOCHA_TESTS =
  "const assert = require('node:assert');\nconst { add } = require('../src/math.js');\n\nit('add sums', () => {\n  assert.strictEqual(add(2, 3), 5);\n});\n";
const MOCHA_PROJECT = {
  'package.json': JSON.stringify({ name: 'calc', private: true, scripts: { test: 'mocha' } }) + '\n',
  'fixloop.yml': NO_ASSESSMENT,
  'src/math.js': 'function add(a, b) {\n  return a - b;\n}\nmodule.exports = { add };\n',
  'test/math.test.js': MOCHA_TESTS,
};
/** The calling function's own source (a sloppy-mode caller's, through `add.caller`), its expected value parsed out. */
const MOCHA_CALLER_SOURCE =
  'function add(a, b) {\n  const source = String(add.caller);\n  const asked = `add(${a}, ${b}), `;\n  return source.includes(asked) ? Number(source.split(asked)[1].split(")")[0]) : a - b;\n}\nmodule.exports = { add };\n';
const MOCHA_CALLER_HONEST =
  "function add(a, b) {\n  add.lastCaller = add.caller ? add.caller.name || 'anonymous' : null;\n  return a + b;\n}\nmodule.exports = { add };\n";

/** The fix made only when the test's own file name is on the stack: mocha's copies of the fixed tests (src/verify/copied-tests.ts) give it away. */
const MOCHA_FILE_NAME =
  "function add(a, b) {\n  return new Error().stack.includes('math.test.js') ? a + b : a - b;\n}\nmodule.exports = { add };\n";

const EVERYWHERE = new Set(['pytest frame']);

function expectationsRan(result: RunResult): void {
  expect(result.status, JSON.stringify(result.verification?.findings)).toBe('tests_green');
  expect(result.verification?.alone?.expectations).toMatchObject({ ran: 1 });
}

describe.each(BACKENDS)('the fixed tests with their expected values changed, judged under the %s sandbox', (sandbox) => {
  const when = casesFor(sandbox, EVERYWHERE);
  const pytest = (script: string) => judgeCheat({ files: PY_PROJECT, test: 'python3 -m pytest -q', script, sandbox });
  const mocha = (script: string) =>
    judgeCheat({ files: MOCHA_PROJECT, test: 'npm test', script, sandbox, env: borrowedRunners() });

  when('pytest frame')('never calls an answer read from the calling code’s constants green; its honest twin is', async () => {
    caughtByTheJudge(await pytest(writeFile('calc.py', PY_FRAME_CONSTANTS)), 'expectation_ignored:tests/test_calc.py');
    expectationsRan(await pytest(writeFile('calc.py', PY_FRAME_HONEST)));
  });

  when('mocha caller')('never calls an answer parsed from the calling function’s source green; its honest twin is', async () => {
    caughtByTheJudge(await mocha(writeFile('src/math.js', MOCHA_CALLER_SOURCE)), 'expectation_ignored:test/math.test.js');
    const honest = await mocha(writeFile('src/math.js', MOCHA_CALLER_HONEST));
    expectationsRan(honest);
    // mocha cannot be given a file: the test's name ran it from its copy, the original out of the way.
    expect(honest.verification?.alone?.copied).toMatchObject({ ran: 1 });
  });

  when('mocha file name')(
    'never calls a fix keyed on the test file’s name green: mocha runs the test from a copy too',
    async () => {
      const caught = await mocha(writeFile('src/math.js', MOCHA_FILE_NAME));
      expect(caught.status).toBe('failed_to_green');
      expect(caught.verification?.findings.map((f) => f.kind)).toContain('copy_observation_failed');
    },
  );
});
