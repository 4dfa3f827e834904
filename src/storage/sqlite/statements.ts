// Prepared statements over the log table, in one place.
import type Database from 'better-sqlite3';
import type { HistoryRow, LogRow } from './schema.js';

type Stmt<R> = Database.Statement<unknown[], R>;

export interface Statements {
  latest: Stmt<LogRow>;
  atRevision: Stmt<LogRow>;
  rangeFrom: Stmt<LogRow>;
  rangeAfter: Stmt<LogRow>;
  countAfter: Stmt<{ n: number }>;
  countFrom: Stmt<{ n: number }>;
  insert: Stmt<never>;
  history: Stmt<HistoryRow>;
  maxId: Stmt<{ id: number | null }>;
  seq: Stmt<{ seq: number }>;
  getMeta: Stmt<{ value: number }>;
  setMeta: Stmt<never>;
  compactSuperseded: Stmt<never>;
  compactTombstones: Stmt<never>;
}

// The newest row of a key at or before a revision: no newer row of the same
// name up to the revision. Walking the (name, id, deleted) index in name order
// with this check lets a page stop after `limit` names (measured fastest of
// MAX-subquery, GROUP BY and NOT EXISTS forms; see bench/RESULTS.md).
const LIVE_AT = `l.deleted = 0 AND NOT EXISTS (SELECT 1 FROM log l3 WHERE l3.name = l.name AND l3.id > l.id AND l3.id <= @rev)`;
// Counting uses the covering index only: for each name the newest row at the
// revision (SQLite returns the bare `deleted` of the MAX(id) row).
const COUNT = (lower: string) =>
  `SELECT COUNT(*) AS n FROM (SELECT MAX(id) AS id, deleted FROM log WHERE name ${lower} AND name < @end AND id <= @rev GROUP BY name) WHERE deleted = 0`;

export function prepare(db: Database.Database): Statements {
  const s = <R>(sql: string) => db.prepare(sql) as Stmt<R>;
  return {
    latest: s(`SELECT * FROM log WHERE name = ? ORDER BY id DESC LIMIT 1`),
    atRevision: s(`SELECT * FROM log WHERE name = ? AND id <= ? ORDER BY id DESC LIMIT 1`),
    rangeFrom: s(`SELECT l.* FROM log l INDEXED BY log_name_id WHERE l.name >= @lo AND l.name < @end AND l.id <= @rev AND ${LIVE_AT} ORDER BY l.name LIMIT @limit`),
    rangeAfter: s(`SELECT l.* FROM log l INDEXED BY log_name_id WHERE l.name > @lo AND l.name < @end AND l.id <= @rev AND ${LIVE_AT} ORDER BY l.name LIMIT @limit`),
    countFrom: s(COUNT('>= @lo')),
    countAfter: s(COUNT('> @lo')),
    insert: s(`INSERT INTO log (name, created, deleted, create_revision, prev_revision, value) VALUES (?, ?, ?, ?, ?, ?)`),
    history: s(
      `SELECT l.*, p.value AS prev_value, p.create_revision AS prev_create_revision FROM log l LEFT JOIN log p ON p.id = l.prev_revision
       WHERE l.id > @from AND l.id <= @to AND l.name >= @lo AND l.name < @end ORDER BY l.id LIMIT @limit`,
    ),
    maxId: s(`SELECT MAX(id) AS id FROM log`),
    seq: s(`SELECT seq FROM sqlite_sequence WHERE name = 'log'`),
    getMeta: s(`SELECT value FROM meta WHERE key = ?`),
    setMeta: s(`INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`),
    // Rows superseded by a newer row written in (from, to]: that newer row's prev.
    compactSuperseded: s(`DELETE FROM log WHERE id IN (SELECT prev_revision FROM log WHERE id > @from AND id <= @to AND prev_revision > 0)`),
    compactTombstones: s(`DELETE FROM log WHERE id > @from AND id <= @to AND deleted = 1`),
  };
}
