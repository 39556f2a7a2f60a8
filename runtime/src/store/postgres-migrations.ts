/**
 * PostgreSQL schema migrations: an ordered array whose index + 1 is the schema
 * version, recorded in the `schema_version` table. Never edit a shipped entry;
 * append a new one. Columns match the SQLite schema (JSON as TEXT) so both
 * stores share their row mappers (store/rows.ts).
 */
export const PG_MIGRATIONS: readonly string[] = [
  // 1: initial schema, with the per-run change counter SQLite gained in its
  // migration 2 (a trigger stamps every changed unit row with the run's next
  // change number; the run row's lock orders the stamps like commits)
  `
  CREATE SEQUENCE fencing_tokens;
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
    effect_commit_seq BIGINT NOT NULL DEFAULT 0,
    change_seq BIGINT NOT NULL DEFAULT 0
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
    current_record BIGINT,
    superseded_record BIGINT,
    superseded TEXT,
    hold TEXT,
    last_error TEXT,
    version INTEGER NOT NULL,
    changed_seq BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (run, unit)
  );
  CREATE INDEX unit_states_changed ON unit_states (run, changed_seq);
  CREATE TABLE unit_records (
    id BIGSERIAL PRIMARY KEY,
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
    size BIGINT NOT NULL,
    media_type TEXT NOT NULL,
    facets TEXT,
    plan_version TEXT NOT NULL,
    verifier_results TEXT NOT NULL,
    status TEXT NOT NULL,
    record_id BIGINT,
    created_at TEXT NOT NULL,
    PRIMARY KEY (run, path)
  );
  CREATE TABLE events (
    seq BIGSERIAL PRIMARY KEY,
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
    token BIGINT NOT NULL,
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
    token BIGINT NOT NULL,
    prepared_at TEXT NOT NULL,
    started_at TEXT,
    resolved_at TEXT,
    commit_seq BIGINT
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
  CREATE FUNCTION unit_states_stamp() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    UPDATE runs SET change_seq = change_seq + 1 WHERE run = NEW.run RETURNING change_seq INTO NEW.changed_seq;
    RETURN NEW;
  END $$;
  CREATE FUNCTION unit_states_stamp_delete() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    UPDATE runs SET change_seq = change_seq + 1 WHERE run = OLD.run;
    RETURN OLD;
  END $$;
  CREATE TRIGGER unit_states_stamp_insert BEFORE INSERT ON unit_states
    FOR EACH ROW EXECUTE FUNCTION unit_states_stamp();
  CREATE TRIGGER unit_states_stamp_update BEFORE UPDATE OF state, attempts, failures, current_record, superseded_record, superseded, hold, last_error, version ON unit_states
    FOR EACH ROW EXECUTE FUNCTION unit_states_stamp();
  CREATE TRIGGER unit_states_stamp_delete AFTER DELETE ON unit_states
    FOR EACH ROW EXECUTE FUNCTION unit_states_stamp_delete();
  `,
  // 2: operator identities (SQLite's migration 3): a name and the sha256 of
  // its key; approving without a gate's resume token needs one
  `
  CREATE TABLE operators (name TEXT PRIMARY KEY, key_hash TEXT NOT NULL UNIQUE, created_at TEXT NOT NULL);
  `,
  // 3: an effect is its key and its request: the canonical request's hash, the
  // request without values (per-argument digests) and the loop iteration;
  // an index to find the effects of a key
  `
  ALTER TABLE effects ADD COLUMN request_hash TEXT;
  ALTER TABLE effects ADD COLUMN request TEXT;
  ALTER TABLE effects ADD COLUMN iteration INTEGER;
  CREATE INDEX effects_key ON effects (run, tool, key);
  `,
  // 4: approvals bind what they release (SQLite's migration 5): a PREPARED
  // effect behind a gate keeps what it would send while it waits for a person
  // (effects.held), and an approval the request, input and need digests it
  // was granted for
  `
  ALTER TABLE effects ADD COLUMN held TEXT;
  ALTER TABLE approvals ADD COLUMN binding TEXT;
  `,
  // 5: durable loop iterations (SQLite's migration 6): each committed iteration
  // of a unit's loop with its number, result and files, an open one unique by
  // run, unit, loop (a digest of the unit's definition and sources) and number
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
  // 6: retry backoff (SQLite's migration 7): after a counted failure, the
  // earliest time the unit's next attempt may start
  `
  ALTER TABLE unit_states ADD COLUMN not_before TEXT;
  `,
  // 7: a unit's declared cost is booked at its claim (SQLite's migration 8): the
  // lease keeps what its attempt reserved
  `
  ALTER TABLE leases ADD COLUMN reserved TEXT;
  `,
  // 8: paid calls are not paid twice (SQLite's migration 9): each model call and
  // charge of an attempt (its request's hash, its answer), open until the unit's
  // verdict; the next attempt is handed back the answers (engine/paid-replay.ts)
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
  // the workers table: each worker process's row, its heartbeat stamped by the
  // server's clock (engine/worker-heartbeat.ts); a lease owner names its
  // worker's id (engine/owner.ts)
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
