// A look that asks whether the fixed tests can still fail (docs/design.md §3.2.4). In a scratch copy
// of the replay's checkout made before any test ran there, each fixed test's expected values are
// changed where its own body states them as literals, and its other assertions turned into their
// opposites (js-expectations.ts, js-negations.ts, changed_expectations.py), and the fixed tests run
// again: each must now fail. One that still passes does not depend on what it
// expects, so its pass is no evidence: the code under test reads the expected value from the test
// (by whatever route: the file, the loader, the frame, memory), answers every equality, or rewrites
// the outcome before anyone counts it. Unlike the runtime guard, this needs no knowledge of how the
// code did it. A test whose body has no assertion known here that is surely reached is not part of
// the look, and where none is, the look says "not checked" and why.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Finding } from '../core/findings.ts';
import type { ExpectationObservation } from '../core/run-result.ts';
import type { TestCaseResult, TestReport } from '../core/test-report.ts';
import { JS_SOURCE } from '../core/js-tree.ts';
import type { SuiteRunner } from '../gate/setup-then-gate.ts';
import { focusedTestCommand } from '../runners/focused-test-command.ts';
import { repositoryFiles } from '../workspace/repository-files.ts';
import { guardFindings } from './guard-findings.ts';
import { changedJsExpectations, type ExpectationChange } from './js-expectations.ts';
import { changedPyExpectations, pytestFunctionName } from './py-expectations.ts';

interface ChangedTest {
  test: TestCaseResult;
  file: string;
  change: ExpectationChange;
}

/**
 * `dir`: the scratch copy of the replay's checkout (null where it could not be made), removed after;
 * `isTestFile`: the judge's test files (the baseline's and the protected paths), where a test the
 * runner names with no file is looked for.
 */
export async function observeChangedExpectations(
  suite: SuiteRunner,
  dir: string | null,
  fixed: readonly TestCaseResult[],
  context: {
    scripts: Record<string, string>;
    isTestFile: (path: string) => boolean;
    baseline: TestReport;
    log: (line: string) => void;
  },
): Promise<{ observation: ExpectationObservation; findings: Finding[] }> {
  const notChecked = (reason: string) => ({ observation: { ran: 0, command: null, notChecked: reason }, findings: [] });
  if (dir === null) return notChecked('the checkout could not be copied');
  try {
    const changed = await changeExpectations(dir, fixed, context.isTestFile);
    if (changed.length === 0) return notChecked('no fixed test has an assertion known here that its body surely reaches');
    const command = focusedTestCommand(
      suite.testCommand,
      changed.map((c) => c.test),
      context.scripts,
    );
    if (!command) return notChecked("the runner's selection cannot select the fixed tests");
    context.log(`replay: with expected values changed: ${command}`);
    const gate = await suite.gateWith(dir, command);
    const findings: Finding[] = [];
    let ran = 0;
    for (const { test, file, change } of changed) {
      const own = outcomeOf(gate.report, test, file);
      if (!own) continue;
      ran += 1;
      if (own.status !== 'passed') continue;
      findings.push({
        kind: 'expectation_ignored',
        path: file,
        message: `\`${test.id}\` still passes with its expected value changed (\`${change.before}\` → \`${change.after}\` at ${file}:${change.line}; \`${command}\`): its pass does not depend on what it expects, so it is no evidence`,
      });
    }
    // The run is judged as any run of the checkout is (docs/design.md §3.2.7).
    findings.push(...guardFindings(context.baseline, gate));
    if (ran === 0 && findings.length === 0) return notChecked('the run named none of the changed tests');
    const example = changed[0]?.change;
    return {
      observation: {
        ran,
        command,
        ...(example ? { example: `${changed[0]?.file}:${example.line} \`${example.before}\` → \`${example.after}\`` } : {}),
      },
      findings,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Writes each fixed test's file with its expected values changed; the tests that got a change, with one of theirs. */
async function changeExpectations(
  dir: string,
  fixed: readonly TestCaseResult[],
  isTestFile: (path: string) => boolean,
): Promise<ChangedTest[]> {
  const byFile = new Map<string, TestCaseResult[]>();
  let testFiles: string[] | null = null;
  for (const test of fixed)
    for (const file of await filesOf(dir, test, async () => (testFiles ??= (await repositoryFiles(dir)).filter(isTestFile))))
      byFile.set(file, [...(byFile.get(file) ?? []), test]);
  const changed: ChangedTest[] = [];
  for (const [file, tests] of byFile) {
    const text = await readFile(join(dir, file), 'utf8').catch(() => null);
    if (text === null) continue;
    const python = file.endsWith('.py');
    const nameOf = (t: TestCaseResult) => (python ? pytestFunctionName(t.id) : t.name);
    const names = tests.map(nameOf).filter((n): n is string => n !== null);
    const result = python ? await changedPyExpectations(text, names) : changedJsExpectations(file, text, names);
    if (!result || result.changes.length === 0) continue;
    await writeFile(join(dir, file), result.text);
    for (const test of tests) {
      const change = result.changes.find((c) => c.test === nameOf(test));
      if (change) changed.push({ test, file, change });
    }
  }
  return changed;
}

/** The test's file: the one it names, a pytest id's, else the JavaScript test files whose text holds its name (mocha names none). */
async function filesOf(dir: string, test: TestCaseResult, testFiles: () => Promise<string[]>): Promise<string[]> {
  const own = test.file ?? (test.id.includes('::') ? test.id.split('::')[0] : undefined);
  if (own) return JS_SOURCE.test(own) || own.endsWith('.py') ? [own] : [];
  const files: string[] = [];
  for (const file of (await testFiles()).filter((f) => JS_SOURCE.test(f)))
    if ((await readFile(join(dir, file), 'utf8').catch(() => '')).includes(test.name)) files.push(file);
  return files;
}

/**
 * The test's own result in the run: by its id, else by its name in its file; none where the name is
 * not the test's alone (a runner that names no file, and a test of the same name in another file).
 */
function outcomeOf(report: TestReport, test: TestCaseResult, file: string): TestCaseResult | undefined {
  const byId = report.tests.find((t) => t.id === test.id);
  if (byId) return byId;
  const named = report.tests.filter((t) => t.name === test.name && (!t.file || t.file === file));
  return named.length === 1 ? named[0] : undefined;
}
