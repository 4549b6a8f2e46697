// Budgets held while the run goes (not checked after): tool calls, tokens, money and time for the
// whole run, and tokens and money per repository per day across all runs (the shared ledger).
import type { BudgetName, BudgetStop } from '../../core/cost.ts';
import type { Spend, SpendLedger } from '../../core/spend-ledger.ts';
import { utcDay } from '../../core/spend-ledger.ts';
import type { TokenUsage } from './chat-model.ts';

export interface BudgetLimits {
  toolCalls: number;
  tokens: number;
  usd: number;
  timeMs: number;
  dailyTokens?: number;
  dailyUsd?: number;
}

export interface Spending {
  modelCalls: number;
  toolCalls: number;
  tokens: number;
  usd: number;
  /** Time the agent has worked in this run, its own test runs included. */
  ms: number;
}

export interface DailyLedger {
  ledger: SpendLedger;
  /** Whose day it is: the repository's identity, without credentials. */
  repository: string;
}

export class RunBudget {
  readonly limits: BudgetLimits;
  readonly spent: Spending = { modelCalls: 0, toolCalls: 0, tokens: 0, usd: 0, ms: 0 };
  private readonly daily: DailyLedger | null;
  private readonly now: () => number;
  private activeSince: number | null = null;

  constructor(limits: BudgetLimits, daily: DailyLedger | null, now: () => number = Date.now) {
    this.limits = limits;
    this.daily = daily;
    this.now = now;
  }

  /** Starts counting the agent's working time (one attempt, or a review). */
  begin(): void {
    this.activeSince ??= this.now();
  }

  end(): void {
    if (this.activeSince === null) return;
    this.spent.ms += this.now() - this.activeSince;
    this.activeSince = null;
  }

  elapsedMs(): number {
    return this.spent.ms + (this.activeSince === null ? 0 : this.now() - this.activeSince);
  }

  remainingMs(): number {
    return Math.max(0, this.limits.timeMs - this.elapsedMs());
  }

  remainingTokens(): number {
    return Math.max(0, this.limits.tokens - this.spent.tokens);
  }

  /** Before a model call: a stop when any run or daily budget is already used up. */
  async beforeModelCall(): Promise<BudgetStop | null> {
    const run = this.runOverrun();
    if (run) return run;
    if (!this.daily || (this.limits.dailyTokens === undefined && this.limits.dailyUsd === undefined)) return null;
    const today = await this.daily.ledger.spentOn(this.daily.repository, utcDay(new Date(this.now())));
    return this.dailyOverrun(today);
  }

  /** Records a model call's usage here and in the daily ledger. */
  async charge(usage: TokenUsage, usd: number): Promise<void> {
    const tokens = usage.input + usage.output;
    this.spent.modelCalls++;
    this.spent.tokens += tokens;
    this.spent.usd += usd;
    if (this.daily) await this.daily.ledger.addSpend(this.daily.repository, utcDay(new Date(this.now())), { usd, tokens });
  }

  /** Counts a tool call; a stop instead when the tool-call budget is used up. */
  takeToolCall(): BudgetStop | null {
    if (this.spent.toolCalls >= this.limits.toolCalls) return stop('tool_calls', this.limits.toolCalls, this.spent.toolCalls);
    this.spent.toolCalls++;
    return null;
  }

  /** The first run budget used up, if any. */
  runOverrun(): BudgetStop | null {
    if (this.spent.tokens >= this.limits.tokens) return stop('tokens', this.limits.tokens, this.spent.tokens);
    if (this.spent.usd >= this.limits.usd) return stop('cost', this.limits.usd, this.spent.usd);
    if (this.elapsedMs() >= this.limits.timeMs)
      return stop('time', this.limits.timeMs / 1000, Math.round(this.elapsedMs() / 1000));
    return null;
  }

  private dailyOverrun(today: Spend): BudgetStop | null {
    if (this.limits.dailyTokens !== undefined && today.tokens >= this.limits.dailyTokens)
      return stop('daily_tokens', this.limits.dailyTokens, today.tokens);
    if (this.limits.dailyUsd !== undefined && today.usd >= this.limits.dailyUsd)
      return stop('daily_cost', this.limits.dailyUsd, today.usd);
    return null;
  }
}

const WHAT: Record<BudgetName, (limit: number, spent: number) => string> = {
  tool_calls: (limit) => `the tool-call budget of ${limit} calls per run is used up`,
  tokens: (limit, spent) => `the token budget of ${limit} tokens per run is used up (${spent} spent)`,
  cost: (limit, spent) => `the cost budget of $${limit.toFixed(2)} per run is used up ($${spent.toFixed(4)} spent)`,
  time: (limit) => `the agent's time budget of ${limit} s per run is used up`,
  daily_tokens: (limit, spent) => `this repository's daily token budget of ${limit} is used up (${spent} today)`,
  daily_cost: (limit, spent) =>
    `this repository's daily cost budget of $${limit.toFixed(2)} is used up ($${spent.toFixed(4)} today)`,
};

function stop(budget: BudgetName, limit: number, spent: number): BudgetStop {
  return { budget, limit, spent, message: WHAT[budget](limit, spent) };
}
