// The `cli` engine: a coding agent people already use (aider, codex, claude) run once per attempt in
// the sandbox, on the workspace, with a prompt fixloop writes. The loop detects what it changed, checks
// it against the path policy and runs the gate; the agent never decides whether its work is kept.
//
// Trade-off, stated plainly: the agent needs its API key and the network to reach its model, so this
// engine runs with `network: true` and a key in the agent's environment, in a workspace whose code is
// untrusted. Each agent is therefore run so that it executes nothing of the repository's on its own
// (see cli-agents.ts), the repository cannot point it at another API base, proxy or certificate, and
// nothing else of the app's environment reaches it. Operators who cannot accept that use `repair` or
// `agent`, which keep the key inside fixloop's own process.
import { lstat, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CliAgentName } from '../../core/repo-config.ts';
import type { CommandResult, Mount, Sandbox } from '../../sandbox/sandbox.ts';
import { type AttemptContext, type Engine, type EngineOutcome } from '../engine.ts';
import { ZERO_COST } from '../../core/cost.ts';
import { EngineError } from '../engine-error.ts';
import { shellQuote } from '../../sandbox/shell-quote.ts';
import { agentEnvironment, agentModel, cliAgent, type AgentPurpose, type CliAgent } from './cli-agents.ts';
import { binaryMounts, resolveAgentBinary } from './agent-binary.ts';

export interface CliEngineOptions {
  agent: CliAgentName;
  /** Builds the task prompt for an attempt (goal, failing tests, suspicious places, earlier attempts…). */
  buildPrompt: (ctx: AttemptContext) => Promise<string>;
  /** The app's environment (process.env in production): where the agent's binary, model and key come from. Never passed whole to the sandbox. */
  environment: Record<string, string | undefined>;
  /**
   * Workspace files to hand to the agent (only aider takes them). Default: none. Note that with `--no-git`
   * aider builds no repository map, so without files it sees only what the prompt quotes.
   */
  filesToEdit?: (ctx: AttemptContext) => Promise<string[]>;
}

/** Longest summary tail (the agent's last line) kept in an attempt's summary. */
const SUMMARY_TAIL = 160;
/** Largest answer read back from a review. */
const MAX_ANSWER_BYTES = 1024 * 1024;

/** Splits output chunks into lines for the log; a partial last line waits for the next chunk. */
function lineLogger(log: (line: string) => void): { write: (chunk: string) => void; flush: () => void } {
  let pending = '';
  return {
    write(chunk) {
      const parts = (pending + chunk).split('\n');
      pending = parts.pop() ?? '';
      for (const line of parts) log(line.replace(/\r$/, ''));
    },
    flush() {
      if (pending) log(pending.replace(/\r$/, ''));
      pending = '';
    },
  };
}

function lastLine(output: string): string {
  const lines = output
    .split(/\r?\n|\r/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
  const last = lines.at(-1) ?? '';
  return last.length > SUMMARY_TAIL ? `${last.slice(0, SUMMARY_TAIL - 1)}…` : last;
}

function describeEnd(agent: CliAgentName, result: CommandResult, timeoutMs: number): string {
  if (result.timedOut) return `${agent} timed out after ${Math.round(timeoutMs / 1000)} s`;
  if (result.outputExceeded) return `${agent} was stopped for printing too much`;
  if (result.killed) return `${agent} was stopped`;
  return result.exitCode !== null ? `${agent} exited ${result.exitCode}` : `${agent} ended on signal ${result.signal}`;
}

/** 127: the shell found no program (or its interpreter); 126: found but not executable. */
function notStartable(agent: CliAgent, binary: string, result: CommandResult): EngineError | null {
  if (result.killed || (result.exitCode !== 127 && result.exitCode !== 126)) return null;
  const detail = lastLine(result.output);
  return new EngineError(
    'ENGINE_MISCONFIGURED',
    `the cli engine could not start ${agent.name} (\`${binary}\`, exit ${result.exitCode}${detail ? `: ${detail}` : ''}): check the installation, set ${agent.binVariable}, or choose another agent with \`cli.agent\``,
  );
}

/** The first settings file of the repository the agent would load, if any. */
async function repositorySettings(agent: CliAgent, root: string): Promise<string | null> {
  for (const file of agent.repositorySettingsFiles) {
    if (
      await lstat(join(root, file)).then(
        () => true,
        () => false,
      )
    )
      return file;
  }
  return null;
}

interface AgentRun {
  agent: CliAgent;
  binary: string;
  prompt: string;
  purpose: AgentPurpose;
  files: string[];
  environment: Record<string, string | undefined>;
  repositoryEnv: Record<string, string>;
  sandbox: Sandbox;
  cwd: string;
  timeoutMs: number;
  signal: AbortSignal;
  log: (line: string) => void;
}

/** Runs the agent once; a review's answer (its stdout) is returned as `answer`. */
async function runAgent(run: AgentRun): Promise<{ result: CommandResult; answer: string | null }> {
  // The prompt lives outside the workspace, so that it is never taken for a change.
  const dir = await mkdtemp(join(tmpdir(), 'fixloop-cli-'));
  try {
    const promptFile = join(dir, 'prompt.md');
    const answerFile = join(dir, 'answer.txt');
    await writeFile(promptFile, run.prompt);
    const model = agentModel(run.agent, run.environment, run.purpose);
    let command = run.agent.commandLine({ binary: run.binary, promptFile, model, purpose: run.purpose, files: run.files });
    if (run.purpose === 'review') command += ` > ${shellQuote(answerFile)}`;
    const { env, dropped } = agentEnvironment(run.agent, run.environment, run.repositoryEnv);
    if (dropped.length > 0)
      run.log(`cli: not giving ${run.agent.name} these variables of the repository's env: ${dropped.join(', ')}`);
    // A review writes its answer next to the prompt; an attempt only reads the prompt.
    const mounts: Mount[] = [
      { path: dir, ...(run.purpose === 'review' ? { writable: true } : {}) },
      ...(await binaryMounts(run.binary, run.environment)),
    ];
    run.log(`cli: ${command}`);
    const lines = lineLogger(run.log);
    const result = await run.sandbox.run({
      command,
      cwd: run.cwd,
      timeoutMs: run.timeoutMs,
      signal: run.signal,
      // The agent talks to its model's API: see the trade-off at the top of this file.
      network: true,
      env,
      mounts,
      onOutput: lines.write,
    });
    lines.flush();
    let answer: string | null = null;
    if (run.purpose === 'review') {
      const raw = await readFile(answerFile).catch(() => Buffer.alloc(0));
      answer = raw.subarray(0, MAX_ANSWER_BYTES).toString('utf8').trim();
    }
    return { result, answer };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function repositoryFiles(ctx: AttemptContext, wanted: string[]): Promise<string[]> {
  if (wanted.length === 0) return [];
  // Only files the repository has: nothing outside it, nothing ignored, nothing in .git.
  const existing = new Set(await ctx.workspace.listFiles());
  return [...new Set(wanted)].filter((f) => existing.has(f));
}

export function createCliEngine(options: CliEngineOptions): Engine {
  const agent = cliAgent(options.agent);
  // Resolved on the first attempt (not when the module loads), then kept: a missing binary fails every attempt the same way.
  let binary: Promise<string> | null = null;
  return {
    name: 'cli',
    canWriteTests: true,
    async attempt(ctx: AttemptContext): Promise<EngineOutcome> {
      binary ??= resolveAgentBinary(agent, options.environment);
      const bin = await binary;
      const settings = await repositorySettings(agent, ctx.workspace.root);
      if (settings) {
        const why = `${agent.name} was not run: the repository has \`${settings}\`, from which ${agent.name} would take settings (such as where its API key is sent)`;
        ctx.log(`cli: ${why}`);
        return { summary: why, cost: ZERO_COST, gaveUp: true, notes: [why] };
      }
      const prompt = await options.buildPrompt(ctx);
      const files =
        agent.name === 'aider' && options.filesToEdit ? await repositoryFiles(ctx, await options.filesToEdit(ctx)) : [];
      const timeoutMs = Math.max(1000, Math.min(ctx.config.cli.timeout * 1000, ctx.deadline - Date.now()));
      const { result } = await runAgent({
        agent,
        binary: bin,
        prompt,
        purpose: 'attempt',
        files,
        environment: options.environment,
        repositoryEnv: ctx.config.env,
        sandbox: ctx.sandbox,
        cwd: ctx.workspace.root,
        timeoutMs,
        signal: ctx.signal,
        log: ctx.log,
      });
      const misconfigured = notStartable(agent, bin, result);
      if (misconfigured) throw misconfigured;
      const tail = lastLine(result.output);
      // The tools do not report what they spent in a form that can be trusted (and some not at all):
      // the cost is counted as zero rather than guessed.
      return {
        summary: `${describeEnd(agent.name, result, timeoutMs)}${tail ? `: ${tail}` : ''}`,
        cost: ZERO_COST,
        // Whatever it left, even after a failure, goes to the gate: the loop decides.
        gaveUp: false,
      };
    },
  };
}

export interface AskCliAgentOptions {
  agent: CliAgentName;
  prompt: string;
  environment: Record<string, string | undefined>;
  sandbox: Sandbox;
  /** The workspace the agent looks at (it is not meant to change it). */
  cwd: string;
  timeoutMs: number;
  signal: AbortSignal;
  log?: (line: string) => void;
}

/** One non-interactive prompt → the agent's printed answer (e.g. a cli-based reviewer), with the `review` model. */
export async function askCliAgent(options: AskCliAgentOptions): Promise<string> {
  const agent = cliAgent(options.agent);
  const bin = await resolveAgentBinary(agent, options.environment);
  const settings = await repositorySettings(agent, options.cwd);
  if (settings)
    throw new EngineError(
      'ENGINE_FAILED',
      `${agent.name} was not run: the repository has \`${settings}\`, from which ${agent.name} would take settings (such as where its API key is sent)`,
    );
  const log = options.log ?? (() => undefined);
  const { result, answer } = await runAgent({
    agent,
    binary: bin,
    prompt: options.prompt,
    purpose: 'review',
    files: [],
    environment: options.environment,
    repositoryEnv: {},
    sandbox: options.sandbox,
    cwd: options.cwd,
    timeoutMs: options.timeoutMs,
    signal: options.signal,
    log,
  });
  const misconfigured = notStartable(agent, bin, result);
  if (misconfigured) throw misconfigured;
  if (result.exitCode !== 0 || result.killed) {
    const tail = lastLine(result.output);
    throw new EngineError('ENGINE_FAILED', `${describeEnd(agent.name, result, options.timeoutMs)}${tail ? `: ${tail}` : ''}`);
  }
  for (const line of (answer ?? '').split('\n')) log(line);
  return answer ?? '';
}
