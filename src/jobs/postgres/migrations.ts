// The PostgreSQL store's schema, as versioned migrations (applied under an advisory lock, so two
// processes never race on them). Never edit one; add one.
export const POSTGRES_MIGRATIONS = [
  `CREATE TABLE fixloop_jobs (
     seq BIGSERIAL,
     run_id TEXT PRIMARY KEY,
     key TEXT NOT NULL,
     lane TEXT NOT NULL DEFAULT 'run',
     state TEXT NOT NULL,
     data TEXT NOT NULL,
     actor TEXT,
     delivery_id TEXT,
     enqueued_at BIGINT NOT NULL,
     started_at BIGINT,
     finished_at BIGINT,
     lease_owner TEXT,
     lease_until BIGINT,
     tries INTEGER NOT NULL DEFAULT 0,
     progress TEXT NOT NULL DEFAULT 'queued',
     outcome TEXT,
     artifacts_dir TEXT,
     cancel_requested_by TEXT
   );
   CREATE UNIQUE INDEX fixloop_jobs_one_active_per_key ON fixloop_jobs(key) WHERE state IN ('pending', 'queued', 'running');
   CREATE INDEX fixloop_jobs_claimable ON fixloop_jobs(lane, state, enqueued_at, seq);
   CREATE TABLE fixloop_deliveries (id TEXT PRIMARY KEY, event TEXT NOT NULL, received_at BIGINT NOT NULL);
   CREATE TABLE fixloop_events (id BIGSERIAL PRIMARY KEY, run_id TEXT NOT NULL, at BIGINT NOT NULL, kind TEXT NOT NULL, data TEXT NOT NULL);
   CREATE INDEX fixloop_events_by_run ON fixloop_events(run_id, id);
   CREATE FUNCTION fixloop_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'the audit trail is append-only'; END $$;
   CREATE TRIGGER fixloop_events_append_only BEFORE UPDATE OR DELETE ON fixloop_events FOR EACH ROW EXECUTE FUNCTION fixloop_append_only();`,
  // 2: what LLM engines spent, per repository per UTC day (the daily budgets).
  `CREATE TABLE fixloop_spend (
     repository TEXT NOT NULL,
     day TEXT NOT NULL,
     usd DOUBLE PRECISION NOT NULL DEFAULT 0,
     tokens BIGINT NOT NULL DEFAULT 0,
     PRIMARY KEY (repository, day)
   );`,
  // 3: the trigger kind is a column of its own, so the store never reads a job's data; runs stored
  // before it learn theirs from the data once, here.
  `ALTER TABLE fixloop_jobs ADD COLUMN trigger TEXT;
   UPDATE fixloop_jobs SET trigger = (data::jsonb #>> '{plan,kind}') WHERE lane = 'run';`,
  // 4: pg-boss carries both lanes, each job given to it in the transaction that stores the job. Before,
  // deliveries were held by the store's own leases and runs reached pg-boss only once ready (or not,
  // after a crash between the two writes): the jobs such a store left unfinished are marked here, and
  // the first queue to start hands each to pg-boss, once, and clears its mark (adopt.ts).
  `CREATE TABLE fixloop_unadopted (run_id TEXT PRIMARY KEY);
   INSERT INTO fixloop_unadopted (run_id) SELECT run_id FROM fixloop_jobs WHERE state IN ('pending', 'queued', 'running');`,
];
