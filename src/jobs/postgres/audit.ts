// The audit trail on PostgreSQL: append-only (a trigger in the schema refuses UPDATE and DELETE).
import type pg from 'pg';
import type { AuditEvent, AuditTrail } from '../run-store.ts';

export function postgresAuditTrail(pool: pg.Pool): AuditTrail {
  return {
    async append(runId, kind, data = {}) {
      await pool.query('INSERT INTO fixloop_events (run_id, at, kind, data) VALUES ($1, $2, $3, $4)', [
        runId,
        Date.now(),
        kind,
        JSON.stringify(data),
      ]);
    },
    async events(runId): Promise<AuditEvent[]> {
      const rows = (
        await pool.query<{ run_id: string; at: string; kind: string; data: string }>(
          'SELECT run_id, at, kind, data FROM fixloop_events WHERE run_id = $1 ORDER BY id',
          [runId],
        )
      ).rows;
      return rows.map((e) => ({
        runId: e.run_id,
        at: Number(e.at),
        kind: e.kind,
        data: JSON.parse(e.data) as Record<string, unknown>,
      }));
    },
  };
}
