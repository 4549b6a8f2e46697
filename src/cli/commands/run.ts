// `fixloop run`: its flags, and how they become config overrides and the LLM settings' variables.
import { Option, type Command } from 'commander';
import type { ConfigOverrides } from '../../config/apply-overrides.ts';
import { CLI_AGENTS, ENGINE_NAMES, EVIDENCE_KINDS } from '../../core/repo-config.ts';
import { parseSandboxChoice, SANDBOX_CHOICES } from '../../sandbox/select-sandbox.ts';
import type { CommandContext } from '../command-context.ts';
import { cliAgentName, engineList, evidenceKind, positiveInteger } from '../parse-values.ts';

interface RunFlags {
  test?: string;
  setup?: string;
  check: string[];
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
  head?: boolean;
  sandbox?: string;
  setupNetwork: boolean;
  goal?: string;
  provider?: string;
  model?: string;
  reviewModel?: string;
  cliAgent?: string;
  evidence?: string;
}

const collect = (value: string, previous: string[]) => [...previous, value];

/** The operator's sandbox choice: the flag, else FIXLOOP_SANDBOX; errors name whichever was used. */
export function sandboxChoice(flag: string | undefined) {
  return parseSandboxChoice(flag ?? process.env.FIXLOOP_SANDBOX, flag !== undefined ? '--sandbox' : 'FIXLOOP_SANDBOX');
}

export function registerRunCommand(program: Command, context: CommandContext): void {
  program
    .command('run')
    .description('Run a verified fix loop on a repository (a local path or a git URL).')
    .argument('[repo]', 'local path or git URL of the repository', '.')
    .option('--test <command>', 'the test command (its exit code is the gate)')
    .option('--setup <command>', 'run once in each fresh checkout before the tests (e.g. "npm ci")')
    .option(
      '--check <command>',
      'a failing check that is not a test suite (lint, format, type check): the gate, with the tests guarding against regressions (repeatable; replaces checks)',
      collect,
      [],
    )
    .addOption(
      new Option(
        '--engine <names>',
        `engine cascade, comma-separated (${ENGINE_NAMES.join(', ')}); default repair, or fixers,repair with --check`,
      ),
    )
    .option('--script <command>', 'the command the script engine runs for each attempt')
    .option(
      '--goal <text>',
      'what is wrong, in words (an issue text); when every test passes, an engine that can write tests first writes one that fails',
    )
    .option(
      '--provider <name>',
      'model provider of the agent engine and the reviewer: openai or anthropic (default: FIXLOOP_PROVIDER)',
    )
    .option('--model <name>', 'model of the agent engine (default: FIXLOOP_MODEL)')
    .option('--review-model <name>', 'a second model that reviews green patches (default: FIXLOOP_REVIEW_MODEL)')
    .option('--cli-agent <name>', `the coding agent of the cli engine: ${CLI_AGENTS.join(', ')} (default: cli.agent, else aider)`)
    .option('--max-attempts <n>', 'most attempts (default 5)')
    .option('--max-consecutive-failures <n>', 'failed gates in a row before escalating (default 3)')
    .option('--allow <glob>', 'a path a fix may change (repeatable; replaces paths.allowed)', collect, [])
    .option('--protect <glob>', 'a path a fix may never change (repeatable; added to paths.protected)', collect, [])
    .option(
      '--evidence <kind>',
      `what a green run must show: ${EVIDENCE_KINDS.join(' or ')} (default per-test; exit-code is for suites whose output cannot be read per test, and is labelled so)`,
    )
    .option(
      '--timeout <seconds>',
      'timeout in seconds of each setup, test and script command (defaults: test.timeout 600, setup.timeout 900, script.timeout 600)',
    )
    .option(
      '--out <dir>',
      "artifacts directory (default: the run's folder in fixloop's data folder, FIXLOOP_DATA_DIR or ~/.local/share/fixloop)",
    )
    .option('--base <ref>', 'base ref of the change being fixed: its diff guides fault localization')
    .option('--json', 'print the RunResult as JSON on stdout')
    .option(
      '--apply',
      "apply the verified patch to REPO's working tree (refused, by name, when a file it touches changed during the run)",
    )
    .option(
      '--head',
      "start from REPO's last commit (HEAD) instead of its working tree as it is (uncommitted changes and untracked files git does not ignore)",
    )
    .option(
      '--sandbox <backend>',
      `isolation of the repository's code: ${SANDBOX_CHOICES.join(', ')} (default: FIXLOOP_SANDBOX, else auto = the strongest available)`,
    )
    .option('--no-setup-network', 'run the setup command without network access too (tests never have it)')
    .action(async (repo: string, flags: RunFlags) => {
      // The loop and its engines load when a run starts, not for `--help` or another command.
      const { runCommand } = await import('../run-command.ts');
      context.setExitCode(
        await runCommand({
          repo,
          overrides: toOverrides(flags),
          ...(flags.out ? { out: flags.out } : {}),
          ...(flags.base ? { base: flags.base } : {}),
          json: flags.json === true,
          apply: flags.apply === true,
          head: flags.head === true,
          sandbox: sandboxChoice(flags.sandbox),
          setupNetwork: flags.setupNetwork,
          ...(flags.goal !== undefined ? { goal: flags.goal } : {}),
          engineEnv: engineEnvironment(flags),
          stdout: context.io.stdout,
          stderr: context.io.stderr,
          signal: context.signal,
        }),
      );
    });
}

function toOverrides(flags: RunFlags): ConfigOverrides {
  const o: ConfigOverrides = { allow: flags.allow, protect: flags.protect };
  if (flags.check.length > 0) o.checks = flags.check;
  if (flags.test !== undefined) o.test = flags.test;
  if (flags.setup !== undefined) o.setup = flags.setup;
  if (flags.engine !== undefined) o.engines = engineList(flags.engine);
  if (flags.script !== undefined) o.script = flags.script;
  if (flags.maxAttempts !== undefined) o.maxAttempts = positiveInteger('--max-attempts', flags.maxAttempts);
  if (flags.maxConsecutiveFailures !== undefined)
    o.maxConsecutiveFailures = positiveInteger('--max-consecutive-failures', flags.maxConsecutiveFailures);
  if (flags.timeout !== undefined) o.timeout = positiveInteger('--timeout', flags.timeout);
  if (flags.cliAgent !== undefined) o.cliAgent = cliAgentName(flags.cliAgent);
  if (flags.evidence !== undefined) o.evidence = evidenceKind(flags.evidence);
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
