// The `agent` engine: an LLM with tools, inside the loop. It edits the workspace through the same
// API as fixloop (the path policy holds), runs the tests in the sandbox, and says `complete`; the
// loop then gates and verifies. Budgets are checked before every model and tool call, not after.
import type { AttemptContext, Engine, EngineOutcome } from '../engine.ts';
import type { BudgetStop } from '../../core/cost.ts';
import { buildTaskPrompt } from '../prompt/build-task-prompt.ts';
import type { Template, TemplateName } from '../prompt/templates.ts';
import type { Workspace } from '../../workspace/workspace.ts';
import { AGENT_TOOLS, runTool } from './agent-tools.ts';
import type { ChatMessage, ChatModel, ModelReply, ToolCall, ToolResult } from './chat-model.ts';
import { modelCallError } from './model-errors.ts';
import { costOf, type Price } from './prices.ts';
import type { RunBudget } from './run-budget.ts';

export interface AgentEngineOptions {
  model: ChatModel;
  /** Null when the model's price is unknown: its cost counts as 0 and the report says so. */
  price: Price | null;
  baseURL?: string;
  budget: RunBudget;
  templates: (name: TemplateName, workspace: Workspace) => Promise<Template>;
  maxOutputTokens?: number;
}

const SYSTEM = [
  'You are a careful software engineer working inside fixloop, a bot that fixes bugs in a repository.',
  'You act only through the tools. Paths are relative to the repository root.',
  'Your work is accepted only if the full test suite passes when fixloop runs it, and the patch replays on a clean checkout.',
].join(' ');

export function createAgentEngine(options: AgentEngineOptions): Engine {
  const { model, budget } = options;
  return {
    name: 'agent',
    canWriteTests: true,
    async attempt(ctx: AttemptContext): Promise<EngineOutcome> {
      budget.begin();
      const before = {
        usd: budget.spent.usd,
        tokens: budget.spent.tokens,
        modelCalls: budget.spent.modelCalls,
        toolCalls: budget.spent.toolCalls,
      };
      const notes: string[] = [];
      if (!options.price)
        notes.push(
          `no price is known for the model \`${model.model}\`: its cost counts as $0 and the cost budget cannot hold (tokens are still capped); add it to FIXLOOP_PRICES`,
        );
      try {
        ctx.log(`agent: ${model.provider} ${model.model}`);
        const messages: ChatMessage[] = [{ role: 'user', text: await buildTaskPrompt(ctx, options.templates) }];
        const ended = await converse(options, ctx, messages, notes);
        const spent = { usd: budget.spent.usd - before.usd, tokens: budget.spent.tokens - before.tokens };
        return {
          summary: ended.stop ? `stopped: ${ended.stop.message}` : ended.summary,
          cost: spent,
          gaveUp: false,
          stats: {
            modelCalls: budget.spent.modelCalls - before.modelCalls,
            toolCalls: budget.spent.toolCalls - before.toolCalls,
          },
          ...(ended.stop ? { budgetStop: ended.stop } : {}),
          notes,
        };
      } finally {
        budget.end();
      }
    },
  };
}

/** Model call, tool calls, again: until the model calls `complete`, stops calling tools, or a budget ends. */
async function converse(
  options: AgentEngineOptions,
  ctx: AttemptContext,
  messages: ChatMessage[],
  notes: string[],
): Promise<{ summary: string; stop: BudgetStop | null }> {
  const { budget } = options;
  const timeLeft = () => Math.max(0, Math.min(budget.remainingMs(), ctx.deadline - Date.now()));
  for (;;) {
    const stop = await budget.beforeModelCall();
    if (stop) return { summary: '', stop };
    if (ctx.deadline - Date.now() <= 0) return { summary: "the run's time budget ended before the agent completed", stop: null };
    const reply = await callModel(options, ctx, messages, timeLeft());
    if (reply === 'time')
      return {
        summary: '',
        stop: budget.runOverrun() ?? {
          budget: 'time',
          limit: budget.limits.timeMs / 1000,
          spent: Math.round(budget.elapsedMs() / 1000),
          message: 'the time left ran out during a model call',
        },
      };
    const usd = costOf(reply.usage, options.price);
    await budget.charge(reply.usage, usd);
    ctx.log(
      `model: ${reply.usage.input} + ${reply.usage.output} tokens${options.price ? `, $${usd.toFixed(4)}` : ''}${reply.text.trim() ? `: ${reply.text.trim().slice(0, 500)}` : ''}`,
    );
    messages.push({ role: 'assistant', text: reply.text, toolCalls: reply.toolCalls });
    if (reply.toolCalls.length === 0) {
      const said = reply.text.trim().split('\n')[0]?.slice(0, 300);
      return {
        summary: said ? `the model ended without calling complete: ${said}` : 'the model ended without calling complete',
        stop: null,
      };
    }

    const { results, completed, toolStop } = await runToolCalls(budget, ctx, reply.toolCalls, notes, timeLeft);
    messages.push({ role: 'tool', results });
    if (completed !== null) return { summary: completed, stop: null };
    const overrun = toolStop ?? budget.runOverrun();
    if (overrun) return { summary: '', stop: overrun };
  }
}

/**
 * The tool calls of one reply, in order. Every call gets a result, so that the conversation stays
 * well formed: once the tool budget ends, the rest are answered "not run" instead of run.
 */
async function runToolCalls(
  budget: RunBudget,
  ctx: AttemptContext,
  calls: ToolCall[],
  notes: string[],
  timeLeft: () => number,
): Promise<{ results: ToolResult[]; completed: string | null; toolStop: BudgetStop | null }> {
  const results: ToolResult[] = [];
  let completed: string | null = null;
  let toolStop: BudgetStop | null = null;
  for (const call of calls) {
    toolStop ??= budget.takeToolCall();
    if (toolStop) {
      results.push({ id: call.id, content: `not run: ${toolStop.message}`, isError: true });
      continue;
    }
    ctx.log(`tool: ${call.name} ${describeInput(call.input)}`);
    const outcome = await runTool(call, {
      workspace: ctx.workspace,
      sandbox: ctx.sandbox,
      config: ctx.config,
      lastGate: ctx.lastGate,
      ...(ctx.checks ? { checks: ctx.checks } : {}),
      signal: ctx.signal,
      timeLimitMs: timeLeft,
    });
    if (outcome.refused) {
      notes.push(`refused ${call.name}: ${outcome.refused}`);
      ctx.log(`refused: ${outcome.refused}`);
    }
    if (outcome.completed !== undefined) completed = outcome.completed;
    results.push({ id: call.id, content: outcome.content, isError: outcome.isError });
  }
  return { results, completed, toolStop };
}

/** One model call, bounded by the time left: 'time' when that ran out (a cancelled run still throws). */
async function callModel(
  options: AgentEngineOptions,
  ctx: AttemptContext,
  messages: ChatMessage[],
  timeLeftMs: number,
): Promise<ModelReply | 'time'> {
  const { model, budget } = options;
  const timeout = AbortSignal.timeout(Math.max(1, timeLeftMs));
  try {
    return await model.reply({
      system: SYSTEM,
      messages,
      tools: AGENT_TOOLS,
      maxOutputTokens: Math.max(1, Math.min(options.maxOutputTokens ?? 8192, budget.remainingTokens())),
      signal: AbortSignal.any([ctx.signal, timeout]),
    });
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    if (timeout.aborted) return 'time';
    throw modelCallError(error, model, options.baseURL);
  }
}

function describeInput(input: Record<string, unknown>): string {
  const shown = Object.entries(input).map(
    ([k, v]) => `${k}=${typeof v === 'string' ? JSON.stringify(v.length > 80 ? `${v.slice(0, 80)}…` : v) : JSON.stringify(v)}`,
  );
  return shown.join(' ').slice(0, 300);
}
