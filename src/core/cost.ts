// What a run spends (money and tokens) and the budgets that stop it while it goes.

export interface Cost {
  usd: number;
  tokens: number;
}

export const ZERO_COST: Cost = Object.freeze({ usd: 0, tokens: 0 });

/** The per-run budgets an engine enforces while it works. */
export type BudgetName = 'tool_calls' | 'tokens' | 'cost' | 'time' | 'daily_tokens' | 'daily_cost';

export interface BudgetStop {
  budget: BudgetName;
  limit: number;
  spent: number;
  message: string;
}
