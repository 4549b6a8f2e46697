// Webhook deliveries on PostgreSQL: each id once; a delivery for the event lane is stored with its id,
// and handed to the queue engine, in the same transaction, so a redelivery never becomes a second job.
import type pg from 'pg';
import type { DeliveryStore } from '../run-store.ts';
import { sqlClient, type Dispatch } from './dispatch.ts';
import { inTransaction } from './open-pool.ts';

const RECORD = 'INSERT INTO fixloop_deliveries (id, event, received_at) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING';

export function postgresDeliveries(pool: pg.Pool, dispatch: Dispatch): DeliveryStore {
  return {
    async recordDelivery(id, event) {
      return ((await pool.query(RECORD, [id, event, Date.now()])).rowCount ?? 0) === 1;
    },
    async acceptEvent(data) {
      return inTransaction(pool, async (client) => {
        const fresh = ((await client.query(RECORD, [data.delivery, data.name, Date.now()])).rowCount ?? 0) === 1;
        if (fresh) {
          const runId = `event-${data.delivery}`;
          await client.query(
            `INSERT INTO fixloop_jobs (run_id, key, state, data, lane, delivery_id, enqueued_at) VALUES ($1, $2, 'queued', $3, 'event', $4, $5)`,
            [runId, `event:${data.delivery}`, JSON.stringify(data), data.delivery, Date.now()],
          );
          await dispatch.stored(sqlClient(client), { runId, lane: 'event', pending: false });
        }
        return fresh;
      });
    },
  };
}
