// A command that runs only the named tests through the runner's own selection: the repair engine
// rejects most candidates in a fraction of a suite run, and the replay observes each fixed test alone.
// Null when the runner is not recognised.
import type { TestCaseResult } from '../core/test-report.ts';
import type { TestRunner } from './runner.ts';
import { directRunnerOf, packageScriptOf } from './registry.ts';
import { withoutLauncher, type DirectLaunch } from './direct-launch.ts';
import { packageScriptCall, withScriptArguments } from './package-scripts.ts';

export interface FocusOptions {
  /** Also select the failing tests' files (null where the runner or the report cannot). */
  withFiles?: boolean;
}

function filterArguments(runner: TestRunner | null, failing: TestCaseResult[], withFiles: boolean): string | null {
  if (!runner || failing.length === 0) return null;
  const files = withFiles ? runner.focus.files(failing) : '';
  if (files === null) return null;
  return runner.focus.select(failing, files);
}

export function focusedTestCommand(
  command: string,
  failing: TestCaseResult[],
  packageScripts: Record<string, string> = {},
  options: FocusOptions = {},
): string | null {
  const withFiles = options.withFiles ?? false;
  // Only a single simple command can take extra arguments at its end.
  if (/[;&|]|\$\(|`/.test(command.replace(/\|\|/g, ''))) return null;
  const direct = directRunnerOf(command);
  if (direct) {
    const args = filterArguments(direct, failing, withFiles);
    const narrowed = direct.focus.narrow ? direct.focus.narrow(command, failing, withFiles) : command;
    return args ? passable(withArguments(narrowed, args, direct.focus.insertAt?.(narrowed) ?? null)) : null;
  }
  const script = packageScriptOf(command, packageScripts);
  const call = packageScriptCall(command);
  if (!script || !call) return null;
  const runner = directRunnerOf(script);
  // A chain (`npm run test:jest && npm run lint`, `pnpm lint && pnpm vitest run`): the step of the
  // chain that starts the runner, focused, alone: a script that starts it itself (one level down: npm
  // reruns a script that runs itself without end), or the runner started through a package manager
  // that finds its bin as the script would (a bare `vitest` there is found on the script's PATH only).
  if (/&&/.test(script) && !/[;|]|&(?!&)/.test(script.replace(/&&/g, ''))) {
    const step = script
      .split('&&')
      .map((s) => s.trim())
      .find((s) => directRunnerOf(packageScriptOf(s, packageScripts) ?? '') || (LAUNCHED.test(s) && directRunnerOf(s)));
    return step ? focusedTestCommand(step, failing, packageScripts, options) : null;
  }
  const args = filterArguments(runner, failing, withFiles);
  // The package manager adds what it hands on at the script's end: after the script's own files,
  // where such a runner does not read it as its own.
  const optionsEnd = runner?.focus.insertAt?.(script) ?? null;
  if (optionsEnd !== null && namesFiles(script.slice(optionsEnd))) return null;
  return args && !/[;&|]/.test(script) ? passable(withScriptArguments(call, command, args)) : null;
}

/** A command started through a package manager's launcher, which finds the checkout's bins itself. */
const LAUNCHED = /^(?:npx|pnpm|yarn)\s/;

/** The command with `args` at its end, or at `at` where the runner places them. */
function withArguments(command: string, args: string, at: number | null): string {
  if (at === null) return `${command} ${args}`;
  return `${command.slice(0, at)} ${args}${command.slice(at)}`;
}

/** Whether the text holds a positional argument: a word that is not an option (an option's value counts too: unsure is no). */
function namesFiles(text: string): boolean {
  return text.split(/\s+/).some((word) => word !== '' && !word.startsWith('-'));
}

/** A command that runs the failing tests alone, and whether it selects their files too. */
export interface FocusChoice {
  command: string;
  withFiles: boolean;
  /** Started without npm (direct-launch.ts): the caller checks it as it checks any choice. */
  direct?: boolean;
}

/**
 * The commands that run `failing` alone, best first, each once: their files and names where the
 * runner selects both (jest and vitest then load one test file, not all: commander's failing test
 * alone takes 2 s against 9 s), else their names alone. The repair engine and the assessment both
 * take the first that reports the failing tests. Given `launch`, each is offered first started
 * without npm, where the checkout allows it: fixloop's own runs of a few tests, not the judged ones.
 */
export function focusChoices(
  command: string,
  failing: TestCaseResult[],
  packageScripts: Record<string, string> = {},
  launch?: DirectLaunch,
): FocusChoice[] {
  const choices: FocusChoice[] = [];
  const add = (choice: FocusChoice) => {
    if (!choices.some((c) => c.command === choice.command)) choices.push(choice);
  };
  for (const withFiles of [true, false]) {
    const focused = focusedTestCommand(command, failing, packageScripts, { withFiles });
    if (focused === null) continue;
    const direct = launch ? withoutLauncher(focused, launch) : null;
    if (direct !== null) add({ command: direct, withFiles, direct: true });
    add({ command: focused, withFiles });
  }
  return choices;
}

/** A command a process can be given: none holds a NUL byte (a pytest id could still carry one). */
function passable(command: string): string | null {
  return command.includes('\0') ? null : command;
}
