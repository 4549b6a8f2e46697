// The SQLite store's schema, as versioned migrations: index i brings the schema from version i to
// i + 1 (`PRAGMA user_version`). Never edit one; add one.
export const SQLITE_MIGRATIONS = [
  `CREATE TABLE jobs (
     run_id TEXT PRIMARY KEY,
     key TEXT NOT NULL,
     state TEXT NOT NULL,
     data TEXT NOT NULL,
     actor TEXT,
     delivery_id TEXT,
     enqueued_at INTEGER NOT NULL,
     started_at INTEGER,
     finished_at INTEGER,
     lease_owner TEXT,
     lease_until INTEGER,
     tries INTEGER NOT NULL DEFAULT 0,
     progress TEXT NOT NULL DEFAULT 'queued',
     outcome TEXT,
     artifacts_dir TEXT,
     cancel_requested_by TEXT
   );
   -- One active run per issue or pull request, enforced by the database itself.
   CREATE UNIQUE INDEX jobs_one_active_per_key ON jobs(key) WHERE state IN ('pending', 'queued', 'running');
   CREATE INDEX jobs_claimable ON jobs(state, enqueued_at);
   CREATE TABLE deliveries (id TEXT PRIMARY KEY, event TEXT NOT NULL, received_at INTEGER NOT NULL);
   CREATE TABLE events (id INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT NOT NULL, at INTEGER NOT NULL, kind TEXT NOT NULL, data TEXT NOT NULL);
   CREATE INDEX events_by_run ON events(run_id, id);
   CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END;
   CREATE TRIGGER events_append_only_delete BEFORE DELETE ON events BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END;`,
  // 2: webhook deliveries are stored as jobs of their own lane before they are answered.
  `ALTER TABLE jobs ADD COLUMN lane TEXT NOT NULL DEFAULT 'run';
   DROP INDEX jobs_claimable;
   CREATE INDEX jobs_claimable ON jobs(lane, state, enqueued_at);`,
  // 3: what LLM engines spent, per repository per UTC day (the daily budgets).
  `CREATE TABLE spend (
     repository TEXT NOT NULL,
     day TEXT NOT NULL,
     usd REAL NOT NULL DEFAULT 0,
     tokens INTEGER NOT NULL DEFAULT 0,
     PRIMARY KEY (repository, day)
   );`,
  // 4: the trigger kind is a column of its own, so the store never reads a job's data; runs stored
  // before it learn theirs from the data once, here.
  `ALTER TABLE jobs ADD COLUMN trigger TEXT;
   UPDATE jobs SET trigger = json_extract(data, '$.plan.kind') WHERE lane = 'run';`,
];
