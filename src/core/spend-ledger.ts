// What LLM engines spent, per repository per UTC day, so "max tokens / max cost per repository per
// day" holds across concurrent runs and processes: every run store keeps this ledger (run-store.ts);
// the memory ledger here serves a single process without a store.

/** Money and tokens spent by LLM engines. */
export interface Spend {
  usd: number;
  tokens: number;
}

/** Spend per repository per UTC day, shared by every run and process using the same store. */
export interface SpendLedger {
  /** Adds to the repository's total for the day; concurrent adds never lose an increment. */
  addSpend(repository: string, day: string, spend: Spend): Promise<void>;
  /** The repository's total for the day ({usd: 0, tokens: 0} when nothing was spent). */
  spentOn(repository: string, day: string): Promise<Spend>;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** `YYYY-MM-DD` of the UTC day of `at`. */
export function utcDay(at: Date = new Date()): string {
  if (Number.isNaN(at.getTime())) throw new TypeError('utcDay: `at` is not a valid date');
  return at.toISOString().slice(0, 10);
}

/** Throws a TypeError naming the first bad argument; every ledger checks its inputs the same way. */
export function checkSpendArgs(repository: string, day: string, spend?: Spend): void {
  if (typeof repository !== 'string' || repository === '')
    throw new TypeError('spend ledger: `repository` must be a non-empty string');
  if (typeof day !== 'string' || !DAY.test(day))
    throw new TypeError(`spend ledger: \`day\` must be YYYY-MM-DD, got ${JSON.stringify(day)}`);
  if (spend === undefined) return;
  if (typeof spend.usd !== 'number' || !Number.isFinite(spend.usd) || spend.usd < 0)
    throw new TypeError(`spend ledger: \`spend.usd\` must be a finite number ≥ 0, got ${String(spend.usd)}`);
  // Tokens are counted, and stored as integers: a fraction would be refused by PostgreSQL only.
  if (!Number.isSafeInteger(spend.tokens) || spend.tokens < 0)
    throw new TypeError(`spend ledger: \`spend.tokens\` must be a whole number ≥ 0, got ${String(spend.tokens)}`);
}

/** A ledger in memory, for one process (the CLI without a store). */
export function createMemorySpendLedger(): SpendLedger {
  const totals = new Map<string, Spend>();
  const keyOf = (repository: string, day: string) => JSON.stringify([repository, day]);
  return {
    async addSpend(repository, day, spend) {
      checkSpendArgs(repository, day, spend);
      const key = keyOf(repository, day);
      const total = totals.get(key) ?? { usd: 0, tokens: 0 };
      totals.set(key, { usd: total.usd + spend.usd, tokens: total.tokens + spend.tokens });
    },
    async spentOn(repository, day) {
      checkSpendArgs(repository, day);
      return { ...(totals.get(keyOf(repository, day)) ?? { usd: 0, tokens: 0 }) };
    },
  };
}
