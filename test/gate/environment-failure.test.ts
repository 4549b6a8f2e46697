// Environment failures are told apart from real test failures on the baseline's own output: the
// runner or a package missing, a timeout, no test run are errors; the code's own import errors are not.
import { describe, expect, it } from 'vitest';
import type { GateResult } from '../../src/core/gate-result.ts';
import { emptyReport, type TestReport } from '../../src/core/test-report.ts';
import { environmentFailure, missingModule } from '../../src/gate/environment-failure.ts';

const context = {
  testCommand: 'npm test',
  timeoutSeconds: 600,
  repositoryFiles: ['src/cart.js', 'shop/__init__.py', 'shop/prices.py', 'test/cart.test.js'],
};
const failed = (output: string, exitCode = 1, report: TestReport = emptyReport()): GateResult => ({
  passed: false,
  reason: 'NON_ZERO_EXIT',
  exitCode,
  output,
  report,
  durationMs: 5,
});
const parsed = (passed: number, failedCount: number): TestReport => ({
  format: 'pytest',
  parsed: true,
  passed,
  failed: failedCount,
  skipped: 0,
  total: passed + failedCount,
  tests: [],
});

describe('environment failures on the baseline', () => {
  it('a test command that does not exist names the command', () => {
    const failure = environmentFailure(failed('sh: 1: vitest: not found\n', 127), context);
    expect(failure).toMatchObject({ code: 'TEST_COMMAND_NOT_FOUND' });
    expect(failure?.message).toContain('`vitest` was not found');
    expect(failure?.hint).toMatch(/FIXLOOP_SANDBOX_BIND|setup/);
  });

  it("TypeScript test files the user's Node cannot load name the cause and the Node that can", () => {
    // What Node 20 prints for `node --test test/power.test.ts` (its runner reports the file as one failing test).
    const output = [
      '# TypeError [ERR_UNKNOWN_FILE_EXTENSION]: Unknown file extension ".ts" for /tmp/p/test/power.test.ts',
      '#     at Object.getFileProtocolModuleFormat [as file:] (node:internal/modules/esm/get_format:189:9)',
      'not ok 1 - /tmp/p/test/power.test.ts',
      '# pass 0',
      '# fail 1',
    ].join('\n');
    const failure = environmentFailure(failed(output, 1, parsed(0, 1)), { ...context, nodeVersion: 'v20.20.2' });
    expect(failure).toMatchObject({ code: 'TEST_FILES_UNLOADABLE' });
    expect(failure?.message).toContain('Node 20.20.2 cannot load `.ts` files');
    expect(failure?.message).toContain('/tmp/p/test/power.test.ts');
    expect(failure?.hint).toContain('Node 22.18 or later');
    // A suite where some tests ran is judged as it is.
    expect(environmentFailure(failed(output, 1, parsed(2, 1)), context)).toBeNull();
  });

  it("a test command its runner refuses before any test ran names the runner's own words", () => {
    // What each runner printed, here, for an option it does not take.
    const refusals: Array<[string, number, string]> = [
      [
        'ERROR: usage: __main__.py [options] [file_or_dir] [file_or_dir] [...]\n__main__.py: error: unrecognized arguments: -q\n  inifile: /tmp/p/pyproject.toml\n',
        4,
        'unrecognized arguments: -q',
      ],
      ['node: bad option: --bogus\n', 9, 'bad option: --bogus'],
      [
        '● Unrecognized CLI Parameter:\n\n  Unrecognized option "bogusflag".\n\n  CLI Options Documentation:\n',
        1,
        'Unrecognized option "bogusflag".',
      ],
      [
        '          throw new CACError(`Unknown option ...`);\n\nCACError: Unknown option `--bogusflag`\n',
        1,
        'Unknown option `--bogusflag`',
      ],
    ];
    for (const [output, exitCode, words] of refusals) {
      const failure = environmentFailure(failed(output, exitCode), context);
      expect(failure).toMatchObject({ code: 'TEST_COMMAND_REFUSED' });
      expect(failure?.message).toContain(words);
      expect(failure?.hint).toMatch(/test\.command/);
    }
    // Options the command does not give came from the project's configuration, for a missing plugin.
    const addopts =
      'ERROR: usage: pytest [options] [file_or_dir] [file_or_dir] [...]\npytest: error: unrecognized arguments: --cov-append --cov-report --cov tinydb\n  inifile: /tmp/p/setup.cfg\n  rootdir: /tmp/p\n';
    const plugin = environmentFailure(failed(addopts, 4), { ...context, testCommand: 'pytest -x' });
    expect(plugin?.hint).toMatch(
      /^the test command does not give `--cov-append`, `--cov-report`, `--cov`: the project's configuration does /,
    );
    expect(plugin?.message).toContain(
      "(pytest read `setup.cfg`, whose `addopts` may give them for a plugin, such as pytest-cov's `--cov`)",
    );
    // Once tests ran, the words are a test's business, not the command's.
    expect(environmentFailure(failed(refusals[1]?.[0] ?? '', 1, parsed(1, 1)), context)).toBeNull();
  });

  it('a timeout says so, with the limit and what to raise', () => {
    const gate: GateResult = { passed: false, reason: 'TIMEOUT', output: 'running…', report: emptyReport(), durationMs: 600_000 };
    expect(environmentFailure(gate, context)).toMatchObject({
      code: 'BASELINE_TIMEOUT',
      message: expect.stringContaining('timed out after 600 s'),
      hint: expect.stringContaining('test.timeout'),
    });
  });

  it('a runner missing from the environment is an error, naming the module', () => {
    expect(environmentFailure(failed('/usr/bin/python3: No module named pytest\n'), context)).toMatchObject({
      code: 'MISSING_MODULE',
      message: expect.stringContaining('`pytest`'),
    });
    expect(
      environmentFailure(failed("Error: Cannot find module 'mocha'\nRequire stack:\n- /w/node_modules/.bin/_mocha\n"), context),
    ).toMatchObject({ code: 'MISSING_MODULE', message: expect.stringContaining('`mocha`') });
    expect(
      missingModule(
        "Error [ERR_MODULE_NOT_FOUND]: Cannot find package '@scope/lib' imported from /w/src/cart.js",
        context.repositoryFiles,
      ),
    ).toBe('@scope/lib');
  });

  it("says that the test command hid fixloop's own pytest guard, and how to keep it, rather than that a module is missing", () => {
    const failure = environmentFailure(
      failed(
        'ImportError: Error importing plugin "fixloop_guard_0a1b2c3d4e5f": No module named \'fixloop_guard_0a1b2c3d4e5f\'\n',
      ),
      context,
    );
    expect(failure).toMatchObject({ code: 'GUARD_NOT_LOADED', hint: expect.stringContaining('PYTHONPATH=src:$PYTHONPATH') });
  });

  it("no test run is an error: zero tests parsed, or pytest's exit 5", () => {
    expect(environmentFailure({ passed: true, output: '0 passed', report: parsed(0, 0), durationMs: 1 }, context)).toMatchObject({
      code: 'NO_TESTS_RAN',
    });
    expect(environmentFailure(failed('collected 0 items\n\n==== no tests ran in 0.01s ====\n', 5), context)).toMatchObject({
      code: 'NO_TESTS_RAN',
    });
    const nodeNoFiles = 'ℹ tests 0\nℹ suites 0\nℹ pass 0\nℹ fail 0\nℹ cancelled 0\nℹ skipped 0\n';
    expect(
      environmentFailure({ passed: true, output: nodeNoFiles, report: emptyReport(), durationMs: 1 }, context),
    ).toMatchObject({ code: 'NO_TESTS_RAN' });
    expect(environmentFailure(failed('No tests found, exiting with code 1\n'), context)).toMatchObject({ code: 'NO_TESTS_RAN' });
  });

  it("npm's placeholder test script is no test run, named as such, not a bug to repair", () => {
    const output = '\n> shop@1.0.0 test\n> echo "Error: no test specified" && exit 1\n\nError: no test specified\n';
    const failure = environmentFailure(failed(output), context);
    expect(failure).toMatchObject({ code: 'NO_TESTS_RAN', message: expect.stringContaining("npm's placeholder script") });
    expect(failure?.hint).toContain('scripts.test');
    // The words inside a real test's failure are that test's business.
    expect(environmentFailure(failed('Error: no test specified\n', 1, parsed(2, 1)), context)).toBeNull();
  });

  it("the code's own errors stay failures an engine may fix", () => {
    // A module of the repository missing a name, or a relative import that does not resolve.
    expect(environmentFailure(failed("ImportError: cannot import name 'total' from 'shop.prices'\n"), context)).toBeNull();
    expect(environmentFailure(failed("E   ModuleNotFoundError: No module named 'shop.discounts'\n"), context)).toBeNull();
    expect(environmentFailure(failed("Error: Cannot find module './discounts.js'\n"), context)).toBeNull();
    expect(environmentFailure(failed('SyntaxError: Unexpected token\n'), context)).toBeNull();
    // Tests that ran and failed are the suite's verdict, whatever else the output says.
    expect(environmentFailure(failed("1 failed, 3 passed\nNo module named 'yaml'\n", 1, parsed(3, 1)), context)).toBeNull();
    expect(environmentFailure({ passed: true, output: '3 passed', report: parsed(3, 0), durationMs: 1 }, context)).toBeNull();
  });
});
