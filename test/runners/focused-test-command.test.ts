import { describe, expect, it } from 'vitest';
import { focusChoices, focusedTestCommand } from '../../src/runners/focused-test-command.ts';
import { runnerOf } from '../../src/runners/registry.ts';
import type { TestCaseResult } from '../../src/core/test-report.ts';

const failed = (id: string, name: string): TestCaseResult => ({ id, name, status: 'failed' });

describe('focusedTestCommand', () => {
  it('passes pytest node ids, shell-quoted', () => {
    expect(
      focusedTestCommand('python3 -m pytest -q', [
        failed('tests/t.py::test_a[1 2]', 'test_a[1 2]'),
        failed('tests/t.py::test_b', 'test_b'),
      ]),
    ).toBe("python3 -m pytest -q 'tests/t.py::test_a[1 2]' tests/t.py::test_b");
  });

  it("drops the command's own pytest paths that hold the failing tests: they would run every test there too", () => {
    const ids = [failed('tests/test_x.py::TestA::test_a', 'test_a')];
    expect(focusedTestCommand('PYTHONPATH=src python3 -m pytest -p no:cacheprovider -o addopts= tests', ids)).toBe(
      'PYTHONPATH=src python3 -m pytest -p no:cacheprovider -o addopts= tests/test_x.py::TestA::test_a',
    );
    expect(focusedTestCommand('pytest -q ./tests/ tests/test_x.py', ids)).toBe('pytest -q tests/test_x.py::TestA::test_a');
    // A path that holds none of them stays; so does one an option may take as its value.
    expect(focusedTestCommand('pytest tests docs', ids)).toBe('pytest docs tests/test_x.py::TestA::test_a');
    expect(focusedTestCommand('pytest --rootdir tests', ids)).toBe('pytest --rootdir tests tests/test_x.py::TestA::test_a');
    expect(focusedTestCommand('tests/run pytest', ids)).toBe('tests/run pytest tests/test_x.py::TestA::test_a');
  });

  it('runs a pytest subtest through its test, once (pytest selects no subtest)', () => {
    expect(
      focusedTestCommand('pytest', [
        failed('tests/t.py::TestC::test_a (i=1)', 'test_a (i=1)'),
        failed('tests/t.py::test_b[1-2] [half] (i=2)', 'test_b[1-2] [half] (i=2)'),
        failed('tests/t.py::TestC::test_a (i=3)', 'test_a (i=3)'),
        failed('tests/t.py::TestC::test_a', 'test_a'),
        failed('tests/t.py::test_c[a b]', 'test_c[a b]'),
        failed('tests/t.py::test_d (<subtest>)', 'test_d (<subtest>)'),
      ]),
    ).toBe("pytest tests/t.py::TestC::test_a 'tests/t.py::test_b[1-2]' 'tests/t.py::test_c[a b]' tests/t.py::test_d");
  });

  it('uses name patterns for node --test, vitest and jest, escaping regex characters', () => {
    expect(focusedTestCommand('node --test', [failed('s > adds (a+b)', 'adds (a+b)')])).toBe(
      "node --test --test-name-pattern='adds \\(a\\+b\\)'",
    );
    expect(focusedTestCommand('npx vitest run', [failed('f > x', 'x'), failed('f > y', 'y')])).toBe("npx vitest run -t 'x|y'");
    expect(focusedTestCommand('jest --ci', [failed("a › it's", "it's")])).toBe("jest --ci -t 'it'\\''s'");
  });

  it('writes control characters of a name as regex escapes, and never puts a NUL byte in a command', () => {
    // ufo's parseURL cases are named after their inputs: `\0javascript:alert(1)`.
    expect(focusedTestCommand('npx vitest run', [failed('t > \0javascript:', '\0javascript:')])).toBe(
      "npx vitest run -t '\\x00javascript:'",
    );
    expect(focusedTestCommand('npx mocha', [failed('a\tb', 'a\tb')])).toBe("npx mocha --grep 'a\\x09b'");
    expect(focusedTestCommand('pytest', [failed('t.py::test[\0]', 'test[\0]')])).toBeNull();
  });

  it('goes through npm scripts it can read, and gives up on anything else', () => {
    expect(focusedTestCommand('npm test', [failed('x', 'x')], { test: 'node --test' })).toBe('npm test -- --test-name-pattern=x');
    expect(focusedTestCommand('npm test', [failed('x', 'x')], { test: 'make check' })).toBeNull();
    expect(focusedTestCommand('make test', [failed('x', 'x')])).toBeNull();
    expect(focusedTestCommand('node --test && echo done', [failed('x', 'x')])).toBeNull();
    expect(focusedTestCommand('node --test', [])).toBeNull();
  });

  it('focuses the script of a chain that starts the runner, where a script runs scripts (`npm run test:jest && npm run lint`)', () => {
    const scripts = { test: 'npm run test:jest && npm run lint', 'test:jest': 'jest', lint: 'eslint .' };
    expect(runnerOf('npm test', scripts)?.id).toBe('jest');
    expect(focusedTestCommand('npm test', [failed('x', 'x')], scripts)).toBe('npm run test:jest -- -t x');
    // Followed a few scripts down to find the runner; focused one script down only.
    const deeper = { ...scripts, 'test:jest': 'npm run unit', unit: 'jest' };
    expect(runnerOf('npm test', deeper)?.id).toBe('jest');
    expect(focusedTestCommand('npm test', [failed('x', 'x')], deeper)).toBeNull();
    // Scripts that run each other: npm would never end; neither runner nor focus is found.
    expect(runnerOf('npm test', { test: 'npm run a && npm run b', a: 'npm test', b: 'npm run a' })).toBeNull();
    expect(
      focusedTestCommand('npm test', [failed('x', 'x')], { test: 'npm run a && npm run b', a: 'npm test', b: 'npm run a' }),
    ).toBeNull();
    // Not a plain chain, or a name npm does not define.
    expect(
      focusedTestCommand('npm test', [failed('x', 'x')], { test: 'npm run unit || true && npm run lint', unit: 'jest' }),
    ).toBeNull();
    expect(runnerOf('npm run constructor', {})).toBeNull();
    // What npm hands the script after `--` (a focused run's selection) leaves its runner as it was.
    expect(runnerOf("npm run test:jest -- -t 'x -- y'", scripts)?.id).toBe('jest');
    expect(runnerOf('npm test -- --grep x', { test: 'mocha' })?.id).toBe('mocha');
    // npm's `t` alias and `run-script` name the same scripts.
    expect(runnerOf('npm t', { test: 'mocha' })?.id).toBe('mocha');
    expect(runnerOf('npm run-script unit.fast -- --grep x', { 'unit.fast': 'mocha' })?.id).toBe('mocha');
  });

  it('goes through pnpm and yarn scripts too, handing the selection on after `run <script>`, where every version of theirs keeps it as it is', () => {
    // pnpm 10 hands `--` on to the script, and pnpm 8's `pnpm test` takes `-t` for itself.
    expect(focusedTestCommand('pnpm test', [failed('x', 'x')], { test: 'jest' })).toBe('pnpm run test -t x');
    expect(focusedTestCommand('yarn test', [failed('x', 'x')], { test: 'mocha' })).toBe('yarn run test --grep x');
    expect(runnerOf('pnpm run test -t x', { test: 'jest' })?.id).toBe('jest');
    expect(runnerOf('yarn unit', { unit: 'vitest run' })?.id).toBe('vitest');
    // yarn has no `t` alias: it runs a script named `t`.
    expect(runnerOf('pnpm t', { test: 'jest' })?.id).toBe('jest');
    expect(runnerOf('yarn t', { test: 'jest' })).toBeNull();
  });

  it('focuses the step of a chain that starts the runner through a package manager (`pnpm lint && pnpm vitest run`)', () => {
    const scripts = { test: 'pnpm lint && pnpm vitest run', lint: 'eslint --ext .ts src' };
    expect(runnerOf('pnpm test', scripts)?.id).toBe('vitest');
    expect(focusedTestCommand('pnpm test', [failed('x', 'x')], scripts)).toMatch(/^pnpm vitest run .*-t/);
    expect(focusedTestCommand('npm test', [failed('x', 'x')], { test: 'npm run lint && npx jest', lint: 'eslint .' })).toBe(
      'npx jest -t x',
    );
    // A bare bin in the chain is found on the PATH the script gets, not on a command's own.
    expect(runnerOf('npm test', { test: 'npm run lint && jest', lint: 'eslint .' })?.id).toBe('jest');
    expect(focusedTestCommand('npm test', [failed('x', 'x')], { test: 'npm run lint && jest', lint: 'eslint .' })).toBeNull();
  });

  it("puts node's selection after node's own options and before the command's files, where node applies both", () => {
    expect(focusedTestCommand('node --test test/', [failed('x', 'x')])).toBe('node --test --test-name-pattern=x test/');
    expect(focusedTestCommand('node --test --test-reporter=dot test/a.test.js', [failed('x', 'x')])).toBe(
      'node --test --test-reporter=dot --test-name-pattern=x test/a.test.js',
    );
    // An option with its value after `--test` stays an option: after a file node would drop it.
    expect(focusedTestCommand('node --test --import tsx test/a.test.ts', [failed('x', 'x')])).toBe(
      'node --test --import tsx --test-name-pattern=x test/a.test.ts',
    );
    expect(focusedTestCommand('node --test --no-warnings -r ./setup.js --watch "a b.test.js"', [failed('x', 'x')])).toBe(
      'node --test --no-warnings -r ./setup.js --watch --test-name-pattern=x "a b.test.js"',
    );
    expect(focusedTestCommand('node --test --test-name-pattern "a b"', [failed('x', 'x')])).toBe(
      'node --test --test-name-pattern "a b" --test-name-pattern=x',
    );
    // npm adds its arguments at the script's end, after the files: no selection rather than a wrong one.
    expect(focusedTestCommand('npm test', [failed('x', 'x')], { test: 'node --test test/' })).toBeNull();
    expect(focusedTestCommand('npm test', [failed('x', 'x')], { test: 'node --test --test-concurrency=1' })).toBe(
      'npm test -- --test-name-pattern=x',
    );
    expect(focusedTestCommand('npm test', [failed('x', 'x')], { test: 'node --test --import tsx' })).toBe(
      'npm test -- --test-name-pattern=x',
    );
  });

  it("selects the failing tests' files too when asked, as each runner takes them, and only where every failing test names its file", () => {
    const inFile = (id: string, name: string, file: string): TestCaseResult => ({ id, name, file, status: 'failed' });
    const withFiles = { withFiles: true };
    expect(
      focusedTestCommand('npx jest', [inFile('tests/help.test.js › wraps', 'wraps', 'tests/help.test.js')], {}, withFiles),
    ).toBe("npx jest 'tests\\/help\\.test\\.js' -t wraps");
    expect(
      focusedTestCommand(
        'npm test',
        [inFile('test/b.test.ts > x', 'x', 'test/b.test.ts'), inFile('test/a.test.ts > y', 'y', 'test/a.test.ts')],
        { test: 'vitest run' },
        withFiles,
      ),
    ).toBe("npm test -- test/a.test.ts test/b.test.ts -t 'x|y'");
    expect(focusedTestCommand('node --test', [inFile('s > x', 'x', 'test/s.test.js')], {}, withFiles)).toBe(
      'node --test --test-name-pattern=x test/s.test.js',
    ); // the pattern before the file, or node ignores it
    // The command's own glob, folder or file that holds the named file would run its other files too.
    const off = [inFile('off > removes', 'removes', 'test/off.test.js')];
    expect(focusedTestCommand('node --test "test/**/*.test.js"', off, {}, withFiles)).toBe(
      'node --test --test-name-pattern=removes test/off.test.js',
    );
    expect(focusedTestCommand('node --test test/ lib/', off, {}, withFiles)).toBe(
      'node --test --test-name-pattern=removes test/off.test.js lib/',
    );
    expect(focusedTestCommand('node --test --import tsx "test/**/*.test.js"', off, {}, withFiles)).toBe(
      'node --test --import tsx --test-name-pattern=removes test/off.test.js',
    );
    // Unnamed files keep the command's own: node would fall back to its default patterns.
    expect(focusedTestCommand('node --test "test/**/*.test.js"', [failed('removes', 'removes')])).toBe(
      'node --test --test-name-pattern=removes "test/**/*.test.js"',
    );
    // pytest's ids carry their files; mocha's positional files would replace its configured spec.
    expect(focusedTestCommand('pytest', [failed('tests/t.py::test_a', 'test_a')], {}, withFiles)).toBe(
      'pytest tests/t.py::test_a',
    );
    expect(focusedTestCommand('npx mocha', [inFile('a b', 'b', 'test/a.js')], {}, withFiles)).toBeNull();
    expect(focusedTestCommand('npx jest', [inFile('a', 'a', 'a.test.js'), failed('b', 'b')], {}, withFiles)).toBeNull();
  });

  it('uses --grep for mocha, directly and through npm scripts', () => {
    expect(focusedTestCommand('npx mocha test/', [failed('clamp > keeps 5', 'keeps 5')])).toBe(
      "npx mocha test/ --grep 'keeps 5'",
    );
    expect(focusedTestCommand('npm test', [failed('a b', 'b')], { test: 'mocha --check-leaks' })).toBe('npm test -- --grep b');
    expect(runnerOf('npm test', { test: 'mocha' })?.id).toBe('mocha');
    expect(runnerOf('npm run unit', { unit: 'node --test' })?.id).toBe('node-test');
    expect(runnerOf('make check')).toBeNull();
  });
});

describe('focusChoices', () => {
  const inFile = (id: string, name: string, file: string): TestCaseResult => ({ id, name, status: 'failed', file });

  it('offers the files and names first, the names alone after', () => {
    expect(focusChoices('npx jest', [inFile('tests/help.test.js › wraps', 'wraps', 'tests/help.test.js')])).toEqual([
      { command: "npx jest 'tests\\/help\\.test\\.js' -t wraps", withFiles: true },
      { command: 'npx jest -t wraps', withFiles: false },
    ]);
  });

  it('offers a command once when selecting the files changes nothing, and none when the runner cannot focus', () => {
    expect(focusChoices('pytest', [failed('tests/t.py::test_a', 'test_a')])).toEqual([
      { command: 'pytest tests/t.py::test_a', withFiles: true },
    ]);
    expect(focusChoices('npx mocha', [inFile('a b', 'b', 'test/a.js')])).toEqual([
      { command: 'npx mocha --grep b', withFiles: false },
    ]);
    expect(focusChoices('make check', [failed('a', 'a')])).toEqual([]);
  });
});
