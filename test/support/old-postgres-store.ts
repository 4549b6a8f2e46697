// A PostgreSQL store as an older fixloop left it, for the upgrade tests: the schema as that version
// had it (the migrations up to `version`, applied as it applied them), and jobs in the states it left
// them in: deliveries its inbox stored and had not handled, runs a worker of it held under a lease.
import pg from 'pg';
import { POSTGRES_MIGRATIONS } from '../../src/jobs/postgres/migrations.ts';
import { jobData } from './job-data.ts';

export interface OldJob {
  runId: string;
  /** A run (its key then `acme/shop#<n>`, one per run) or a delivery (`event-<delivery id>`). */
  lane: 'run' | 'event';
  state: 'pending' | 'queued' | 'running' | 'done';
  /** Claims counted so far (that version's `tries`: one per claim, less one per shutdown's release). */
  tries?: number;
  /** A running job's lease, as its worker last renewed it. */
  leaseUntil?: number;
}

/** Writes the schema at `version` and the jobs into the store at `location` (its search_path names the schema). */
export async function writeOldStore(location: string, version: number, jobs: OldJob[]): Promise<void> {
  const client = new pg.Client({ connectionString: location });
  await client.connect();
  try {
    for (const migration of POSTGRES_MIGRATIONS.slice(0, version)) await client.query(migration);
    await client.query('CREATE TABLE fixloop_schema (version INTEGER NOT NULL)');
    await client.query('INSERT INTO fixloop_schema (version) VALUES ($1)', [version]);
    for (const [i, job] of jobs.entries()) await insertOldJob(client, job, i);
  } finally {
    await client.end();
  }
}

async function insertOldJob(client: pg.Client, job: OldJob, i: number): Promise<void> {
  const running = job.state === 'running';
  const enqueuedAt = Date.now() - 3_600_000 + i;
  let key = `acme/shop#${i}`;
  let data: unknown = jobData(job.runId, key);
  if (job.lane === 'event') {
    const delivery = job.runId.replace(/^event-/, '');
    key = `event:${delivery}`;
    data = { delivery, name: 'issues.labeled', payload: {}, credentialRef: 'ref' };
    await client.query('INSERT INTO fixloop_deliveries (id, event, received_at) VALUES ($1, $2, $3)', [
      delivery,
      'issues.labeled',
      enqueuedAt,
    ]);
  }
  await client.query(
    `INSERT INTO fixloop_jobs (run_id, key, lane, state, data, delivery_id, enqueued_at, started_at, finished_at, lease_owner, lease_until, tries, trigger)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
    [
      job.runId,
      key,
      job.lane,
      job.state,
      JSON.stringify(data),
      job.lane === 'event' ? key.slice('event:'.length) : null,
      enqueuedAt,
      running || job.state === 'done' ? enqueuedAt + 1000 : null,
      job.state === 'done' ? enqueuedAt + 2000 : null,
      running ? 'old-host:1:abcdef' : null,
      running ? (job.leaseUntil ?? Date.now() - 1000) : null,
      job.tries ?? (running || job.state === 'done' ? 1 : 0),
      job.lane === 'run' ? 'label' : null,
    ],
  );
}
