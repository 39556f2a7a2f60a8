/**
 * The PostgreSQL artifact backend's tables, apart from the store's: its own
 * ordered list (index + 1 is the version, recorded in
 * `artifact_schema_version`), so the blobs can live in the store's database
 * or another without either schema knowing the other. Never edit a shipped
 * entry; append a new one.
 */
export const PG_BLOB_MIGRATIONS: readonly string[] = [
  // 1: content-addressed blobs (written once, shared by every path with the
  // same bytes) and the paths naming them; `created_at` from the server's clock
  `
  CREATE TABLE artifact_blobs (
    sha256 TEXT PRIMARY KEY,
    size BIGINT NOT NULL,
    data BYTEA NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
  );
  CREATE TABLE artifact_files (
    path TEXT PRIMARY KEY COLLATE "C",
    sha256 TEXT NOT NULL,
    size BIGINT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
  );
  CREATE INDEX artifact_files_by_blob ON artifact_files (sha256);
  `,
];
