// FieldsV1: the JSON spelling of a FieldSet that Kubernetes stores in
// metadata.managedFields. Encoding follows the reference server byte for
// byte: elements in structured-merge-diff order (fields < keys < values <
// indexes), key fields sorted by name, values in Go's JSON, and `.` first for
// a node that is both a member and a parent.
//
// Both directions are memoized, because a live object's entries rarely
// change between writes: an encoded (frozen) set keeps its FieldsV1 object
// (and its JSON bytes, once asked for), decoding that object again is a
// lookup, and any other FieldsV1 object is looked up by its shape (every key,
// in order) among the sets decoded lately. Encodings are shared: treat the
// objects returned as read-only.
import { isObject } from '../schema/model.js';
import { FieldPathError, parseKey } from './path.js';
import { EMPTY, FieldSet } from './fieldset.js';

export type FieldsV1 = { [key: string]: FieldsV1 };

/** Encodes a set as Kubernetes' FieldsV1 object (key order is significant). The set becomes read-only. */
export function toFieldsV1(set: FieldSet): FieldsV1 {
  set.freeze();
  const fresh = set.memo?.encoded === undefined;
  const out = emit(set, false);
  // Decoding the object again (the next write of the object) is then a lookup.
  if (fresh) byObject.set(out, set);
  return out;
}

function emit(set: FieldSet, self: boolean): FieldsV1 {
  const memo = (set.memo ??= {});
  const done = (self ? memo.encodedSelf : memo.encoded) as FieldsV1 | undefined;
  if (done !== undefined) return done;
  const out: FieldsV1 = {};
  if (self) out['.'] = {};
  for (const e of set.sorted()) out[e.key] = e.child === undefined ? {} : emit(e.child, e.member);
  if (self) memo.encodedSelf = out;
  else memo.encoded = out;
  return out;
}

/**
 * The UTF-8 bytes of JSON.stringify(v) for a FieldsV1 object that toFieldsV1
 * returned for a set it still remembers, memoized on the set (interned sets
 * are encoded once); undefined for any other object. Shared: never modify.
 */
export function encodedFieldsV1JSON(v: object): Buffer | undefined {
  const set = byObject.get(v);
  if (set === undefined || set.memo?.encoded !== v) return undefined;
  return (set.memo.bytes ??= Buffer.from(JSON.stringify(v)));
}

// ---------------------------------------------------------------------------
// Decoding.
//
// A FieldsV1 object's shape is the sequence of its keys (each as a small
// number, from a table of keys seen) in depth-first order, with 0 closing
// each object. Sets decoded lately are kept by a hash of their shape and
// matched by the whole sequence, so a hit is exact. Walking a freshly parsed
// object this way costs far less than decoding it or even stringifying it.

const keyIds = new Map<string, number>();
const KEY_IDS_KEPT = 200_000;

interface Decoded {
  readonly shape: number[];
  readonly set: FieldSet;
}

/** Decoded sets by shape hash, oldest first. */
const decoded = new Map<number, Decoded[]>();
let decodedCount = 0;
export const DECODED_SETS_KEPT = 1024; // a Deployment's entry takes ~35 KB decoded

/** The shape of a FieldsV1 object into `out`; false when it is not a tree of plain objects (decoding then reports the error). */
function shape(o: { [k: string]: unknown }, out: number[]): boolean {
  for (const k in o) {
    const v = o[k];
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
    let id = keyIds.get(k);
    if (id === undefined) keyIds.set(k, (id = keyIds.size + 1));
    out.push(id);
    if (!shape(v as { [k: string]: unknown }, out)) return false;
  }
  out.push(0);
  return true;
}

function hashOf(seq: number[]): number {
  let h1 = 0x811c9dc5;
  let h2 = 0x2545f491;
  for (let i = 0; i < seq.length; i++) {
    h1 = Math.imul(h1 ^ seq[i]!, 0x01000193);
    h2 = Math.imul(h2 + seq[i]!, 0x5bd1e995) ^ (h2 >>> 15);
  }
  return (h1 >>> 0) * 0x200000 + (h2 & 0x1fffff);
}

function sameShape(a: number[], b: number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Sets by the FieldsV1 object they were decoded from or encoded to (a live
 * object handed over again; FieldsV1 objects are never modified). Encodings
 * are memoized on interned sets (intern.ts), so few objects are ever encoded.
 */
const byObject = new WeakMap<object, FieldSet>();

/** Decodes a FieldsV1 object into a read-only set; throws FieldPathError on malformed keys. */
export function fromFieldsV1(v: unknown): FieldSet {
  if (v === undefined || v === null) return EMPTY;
  if (!isObject(v)) throw new FieldPathError('FieldsV1 must be a JSON object');
  const known = byObject.get(v);
  if (known !== undefined) return known;
  const set = decode(v);
  byObject.set(v, set);
  return set;
}

function decode(v: { [k: string]: unknown }): FieldSet {
  if (keyIds.size > KEY_IDS_KEPT) {
    keyIds.clear();
    decoded.clear();
    decodedCount = 0;
  }
  const seq: number[] = [];
  const h = shape(v, seq) ? hashOf(seq) : undefined;
  if (h !== undefined) {
    const bucket = decoded.get(h);
    if (bucket) for (const d of bucket) if (sameShape(d.shape, seq)) return d.set;
  }
  const set = (read(v).children ?? EMPTY).freeze();
  if (h !== undefined) {
    if (decodedCount >= DECODED_SETS_KEPT) {
      const [oldest, bucket] = decoded.entries().next().value!;
      decodedCount -= bucket.length;
      decoded.delete(oldest);
    }
    const bucket = decoded.get(h);
    if (bucket) bucket.push({ shape: seq, set });
    else decoded.set(h, [{ shape: seq, set }]);
    decodedCount++;
  }
  return set;
}

function read(obj: { [k: string]: unknown }): { children?: FieldSet; isMember: boolean } {
  let children: FieldSet | undefined;
  let isMember = false;
  for (const k of Object.keys(obj)) {
    if (k === '.') {
      isMember = true;
      continue;
    }
    const p = parseKey(k);
    if (p === null) continue;
    const sub = obj[k];
    if (!isObject(sub)) throw new FieldPathError(`FieldsV1 value at ${JSON.stringify(k)} must be an object`);
    const r = read(sub);
    children ??= new FieldSet();
    if (r.isMember) children.memberAt(p.key, p.pe);
    if (r.children) children.setChildAt(p.key, p.pe, r.children);
  }
  if (children === undefined) isMember = true;
  return children === undefined ? { isMember } : { children, isMember };
}
