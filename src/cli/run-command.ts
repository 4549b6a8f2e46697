// `fixloop run [REPO]`: one verified fix loop on a local path or a git URL, assembled by `runLocal`.
// What is the CLI's own: the flags checked, progress on the terminal, the report on stdout, `--apply`
// and the exit code.
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ConfigOverrides } from '../config/apply-overrides.ts';
import { localRequest, repositoryConfig, startingConfig } from '../loop/local-request.ts';
import { runLocal } from '../loop/local-run.ts';
import { keepToolAnswersIn } from '../sandbox/package-settings.ts';
import { selectSandbox, type SandboxChoice } from '../sandbox/select-sandbox.ts';
import { applyResult } from './apply-result.ts';
import { exitCodeFor } from './exit-codes.ts';
import { isGitUrl } from './parse-values.ts';
import { createTerminalProgress } from './terminal-progress.ts';
import { terminalOutput, type TerminalOutput } from './terminal-output.ts';
import { renderTerminalReport } from '../report/render-terminal.ts';
import { COLOUR_STYLE, PLAIN_STYLE } from '../report/terminal-style.ts';
import { UsageError } from './usage-error.ts';
import { agentSettingsFrom, type Environment } from '../engines/agent/agent-settings.ts';
import { createMemorySpendLedger, type SpendLedger } from '../core/spend-ledger.ts';
import { openSqliteStore } from '../jobs/sqlite-store.ts';
import { cacheRootFrom, userDataDir } from '../core/data-dir.ts';
import { commandLineRunsRoot, repositoryOf } from './command-line-runs.ts';

export interface RunCommandOptions {
  repo: string;
  overrides: ConfigOverrides;
  /** Base ref whose diff to HEAD is the strongest localization hint. */
  base?: string;
  out?: string;
  json: boolean;
  apply: boolean;
  /** Start from HEAD rather than the working tree as it is (`--head`). */
  head?: boolean;
  sandbox: SandboxChoice;
  /** Whether setup commands (e.g. `npm ci`) may reach the network; tests never may. */
  setupNetwork: boolean;
  /** What is wrong, in words: the goal of the engines, and red → green when every test passes. */
  goal?: string;
  /** Where LLM settings come from (process.env with the flags applied). */
  engineEnv: Environment;
  /** Where the report and JSON go (stdout) and where progress goes (stderr); injectable for tests. */
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Whether stdout and stderr are terminals, and colour; by default, this process's own streams. */
  terminal?: TerminalOutput;
  signal?: AbortSignal;
}

export async function runCommand(options: RunCommandOptions): Promise<number> {
  const remote = isGitUrl(options.repo);
  const localDir = remote ? null : resolve(options.repo);
  if (localDir !== null) {
    if (!existsSync(localDir)) throw new UsageError(`REPO \`${options.repo}\` does not exist`);
    if (!statSync(localDir).isDirectory()) throw new UsageError(`REPO \`${options.repo}\` is not a directory`);
  }
  if (options.apply && localDir === null)
    throw new UsageError('--apply needs a local REPO (it applies the verified patch to that working tree)');

  // A local repository's file is checked before anything runs, so a bad key fails fast; read from
  // the files the run will start from (the working tree, or HEAD with --head), as the run reads it.
  const workingTree = options.head !== true;
  const initial = localDir
    ? await startingConfig(localDir, options.overrides, workingTree)
    : await repositoryConfig(null, options.overrides);
  if (localDir && !initial.test.command) {
    throw new UsageError('no test command: pass --test "<command>" or set `test.command` in fixloop.yml');
  }
  if (initial.engines.includes('script') && !initial.script.command) {
    throw new UsageError('the script engine needs a command: pass --script "<command>" or set `script.command` in fixloop.yml');
  }

  // LLM settings are checked before anything is cloned, so a missing key fails fast.
  if (initial.engines.includes('agent') || options.engineEnv.FIXLOOP_REVIEW_MODEL)
    agentSettingsFrom(options.engineEnv, initial.engines.includes('agent'));
  if (options.goal !== undefined && !options.goal.trim()) throw new UsageError('--goal needs a text');
  const ledger = await spendLedgerFor(options.engineEnv);

  // The operator's npm and pip are asked once for many runs (each run is a process): in fixloop's cache folder.
  keepToolAnswersIn(cacheRootFrom(process.env));
  const { sandbox, warning } = selectSandbox(options.sandbox);
  if (warning) options.stderr(`fixloop: warning: ${warning}\n`);

  const request = localRequest({
    source: localDir ?? options.repo,
    baseRef: options.base ?? null,
    goal: options.goal,
    config: initial,
    workingTree,
  });
  const terminal = options.terminal ?? terminalOutput(process.stdout, process.stderr, process.env);
  const progress = options.json
    ? undefined
    : createTerminalProgress(options.stderr, { tty: terminal.stderrTty, reportFollows: terminal.stdoutTty });
  let finished;
  try {
    // The repository's own file, read from the clone (the tree the run starts from), with the flags on top.
    finished = await runLocal(
      { request, overrides: options.overrides },
      {
        sandbox,
        setupNetwork: options.setupNetwork,
        engineEnvironment: { env: options.engineEnv, ledger: ledger.ledger },
        // fixloop's data folder, one folder per repository: never the repository (command-line-runs.ts).
        artifactsRoot: await commandLineRunsRoot(
          userDataDir(process.env),
          await repositoryOf(localDir ?? options.repo, localDir !== null),
        ),
        cacheDir: cacheRootFrom(process.env),
        ...(options.out ? { artifactsDir: resolve(options.out) } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
        ...(progress ? { onProgress: progress } : {}),
      },
    );
  } finally {
    await ledger.close();
  }

  const { result, report } = finished;
  // On a terminal the report is text, and says the error: once. Elsewhere stdout is the Markdown
  // report for a file or a program, and stderr keeps the error for the person watching.
  if (options.json) options.stdout(report.json);
  else if (terminal.stdoutTty)
    options.stdout(`\n${renderTerminalReport(result, { style: terminal.colour ? COLOUR_STYLE : PLAIN_STYLE })}`);
  else options.stdout(`\n${report.markdown}`);

  let code = exitCodeFor(result);
  if (result.status === 'error' && !options.json && !terminal.stdoutTty)
    options.stderr(`fixloop: ${result.error?.message ?? 'error'}\n`);
  if (options.apply && localDir && result.status === 'tests_green')
    code = await applyResult(localDir, result, code, options.stderr);
  return code;
}

/**
 * A daily budget must hold across runs: with FIXLOOP_DAILY_* set, the spend is kept in a run store in
 * fixloop's data folder (FIXLOOP_DATA_DIR, as the App does, else the user's data folder);
 * otherwise only this run counts.
 */
async function spendLedgerFor(env: Environment): Promise<{ ledger: SpendLedger; close: () => Promise<void> }> {
  if (!env.FIXLOOP_DAILY_COST_USD && !env.FIXLOOP_DAILY_TOKENS)
    return { ledger: createMemorySpendLedger(), close: async () => undefined };
  const store = await openSqliteStore(userDataDir(env));
  return { ledger: store, close: () => store.close() };
}
