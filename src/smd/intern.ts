// Interning of managers' field sets. The sets a write leaves in
// managedFields recur: the same manager applying the same configuration
// gets the same set every time, and objects of one shape (every Deployment a
// tool applies) share their sets. A write's sets are swapped for an equal
// set seen lately, so that what is memoized on a frozen set — its FieldsV1
// object and its JSON bytes (fieldsv1.ts), its reconciliation with the schema
// (typed.ts), its hash — is computed once per distinct set, not per write,
// and the sets decoded objects hold are shared instead of one copy each.
import { FieldSet } from './fieldset.js';

/** Sets kept, newest last; an evicted set stays valid (it is only no longer found). */
export const INTERNED_SETS_KEPT = 1024; // as many as fieldsv1.ts keeps decoded; a Deployment's entry with its memos takes ~40 KB

const keyIds = new Map<string, number>();
const KEY_IDS_KEPT = 200_000;
const table = new Map<number, FieldSet[]>();
let count = 0;

/** An equal set seen lately, or `set` itself (then remembered). Both are frozen. */
export function intern(set: FieldSet): FieldSet {
  set.freeze();
  if (keyIds.size > KEY_IDS_KEPT) {
    keyIds.clear();
    table.clear();
    count = 0;
  }
  const h = hashOf(set);
  const bucket = table.get(h);
  if (bucket) {
    for (const s of bucket) if (s === set || s.equals(set)) return s;
    bucket.push(set);
  } else table.set(h, [set]);
  if (++count > INTERNED_SETS_KEPT) {
    const [oldest, b] = table.entries().next().value!;
    count -= b.length;
    table.delete(oldest);
  }
  return set;
}

/**
 * A structural hash of a frozen set, memoized on it (shared subtrees are
 * hashed once). Entries are combined in any order (a sum of their hashes),
 * so no sorting is needed.
 */
function hashOf(set: FieldSet): number {
  const memo = (set.memo ??= {});
  if (memo.hash !== undefined) return memo.hash;
  let sum = 0;
  let n = 0;
  for (const [key, e] of FieldSet.entries(set)) {
    let id = keyIds.get(key);
    if (id === undefined) keyIds.set(key, (id = keyIds.size + 1));
    let h = Math.imul(id ^ (e.member ? 0x9e3779b9 : 0x7f4a7c15), 0x01000193);
    if (e.child !== undefined) h = Math.imul(h ^ hashOf(e.child), 0x5bd1e995);
    sum = (sum + (h ^ (h >>> 15))) | 0;
    n++;
  }
  const h = Math.imul(sum ^ n, 0x27d4eb2d);
  memo.hash = h;
  return h;
}
