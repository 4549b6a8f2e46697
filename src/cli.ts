// fixloop's command line: `fixloop run`. Returns the exit code; never throws a user's mistake.
import { Command, CommanderError, Option } from 'commander';
import { ConfigError } from './config/config-error.ts';
import { CLI_AGENTS, ENGINE_NAMES } from './core/repo-config.ts';
import { EXIT } from './cli/exit-codes.ts';
import { cliAgentName, engineList, positiveInteger } from './cli/parse-values.ts';
import { runCommand } from './cli/run-command.ts';
import { serveCommand } from './cli/serve-command.ts';
import { runsList, runsShow } from './cli/runs-command.ts';
import { replayRun } from './cli/replay-command.ts';
import { publishRun } from './cli/publish-command.ts';
import { appAccessFromEnvironment, hasAppCredentials } from './cli/app-credentials.ts';
import { dataDirFrom, openStoredRun } from './cli/stored-run.ts';
import { selectSandbox } from './sandbox/select-sandbox.ts';
import { StoreError } from './jobs/sqlite-store.ts';
import { PostgresStoreError } from './jobs/postgres-store.ts';
import { workerCommand } from './cli/worker-command.ts';
import { parseSandboxChoice, SANDBOX_CHOICES, SandboxChoiceError } from './sandbox/select-sandbox.ts';
import { UsageError } from './cli/usage-error.ts';
import type { ConfigOverrides } from './config/apply-overrides.ts';
import { describeError, errorCode, USER_ERROR_CODES } from './loop/run-error.ts';

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

const defaultIo: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

interface RunFlags {
  test?: string;
  setup?: string;
  engine?: string;
  script?: string;
  maxAttempts?: string;
  maxConsecutiveFailures?: string;
  allow: string[];
  protect: string[];
  timeout?: string;
  out?: string;
  base?: string;
  json?: boolean;
  apply?: boolean;
  sandbox?: string;
  setupNetwork: boolean;
  goal?: string;
  provider?: string;
  model?: string;
  reviewModel?: string;
  cliAgent?: string;
}

const collect = (value: string, previous: string[]) => [...previous, value];

export async function main(argv: string[], io: CliIo = defaultIo): Promise<number> {
  let exitCode: number = EXIT.ok;
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  const program = new Command('fixloop')
    .description('Turns red tests green and proves it: a bounded fix loop judged by the test suite, replayed on a pristine checkout.')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr, outputError: () => undefined })
    .showHelpAfterError(false);

  program
    .command('run')
    .description('Run a verified fix loop on a repository (a local path or a git URL).')
    .argument('[repo]', 'local path or git URL of the repository', '.')
    .option('--test <command>', 'the test command (its exit code is the gate)')
    .option('--setup <command>', 'run once in each fresh checkout before the tests (e.g. "npm ci")')
    .addOption(new Option('--engine <names>', `engine cascade, comma-separated (${ENGINE_NAMES.join(', ')}); default repair`))
    .option('--script <command>', 'the command the script engine runs for each attempt')
    .option('--goal <text>', 'what is wrong, in words (an issue text); when every test passes, an engine that can write tests first writes one that fails')
    .option('--provider <name>', 'model provider of the agent engine and the reviewer: openai or anthropic (default: FIXLOOP_PROVIDER)')
    .option('--model <name>', 'model of the agent engine (default: FIXLOOP_MODEL)')
    .option('--review-model <name>', 'a second model that reviews green patches (default: FIXLOOP_REVIEW_MODEL)')
    .option('--cli-agent <name>', `the coding agent of the cli engine: ${CLI_AGENTS.join(', ')} (default: cli.agent, else aider)`)
    .option('--max-attempts <n>', 'most attempts (default 5)')
    .option('--max-consecutive-failures <n>', 'failed gates in a row before escalating (default 3)')
    .option('--allow <glob>', 'a path a fix may change (repeatable; replaces paths.allowed)', collect, [])
    .option('--protect <glob>', 'a path a fix may never change (repeatable; added to paths.protected)', collect, [])
    .option('--timeout <seconds>', 'timeout of each setup, test and script command (default 600)')
    .option('--out <dir>', 'artifacts directory (default .fixloop/runs/<run-id>)')
    .option('--base <ref>', 'base ref of the change being fixed: its diff guides fault localization')
    .option('--json', 'print the RunResult as JSON on stdout')
    .option('--apply', "apply the verified patch to REPO's working tree")
    .option('--sandbox <backend>', `isolation of the repository's code: ${SANDBOX_CHOICES.join(', ')} (default: FIXLOOP_SANDBOX, else auto = the strongest available)`)
    .option('--no-setup-network', 'run the setup command without network access too (tests never have it)')
    .action(async (repo: string, flags: RunFlags) => {
      exitCode = await runCommand({
        repo,
        overrides: toOverrides(flags),
        ...(flags.out ? { out: flags.out } : {}),
        ...(flags.base ? { base: flags.base } : {}),
        json: flags.json === true,
        apply: flags.apply === true,
        sandbox: parseSandboxChoice(flags.sandbox ?? process.env.FIXLOOP_SANDBOX, flags.sandbox !== undefined ? '--sandbox' : 'FIXLOOP_SANDBOX'),
        setupNetwork: flags.setupNetwork,
        ...(flags.goal !== undefined ? { goal: flags.goal } : {}),
        engineEnv: engineEnvironment(flags),
        stdout: io.stdout,
        stderr: io.stderr,
        signal: controller.signal,
      });
    });

  const runs = program
    .command('runs')
    .description("The GitHub App's recent runs, from the run store in FIXLOOP_DATA_DIR (default .fixloop).")
    .option('--limit <n>', 'how many', '20')
    .action(async (flags: { limit: string }) => {
      await runsList({ stdout: io.stdout }, positiveInteger('--limit', flags.limit));
    });
  runs
    .command('show')
    .description("One run: its state, audit trail and report.")
    .argument('<run-id>', 'as listed by `fixloop runs`')
    .action(async (runId: string) => {
      await runsShow({ stdout: io.stdout }, runId);
    });

  program
    .command('replay')
    .description("Verify again, on a fresh clone, the patch an App run stored (FIXLOOP_DATA_DIR).")
    .argument('<run-id>', 'as listed by `fixloop runs`')
    .option('--sandbox <backend>', `isolation: ${SANDBOX_CHOICES.join(', ')}`)
    .option('--no-setup-network', 'run the setup command without network access')
    .action(async (runId: string, flags: { sandbox?: string; setupNetwork: boolean }) => {
      const dataDir = dataDirFrom(process.env);
      const { sandbox, warning } = selectSandbox(parseSandboxChoice(flags.sandbox ?? process.env.FIXLOOP_SANDBOX, flags.sandbox !== undefined ? '--sandbox' : 'FIXLOOP_SANDBOX'));
      if (warning) io.stderr(`fixloop: warning: ${warning}\n`);
      // A private repository on GitHub needs the App's token; a local or public one does not.
      let auth;
      if (hasAppCredentials(process.env)) {
        const peek = await openStoredRun(dataDir, runId);
        await peek.store.close();
        auth = await (await appAccessFromEnvironment()).cloneAuthFor(peek.job.data);
      }
      const passed = await replayRun({ dataDir, runId, sandbox, setupNetwork: flags.setupNetwork, stdout: io.stdout, signal: controller.signal, ...(auth ? { auth } : {}) });
      exitCode = passed ? EXIT.ok : EXIT.notFixed;
    });

  program
    .command('publish')
    .description('Publish again the verified patch of an App run whose publication failed (needs the App credentials).')
    .argument('<run-id>', 'as listed by `fixloop runs`')
    .action(async (runId: string) => {
      const access = await appAccessFromEnvironment();
      await publishRun({ dataDir: dataDirFrom(process.env), runId, forgeFor: (data) => access.forgeFor(data), stdout: io.stdout });
    });

  program
    .command('worker')
    .description('Handle deliveries and runs from the shared run store (DATABASE_URL), with no web server; scale out with several.')
    .action(async () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      await workerCommand();
    });

  program
    .command('serve')
    .description('Start the GitHub App (Probot). Settings come from the environment or .env: APP_ID, PRIVATE_KEY or PRIVATE_KEY_PATH, WEBHOOK_SECRET, PORT, GHE_HOST, FIXLOOP_DATA_DIR, FIXLOOP_CONCURRENCY.')
    .action(async () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      await serveCommand();
    });

  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    return reportError(error, io);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

function toOverrides(flags: RunFlags): ConfigOverrides {
  const o: ConfigOverrides = { allow: flags.allow, protect: flags.protect };
  if (flags.test !== undefined) o.test = flags.test;
  if (flags.setup !== undefined) o.setup = flags.setup;
  if (flags.engine !== undefined) o.engines = engineList(flags.engine);
  if (flags.script !== undefined) o.script = flags.script;
  if (flags.maxAttempts !== undefined) o.maxAttempts = positiveInteger('--max-attempts', flags.maxAttempts);
  if (flags.maxConsecutiveFailures !== undefined) o.maxConsecutiveFailures = positiveInteger('--max-consecutive-failures', flags.maxConsecutiveFailures);
  if (flags.timeout !== undefined) o.timeout = positiveInteger('--timeout', flags.timeout);
  if (flags.cliAgent !== undefined) o.cliAgent = cliAgentName(flags.cliAgent);
  return o;
}

/** The LLM settings come from the environment; the flags stand for their variables. */
function engineEnvironment(flags: RunFlags): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env };
  if (flags.provider !== undefined) env.FIXLOOP_PROVIDER = flags.provider;
  if (flags.model !== undefined) env.FIXLOOP_MODEL = flags.model;
  if (flags.reviewModel !== undefined) env.FIXLOOP_REVIEW_MODEL = flags.reviewModel;
  return env;
}

function reportError(error: unknown, io: CliIo): number {
  if (error instanceof CommanderError) {
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return EXIT.ok;
    let message = error.message.replace(/^error: /, '');
    if (/--engine/.test(message)) message += `; the engines are: ${ENGINE_NAMES.join(', ')}`;
    io.stderr(`fixloop: ${message}\nRun \`fixloop --help\` for usage.\n`);
    return EXIT.usage;
  }
  if (error instanceof UsageError || error instanceof ConfigError || error instanceof SandboxChoiceError || error instanceof StoreError || error instanceof PostgresStoreError || USER_ERROR_CODES.has(errorCode(error))) {
    io.stderr(`fixloop: ${describeError(error)}\n`);
    return EXIT.usage;
  }
  io.stderr(`fixloop: system error (${errorCode(error)}): ${describeError(error)}\n`);
  return EXIT.system;
}
