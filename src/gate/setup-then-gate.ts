// One way to run a repository's suite on a checkout, from its validated configuration: the setup
// command (when there is one, with the repository's dependency cache), then the gate. The run's
// baseline, the pristine replay and `fixloop replay` all run it so (`runSuite`), and none of them can
// start without a test command. It belongs to the gate: it decides nothing but how the gate is run.
import { userInfo } from 'node:os';
import { ConfigError } from '../config/config-error.ts';
import type { CheckRun } from '../core/check-result.ts';
import type { GateResult } from '../core/gate-result.ts';
import type { RepoConfig } from '../core/repo-config.ts';
import { runGate, type JudgedFiles } from './run-gate.ts';
import { runChecks } from './run-checks.ts';
import type { CommandResult, Mount, Sandbox } from '../sandbox/sandbox.ts';
import { isRunKey, type DependencyCache, type TreeReuse } from '../core/dependency-cache.ts';

export interface SuiteRunnerOptions {
  sandbox: Sandbox;
  config: RepoConfig;
  signal: AbortSignal;
  /** Setup may reach the network (never the tests): the app's setting, not the repository's. */
  setupNetwork: boolean;
  /** The repository's dependency cache, when the operator keeps one. */
  cache?: DependencyCache | null;
  /** How a checkout gets a saved tree (default `copy`); `link` needs `sandbox` to show `cache.trees`. */
  treeReuse?: TreeReuse;
}

/** What a caller of `runSuite` does between its steps. */
export interface SuiteSteps {
  /** Told each command just before it runs (progress, a log). */
  announce?: (step: 'setup' | 'tests', command: string) => void;
  /**
   * After a setup that passed (null: none is configured), before the tests: e.g. the setup's log
   * kept, its files marked as the environment. Returns the tests' time limit in ms when that is
   * shorter than `test.timeout`.
   */
  beforeTests?: (setup: CommandResult | null) => Promise<number | undefined>;
}

/** What a command of the suite is shown besides its working directory (SuiteRunner.gateWith). */
export interface CommandView {
  mounts?: Mount[];
  tmpDir?: string;
}

/** A failed setup ends the suite before the tests (`gate: null`). */
export type SuiteRun = { setup: CommandResult; gate: null } | { setup: CommandResult | null; gate: GateResult };

export interface SuiteRunner {
  readonly testCommand: string;
  readonly setupCommand: string | null;
  /** Runs the setup command in `cwd`; null when there is none. */
  setup(cwd: string): Promise<CommandResult | null>;
  /** Runs the test command in `cwd`, within `timeoutMs` when that is shorter than `test.timeout`. */
  gate(cwd: string, timeoutMs?: number): Promise<GateResult>;
  /**
   * Runs another command of the suite (e.g. the test command narrowed to some tests) as the gate would,
   * within `timeoutMs` when that is shorter than `test.timeout`. `view.mounts`: folders outside `cwd`
   * it must see (a fork's linked dependencies); `view.tmpDir`: a /tmp kept between runs of fixloop's
   * own candidates (RunCommandOptions.tmpDir), so a runner's caches serve the next one.
   */
  gateWith(cwd: string, command: string, timeoutMs?: number, view?: CommandView): Promise<GateResult>;
  /**
   * A command of fixloop's own run in `cwd` as the tests are (their sandbox, environment, time limit and
   * signal), with no runtime guard and no report, and as its own PID 1: the assessment's look from
   * outside the runner. `view.mounts` as for gateWith.
   */
  plain(cwd: string, command: string, timeoutMs: number, view?: Pick<CommandView, 'mounts'>): Promise<CommandResult>;
  /** The configuration's checks (`checks`: lint, format, type check), the gate of a check run beside the tests. */
  readonly checkCommands: readonly string[];
  /** Each check in `cwd`, as the gate runs the tests (their time limit, environment and signal); none without checks. */
  checks(cwd: string, timeoutMs?: number): Promise<CheckRun[]>;
  /**
   * The same suite, judged (docs/design.md §3.2.7): its gates load the runtime guard of the command's
   * runner, told `testFiles` (the baseline's) and `exemptFiles` (the configuration and setup files that
   * are the runner's, GuardContext.exemptFiles; absent: every file so named). The baseline, the replay
   * and the second observation.
   */
  judged(testFiles: readonly string[], exemptFiles?: readonly string[]): SuiteRunner;
}

/** The test command of a validated configuration: a run cannot go on without one. */
export function requiredTestCommand(config: RepoConfig): string {
  const command = config.test.command;
  if (!command)
    throw new ConfigError('no test command: pass --test "<command>" or set `test.command` in fixloop.yml', 'test.command');
  return command;
}

export function createSuiteRunner(options: SuiteRunnerOptions, guard?: JudgedFiles): SuiteRunner {
  const { sandbox, config, signal } = options;
  const judged = guard ? { guard } : {};
  const testCommand = requiredTestCommand(config);
  const setupCommand = config.setup.command ?? null;
  return {
    testCommand,
    setupCommand,
    async setup(cwd) {
      if (!setupCommand) return null;
      const cache = options.cache ?? null;
      const key = cache ? await cache.treeKey(cwd, setupCommand) : null;
      const how = options.treeReuse ?? 'copy';
      const given = cache && key ? await cache.restoreTree(key, cwd, how) : null;
      if (key && given) return reused(setupCommand, key, given);
      const result = await sandbox.run({
        command: setupCommand,
        cwd,
        timeoutMs: config.setup.timeout * 1000,
        // The package managers' caches are fixloop's, and this repository's only.
        env: { ...(cache?.env ?? {}), ...config.env },
        ...(cache ? { mounts: [{ path: cache.root, writable: true }] } : {}),
        signal,
        network: options.setupNetwork,
      });
      if (cache && key && result.exitCode === 0) await cache.saveTree(key, cwd, how);
      return result;
    },
    gateWith(cwd, command, timeoutMs, view) {
      return runGate(sandbox, {
        command,
        cwd,
        timeoutMs: Math.min(config.test.timeout * 1000, timeoutMs ?? Number.POSITIVE_INFINITY),
        env: config.env,
        signal,
        ...judged,
        ...(view?.mounts ? { mounts: view.mounts } : {}),
        ...(view?.tmpDir ? { tmpDir: view.tmpDir } : {}),
      });
    },
    // As a user runs a program: no sandbox named as PID 1 (RunCommandOptions.ownInit), and HOME the
    // account's home where the sandbox shows the system's user database (accountHome).
    plain: (cwd, command, timeoutMs, view) =>
      sandbox.run({
        command,
        cwd,
        timeoutMs: Math.min(config.test.timeout * 1000, timeoutMs),
        env: { ...accountHome(sandbox), ...config.env },
        signal,
        ownInit: true,
        ...(view?.mounts ? { mounts: view.mounts } : {}),
      }),
    judged: (testFiles, exemptFiles) => createSuiteRunner(options, { testFiles, ...(exemptFiles ? { exemptFiles } : {}) }),
    checkCommands: config.checks,
    checks: (cwd, timeoutMs) =>
      runChecks(sandbox, {
        commands: config.checks,
        cwd,
        timeoutMs: Math.min(config.test.timeout * 1000, timeoutMs ?? Number.POSITIVE_INFINITY),
        env: config.env,
        signal,
      }),
    gate(cwd, timeoutMs) {
      return runGate(sandbox, {
        command: testCommand,
        cwd,
        timeoutMs: Math.min(config.test.timeout * 1000, timeoutMs ?? Number.POSITIVE_INFINITY),
        env: config.env,
        signal,
        witness: true,
        ...judged,
        ...(config.test.report ? { reportFile: config.test.report } : {}),
      });
    },
  };
}

/** The setup (when there is one), then, unless it failed, the gate, in `cwd`. */
export async function runSuite(suite: SuiteRunner, cwd: string, steps: SuiteSteps = {}): Promise<SuiteRun> {
  if (suite.setupCommand) steps.announce?.('setup', suite.setupCommand);
  const setup = await suite.setup(cwd);
  if (setup && setup.exitCode !== 0) return { setup, gate: null };
  const timeoutMs = await steps.beforeTests?.(setup);
  steps.announce?.('tests', suite.testCommand);
  return { setup, gate: await suite.gate(cwd, timeoutMs) };
}

/** How a setup command ended, for messages: `timed out` or `exit N` (or the signal). */
export function setupEnding(result: CommandResult): string {
  return result.timedOut ? 'timed out' : `exit ${result.exitCode ?? result.signal}`;
}

/** A setup the saved tree stood in for: what a person reading setup.log should see. */
function reused(setupCommand: string, key: string, how: TreeReuse): CommandResult {
  const given = how === 'link' ? 'linked (read-only)' : 'copied';
  const source = isRunKey(key)
    ? 'installed earlier in this run for the same package.json (no lockfile decides it, so it is kept for this run only)'
    : 'installed for the same package.json and lockfile';
  const output = `fixloop: \`${setupCommand}\` not run: node_modules ${given} from the tree ${source} (${key.slice(0, 12)})\n`;
  return { exitCode: 0, signal: null, timedOut: false, killed: false, output, truncatedBytes: 0, durationMs: 0 };
}

/**
 * HOME as a user's program has it: the account's home, as the system's user database says, where
 * the sandbox shows that database and an empty read-only system (bwrap). Every other command's HOME
 * is a throw-away folder, and a patch that compares the two tells the sandbox from a machine (a fix
 * made only there passes the plain process too). Only the path: the home's files stay hidden.
 */
function accountHome(sandbox: Sandbox): { HOME?: string } {
  if (sandbox.backend !== 'bwrap') return {};
  try {
    return { HOME: userInfo().homedir };
  } catch {
    return {};
  }
}
