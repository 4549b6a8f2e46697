// An environment failure is an error, never a bug to repair (docs/design.md §1.6, §4.5): a baseline whose
// test command is not found, that timed out, that ran no test, whose failure points only outside
// the repository (the runner or a package of the environment missing), or whose runner crashed in
// its own code says nothing about the code.
// A collection error raised by the repository's own code (a SyntaxError, an import of a missing name
// from one of its modules) stays a failing suite that engines may fix.
import type { GateResult } from '../core/gate-result.ts';
import { RUNNERS } from '../runners/registry.ts';
import { NODE_THAT_STRIPS_TYPES, unloadableTestFiles } from './unloadable-test-files.ts';

export type EnvironmentFailureCode =
  | 'TEST_COMMAND_NOT_FOUND'
  | 'BASELINE_TIMEOUT'
  | 'NO_TESTS_RAN'
  | 'MISSING_MODULE'
  | 'RUNNER_CRASHED'
  | 'TEST_FILES_UNLOADABLE'
  | 'TEST_COMMAND_REFUSED'
  | 'GUARD_NOT_LOADED';

export interface EnvironmentFailure {
  code: EnvironmentFailureCode;
  /** The cause, naming the command or the module. */
  message: string;
  /** What the operator can do about it. */
  hint: string;
}

export interface BaselineContext {
  testCommand: string;
  timeoutSeconds: number;
  /** The repository's files (POSIX paths): a missing module found among them is the code's own bug. */
  repositoryFiles: readonly string[];
  /** The version of the Node that ran the tests (`v20.20.2`), when known: the message names it. */
  nodeVersion?: string;
}

const NOT_FOUND =
  /(?:^|\n)(?:\/bin\/sh: (?:line )?\d+: |sh: (?:line )?\d+: |sh: |bash: (?:line \d+: )?)?([^\s:]+): (?:command )?not found/;
/** The name pytest's runtime guard is copied under for each run (src/runners/pytest/pytest-guard.ts). */
const GUARD_MODULE = /^fixloop_guard_[0-9a-f]+$/;
const PYTHON_MISSING = /No module named '?([A-Za-z_][\w.]*)'?/;
const NODE_MISSING = /(?:Cannot find (?:module|package) '([^']+)'|ERR_MODULE_NOT_FOUND[^\n]*?'([^']+)')/;
/** What `npm init` writes as the test script: it runs nothing and fails, so a run would "repair" it. */
const NPM_PLACEHOLDER = /(?:^|\n)Error: no test specified\s*$/m;
const BIND_HINT =
  "make the runner visible to the sandbox (a toolchain on the server's PATH, FIXLOOP_SANDBOX_BIND) or install it with a setup command (`setup.command`, --setup)";

/** The environment failure the baseline shows, or null when it is a real test result. */
export function environmentFailure(gate: GateResult, context: BaselineContext): EnvironmentFailure | null {
  if (!gate.passed && gate.reason === 'TIMEOUT') {
    return {
      code: 'BASELINE_TIMEOUT',
      message: `the test command \`${context.testCommand}\` timed out after ${context.timeoutSeconds} s on the pristine code`,
      hint: 'raise `test.timeout` (--timeout), or narrow the test command to the suite that fails',
    };
  }
  const notFound = gate.passed ? null : commandNotFound(gate);
  if (notFound)
    return {
      code: 'TEST_COMMAND_NOT_FOUND',
      message: `the test command \`${context.testCommand}\` failed: \`${notFound}\` was not found`,
      hint: BIND_HINT,
    };
  const missing = gate.passed || gate.report.failed > 0 ? null : missingModule(gate.output, context.repositoryFiles);
  if (missing && GUARD_MODULE.test(missing))
    return {
      code: 'GUARD_NOT_LOADED',
      message: `the test command \`${context.testCommand}\` could not import fixloop's runtime guard (\`${missing}\`): the command sets its own PYTHONPATH and runs a Python that reads no user site-packages (a virtual environment, or -s)`,
      hint: 'keep the path fixloop adds: write `PYTHONPATH=src:$PYTHONPATH` instead of `PYTHONPATH=src` in the test command, or set PYTHONPATH in `env` (fixloop.yml) instead of in the command',
    };
  if (missing)
    return {
      code: 'MISSING_MODULE',
      message: `the test command \`${context.testCommand}\` failed before any test ran: the module \`${missing}\` is not installed`,
      hint: `${BIND_HINT}; e.g. \`npm ci\` or \`pip install -e .\``,
    };
  if (!gate.passed && gate.report.total === 0 && NPM_PLACEHOLDER.test(gate.output)) {
    return {
      code: 'NO_TESTS_RAN',
      message: `the test command \`${context.testCommand}\` ran npm's placeholder script (\`echo "Error: no test specified" && exit 1\`): no test ran`,
      hint: 'set `scripts.test` in package.json to the command that runs the tests, or give that command with --test (`test.command`)',
    };
  }
  const refused = gate.passed || gate.report.total > 0 ? null : refusedCommand(gate.output);
  if (refused)
    return {
      code: 'TEST_COMMAND_REFUSED',
      message: `the test command \`${context.testCommand}\` was refused by its test runner before any test ran: ${refused}`,
      hint: refusedHint(refused, context.testCommand),
    };
  const unloadable = unloadableTestFiles(gate);
  if (unloadable) {
    const node = context.nodeVersion ? `Node ${context.nodeVersion.replace(/^v/, '')}` : 'the Node that ran the tests';
    return {
      code: 'TEST_FILES_UNLOADABLE',
      message: `the test command \`${context.testCommand}\` could not load its test files: ${node} cannot load \`${unloadable.extension}\` files (ERR_UNKNOWN_FILE_EXTENSION for \`${unloadable.file}\`)`,
      hint: `run the tests on ${NODE_THAT_STRIPS_TYPES}, which loads TypeScript without a loader (nvm, .nvmrc, the server's PATH), or load one in the test command (\`node --import tsx --test\`)`,
    };
  }
  const crash = gate.passed ? null : runnerCrash(gate.output);
  if (crash) {
    return {
      code: 'RUNNER_CRASHED',
      message: `the test command \`${context.testCommand}\` crashed in the test runner's own code, not in a test: ${crash}`,
      hint: "the runner may need a newer Node or Python than the one that runs the tests (the report's toolchain line names it): give the sandbox the toolchain the project uses (nvm, pyenv, FIXLOOP_SANDBOX_BIND) or pin a runner version it supports",
    };
  }
  if (ranNoTest(gate))
    return {
      code: 'NO_TESTS_RAN',
      message: `the test command \`${context.testCommand}\` ran no test`,
      hint: 'check that the command runs the suite (a filter that matches nothing, or tests the runner does not find), or point `test.report` at a JUnit XML report',
    };
  return null;
}

function commandNotFound(gate: Extract<GateResult, { passed: false }>): string | null {
  const match = NOT_FOUND.exec(gate.output);
  if (gate.exitCode === 127 || (match && gate.report.total === 0)) return match?.[1] ?? 'a program';
  return null;
}

function refusedCommand(output: string): string | null {
  for (const runner of RUNNERS) {
    const refused = runner.refusedCommand?.(output);
    if (refused) return refused;
  }
  return null;
}

function runnerCrash(output: string): string | null {
  for (const runner of RUNNERS) {
    const crash = runner.crashedItself?.(output);
    if (crash) return crash;
  }
  return null;
}

/** No test ran: none parsed, and a runner's own words for it (or its exit code for it) say so. */
function ranNoTest(gate: GateResult): boolean {
  if (gate.report.total > 0) return false;
  if (
    !gate.passed &&
    RUNNERS.some(({ noTestsRan: { exit } }) => exit && gate.exitCode === exit.code && exit.words.test(gate.output))
  )
    return true;
  return (gate.report.parsed && gate.passed) || RUNNERS.some((r) => r.noTestsRan.output.test(gate.output));
}

/** The top-level name of a module the failure says is missing, when the repository does not have it. */
export function missingModule(output: string, repositoryFiles: readonly string[]): string | null {
  const python = PYTHON_MISSING.exec(output)?.[1];
  if (python) {
    const top = python.split('.')[0] ?? python;
    return repositoryHasPythonModule(top, repositoryFiles) ? null : top;
  }
  const node = NODE_MISSING.exec(output);
  const specifier = node?.[1] ?? node?.[2];
  // A relative or absolute path that is missing is the repository's own import: its bug to fix.
  if (!specifier || specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('file:')) return null;
  const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : (specifier.split('/')[0] ?? specifier);
  if (name.startsWith('node:')) return null;
  return repositoryFiles.some((f) => f === `${name}.js` || f.startsWith(`${name}/`)) ? null : name;
}

function repositoryHasPythonModule(top: string, files: readonly string[]): boolean {
  return files.some((f) => f === `${top}.py` || f.endsWith(`/${top}.py`) || f.startsWith(`${top}/`) || f.includes(`/${top}/`));
}

/**
 * What to do about a refused command. Options that a command starting the runner itself does not
 * give came from the project's configuration (the options a runner's configuration file adds),
 * written for a plugin the toolchain the tests run on lacks: the command is not what to change.
 */
function refusedHint(refused: string, testCommand: string): string {
  // Through a script (npm's, make's), the options may be the script's own.
  const direct = !/^\s*(npm|yarn|pnpm|make|just)\b/.test(testCommand);
  const given = new Set(direct ? testCommand.split(/[\s=]+/) : []);
  const notGiven = (refused.match(/(?<=^|[\s:"'])--?[A-Za-z][\w-]*/g) ?? []).filter((option) => !given.has(option));
  if (!direct || notGiven.length === 0)
    return 'fix the test command (`test.command`, --test) to one the runner takes, as the project runs its tests';
  const options = [...new Set(notGiven)].map((o) => `\`${o}\``).join(', ');
  return `the test command does not give ${options}: the project's configuration does (the options its runner's configuration file adds), for a plugin the toolchain the tests run on lacks; install the plugin there, or run the tests where the project's test dependencies are installed (its virtualenv)`;
}
