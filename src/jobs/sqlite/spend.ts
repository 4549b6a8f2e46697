// The daily spend ledger on SQLite: one upsert per addition, atomic, so no increment is lost between
// processes sharing the file.
import type { DatabaseSync as Database } from 'node:sqlite';
import { checkSpendArgs, type SpendLedger } from '../../core/spend-ledger.ts';

export function sqliteSpendLedger(db: Database): SpendLedger {
  const add = db.prepare(
    `INSERT INTO spend (repository, day, usd, tokens) VALUES (?, ?, ?, ?)
     ON CONFLICT (repository, day) DO UPDATE SET usd = spend.usd + excluded.usd, tokens = spend.tokens + excluded.tokens`,
  );
  const select = db.prepare('SELECT usd, tokens FROM spend WHERE repository = ? AND day = ?');
  return {
    async addSpend(repository, day, spend) {
      checkSpendArgs(repository, day, spend);
      add.run(repository, day, spend.usd, spend.tokens);
    },
    async spentOn(repository, day) {
      checkSpendArgs(repository, day);
      const row = select.get(repository, day) as { usd: number; tokens: number } | undefined;
      return row ? { usd: Number(row.usd), tokens: Number(row.tokens) } : { usd: 0, tokens: 0 };
    },
  };
}
