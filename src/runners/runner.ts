// What fixloop knows about one test runner, in one value (docs/design.md §1.5): how to recognise a command
// that starts it, how to read its output, how to ask it for a machine report, how to run only some
// tests, its words for "no tests ran", the files that decide how it runs, its framework's API as a
// patch could reach it, and how to take per-test coverage. Each runner's folder exports one
// `TestRunner`; the gate, the judge and the engines ask the registry (registry.ts), never a runner
// by name. Adding a runner is one folder and one line in the registry.
import type { TestCaseResult, TestReport } from '../core/test-report.ts';
import type { GuardRecord, GuardTestCase } from '../core/guard-record.ts';

/** The file the sandbox starts for a program its commands name (`python3`), or null: none. */
export type ResolveProgram = (program: string) => string | null;

export interface TestRunner {
  /** Stable id, also the `format` of the reports its own output parser builds. */
  readonly id: string;
  /**
   * Whether a command line starts this runner itself (`jest`, `npx jest`, `python -m pytest`, a path
   * ending in its program). npm scripts are followed by the registry, which reads package.json's.
   */
  startedBy(command: string): boolean;
  /** The runner's own console output. */
  readonly output: RunnerOutput;
  /** The report the runner writes when asked: absent when fixloop does not ask this runner. */
  readonly machineReport?: MachineReport;
  /** How the runner runs only the failing tests. */
  readonly focus: Focus;
  /** The runner's own words when it ran no test at all. */
  readonly noTestsRan: NoTestsRan;
  /**
   * Folders inside `node_modules` the runner (or the bundler it runs on) writes while the tests run,
   * its caches and temporary files: a package tree shown read-only gets them as scratch space
   * (src/workspace/tool-caches.ts). Absent: none.
   */
  readonly nodeModulesScratch?: readonly string[];
  /**
   * The error the runner's own code raised while it ran (not a test's, not the repository's), as it
   * printed it: the toolchain is broken, whatever the tests say. Absent or null: none seen.
   */
  crashedItself?(output: string): string | null;
  /**
   * The runner's own words when it refused its command line before any test ran (an option it does
   * not take), as it printed them: the test command is wrong, not the code. Absent or null: none seen.
   */
  refusedCommand?(output: string): string | null;
  /**
   * The interpreter its command runs the tests under (`python3`, `.venv/bin/python`): fixloop's own
   * commands beside the tests (the assessment's look from outside the runner) use the same one, which
   * has the repository's dependencies. Absent: the language's usual one.
   */
  interpreter?(command: string): string;
  /**
   * Makes, outside the sandbox and once per toolchain, the cache an ordinary start of the runner
   * writes beside the operator's toolchain, which a start in the sandbox (read-only, no bytecode)
   * would make again every time: pytest's rewritten plugins. `command` starts the runner; `resolve`
   * gives the file the sandbox starts for a program name; `signal` ends it early. Never fails.
   */
  warmToolchain?(command: string, cwd: string, resolve: ResolveProgram, signal?: AbortSignal): Promise<void>;
  /** Files and settings that decide how the runner runs: a fix may not change them (docs/design.md §3.2.2). */
  readonly configuration: RunnerConfiguration;
  /** Its test framework's JavaScript API, as added source code could reach into it (docs/design.md §3.2.3). */
  readonly framework?: FrameworkApi;
  /** How per-test line coverage is taken from one run of this runner; null: it is not. */
  readonly coverage: CoverageKind | null;
  /** What the judge checks in a patch where a guard inside the process cannot look (docs/design.md §3.2.2–3). */
  readonly judged?: JudgedRunner;
  /**
   * How its test processes load fixloop's runtime guard before the repository's code (docs/design.md
   * §3.2.7); absent: the runner has none, and the report says so (src/gate/runtime-guard.ts).
   */
  readonly guard?: RuntimeGuard;
}

/**
 * The runtime guard of one runner. The gate gives each guard two folders of its own outside the
 * checkout, asks it what to add to the command, shows `code` read-only and `records` writable to the
 * sandbox, runs the command, then reads the records (src/gate/runtime-guard.ts).
 */
export interface RuntimeGuard {
  /**
   * Writes what its processes load into `dirs.code` (its runtime files) and what they need at load
   * into `dirs.records` (e.g. per-process keys), and says what to add so the runner's test processes
   * load it: variables of the environment (which reach the runner through npm, make or a script) or
   * the command itself. Null: the command does not start this runner (nothing is added).
   */
  ask(context: GuardContext, dirs: GuardDirs): Promise<GuardRequest | null>;
  /**
   * The records its processes left in `dirs.records`, one per guarded process. A process known to
   * have loaded the guard whose record is missing, unreadable or not its own (a forgery) is given as
   * a record with `complete: false`: missing evidence, never dropped.
   */
  read(dirs: GuardDirs): Promise<GuardRecord[]>;
  /**
   * A test its processes recorded (`GuardRecord.cases`) as this runner's own output parser names it:
   * the same `id`, `name` and `file`, so the view from inside the process, the parsed output, the
   * focused commands and a stored baseline agree on each test (docs/design.md §3.2.1).
   */
  testCase?(recorded: GuardTestCase): TestCaseResult;
}

export interface GuardContext extends MachineReportContext {
  /** The checkout the command runs in (absolute): files under it are the repository's. */
  root: string;
  /** The test files the baseline ran (relative to `root`): reading them from other code is an event. */
  testFiles: readonly string[];
  /**
   * The runners' configuration and setup files the judge takes as the runner's or the tests' side
   * (relative to `root`: those at the baseline that the patch did not change, src/verify/exempt-files.ts).
   * Absent: every file so named (a run that is not judged, or the pristine baseline itself).
   */
  exemptFiles?: readonly string[];
  /**
   * The variables the runners set in their test processes (the registry's RUNNER_VARIABLES, as regular
   * expressions' sources): the code reading one, or listing an environment that holds one, is an event.
   */
  runnerVariables: readonly string[];
}

export interface GuardDirs {
  /** The guard's own code, shown read-only to the sandbox. */
  code: string;
  /** Where its processes write their records, shown writable to the sandbox. */
  records: string;
}

export interface GuardRequest {
  env?: Record<string, string>;
  command?: string;
}

export interface RunnerOutput {
  /** Reads it into per-test results (null when it is not this runner's). */
  parse(text: string): TestReport | null;
  /**
   * Source locations its failure messages print beyond the language's own stack traces and
   * tracebacks, as global patterns whose groups are the file and the line.
   */
  readonly frames?: readonly RegExp[];
}

export interface MachineReport {
  /** The shared format it writes (src/formats/). */
  readonly format: 'junit';
  /** Its file's name in fixloop's report folder (outside the checkout). */
  readonly file: string;
  /** The name the report's witness gives the runner (kept in stored run results). */
  readonly witness: string;
  /**
   * What to add so the runner writes its report to `path`: variables of the environment (which reach
   * it through npm, make or a script) or the command itself. Null: not asked (the operator asked
   * already, or the command does not start it).
   */
  ask(context: MachineReportContext, path: string): { env?: Record<string, string>; command?: string } | null;
}

export interface MachineReportContext {
  /** The command as it stands so far (an earlier runner's request may have changed it). */
  command: string;
  /** The environment the gate gives the command already (config.env). */
  env: Record<string, string>;
  /** package.json's scripts where the command runs (none without a package.json). */
  packageScripts: Record<string, string>;
}

export interface Focus {
  /**
   * The failing tests' files as the runner's positional arguments, followed by a space, or '' when its
   * test ids name their files already. Null when it cannot select files this way, or a test names none.
   */
  files(failing: TestCaseResult[]): string | null;
  /** The arguments that run only the failing tests, after `files` (which may be ''). Null: cannot. */
  select(failing: TestCaseResult[], files: string): string | null;
  /**
   * Where the arguments go in a command that starts the runner, for a runner that reads what follows
   * its first positional argument as that file's own (node's `--test`): the index after the runner's
   * own options, not the command's end. Absent, or null for a command it does not find: at the end.
   */
  insertAt?(command: string): number | null;
  /**
   * The command without the positional paths the selection makes redundant (a folder the failing
   * tests' files are in: `pytest tests tests/t.py::test_a` runs every test of `tests`, not one).
   * `withFiles`: the selection names the failing tests' files. Absent: the command as it is.
   */
  narrow?(command: string, failing: TestCaseResult[], withFiles: boolean): string;
}

export interface NoTestsRan {
  /** Its closing words when nothing ran, whatever the exit code. */
  readonly output: RegExp;
  /** An exit code that means "nothing ran" when the output also says `words`. */
  readonly exit?: { code: number; words: RegExp };
}

export interface RunnerConfiguration {
  /** Paths of files that configure or start it, or that it loads before any test, and why. */
  readonly files: ReadonlyArray<readonly [RegExp, string]>;
  /** package.json keys that hold its settings. */
  readonly packageKeys: readonly string[];
  /** Sections of INI files (by file name) that hold its settings, by the section's name (`tool:pytest`). */
  readonly sections: Readonly<Record<string, RegExp>>;
  /** Tables of TOML files (by file name) that hold its settings, as dotted key paths (`tool.pytest`). */
  readonly tables?: Readonly<Record<string, readonly string[]>>;
  /** Folders it writes while tests run: never a fix's change. */
  readonly generatedFolders: readonly string[];
  /**
   * Keys of its settings whose values are files it loads before any test (a setup file, a global
   * setup): a file one names is the harness, whatever its own name (src/verify/harness-named-files.ts).
   */
  readonly setupKeys?: readonly string[];
}

export interface FrameworkApi {
  /** Module specifiers (without `node:`) of the framework. */
  readonly modules: RegExp;
  /** The global object through which tests mock and spy (`x.fn()`), if it has one. */
  readonly global?: string;
}

/**
 * How the repair engine's localization takes per-test coverage from one run (the engine owns the
 * instruments: localize/python/, localize/spectra-hook/):
 * - `python-plugin`: the command with a tracing plugin loaded by `argument(module)` appended; only a
 *   single direct invocation takes arguments at its end.
 * - `node-preload`: a hook preloaded through NODE_OPTIONS takes V8's precise coverage at each test's
 *   start and end; `runPerTest`: where it gives nothing, one run per test through the runner's filter.
 */
export type CoverageKind =
  | { readonly kind: 'python-plugin'; argument(module: string): string }
  | { readonly kind: 'node-preload'; readonly runPerTest: boolean };

/** The runner as the judge's static checks see it: what it tells its tests, and what it loads. */
export interface JudgedRunner {
  /**
   * Environment variables it sets in its test processes: added code that reads one can behave one way
   * under test and another in use, which no test can catch.
   */
  readonly envVariables?: RegExp;
  /**
   * Variables honest code reads too, with the value it gives them (`NODE_ENV` → `test`): added code
   * that compares one with that value asks whether a runner is there.
   */
  readonly envValues?: Readonly<Record<string, string>>;
  /**
   * Methods its assertions ask a value to compare itself (`asymmetricMatch`): added code that gives a
   * value one decides the assertion by its own rule, in a project whose code had none.
   */
  readonly equalityHooks?: readonly string[];
  /** The import names it loads, asked of the runner itself: a file the patch adds under one shadows it. */
  readonly loadedNames?: LoadedNames;
}

/**
 * How the judge asks the runner which top-level import names it loads: a command run in an empty
 * folder, in the sandbox, as the gate runs the tests, that starts the runner as the test command would
 * and prints the names.
 */
export interface LoadedNames {
  /** The command for this test command; null: it cannot be asked. */
  command(testCommand: string): string | null;
  /** The names the command printed; null when it printed none. */
  parse(output: string): string[] | null;
  /** The import name a file added at this path would take where the runner looks first; null: none. */
  nameOf(path: string): string | null;
}
