// Webhook deliveries on SQLite: each id once; a delivery for the event lane is stored with its id in
// the same transaction, so a redelivery never becomes a second job.
import type { DatabaseSync as Database } from 'node:sqlite';
import type { DeliveryStore, EventData } from '../run-store.ts';
import { inTransaction } from './open-database.ts';

export function sqliteDeliveries(db: Database): DeliveryStore {
  const record = db.prepare('INSERT INTO deliveries (id, event, received_at) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING');
  const insertEvent = db.prepare(
    `INSERT INTO jobs (run_id, key, state, data, lane, delivery_id, enqueued_at) VALUES (?, ?, 'queued', ?, 'event', ?, ?)`,
  );
  return {
    async recordDelivery(id, event) {
      return Number(record.run(id, event, Date.now()).changes) === 1;
    },
    async acceptEvent(data: EventData) {
      return inTransaction(db, () => {
        const fresh = Number(record.run(data.delivery, data.name, Date.now()).changes) === 1;
        if (fresh)
          insertEvent.run(`event-${data.delivery}`, `event:${data.delivery}`, JSON.stringify(data), data.delivery, Date.now());
        return fresh;
      });
    },
  };
}
