// Pruning: removes unknown fields (unknown.ts decides what is unknown) from a
// decoded object IN PLACE, as apiextensions prunes custom resources before
// defaulting and storage. Returns the removed paths, so a caller that also
// wants field-validation warnings does not walk twice.
import type { Schema } from './model.js';
import { walkUnknown } from './unknown.js';

/** Deletes every unknown field of `value` in place; returns their paths in document order. */
export function prune(schema: Schema, value: unknown, opts: { path?: string } = {}): string[] {
  const removed: string[] = [];
  walkUnknown(schema, value, opts.path ?? '', (parent, key, path) => {
    delete parent[key];
    removed.push(path);
  });
  return removed;
}
