// The command that runs only the failing tests, which rejects most candidates in a fraction of a suite
// run: the failing tests' files and names where the runner selects both (jest and vitest then load one
// test file, not all of them: commander's suite, 29 files under jest, takes about 20 s, one file 2 s),
// else their names. A selection is taken only once it has run on the unchanged workspace and reported
// some of the failing tests failing and nothing else: one that selects nothing (a path the runner
// resolves otherwise) would reject every candidate, the right one included.
import type { TestCaseResult } from '../../core/test-report.ts';
import { focusChoices, focusedTestCommand } from '../../runners/focused-test-command.ts';
import { runGate } from '../../gate/run-gate.ts';
import type { Sandbox } from '../../sandbox/sandbox.ts';
import { linkedFolderMounts } from '../../workspace/tool-caches.ts';

export interface FocusedCommandInput {
  testCommand: string;
  failing: TestCaseResult[];
  packageScripts: Record<string, string>;
  timeoutMs: number;
  sandbox: Sandbox;
  /** The unchanged workspace, and the folders it links (shown read-only). */
  root: string;
  linkedFolders: readonly string[];
  env: Record<string, string>;
  reportFile?: string;
  signal: AbortSignal;
  log: (line: string) => void;
}

export interface FocusedCommand {
  command: string;
  /** How many tests it reports failing on the unchanged code: a candidate that leaves fewer fixes some. */
  failing: number;
  /** The failing tests that passed alone on the unchanged code, and the command that runs only them. */
  passedAlone?: { command: string; ids: string[] };
}

export async function chooseFocusedCommand(input: FocusedCommandInput): Promise<FocusedCommand | null> {
  const select = (tests: TestCaseResult[], withFiles: boolean) =>
    focusedTestCommand(input.testCommand, tests, input.packageScripts, { withFiles });
  const options = focusChoices(input.testCommand, input.failing, input.packageScripts);
  const wanted = new Set(input.failing.map((t) => t.id));
  for (const { command, withFiles } of options) {
    if (input.signal.aborted) return null;
    const gate = await runGate(input.sandbox, {
      command,
      cwd: input.root,
      timeoutMs: input.timeoutMs,
      env: input.env,
      mounts: linkedFolderMounts(input.linkedFolders),
      signal: input.signal,
      ...(input.reportFile ? { reportFile: input.reportFile } : {}),
    });
    const failed = gate.report.tests.filter((t) => t.status === 'failed').map((t) => t.id);
    // Some of the failing tests may pass alone (one that timed out on a loaded machine): the
    // selection is right when what fails is among them.
    if (!gate.report.parsed || failed.length === 0 || !failed.every((id) => wanted.has(id))) {
      input.log(
        `repair: not focusing with \`${command}\`: on the unchanged code it reported ${gate.report.parsed ? `${gate.report.failed} failing, not among the ${wanted.size} expected` : 'no test results'}`,
      );
      continue;
    }
    if (failed.length === wanted.size) return { command, failing: failed.length };
    // The tests that passed alone are not what a candidate must fix, and their files can be the
    // slowest of the suite (commander's subcommand tests spawn ts-node): the selection keeps the others.
    const still = new Set(failed);
    const narrowed =
      select(
        input.failing.filter((t) => still.has(t.id)),
        withFiles,
      ) ?? command;
    input.log(
      `repair: ${wanted.size - failed.length} of the ${wanted.size} failing tests passed alone on the unchanged code; focusing on the ${failed.length} that fail: ${narrowed}`,
    );
    const alone = input.failing.filter((t) => !still.has(t.id));
    const aloneCommand = select(alone, withFiles);
    return {
      command: narrowed,
      failing: failed.length,
      ...(aloneCommand ? { passedAlone: { command: aloneCommand, ids: alone.map((t) => t.id) } } : {}),
    };
  }
  return null;
}
