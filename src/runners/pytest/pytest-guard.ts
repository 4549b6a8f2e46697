// pytest's runtime guard (docs/design.md §3.2.7): the Python package in guard/, copied for each judged run
// under a name of its own (a module the repository adds cannot shadow a name it cannot know) and
// loaded with `-p` through PYTEST_ADDOPTS, so that it reaches pytest through make, tox or a script
// and is imported before the entry points and conftest.py. Its record leaves signed with a one-use
// key that the process took from the records folder's key pipe before any repository code ran
// (_record.py; each xdist worker takes its own);
// fixloop keeps the keys and requires a valid, complete record for every key that was taken (the
// protocol: src/runners/guard-records.ts). It records each test pytest hands its reporters (guard/_cases.py);
// `testCase` names one as parse-pytest.ts does: its node id.
import { randomBytes } from 'node:crypto';
import { cp, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { issueKeys, missingRecord, readTakenKeys } from '../guard-records.ts';
import type { GuardTestCase } from '../../core/guard-record.ts';
import type { TestCaseResult } from '../../core/test-report.ts';
import type { RuntimeGuard } from '../runner.ts';
import { isSubtestDescription, subtestId } from './subtest-id.ts';

const CODE = fileURLToPath(new URL('./guard/', import.meta.url));
export const pytestGuard: RuntimeGuard = {
  async ask(context, dirs) {
    const name = `fixloop_guard_${randomBytes(6).toString('hex')}`;
    await cp(CODE, join(dirs.code, name), { recursive: true, filter: (source) => !source.includes('__pycache__') });
    // What the guard needs at load beside its key: the checkout and the test files (_record.py).
    // `exempt`: the conftest.py files that are the tests' side (null: every one, GuardContext.exemptFiles).
    const exempt = context.exemptFiles ?? null;
    const env = {
      FIXLOOP_PYTEST_GUARD: dirs.records,
      PYTHONPATH: joined([dirs.code, context.env.PYTHONPATH], ':'),
      PYTEST_ADDOPTS: joined([context.env.PYTEST_ADDOPTS, `-p ${name}`], ' '),
      ...(context.env.PYTHONUSERBASE === undefined ? { PYTHONUSERBASE: await userBase(dirs.code, name) } : {}),
    };
    // `given`: what the command is given is the operator's setting, not the runner's sign (_environment.py).
    const variables = context.runnerVariables;
    const given = Object.keys({ ...context.env, ...env });
    await writeFile(
      join(dirs.records, 'context.json'),
      JSON.stringify({ root: context.root, testFiles: context.testFiles, exempt, variables, given }),
    );
    issueKeys(dirs.records);
    return { env };
  },
  /**
   * One record for every key taken (a pytest process runs tests, whatever it saw); complete only
   * with the tests it counted, which the judge checks against pytest's reports.
   */
  async read(dirs) {
    return (await readTakenKeys(dirs.records)).map(({ answer }) =>
      answer ? { ...answer.record, complete: answer.record.complete && answer.record.tests !== null } : missingRecord('pytest'),
    );
  },
  testCase: pytestTestCase,
};

/**
 * A recorded test as pytest prints it: its node id (`tests/t.py::TestC::test_a[1-2]`), a module it
 * could not collect by its path alone (recorded with no file), a subtest by its test's id and its
 * description (subtest-id.ts).
 */
export function pytestTestCase(recorded: GuardTestCase): TestCaseResult {
  const last = recorded.titles.at(-1) ?? '';
  const subtest = recorded.titles.length > 1 && isSubtestDescription(last);
  const titles = subtest ? recorded.titles.slice(0, -1) : recorded.titles;
  // A node with no file beside its titles is a module or folder pytest names by its path alone.
  const node = recorded.file === null ? titles.join('::') : [recorded.file, ...titles].join('::');
  const id = subtest ? subtestId(node, last) : node;
  return {
    id,
    name: id.split('::').at(-1) ?? id,
    file: id.split('::')[0] ?? id,
    status: recorded.outcome,
    ...(recorded.message !== undefined ? { message: recorded.message } : {}),
    ...(recorded.stack !== undefined ? { stack: recorded.stack } : {}),
  };
}

/** Python versions whose user site-packages folder shows the guard (3.6 to 3.19). */
const PYTHON_MINORS = Array.from({ length: 14 }, (_, i) => 6 + i);

/**
 * A user base whose site-packages, for every Python 3 version, holds the guard: a command that sets
 * its own PYTHONPATH (`PYTHONPATH=src pytest`, common) replaces fixloop's, and the interpreter still
 * finds the guard in its user site (outside a virtual environment that hides it; environment-failure.ts
 * names that case).
 */
async function userBase(code: string, name: string): Promise<string> {
  const base = join(code, 'userbase');
  for (const minor of PYTHON_MINORS) {
    const site = join(base, 'lib', `python3.${minor}`, 'site-packages');
    await mkdir(site, { recursive: true });
    await symlink(join(code, name), join(site, name));
  }
  return base;
}

function joined(parts: Array<string | undefined>, separator: string): string {
  return parts.filter((p) => p !== undefined && p.trim() !== '').join(separator);
}
