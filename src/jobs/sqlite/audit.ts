// The audit trail on SQLite: append-only (triggers in the schema refuse UPDATE and DELETE).
import type { DatabaseSync as Database } from 'node:sqlite';
import type { AuditEvent, AuditTrail } from '../run-store.ts';

/** Appends synchronously: the job statements record their steps inside their own flow. */
export type AppendNow = (runId: string, kind: string, data?: Record<string, unknown>) => void;

export function sqliteAuditTrail(db: Database): AuditTrail & { appendNow: AppendNow } {
  const insert = db.prepare('INSERT INTO events (run_id, at, kind, data) VALUES (?, ?, ?, ?)');
  const select = db.prepare('SELECT run_id, at, kind, data FROM events WHERE run_id = ? ORDER BY id');
  const appendNow: AppendNow = (runId, kind, data = {}) => void insert.run(runId, Date.now(), kind, JSON.stringify(data));
  return {
    appendNow,
    async append(runId, kind, data = {}) {
      appendNow(runId, kind, data);
    },
    async events(runId): Promise<AuditEvent[]> {
      return (select.all(runId) as unknown as Array<{ run_id: string; at: number; kind: string; data: string }>).map((e) => ({
        runId: e.run_id,
        at: e.at,
        kind: e.kind,
        data: JSON.parse(e.data) as Record<string, unknown>,
      }));
    },
  };
}
