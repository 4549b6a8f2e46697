// A look at the fixed tests that does not depend on the runtime guard (docs/design.md §3.2.4): they
// also run from a copy of their test files under another name, their lines moved down, in a scratch
// copy of the replay's checkout made after its setup and before any test or check ran there (the
// checkout's own files are never written, and no test could have prepared the copy). A fix that
// special-cases the test's path, file name or line (it reads `__filename`, the stack, `sys._getframe`,
// `expect.getState().testPath`) gives itself away there: a fixed test that passes from its own file
// but not from the copy is `copy_observation_failed`. The copy sits beside the original, so relative
// imports resolve as they did, and keeps the runner's test suffix (`.test.js`, `_test.py`); it is
// chosen through the runner's own selection (focused-test-command.ts). The original file is moved
// out of the scratch copy while its copy runs (withoutOriginals), so a fix that reads the test at its
// path, by whatever route the guard does not watch, finds nothing there; and a runner that cannot be
// given a file (mocha) is given the tests' names alone, which then run only from the copies. Where
// no command selects the copies, or the runner ran none of them (a configuration whose test globs do
// not take the name: jest's `testMatch`, vitest's `include`), the look says "not checked" rather
// than fail an honest run.
import { constants } from 'node:fs';
import { execFile } from 'node:child_process';
import { cp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { basename, join, posix, relative } from 'node:path';
import type { Finding } from '../core/findings.ts';
import type { CopyObservation } from '../core/run-result.ts';
import type { TestCaseResult } from '../core/test-report.ts';
import type { SuiteRunner } from '../gate/setup-then-gate.ts';
import { focusChoices } from '../runners/focused-test-command.ts';
import { runnerOf } from '../runners/registry.ts';
import { failingFiles } from '../runners/test-name-pattern.ts';
import { passedAlone } from './passed-alone.ts';
import { guardFindings } from './guard-findings.ts';
import type { GateResult } from '../core/gate-result.ts';
import type { TestReport } from '../core/test-report.ts';

/** Blank lines the copy gains before its first line (after a shebang or a Python coding cookie). */
export const LINES_MOVED = 3;

/**
 * The copy's path for a test file: another name in the same folder, the runner's suffix kept
 * (`math.test.js` → `fixloop_copy_<hash>.test.js`, `test.js` → `fixloop_copy_<hash>.test.js`,
 * `test_calc.py` → `fixloop_copy_<hash>_test.py`), never holding the original name.
 */
export function copiedName(path: string): string {
  const name = posix.basename(path);
  const hash = createHash('sha256').update(path).digest('hex').slice(0, 8);
  let copy: string;
  if (name.endsWith('.py')) copy = `fixloop_copy_${hash}_test.py`;
  else {
    const dot = name.indexOf('.');
    const stem = dot === -1 ? name : name.slice(0, dot);
    const suffix = /^(tests?|specs?)$/.test(stem) ? `.${name}` : dot === -1 ? '' : name.slice(dot);
    copy = `fixloop_copy_${hash}${suffix}`;
  }
  const folder = posix.dirname(path);
  return folder === '.' ? copy : `${folder}/${copy}`;
}

/** The text with its lines moved down by LINES_MOVED, after a shebang line or a Python coding cookie (which must stay first). */
export function movedText(text: string, python: boolean): string {
  const lines = text.split('\n');
  let keep = lines[0]?.startsWith('#!') ? 1 : 0;
  if (python) for (const at of [0, 1]) if (/^[ \t\f]*#.*?coding[:=]/.test(lines[at] ?? '')) keep = at + 1;
  return [...lines.slice(0, keep), ...Array<string>(LINES_MOVED).fill(''), ...lines.slice(keep)].join('\n');
}

/** The test as its copy names it: its file, and its id where the id holds the file. */
function copiedTest(test: TestCaseResult, file: string, copy: string): TestCaseResult {
  return { ...test, id: test.id.replace(file, copy), file: copy };
}

/** A test's file: the one it names, or a pytest id's (`tests/test_a.py::test_b`). */
function fileOf(test: TestCaseResult): string | undefined {
  return test.file ?? (test.id.includes('::') ? test.id.split('::')[0] : undefined);
}

/**
 * `dir`: the scratch copy of the replay's checkout (copyCheckout), null where it could not be made;
 * the copies of the test files are written there, and it is removed after.
 */
export async function observeFromCopies(
  suite: SuiteRunner,
  dir: string | null,
  fixed: readonly TestCaseResult[],
  scripts: Record<string, string>,
  log: (line: string) => void,
  /** The baseline's report, whose guard records the copies' run is judged against. */
  baseline: TestReport,
): Promise<{ observation: CopyObservation; findings: Finding[] }> {
  const notChecked = (reason: string) => ({ observation: { ran: 0, command: null, notChecked: reason }, findings: [] });
  const named = fixed.map((t) => {
    const file = fileOf(t);
    return file ? { ...t, file } : t;
  });
  const files = failingFiles(named);
  if (!files || fixed.length === 0) return notChecked('a fixed test names no file');
  if (dir === null) return notChecked('the checkout could not be copied');
  const copies = new Map(files.map((file) => [file, copiedName(file)]));
  const copied = named.map((t) => copiedTest(t, t.file ?? '', copies.get(t.file ?? '') ?? ''));
  try {
    const texts = await writeCopies(dir, copies).catch(() => null);
    if (!texts) return notChecked('the test files could not be copied');
    const removed = await withoutOriginals(dir, texts, [suite.testCommand, ...Object.values(scripts)]);
    // A command that selects the copies' files; one that selects by name alone runs them only where
    // every original is out of the way, and is judged by the copies' own records alone.
    const choices = focusChoices(suite.testCommand, copied, scripts);
    const choice = choices.find((c) => c.withFiles) ?? (removed === copies.size ? choices[0] : undefined);
    if (!choice) return notChecked("the runner's selection cannot be given a copied test file");
    log(`replay: from copies${removed > 0 ? `, ${removed} original file(s) out of the way` : ''}: ${choice.command}`);
    const gate = await suite.gateWith(dir, choice.command);
    const runner = runnerOf(suite.testCommand, scripts);
    if (!gate.passed && gate.report.total === 0 && runner?.noTestsRan.output.test(gate.output))
      return notChecked(
        `${runner.id} ran no test from the copied files (its configuration's test globs may not take their names)`,
      );
    const outcomes = copied.map((copy) => copyOutcome(gate, copy, choice.withFiles));
    const findings: Finding[] = fixed.flatMap((test, i) => {
      const copy = copied[i];
      if (!copy || outcomes[i] !== 'failed') return [];
      return [
        {
          kind: 'copy_observation_failed' as const,
          message: `\`${test.id}\` passes from its own file but not from a copy of it, \`${copy.file ?? ''}\` with its lines moved down ${LINES_MOVED}${removed > 0 ? ' and the original out of the way' : ''} (\`${choice.command}\`): the fix depends on the test's path, name, lines or file`,
        },
      ];
    });
    // The copies' run is judged as any run of the checkout is: code that ends the process once it
    // sees a copied path, so that nothing runs, is the guard's to see (docs/design.md §3.2.7).
    findings.push(...guardFindings(baseline, gate));
    const ran = outcomes.filter((o) => o !== 'not run').length;
    if (ran === 0 && findings.length === 0)
      return notChecked("the runner's selection ran none of the copies (it ran the original tests, or no test)");
    return { observation: { ran, command: choice.command }, findings };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Writes each test file's copy (and its snapshots'); the copies' texts, by the original's path. */
async function writeCopies(dir: string, copies: ReadonlyMap<string, string>): Promise<Map<string, string>> {
  const texts = new Map<string, string>();
  for (const [file, copy] of copies) {
    const text = movedText(await readFile(join(dir, file), 'utf8'), file.endsWith('.py'));
    texts.set(file, text);
    await writeFile(join(dir, copy), text);
    await copySnapshots(dir, file, copy);
  }
  return texts;
}

/**
 * Moves each original test file out of the scratch copy (its copy holds all it held), so that what
 * reads the test at its path finds nothing; how many. An original stays where a test command or a
 * package script names it (the runner would stop at a missing file), or where a copy names its stem
 * (a test that imports another test file's helpers).
 */
async function withoutOriginals(dir: string, texts: ReadonlyMap<string, string>, commands: readonly string[]): Promise<number> {
  let removed = 0;
  for (const file of texts.keys()) {
    const stem = posix.basename(file).replace(/\.[^.]*$/, '');
    const named = commands.some((command) => command.includes(posix.basename(file)));
    const imported = [...texts].some(([other, text]) => other !== file && text.includes(stem));
    if (named || imported) continue;
    await rm(join(dir, file), { force: true });
    removed += 1;
  }
  return removed;
}

/**
 * The copy's own outcome in the run: as the run names it from the copied file; `not run` where the run
 * named the test only from another file (a test command that names a whole folder, or a selection by
 * name, ran the original) or ran no test at all (a runner that reaches a subtest only through its
 * parent); else, for a selection by file, what the counts say (a runner that lists only failures). A
 * selection by name alone says nothing by its counts: other files' tests of that name ran too.
 */
function copyOutcome(gate: GateResult, copy: TestCaseResult, byFile: boolean): 'passed' | 'failed' | 'not run' {
  const { report } = gate;
  const own = report.tests.find((t) => t.id === copy.id || (t.file === copy.file && t.name === copy.name));
  if (own) return own.status === 'passed' ? 'passed' : 'failed';
  if (!byFile || ranTheOriginal(report.tests, copy)) return 'not run';
  if (gate.passed && report.parsed && report.passed === 0 && report.failed === 0) return 'not run';
  return passedAlone(gate, copy) ? 'passed' : 'failed';
}

/** The run names the test from a file other than its copy: it ran the original (a selection by name alone), not the copy. */
function ranTheOriginal(tests: readonly TestCaseResult[], copy: TestCaseResult): boolean {
  return tests.some((t) => t.name === copy.name && t.file !== undefined && t.file !== copy.file);
}

/**
 * The checkout copied to `to` (a clone of each file where the file system can), its links as they
 * are; each `node_modules` folder hard-linked file by file (`cp -al`), not copied: installed packages
 * are the environment, hundreds of megabytes, and an isolating sandbox shows the command only its
 * working folder, so a link to the checkout's would lead nowhere there. Null where the copy could not
 * be made (what is left of it is removed).
 */
export async function copyCheckout(from: string, to: string): Promise<string | null> {
  try {
    await copyTree(from, to);
    return to;
  } catch {
    await rm(to, { recursive: true, force: true });
    return null;
  }
}

async function copyTree(from: string, to: string): Promise<void> {
  const linked: string[] = [];
  await cp(from, to, {
    recursive: true,
    verbatimSymlinks: true,
    mode: constants.COPYFILE_FICLONE,
    filter: (source) => {
      if (source === from || basename(source) !== 'node_modules') return true;
      linked.push(source);
      return false;
    },
  });
  for (const source of linked) {
    const target = join(to, relative(from, source));
    await hardLinked(source, target).catch(() => cp(source, target, { recursive: true, verbatimSymlinks: true }));
  }
}

/** `source` as a tree of hard links at `target` (its symbolic links as they are). */
function hardLinked(source: string, target: string): Promise<void> {
  return new Promise((done, fail) => execFile('cp', ['-al', '--', source, target], (error) => (error ? fail(error) : done())));
}

/**
 * A test file's snapshots are kept under its name (jest's and vitest's `__snapshots__/<file>.snap`,
 * syrupy's `__snapshots__/<module>.ambr`): the copy gets them under its own.
 */
async function copySnapshots(dir: string, file: string, copy: string): Promise<void> {
  const folder = join(dir, posix.dirname(file), '__snapshots__');
  const names = await readdir(folder).catch(() => [] as string[]);
  const [name, copyName] = [posix.basename(file), posix.basename(copy)];
  const [stem, copyStem] = [name.replace(/\.py$/, ''), copyName.replace(/\.py$/, '')];
  for (const snapshot of names) {
    const target = snapshot.startsWith(`${name}.`)
      ? copyName + snapshot.slice(name.length)
      : file.endsWith('.py') && snapshot.startsWith(`${stem}.`)
        ? copyStem + snapshot.slice(stem.length)
        : null;
    if (target) await cp(join(folder, snapshot), join(folder, target), { recursive: true });
  }
}
