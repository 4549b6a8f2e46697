// The command that runs only the failing tests, which rejects most candidates in a fraction of a suite
// run: the failing tests' files and names where the runner selects both (jest and vitest then load one
// test file, not all of them: commander's suite, 29 files under jest, takes about 20 s, one file 2 s),
// else their names. A selection is taken only once it has run on the unchanged workspace and reported
// some of the failing tests failing and nothing else: one that selects nothing (a path the runner
// resolves otherwise) would reject every candidate, the right one included.
import type { TestCaseResult } from '../../core/test-report.ts';
import { focusChoices, focusedTestCommand } from '../../runners/focused-test-command.ts';
import { directLaunchOf, withoutLauncher } from '../../runners/direct-launch.ts';
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
  // Each candidate's run is fixloop's own: started without npm where the workspace allows it.
  const launch = await directLaunchOf(input.root, input.packageScripts);
  const select = (tests: TestCaseResult[], withFiles: boolean, direct: boolean) => {
    const command = focusedTestCommand(input.testCommand, tests, input.packageScripts, { withFiles });
    return command !== null && direct ? (withoutLauncher(command, launch) ?? command) : command;
  };
  const options = focusChoices(input.testCommand, input.failing, input.packageScripts, launch);
  const wanted = new Set(input.failing.map((t) => t.id));
  const failedUnder = failedTests(input);
  for (const [i, { command, withFiles, direct = false }] of options.entries()) {
    if (input.signal.aborted) return null;
    const failures = await failedUnder(command);
    const failed = failures?.map((t) => t.id) ?? null;
    // Some of the failing tests may pass alone (one that timed out on a loaded machine): the
    // selection is right when what fails is among them.
    if (!failed || failed.length === 0 || !failed.every((id) => wanted.has(id))) {
      input.log(
        `repair: not focusing with \`${command}\`: on the unchanged code it reported ${failed ? `${failed.length} failing, not among the ${wanted.size} expected` : 'no test results'}`,
      );
      continue;
    }
    // Started without npm, it stands only where npm's own form fails the same tests with the same
    // messages: a process npm would have shaped otherwise could fail them for want of it (a module
    // that does not load), and would then reject every candidate.
    const launcher = options[i + 1];
    if (direct && launcher && !sameFailures(failures ?? [], await failedUnder(launcher.command))) {
      input.log(`repair: not focusing with \`${command}\`: its failures differ from \`${launcher.command}\`'s`);
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
        direct,
      ) ?? command;
    input.log(
      `repair: ${wanted.size - failed.length} of the ${wanted.size} failing tests passed alone on the unchanged code; focusing on the ${failed.length} that fail: ${narrowed}`,
    );
    const alone = input.failing.filter((t) => !still.has(t.id));
    const aloneCommand = select(alone, withFiles, direct);
    return {
      command: narrowed,
      failing: failed.length,
      ...(aloneCommand ? { passedAlone: { command: aloneCommand, ids: alone.map((t) => t.id) } } : {}),
    };
  }
  return null;
}

type Failure = { id: string; message: string };

/** The tests a command fails on the unchanged workspace (null: no per-test results), each command run once. */
function failedTests(input: FocusedCommandInput): (command: string) => Promise<Failure[] | null> {
  const runs = new Map<string, Promise<Failure[] | null>>();
  return (command) => {
    const known = runs.get(command);
    if (known) return known;
    const run = runGate(input.sandbox, {
      command,
      cwd: input.root,
      timeoutMs: input.timeoutMs,
      env: input.env,
      mounts: linkedFolderMounts(input.linkedFolders),
      signal: input.signal,
      ...(input.reportFile ? { reportFile: input.reportFile } : {}),
    }).then((gate) => (gate.report.parsed ? gate.report.tests.filter((t) => t.status === 'failed').map(failure) : null));
    runs.set(command, run);
    return run;
  };
}

/** A failure as the runner told it: its first line is often the same for any value ("expect(received).toBe(expected)"). */
const failure = (t: TestCaseResult): Failure => ({ id: t.id, message: [t.message, t.expected, t.actual].join('\0') });

function sameFailures(a: readonly Failure[], b: readonly Failure[] | null): boolean {
  const key = (f: Failure) => `${f.id}\0${f.message}`;
  const other = new Set(b?.map(key));
  return b !== null && a.length === b.length && a.every((f) => other.has(key(f)));
}
