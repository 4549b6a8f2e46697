// The daily spend ledger on PostgreSQL: one upsert per addition; the row lock makes concurrent adds
// from any process wait for each other, none lost.
import type pg from 'pg';
import { checkSpendArgs, type SpendLedger } from '../../core/spend-ledger.ts';

export function postgresSpendLedger(pool: pg.Pool): SpendLedger {
  return {
    async addSpend(repository, day, spend) {
      checkSpendArgs(repository, day, spend);
      await pool.query(
        `INSERT INTO fixloop_spend (repository, day, usd, tokens) VALUES ($1, $2, $3, $4)
         ON CONFLICT (repository, day) DO UPDATE SET usd = fixloop_spend.usd + excluded.usd, tokens = fixloop_spend.tokens + excluded.tokens`,
        [repository, day, spend.usd, spend.tokens],
      );
    },
    async spentOn(repository, day) {
      checkSpendArgs(repository, day);
      // pg returns BIGINT as a string (it may exceed 2^53); a day's tokens do not.
      const row = (
        await pool.query<{ usd: number; tokens: string }>(
          'SELECT usd, tokens FROM fixloop_spend WHERE repository = $1 AND day = $2',
          [repository, day],
        )
      ).rows[0];
      return row ? { usd: Number(row.usd), tokens: Number(row.tokens) } : { usd: 0, tokens: 0 };
    },
  };
}
