// What the assessment knows about one language it probes, in one value: which files are its source,
// how a file's changed functions are rewritten to record their calls, the runtime files the rewritten
// code loads, where the failing tests enter the program, and where each failing test's own code is.
// Each language's folder (js/, python/) exports one `ProbeLanguage`; the rest of the assessment asks
// the registry (probe-languages.ts), never a language by name. Adding a language is one folder and
// one line in the registry.
import type { TestCaseResult } from '../core/test-report.ts';
import type { EntrySources } from './entry-sources.ts';
import type { InstrumentedFile, ProbeTarget } from './probe-record.ts';

/**
 * How the look from outside the runner (outside-look.ts) calls this language's functions: a script of
 * fixloop's, copied with the files it loads into the probe's folder, run by a plain interpreter.
 */
export interface OutsideCalls {
  /** Copied, each `from` to `name` in the probe's folder, before the script runs. */
  readonly files: ReadonlyArray<{ from: string; name: string }>;
  /**
   * The command, run in the checkout: `folder` is the probe's folder relative to it, `calls` and
   * `results` the script's input and output there. `testCommand` names the interpreter the
   * repository's dependencies are installed for.
   */
  command(at: { testCommand: string; folder: string; calls: string; results: string }): string;
  /** How the files a distribution of the project ships are listed; absent: the checkout stands for what ships. */
  readonly shipped?: ShippedFiles;
  /**
   * The environment this language's programs are conventionally run with where they are deployed
   * (`NODE_ENV=production`), under which the look makes its calls a second time: a fix that is off
   * there reaches the tests and development, not the program's users. Absent: no such convention.
   */
  readonly deployedSettings?: Readonly<Record<string, string>>;
  /** Where a user's install puts the project (installed-copy.ts); absent: the checkout is where it runs. */
  readonly installedAt?: InstalledAt;
}

/**
 * The folder, relative to where a project is installed from, in which the language's package manager
 * puts the project at `dir` (`node_modules/<name>`); null when it is not a package a user installs.
 */
export type InstalledAt = (dir: string) => Promise<string | null>;

/**
 * The files a published distribution of the project holds, as the language's own packaging tool says
 * (packaged-files.ts runs it): the look from outside the runner runs such a project without the rest.
 */
export interface ShippedFiles {
  /** Whether the checkout at `dir` is a project that is published (a package.json not marked private, a pyproject.toml). */
  published(dir: string): Promise<boolean>;
  /** Copied, each `from` to `name` in the probe's folder, before the command runs. */
  readonly files: ReadonlyArray<{ from: string; name: string }>;
  /**
   * Whether the project builds what it ships when it is packaged (its entry points are made then):
   * the command then runs the project's build, and the built files are listed. Absent: never.
   */
  builds?(dir: string): Promise<boolean>;
  /**
   * The command, run in the checkout, that writes the list to `list` (relative to the checkout; `folder`
   * is the probe's folder, where it may write), building first when `build` says so, and exits 0.
   */
  command(at: { testCommand: string; folder: string; list: string; build: boolean }): string;
  /** The checkout paths (relative, `/`-separated) in what the command wrote; null when it is not a list. */
  paths(text: string): Set<string> | null;
  /**
   * The functions a file of this language defines, by qualified name with each one's text, and
   * whether the file is a build's output (under `dist/` or `build/`); null when it cannot be read as
   * one. A patch that changed a function and left a shipped copy of it as it was reaches no user
   * (stale-builds.ts). Absent: the language ships its sources as they are.
   */
  definedFunctions?(path: string, source: string): DefinedFunctions | null;
}

/** What ShippedFiles.definedFunctions finds in one file. */
export interface DefinedFunctions {
  built: boolean;
  functions: ReadonlyArray<{ name: string; text: string }>;
}

/** First and last line of a failing test's own code. */
export type Span = readonly [number, number];

/** Test file → the spans of the failing tests in it; null when the file is theirs but no span was found (the whole file counts). */
export type FailingTestSpans = Map<string, Span[] | null>;

export interface ProbeLanguage {
  /** The names of what it reads, as a message lists them (`JavaScript`, `TypeScript`). */
  readonly names: readonly string[];
  /** Whether its instrumentation reads the file at a repository path (by the file's name). */
  reads(path: string): boolean;
  /**
   * Whether a path is installed or generated code in this language's projects (a dependency's folder,
   * a build's output, a declaration file): never the repository's own, never probed, whatever
   * language the file itself is in.
   */
  generated(path: string): boolean;
  /**
   * `source` rewritten so that the functions holding `changedLines` (1-based, this version) record
   * their calls into `target.recordFile`; null when the file cannot be read or no function holds one.
   */
  instrument(source: string, changedLines: ReadonlySet<number>, target: ProbeTarget): Promise<InstrumentedFile | null>;
  /** Files the rewritten code loads at run time: copied, each `from` to `name` in `target.runtimeDir`, before the tests run. */
  readonly runtimeFiles: ReadonlyArray<{ from: string; name: string }>;
  /** How a plain process calls its functions; absent: the look from outside the runner skips this language. */
  readonly outside?: OutsideCalls;
  /** Path → the first lines of the functions the failing tests call there (in the order found). */
  entryPoints(fixed: readonly TestCaseResult[], sources: EntrySources): Promise<Map<string, Set<number>>>;
  /**
   * Where each failing test's own code is, by test file, for records that name the test files' lines
   * on their stack (`testLines`). Absent: this language's records name the test itself.
   */
  failingTestSpans?(
    fixed: readonly TestCaseResult[],
    sources: Pick<EntrySources, 'read' | 'testFiles'>,
  ): Promise<FailingTestSpans>;
}
