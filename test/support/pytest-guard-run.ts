// Live pytest runs for the guard's tests: a project written into a temporary folder, run through the
// gate with pytest's runtime guard as a judged run loads it, at each pytest this machine has (pyenv's
// `python3` with pytest 9, Debian's `/usr/bin/python3` with pytest 7), and what its records name.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { GateResult } from '../../src/core/gate-result.ts';
import type { GuardRecord } from '../../src/core/guard-record.ts';
import type { TestCaseResult } from '../../src/core/test-report.ts';
import { runGate } from '../../src/gate/run-gate.ts';
import { pytestTestCase } from '../../src/runners/pytest/pytest-guard.ts';
import { createProcessSandbox } from '../../src/sandbox/process-sandbox.ts';

export interface Pytest {
  /** The interpreter, as a command starts it. */
  python: string;
  /** pytest's major version there. */
  major: number;
  /** The plugins installed beside it that the tests use, by import name. */
  plugins: { xdist: boolean; subtests: boolean; rerunfailures: boolean; asyncio: boolean };
}

function probe(python: string): Pytest | null {
  try {
    const out = execFileSync(
      python,
      [
        '-c',
        'import importlib.util as u, pytest; print(pytest.__version__.split(".")[0], *[int(u.find_spec(m) is not None) for m in ("xdist", "pytest_subtests", "pytest_rerunfailures", "pytest_asyncio")])',
      ],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
    );
    const [major, xdist, subtests, rerunfailures, asyncio] = out.trim().split(' ').map(Number);
    return {
      python,
      major: major ?? 0,
      plugins: { xdist: xdist === 1, subtests: subtests === 1, rerunfailures: rerunfailures === 1, asyncio: asyncio === 1 },
    };
  } catch {
    return null;
  }
}

/** pyenv's pytest 9 and Debian's pytest 7: both must be there (.ci/run installs Debian's). */
export const PYTESTS: Pytest[] = ['python3', '/usr/bin/python3'].map((python) => {
  const found = probe(python);
  if (!found) throw new Error(`${python} has no pytest: the guard's tests cover pyenv's pytest 9 and Debian's pytest 7`);
  return found;
});

/**
 * The `-p` options that load the installed plugins a test asks for: the runs turn the autoload of
 * installed plugins off (hypothesis and pytest-benchmark cost seconds at every start here).
 */
export function pluginOptions(pytest: Pytest, wanted: ReadonlyArray<keyof Pytest['plugins']>): string {
  const modules = {
    xdist: 'xdist.plugin',
    subtests: 'pytest_subtests',
    rerunfailures: 'pytest_rerunfailures',
    asyncio: 'pytest_asyncio.plugin',
  };
  return wanted
    .filter((name) => pytest.plugins[name])
    .map((name) => `-p ${modules[name]}`)
    .join(' ');
}

const sandbox = createProcessSandbox();
const folders: string[] = [];

/** A project in a new temporary folder: the matrix's (test/fixtures/runners/pytest/matrix/project/) and `files`. */
export function pytestProject(files: Record<string, string> = {}, base = true): string {
  const dir = mkdtempSync(join(tmpdir(), 'fixloop-pyguard-cases-'));
  folders.push(dir);
  if (base) cpSync(join(import.meta.dirname, '../fixtures/runners/pytest/matrix/project'), dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

export function removePytestProjects(): void {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** `pytest <args>` in `cwd` as a judged run runs it: the JUnit report and the runtime guard asked. */
export function guardedPytest(pytest: Pytest, cwd: string, args: string): Promise<GateResult> {
  return runGate(sandbox, {
    command: `${pytest.python} -m pytest -p no:cacheprovider ${args}`.trim(),
    cwd,
    timeoutMs: 100_000,
    witness: true,
    guard: { testFiles: ['tests/test_math.py', 'tests/test_parity.py'] },
    env: { PYTEST_DISABLE_PLUGIN_AUTOLOAD: '1' },
  });
}

export function recordsOf(gate: GateResult): GuardRecord[] {
  return gate.report.guard?.records ?? [];
}

/** Every test the records name, as pytest names it. */
export function namedTests(gate: GateResult): TestCaseResult[] {
  return recordsOf(gate).flatMap((r) => (r.cases ?? []).map(pytestTestCase));
}

/** The view in one line per test: `<id> <status>`, in the order the tests ended. */
export function viewLines(gate: GateResult): string[] {
  return namedTests(gate).map((t) => `${t.id} ${t.status}`);
}

/** Each record's counts are its cases'. */
export function countsMatchCases(record: GuardRecord): boolean {
  const cases = record.cases ?? [];
  const count = (outcome: string) => cases.filter((c) => c.outcome === outcome).length;
  return (
    !!record.tests &&
    record.tests.passed === count('passed') &&
    record.tests.failed === count('failed') &&
    record.tests.skipped === count('skipped')
  );
}
