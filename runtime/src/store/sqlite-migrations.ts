/**
 * SQLite schema migrations: an ordered array whose index + 1 is the schema
 * version. Never edit a shipped entry; append a new one.
 */
export const SQLITE_MIGRATIONS: readonly string[] = [
  // 1: initial schema
  `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE plans (plan_version TEXT PRIMARY KEY, plan_json TEXT NOT NULL);
  CREATE TABLE runs (
    run TEXT PRIMARY KEY,
    task_id TEXT NOT NULL,
    plan_version TEXT NOT NULL,
    input_version TEXT NOT NULL,
    version INTEGER NOT NULL,
    status TEXT NOT NULL,
    caps TEXT NOT NULL,
    budget_used TEXT NOT NULL,
    hold TEXT,
    origin TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    last_progress_at TEXT NOT NULL,
    effect_commit_seq INTEGER NOT NULL DEFAULT 0
  );
  CREATE TABLE checkpoints (
    run TEXT NOT NULL,
    version INTEGER NOT NULL,
    parent INTEGER,
    kind TEXT NOT NULL,
    plan_version TEXT NOT NULL,
    input_version TEXT NOT NULL,
    budget_used TEXT NOT NULL,
    approvals TEXT NOT NULL,
    next_action TEXT NOT NULL,
    delta TEXT NOT NULL,
    digest TEXT NOT NULL,
    created_at TEXT NOT NULL,
    committed_at TEXT NOT NULL,
    PRIMARY KEY (run, version)
  );
  CREATE TABLE unit_states (
    run TEXT NOT NULL,
    unit TEXT NOT NULL,
    state TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    failures INTEGER NOT NULL DEFAULT 0,
    current_record INTEGER,
    superseded_record INTEGER,
    superseded TEXT,
    hold TEXT,
    last_error TEXT,
    version INTEGER NOT NULL,
    PRIMARY KEY (run, unit)
  );
  CREATE TABLE unit_records (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    run TEXT NOT NULL,
    unit TEXT NOT NULL,
    attempt INTEGER NOT NULL,
    plan_version TEXT NOT NULL,
    status TEXT NOT NULL,
    result TEXT NOT NULL,
    sources TEXT NOT NULL,
    committed_version INTEGER NOT NULL,
    superseded_reason TEXT,
    created_at TEXT NOT NULL
  );
  CREATE INDEX unit_records_run ON unit_records (run, unit);
  CREATE TABLE artifacts (
    run TEXT NOT NULL,
    path TEXT NOT NULL,
    unit TEXT NOT NULL,
    attempt INTEGER NOT NULL,
    name TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    size INTEGER NOT NULL,
    media_type TEXT NOT NULL,
    facets TEXT,
    plan_version TEXT NOT NULL,
    verifier_results TEXT NOT NULL,
    status TEXT NOT NULL,
    record_id INTEGER,
    created_at TEXT NOT NULL,
    PRIMARY KEY (run, path)
  );
  CREATE TABLE events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    run TEXT NOT NULL,
    at TEXT NOT NULL,
    type TEXT NOT NULL,
    unit TEXT,
    attempt INTEGER,
    data TEXT
  );
  CREATE INDEX events_run ON events (run, seq);
  CREATE TABLE leases (
    run TEXT NOT NULL,
    unit TEXT NOT NULL,
    owner TEXT NOT NULL,
    token INTEGER NOT NULL,
    attempt INTEGER NOT NULL,
    expires_at TEXT NOT NULL,
    renewed_at TEXT NOT NULL,
    PRIMARY KEY (run, unit)
  );
  CREATE TABLE effects (
    id TEXT PRIMARY KEY,
    run TEXT NOT NULL,
    unit TEXT NOT NULL,
    attempt INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    tool TEXT NOT NULL,
    tool_class TEXT NOT NULL,
    intent TEXT NOT NULL,
    args_digest TEXT NOT NULL,
    key TEXT,
    state TEXT NOT NULL,
    remote_id TEXT,
    receipt TEXT,
    lookup_used TEXT,
    compensation TEXT,
    compensation_state TEXT,
    error TEXT,
    token INTEGER NOT NULL,
    prepared_at TEXT NOT NULL,
    started_at TEXT,
    resolved_at TEXT,
    commit_seq INTEGER
  );
  CREATE INDEX effects_run ON effects (run, unit);
  CREATE TABLE approvals (
    id TEXT PRIMARY KEY,
    run TEXT NOT NULL,
    unit TEXT NOT NULL,
    plan_version TEXT NOT NULL,
    artifact_hashes TEXT NOT NULL,
    scope TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    granted_by TEXT NOT NULL,
    granted_at TEXT NOT NULL,
    revoked_at TEXT
  );
  CREATE TABLE resume_tokens (
    token_hash TEXT PRIMARY KEY,
    run TEXT NOT NULL,
    unit TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at TEXT,
    created_at TEXT NOT NULL
  );
  INSERT INTO meta (key, value) VALUES ('fencing_counter', '0');
  `,
  // 2: a per-run change counter stamped on every unit row that changes, so a
  // worker re-reads only what changed since its last scheduling step
  `
  ALTER TABLE runs ADD COLUMN change_seq INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE unit_states ADD COLUMN changed_seq INTEGER NOT NULL DEFAULT 0;
  CREATE INDEX unit_states_changed ON unit_states (run, changed_seq);
  CREATE TRIGGER unit_states_stamp_update AFTER UPDATE OF state, attempts, failures, current_record, superseded_record, superseded, hold, last_error, version ON unit_states
  BEGIN
    UPDATE runs SET change_seq = change_seq + 1 WHERE run = NEW.run;
    UPDATE unit_states SET changed_seq = (SELECT change_seq FROM runs WHERE run = NEW.run) WHERE run = NEW.run AND unit = NEW.unit;
  END;
  CREATE TRIGGER unit_states_stamp_insert AFTER INSERT ON unit_states
  BEGIN
    UPDATE runs SET change_seq = change_seq + 1 WHERE run = NEW.run;
    UPDATE unit_states SET changed_seq = (SELECT change_seq FROM runs WHERE run = NEW.run) WHERE run = NEW.run AND unit = NEW.unit;
  END;
  CREATE TRIGGER unit_states_stamp_delete AFTER DELETE ON unit_states
  BEGIN
    UPDATE runs SET change_seq = change_seq + 1 WHERE run = OLD.run;
  END;
  `,
  // 3: operator identities: a name and the sha256 of its key (taskspec store
  // init-operator); approving without a gate's resume token needs a key whose
  // hash is here, and the approval carries the identity's name
  `
  CREATE TABLE operators (name TEXT PRIMARY KEY, key_hash TEXT NOT NULL UNIQUE, created_at TEXT NOT NULL);
  `,
  // 4: an effect is its key and its request: the canonical request's hash, the
  // request without values (per-argument digests) and the loop iteration;
  // an index to find the effects of a key
  `
  ALTER TABLE effects ADD COLUMN request_hash TEXT;
  ALTER TABLE effects ADD COLUMN request TEXT;
  ALTER TABLE effects ADD COLUMN iteration INTEGER;
  CREATE INDEX effects_key ON effects (run, tool, key);
  `,
  // 5: approvals bind what they release: a PREPARED effect behind a gate keeps
  // what it would send while it waits for a person (effects.held), and an
  // approval the request, input and need digests it was granted for
  `
  ALTER TABLE effects ADD COLUMN held TEXT;
  ALTER TABLE approvals ADD COLUMN binding TEXT;
  `,
  // 6: durable loop iterations: each committed iteration of a unit's loop with
  // its number, result and files, an open one unique by run, unit, loop (a digest
  // of the unit's definition and sources) and number; closed_at once the loop is over
  `
  CREATE TABLE loop_iterations (
    run TEXT NOT NULL,
    unit TEXT NOT NULL,
    loop TEXT NOT NULL,
    iteration INTEGER NOT NULL,
    max INTEGER NOT NULL,
    attempt INTEGER NOT NULL,
    result TEXT NOT NULL,
    artifacts TEXT NOT NULL,
    committed_at TEXT NOT NULL,
    closed_at TEXT
  );
  CREATE UNIQUE INDEX loop_iterations_open ON loop_iterations (run, unit, loop, iteration) WHERE closed_at IS NULL;
  CREATE INDEX loop_iterations_unit ON loop_iterations (run, unit);
  `,
  // 7: retry backoff: after a counted failure, the earliest time the unit's
  // next attempt may start. Written only together with \`failures\`, so the
  // changed_seq trigger (migration 3) needs no new column to see it.
  `
  ALTER TABLE unit_states ADD COLUMN not_before TEXT;
  `,
  // 8: a unit's declared cost is booked at its claim: the lease keeps what its
  // attempt reserved (status shows it; the run's budget_used already holds it)
  `
  ALTER TABLE leases ADD COLUMN reserved TEXT;
  `,
  // 9: paid calls are not paid twice: each model call and charge of an attempt
  // (its request's hash, never the request; its answer once it came), open
  // until the unit's verdict; the next attempt is handed back the answers
  // (engine/paid-replay.ts)
  `
  CREATE TABLE paid_calls (
    run TEXT NOT NULL,
    unit TEXT NOT NULL,
    attempt INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    iteration INTEGER NOT NULL,
    kind TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    state TEXT NOT NULL,
    reply TEXT,
    replayable INTEGER,
    at TEXT NOT NULL,
    answered_at TEXT,
    closed_at TEXT,
    PRIMARY KEY (run, unit, attempt, seq)
  );
  CREATE INDEX paid_calls_open ON paid_calls (run, unit) WHERE closed_at IS NULL;
  `,
  // the workers table: each worker process's row and its heartbeat (one
  // host: the host's clock), as on PostgreSQL
  `
  CREATE TABLE workers (
    id TEXT PRIMARY KEY,
    host TEXT NOT NULL,
    pid INTEGER NOT NULL,
    started_at TEXT NOT NULL,
    heartbeat_at TEXT NOT NULL,
    stopped_at TEXT
  );
  `,
];
