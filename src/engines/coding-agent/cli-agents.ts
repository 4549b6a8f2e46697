// The coding agents the `cli` engine runs: how to call each one non-interactively and which of the
// app's environment variables it may see. Flags checked against each tool's documentation:
// - aider: aider.chat/docs/config/options.html (Aider-AI/aider, aider/website/docs/config/options.md)
//   and aider.chat/docs/scripting.html (--message-file, --yes-always, --no-auto-commits).
// - codex: developers.openai.com/codex/noninteractive (`codex exec`, `--sandbox workspace-write`,
//   `--skip-git-repo-check`, the prompt `-` read from stdin) and the `codex exec` flag reference.
// - claude: the Claude Code CLI reference and headless-mode pages (`-p`, `--output-format text`,
//   `--permission-mode acceptEdits`, `--setting-sources`, `--strict-mcp-config`, `--disallowedTools`).
// fixloop never lets an agent commit, run git on the workspace, or ask a question: the loop judges and
// keeps the changes, and nobody is there to answer.
import type { CliAgentName } from '../../core/repo-config.ts';
import { shellQuote } from '../../sandbox/shell-quote.ts';

/** What the agent is run for: an attempt edits the workspace; a review only answers. */
export type AgentPurpose = 'attempt' | 'review';

export interface AgentCommandInput {
  /** Absolute path of the agent's executable. */
  binary: string;
  /** Absolute path of the file holding the prompt (outside the workspace). */
  promptFile: string;
  model: string | null;
  purpose: AgentPurpose;
  /** Workspace-relative files to hand to the agent (aider edits only the files it is given). */
  files: string[];
}

export interface CliAgent {
  name: CliAgentName;
  /** The variable of the app's environment that overrides the executable (a name or an absolute path). */
  binVariable: string;
  defaultBinary: string;
  /** Variables of the app's environment the agent gets: its keys and settings, nothing else. */
  envNames: readonly string[];
  envPrefixes: readonly string[];
  /** Variables naming the model, first set wins. */
  modelVariables: Record<AgentPurpose, readonly string[]>;
  /**
   * Files at the workspace root from which the agent would load settings of the repository's choosing,
   * e.g. an API base URL that sends the operator's key elsewhere. The engine does not run the agent on
   * such a repository.
   */
  repositorySettingsFiles: readonly string[];
  /** The shell command line: the prompt comes from a file (or stdin redirected from it), never argv. */
  commandLine(input: AgentCommandInput): string;
}

const q = shellQuote;

/** A workspace path that can never be read as an option, whatever its name. */
function fileArgument(path: string): string {
  return q(path.startsWith('-') ? `./${path}` : path);
}

const aider: CliAgent = {
  name: 'aider',
  binVariable: 'FIXLOOP_AIDER_BIN',
  defaultBinary: 'aider',
  envNames: ['OPENAI_API_KEY', 'OPENAI_API_BASE', 'OPENAI_BASE_URL', 'ANTHROPIC_API_KEY'],
  envPrefixes: ['AIDER_'],
  modelVariables: { attempt: ['AIDER_MODEL'], review: ['AIDER_MODEL_VER', 'AIDER_MODEL'] },
  // aider loads .env (overriding the environment), .aider.conf.yml and .aider.model.settings.yml from
  // the current directory and the git root: any of them can set the API base its key is sent to.
  repositorySettingsFiles: ['.env', '.aider.conf.yml', '.aider.model.settings.yml'],
  commandLine({ binary, promptFile, model, purpose, files }) {
    const args = [
      q(binary),
      // No git at all: no repository detection, no commits (auto or of a dirty tree), no .gitignore edit.
      '--no-git',
      '--no-gitignore',
      '--no-auto-commits',
      '--no-dirty-commits',
      // Never waits for an answer; never runs shell commands, linters or tests of its own (the loop runs the gate).
      '--yes-always',
      '--no-suggest-shell-commands',
      '--no-auto-lint',
      '--no-auto-test',
      '--no-detect-urls',
      // Plain, line-oriented output for the attempt log.
      '--no-pretty',
      '--no-stream',
      '--no-fancy-input',
      '--no-show-model-warnings',
      // Nothing phones home or asks on first run.
      '--no-check-update',
      '--no-show-release-notes',
      '--analytics-disable',
      // Its history files would otherwise land in the workspace and be taken for changes.
      '--chat-history-file',
      '/dev/null',
      '--input-history-file',
      '/dev/null',
    ];
    if (purpose === 'review') args.push('--chat-mode', 'ask', '--dry-run');
    if (model) args.push('--model', q(model));
    args.push('--message-file', q(promptFile));
    args.push(...files.map(fileArgument));
    return args.join(' ');
  },
};

const codex: CliAgent = {
  name: 'codex',
  binVariable: 'FIXLOOP_CODEX_BIN',
  defaultBinary: 'codex',
  envNames: ['OPENAI_API_KEY', 'OPENAI_BASE_URL'],
  envPrefixes: ['CODEX_'],
  modelVariables: { attempt: ['CODEX_MODEL_IMPL', 'CODEX_MODEL'], review: ['CODEX_MODEL_VER', 'CODEX_MODEL'] },
  // Recent versions read a project's .codex/config.toml (model providers, base URLs) when they trust
  // the project; fixloop does not rely on the trust list of a throw-away HOME to keep it out.
  repositorySettingsFiles: ['.codex/config.toml'],
  commandLine({ binary, promptFile, model, purpose }) {
    // `codex exec` never asks for approval; its own sandbox lets it write the workspace only (or nothing
    // for a review). The workspace is a git checkout, but the check is skipped so that it never matters.
    const args = [
      q(binary),
      'exec',
      '--skip-git-repo-check',
      '--sandbox',
      purpose === 'attempt' ? 'workspace-write' : 'read-only',
      '--color',
      'never',
    ];
    if (model) args.push('-m', q(model));
    // `-`: the prompt is read from stdin.
    args.push('-', '<', q(promptFile));
    return args.join(' ');
  },
};

const claude: CliAgent = {
  name: 'claude',
  binVariable: 'FIXLOOP_CLAUDE_BIN',
  defaultBinary: 'claude',
  envNames: ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'ANTHROPIC_MODEL'],
  envPrefixes: ['CLAUDE_'],
  modelVariables: { attempt: ['CLAUDE_MODEL_IMPL', 'CLAUDE_MODEL'], review: ['CLAUDE_MODEL_VER', 'CLAUDE_MODEL'] },
  repositorySettingsFiles: [],
  commandLine({ binary, promptFile, model, purpose }) {
    const args = [
      q(binary),
      '-p',
      '--output-format',
      'text',
      // Only the (throw-away) user settings: the repository's .claude/settings*.json could add hooks,
      // allow any command or set the API base; its .mcp.json servers are not started either.
      '--setting-sources',
      'user',
      '--strict-mcp-config',
    ];
    if (purpose === 'attempt') {
      // Edits are accepted without asking; anything else that would ask is refused in print mode. git is
      // refused outright.
      args.push('--permission-mode', 'acceptEdits', '--disallowedTools', q('Bash(git:*)'));
    } else {
      args.push('--permission-mode', 'default', '--disallowedTools', q('Bash,Edit,Write,NotebookEdit'));
    }
    if (model) args.push('--model', q(model));
    args.push('<', q(promptFile));
    return args.join(' ');
  },
};

export const CLI_AGENT_TABLE: Readonly<Record<CliAgentName, CliAgent>> = { aider, codex, claude };

export function cliAgent(name: CliAgentName): CliAgent {
  return CLI_AGENT_TABLE[name];
}

export function agentModel(
  agent: CliAgent,
  environment: Record<string, string | undefined>,
  purpose: AgentPurpose,
): string | null {
  for (const name of agent.modelVariables[purpose]) {
    const value = environment[name]?.trim();
    if (value) return value;
  }
  return null;
}

function isAgentVariable(agent: CliAgent, name: string): boolean {
  return agent.envNames.includes(name) || agent.envPrefixes.some((p) => name.startsWith(p));
}

/**
 * Variables the repository's `env` may not set for an agent: the agent's own keys and settings (the
 * operator's environment decides them), and anything that could send its traffic elsewhere, make it
 * trust another certificate, or load the repository's code into the agent's process, which holds a key.
 */
function repositoryMayNotSet(agent: CliAgent, name: string): boolean {
  if (isAgentVariable(agent, name)) return true;
  if (/^(OPENAI|ANTHROPIC|AIDER|CODEX|CLAUDE|LITELLM)_/.test(name)) return true;
  if (/(_API_KEY|_API_BASE|_BASE_URL|_PROXY)$/i.test(name)) return true;
  if (/^(LD|DYLD|PYTHON|NODE|BUN|DENO|GIT|SSL|REQUESTS|CURL)_/.test(name) || /^PYTHON/.test(name)) return true;
  return ['PATH', 'HOME', 'TMPDIR', 'SHELL', 'ENV', 'BASH_ENV', 'NODE_OPTIONS', 'NO_PROXY', 'no_proxy'].includes(name);
}

export interface AgentEnvironment {
  env: Record<string, string>;
  /** Names of the repository's variables left out (never their values). */
  dropped: string[];
}

/**
 * The agent's environment on top of the sandbox's allow-list: the repository's `env` (minus what it
 * may not set), then the agent's own variables from the app's environment. Nothing else of the app's
 * environment: no GitHub token, no private key, no FIXLOOP_* setting, no database URL.
 */
export function agentEnvironment(
  agent: CliAgent,
  environment: Record<string, string | undefined>,
  repositoryEnv: Record<string, string>,
): AgentEnvironment {
  const env: Record<string, string> = {};
  const dropped: string[] = [];
  for (const [name, value] of Object.entries(repositoryEnv)) {
    if (repositoryMayNotSet(agent, name)) dropped.push(name);
    else env[name] = value;
  }
  for (const [name, value] of Object.entries(environment)) {
    if (value !== undefined && isAgentVariable(agent, name)) env[name] = value;
  }
  return { env, dropped };
}
