// The SQLite schema: one append-only log table, kine style.
//
// Every write appends a row; its row id is the revision. A delete appends a
// tombstone (deleted = 1). `prev_revision` points at the row this one
// supersedes (0 for the first create), and UNIQUE(name, prev_revision) makes
// two writers racing from the same version fail: optimistic concurrency
// enforced by the database itself. Compaction deletes superseded rows and
// tombstones at or below the compacted revision.
export const SCHEMA = `
CREATE TABLE IF NOT EXISTS log (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  created INTEGER NOT NULL,
  deleted INTEGER NOT NULL,
  create_revision INTEGER NOT NULL,
  prev_revision INTEGER NOT NULL,
  value BLOB
);
CREATE UNIQUE INDEX IF NOT EXISTS log_name_prev ON log (name, prev_revision);
CREATE INDEX IF NOT EXISTS log_name_id ON log (name, id, deleted);
CREATE TABLE IF NOT EXISTS meta (
  key TEXT PRIMARY KEY,
  value INTEGER NOT NULL
);
`;

export const SCHEMA_VERSION = 1;

/** Row shapes returned by the statements in statements.ts. */
export interface LogRow {
  id: number;
  name: string;
  created: number;
  deleted: number;
  create_revision: number;
  prev_revision: number;
  value: Buffer | null;
}

export interface HistoryRow extends LogRow {
  prev_value: Buffer | null;
  prev_create_revision: number | null;
}
