// Budgets held while a run goes, on an injected clock: tool calls, tokens, money, working time, and
// per-repository daily limits read from a ledger that every run of the repository shares.
import { describe, expect, it } from 'vitest';
import { RunBudget, type BudgetLimits } from '../../../src/engines/agent/run-budget.ts';
import { createMemorySpendLedger } from '../../../src/core/spend-ledger.ts';

const LIMITS: BudgetLimits = { toolCalls: 3, tokens: 1000, usd: 1, timeMs: 10_000 };

function clock(start = Date.UTC(2025, 0, 15, 12, 0, 0)) {
  let now = start;
  return {
    now: () => now,
    set: (at: number) => void (now = at),
    advance: (ms: number) => void (now += ms),
  };
}

describe('RunBudget: one run', () => {
  it('allows the tool-call limit and stops the call after it, without counting it', () => {
    const budget = new RunBudget(LIMITS, null, clock().now);
    expect([budget.takeToolCall(), budget.takeToolCall(), budget.takeToolCall()]).toEqual([null, null, null]);
    expect(budget.spent.toolCalls).toBe(3);
    const stop = { budget: 'tool_calls', limit: 3, spent: 3, message: 'the tool-call budget of 3 calls per run is used up' };
    expect(budget.takeToolCall()).toStrictEqual(stop);
    expect(budget.takeToolCall()).toStrictEqual(stop);
    expect(budget.spent.toolCalls).toBe(3);
  });

  it('counts tokens and model calls, and stops once the token budget is reached', async () => {
    const budget = new RunBudget(LIMITS, null, clock().now);
    await budget.charge({ input: 600, output: 399 }, 0.01);
    expect(budget.spent).toMatchObject({ modelCalls: 1, tokens: 999 });
    expect(budget.remainingTokens()).toBe(1);
    expect(budget.runOverrun()).toBeNull();
    expect(await budget.beforeModelCall()).toBeNull();
    await budget.charge({ input: 0, output: 50 }, 0.01);
    expect(budget.remainingTokens()).toBe(0);
    const stop = {
      budget: 'tokens',
      limit: 1000,
      spent: 1049,
      message: 'the token budget of 1000 tokens per run is used up (1049 spent)',
    };
    expect(budget.runOverrun()).toStrictEqual(stop);
    expect(await budget.beforeModelCall()).toStrictEqual(stop);
    expect(budget.spent.modelCalls).toBe(2);
  });

  it('stops on cost with dollars to the cent and the spend to four places', async () => {
    const budget = new RunBudget({ ...LIMITS, usd: 0.5 }, null, clock().now);
    await budget.charge({ input: 10, output: 10 }, 0.25);
    expect(budget.runOverrun()).toBeNull();
    await budget.charge({ input: 10, output: 10 }, 0.3);
    expect(budget.spent.usd).toBeCloseTo(0.55, 12);
    expect(budget.runOverrun()).toStrictEqual({
      budget: 'cost',
      limit: 0.5,
      spent: budget.spent.usd,
      message: 'the cost budget of $0.50 per run is used up ($0.5500 spent)',
    });
  });

  it('reports the token budget before the cost budget when both are used up', async () => {
    const budget = new RunBudget(LIMITS, null, clock().now);
    await budget.charge({ input: 2000, output: 0 }, 5);
    expect(budget.runOverrun()?.budget).toBe('tokens');
  });

  it('counts time only between begin() and end()', () => {
    const c = clock();
    const budget = new RunBudget(LIMITS, null, c.now);
    c.advance(60_000); // cloning, setup, the baseline: not the agent's time
    expect(budget.elapsedMs()).toBe(0);
    expect(budget.remainingMs()).toBe(10_000);
    budget.begin();
    c.advance(3000);
    expect(budget.elapsedMs()).toBe(3000);
    expect(budget.remainingMs()).toBe(7000);
    budget.begin(); // a second begin does not restart the count
    c.advance(1000);
    budget.end();
    expect(budget.spent.ms).toBe(4000);
    c.advance(120_000); // the loop's own gate and replay between attempts
    budget.end(); // without begin: nothing
    expect(budget.elapsedMs()).toBe(4000);
    expect(budget.runOverrun()).toBeNull();
    budget.begin();
    c.advance(5999);
    expect(budget.runOverrun()).toBeNull();
    c.advance(1);
    expect(budget.runOverrun()).toStrictEqual({
      budget: 'time',
      limit: 10,
      spent: 10,
      message: "the agent's time budget of 10 s per run is used up",
    });
    c.advance(2600);
    expect(budget.remainingMs()).toBe(0);
    expect(budget.runOverrun()).toMatchObject({ budget: 'time', limit: 10, spent: 13 });
    budget.end();
    expect(budget.spent.ms).toBe(12_600);
  });
});

describe('RunBudget: daily limits across runs', () => {
  const REPO = 'github.com/acme/shop';

  it('reads the day from the shared ledger: two runs of one repository share one daily token budget', async () => {
    const ledger = createMemorySpendLedger();
    const c = clock(Date.UTC(2025, 0, 15, 23, 30));
    const limits = { ...LIMITS, tokens: 10_000, dailyTokens: 500 };
    const first = new RunBudget(limits, { ledger, repository: REPO }, c.now);
    const second = new RunBudget(limits, { ledger, repository: REPO }, c.now);

    await first.charge({ input: 200, output: 100 }, 0.001);
    expect(await second.beforeModelCall()).toBeNull();
    await second.charge({ input: 150, output: 100 }, 0.002);
    expect(await ledger.spentOn(REPO, '2025-01-15')).toEqual({ usd: 0.003, tokens: 550 });
    // Each run's own spend is its own; the day is the sum.
    expect(first.spent.tokens).toBe(300);
    expect(second.spent.tokens).toBe(250);
    const stop = {
      budget: 'daily_tokens',
      limit: 500,
      spent: 550,
      message: "this repository's daily token budget of 500 is used up (550 today)",
    };
    expect(await first.beforeModelCall()).toStrictEqual(stop);
    expect(await second.beforeModelCall()).toStrictEqual(stop);
    // Another repository has a day of its own.
    const other = new RunBudget(limits, { ledger, repository: 'github.com/acme/other' }, c.now);
    expect(await other.beforeModelCall()).toBeNull();

    // A new UTC day starts from nothing, and its spend is written under that day.
    c.set(Date.UTC(2025, 0, 16, 0, 5));
    expect(await first.beforeModelCall()).toBeNull();
    await first.charge({ input: 40, output: 2 }, 0);
    expect(await ledger.spentOn(REPO, '2025-01-16')).toEqual({ usd: 0, tokens: 42 });
    expect(await ledger.spentOn(REPO, '2025-01-15')).toEqual({ usd: 0.003, tokens: 550 });
  });

  it('stops on the daily cost budget, counting what other runs spent before', async () => {
    const ledger = createMemorySpendLedger();
    await ledger.addSpend(REPO, '2025-01-15', { usd: 0.5, tokens: 10 });
    const budget = new RunBudget({ ...LIMITS, dailyUsd: 0.5 }, { ledger, repository: REPO }, clock().now);
    expect(await budget.beforeModelCall()).toStrictEqual({
      budget: 'daily_cost',
      limit: 0.5,
      spent: 0.5,
      message: "this repository's daily cost budget of $0.50 is used up ($0.5000 today)",
    });
    // Nothing of this run is spent: the stop came from the ledger alone.
    expect(budget.spent).toStrictEqual({ modelCalls: 0, toolCalls: 0, tokens: 0, usd: 0, ms: 0 });
  });

  it('checks the daily token budget before the daily cost budget, and a run budget before both', async () => {
    const ledger = createMemorySpendLedger();
    await ledger.addSpend(REPO, '2025-01-15', { usd: 9, tokens: 900 });
    const budget = new RunBudget({ ...LIMITS, dailyTokens: 900, dailyUsd: 1 }, { ledger, repository: REPO }, clock().now);
    expect((await budget.beforeModelCall())?.budget).toBe('daily_tokens');
    await budget.charge({ input: 1000, output: 0 }, 0);
    expect((await budget.beforeModelCall())?.budget).toBe('tokens');
  });

  it('ignores the ledger without daily limits, but still records the spend in it', async () => {
    const ledger = createMemorySpendLedger();
    await ledger.addSpend(REPO, '2025-01-15', { usd: 1000, tokens: 1_000_000 });
    const budget = new RunBudget(LIMITS, { ledger, repository: REPO }, clock().now);
    expect(await budget.beforeModelCall()).toBeNull();
    await budget.charge({ input: 5, output: 5 }, 0.5);
    expect(await ledger.spentOn(REPO, '2025-01-15')).toEqual({ usd: 1000.5, tokens: 1_000_010 });
  });

  it('without a ledger, daily limits are not checked and a charge only counts for the run', async () => {
    const budget = new RunBudget({ ...LIMITS, dailyTokens: 1 }, null, clock().now);
    await budget.charge({ input: 5, output: 5 }, 0);
    expect(await budget.beforeModelCall()).toBeNull();
    expect(budget.spent.tokens).toBe(10);
  });
});
