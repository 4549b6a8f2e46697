// The command that runs only the failing tests, which rejects most candidates in a fraction of a suite
// run: the failing tests' files and names where the runner selects both (jest and vitest then load one
// test file, not all of them: commander's suite, 29 files under jest, takes about 20 s, one file 2 s),
// else their names. A selection is taken only once it has run on the unchanged workspace and reported
// some of the failing tests failing and nothing else: one that selects nothing (a path the runner
// resolves otherwise) would reject every candidate, the right one included.
import type { TestCaseResult } from '../../core/test-report.ts';
import { focusedTestCommand } from '../../gate/test-filter.ts';
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

export async function chooseFocusedCommand(input: FocusedCommandInput): Promise<string | null> {
  const options = [
    focusedTestCommand(input.testCommand, input.failing, input.packageScripts, { withFiles: true }),
    focusedTestCommand(input.testCommand, input.failing, input.packageScripts),
  ].filter((c, i, all): c is string => c !== null && all.indexOf(c) === i);
  const wanted = new Set(input.failing.map((t) => t.id));
  for (const command of options) {
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
    if (gate.report.parsed && failed.length > 0 && failed.every((id) => wanted.has(id))) return command;
    input.log(`repair: not focusing with \`${command}\`: on the unchanged code it reported ${gate.report.parsed ? `${gate.report.failed} failing, not among the ${wanted.size} expected` : 'no test results'}`);
  }
  return null;
}
