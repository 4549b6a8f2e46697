// Engines by name, in cascade order, and the optional reviewer. Each engine's module loads only when
// a run asks for it. LLM settings come from the app's environment (agent-settings.ts); the budget
// object is one per run, shared by the agent and the reviewer.
import { CLI_AGENTS, defaultRepoConfig, type CliAgentName, type RepoConfig } from '../core/repo-config.ts';
import type { Sandbox } from '../sandbox/sandbox.ts';
import type { SpendLedger } from '../core/spend-ledger.ts';
import type { Reviewer } from '../core/reviewer.ts';
import type { Workspace } from '../workspace/workspace.ts';
import type { AgentSettings, Environment, ModelSettings } from './agent/agent-settings.ts';
import type { ChatModel } from './agent/chat-model.ts';
import type { RunBudget } from './agent/run-budget.ts';
import type { Engine } from './engine.ts';
import type { createTemplateSource } from './prompt/templates.ts';
import { EngineError } from './engine-error.ts';
import { createScriptEngine } from './script-engine.ts';

export interface EngineEnvironment {
  /** The app's environment (process.env): models, keys, ceilings. Never handed to the repository's code. */
  env: Environment;
  /** Spend per repository per day, shared by all runs using the same store. */
  ledger: SpendLedger;
}

export interface RunEngines {
  engines: Engine[];
  reviewer: Reviewer | null;
  /** The run's LLM budget, when an LLM takes part (for the report's spend). */
  budget: RunBudget | null;
}

export interface RunScope {
  /** The repository's identity for its daily budget (no credentials). */
  repository: string;
  workspace: Workspace;
  /** Where a coding-agent reviewer runs. */
  sandbox: Sandbox;
}

/** Where engines and reviewer read the prompt templates from (a repository's override, read once per run). */
type TemplateSource = ReturnType<typeof createTemplateSource>;
/** The settings, budget and prices of a run in which a model takes part. */
type ModelKit = Awaited<ReturnType<typeof modelKit>>;

export async function createEngines(config: RepoConfig, environment: EngineEnvironment, scope: RunScope): Promise<RunEngines> {
  const wantsAgent = config.engines.includes('agent');
  const usesModels = wantsAgent || Boolean(environment.env.FIXLOOP_REVIEW_MODEL?.trim());
  // One source per run: every engine and the reviewer read a repository's override once.
  const templates = (await import('./prompt/templates.ts')).createTemplateSource();
  const llm = usesModels ? await modelKit(config, environment, scope, wantsAgent) : null;
  const engines: Engine[] = [];
  for (const name of config.engines) {
    switch (name) {
      case 'repair': {
        const { createRepairEngine } = await import('./repair/repair-engine.ts');
        engines.push(
          createRepairEngine(config.repair.parallelism !== undefined ? { parallelism: config.repair.parallelism } : {}),
        );
        break;
      }
      case 'fixers': {
        const { createFixersEngine } = await import('./fixers/fixers-engine.ts');
        engines.push(createFixersEngine());
        break;
      }
      case 'script':
        if (!config.script.command)
          throw new EngineError(
            'ENGINE_MISCONFIGURED',
            'the script engine needs a command: pass --script "<command>" or set `script.command` in fixloop.yml',
          );
        engines.push(createScriptEngine());
        break;
      case 'agent': {
        if (!llm?.settings.implement)
          throw new EngineError('ENGINE_MISCONFIGURED', 'the agent engine needs a model: set FIXLOOP_MODEL');
        const { createAgentEngine } = await import('./agent/agent-engine.ts');
        const implement = llm.settings.implement;
        engines.push(
          createAgentEngine({
            model: await chatModel(implement),
            price: llm.priceOf(implement.model),
            ...baseURL(implement),
            budget: llm.budget,
            templates,
          }),
        );
        break;
      }
      case 'cli': {
        const { createCliEngine } = await import('./coding-agent/cli-engine.ts');
        const { buildTaskPrompt } = await import('./prompt/build-task-prompt.ts');
        const { suspiciousFiles } = await import('./prompt/task-values.ts');
        engines.push(
          createCliEngine({
            agent: config.cli.agent,
            environment: environment.env,
            buildPrompt: (ctx) => buildTaskPrompt(ctx, templates),
            // aider edits the files it is given: the most suspicious sources when fixing, none when writing a test.
            filesToEdit: async (ctx) => (ctx.mode === 'fix' ? suspiciousFiles(ctx) : []),
          }),
        );
        break;
      }
      default:
        throw new EngineError('ENGINE_UNKNOWN', `unknown engine \`${String(name)}\``);
    }
  }
  const reviewer = await createReviewer(config, environment, scope, llm, templates);
  return { engines, reviewer, budget: llm?.budget ?? null };
}

/**
 * The optional reviewer: a coding agent (FIXLOOP_REVIEW_AGENT) or a model (FIXLOOP_REVIEW_MODEL); setting
 * both is refused, and neither means no reviewer.
 */
async function createReviewer(
  config: RepoConfig,
  environment: EngineEnvironment,
  scope: RunScope,
  llm: ModelKit | null,
  templates: TemplateSource,
): Promise<Reviewer | null> {
  const reviewAgent = environment.env.FIXLOOP_REVIEW_AGENT?.trim();
  if (reviewAgent) {
    if (!(CLI_AGENTS as readonly string[]).includes(reviewAgent))
      throw new EngineError(
        'ENGINE_MISCONFIGURED',
        `FIXLOOP_REVIEW_AGENT: unknown agent \`${reviewAgent}\`; the agents are: ${CLI_AGENTS.join(', ')}`,
      );
    if (llm?.settings.review)
      throw new EngineError('ENGINE_MISCONFIGURED', 'set FIXLOOP_REVIEW_MODEL or FIXLOOP_REVIEW_AGENT, not both');
    const { createCliReviewer } = await import('./coding-agent/cli-reviewer.ts');
    return createCliReviewer({
      agent: reviewAgent as CliAgentName,
      environment: environment.env,
      sandbox: scope.sandbox,
      workspace: () => scope.workspace,
      templates,
      timeoutMs: config.cli.timeout * 1000,
    });
  }
  if (llm?.settings.review) {
    const { createModelReviewer } = await import('./agent/model-reviewer.ts');
    const review = llm.settings.review;
    return createModelReviewer({
      model: await chatModel(review),
      price: llm.priceOf(review.model),
      ...baseURL(review),
      budget: llm.budget,
      templates,
      workspace: () => scope.workspace,
    });
  }
  return null;
}

async function modelKit(config: RepoConfig, environment: EngineEnvironment, scope: RunScope, wantsAgent: boolean) {
  const { agentSettingsFrom } = await import('./agent/agent-settings.ts');
  const { RunBudget } = await import('./agent/run-budget.ts');
  const { priceOf } = await import('./agent/prices.ts');
  const settings: AgentSettings = agentSettingsFrom(environment.env, wantsAgent);
  // The repository's file may lower the app's ceilings, never raise them (the app pays); unset
  // ceilings are the defaults of the file's own settings.
  const defaults = defaultRepoConfig().agent;
  const budget = new RunBudget(
    {
      toolCalls: config.agent.maxToolCalls,
      tokens: Math.min(config.agent.maxTokens, settings.maxTokens ?? defaults.maxTokens),
      usd: Math.min(config.agent.maxCostUsd, settings.maxCostUsd ?? defaults.maxCostUsd),
      timeMs: config.agent.timeBudget * 1000,
      ...(settings.dailyTokens !== undefined ? { dailyTokens: settings.dailyTokens } : {}),
      ...(settings.dailyCostUsd !== undefined ? { dailyUsd: settings.dailyCostUsd } : {}),
    },
    { ledger: environment.ledger, repository: scope.repository },
  );
  const appCapsMoney = settings.maxCostUsd !== undefined || settings.dailyCostUsd !== undefined;
  return {
    settings,
    budget,
    priceOf: (model: string) => {
      const price = priceOf(model, settings.prices);
      // The operator's money ceiling cannot hold for a model whose price is unknown: refuse rather than pretend.
      if (!price && appCapsMoney)
        throw new EngineError(
          'ENGINE_MISCONFIGURED',
          `no price is known for the model \`${model}\`, so FIXLOOP_MAX_COST_USD / FIXLOOP_DAILY_COST_USD cannot hold: add it to FIXLOOP_PRICES, e.g. {"${model}": {"input": 3, "output": 15}} (USD per million tokens)`,
        );
      return price;
    },
  };
}

async function chatModel(settings: ModelSettings): Promise<ChatModel> {
  const options = { model: settings.model, apiKey: settings.apiKey, ...baseURL(settings) };
  if (settings.provider === 'openai') return (await import('./agent/openai-chat-model.ts')).createOpenAIChatModel(options);
  return (await import('./agent/anthropic-chat-model.ts')).createAnthropicChatModel(options);
}

function baseURL(settings: ModelSettings): { baseURL?: string } {
  return settings.baseURL ? { baseURL: settings.baseURL } : {};
}
