// pg-boss for tests, in a schema of its own: dead workers noticed within seconds (not pg-boss's
// default minute), and the PostgreSQL store at `location` sending its jobs to it. Every process of a
// test opens it with the same settings (the queues' settings are the last process's).
import { PgBoss } from 'pg-boss';
import { pgBossLanes, type PgBossLanes } from '../../src/jobs/pgboss-lanes.ts';
import { openPostgresStore, type PostgresRunStore } from '../../src/jobs/postgres-store.ts';

export async function openTestLanes(
  location: string,
  bossSchema: string,
  settings: { maxTries?: number; pendingSeconds?: number } = {},
): Promise<{ boss: PgBoss; lanes: PgBossLanes; store: PostgresRunStore }> {
  const boss = new PgBoss({
    connectionString: location,
    schema: bossSchema,
    superviseIntervalSeconds: 1,
    monitorIntervalSeconds: 1,
    maintenanceIntervalSeconds: 1,
  });
  boss.on('error', (e: unknown) => console.error(String(e)));
  await boss.start();
  const lanes = pgBossLanes(boss, { heartbeatSeconds: 10, maxTries: 5, ...settings });
  await lanes.prepare();
  return { boss, lanes, store: await openPostgresStore(location, lanes.dispatch) };
}
