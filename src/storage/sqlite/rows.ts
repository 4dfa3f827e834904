// Conversions from log rows to KeyValues and watch events.
import type { KeyValue, WatchEvent } from '../interface.js';
import type { HistoryRow, LogRow } from './schema.js';

const EMPTY = new Uint8Array(0);

/** A created row's create revision is its own id (unknown before the insert). */
export function createRevisionOf(row: LogRow): number {
  return row.created ? row.id : row.create_revision;
}

export function toKeyValue(row: LogRow): KeyValue {
  return { key: row.name, value: row.value ?? EMPTY, createRevision: createRevisionOf(row), modRevision: row.id };
}

/** The watch event a history row stands for; null when its previous version is gone. */
export function toEvent(row: HistoryRow): WatchEvent | null {
  if (row.created) return { type: 'create', revision: row.id, kv: toKeyValue(row) };
  if (row.prev_value === null) return null;
  // Update and delete rows carry the key's create revision, which the previous version shares.
  const prev: KeyValue = { key: row.name, value: row.prev_value, createRevision: row.create_revision, modRevision: row.prev_revision };
  if (row.deleted) return { type: 'delete', revision: row.id, key: row.name, prev };
  return { type: 'update', revision: row.id, kv: toKeyValue(row), prev };
}
