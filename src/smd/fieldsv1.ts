// FieldsV1: the JSON spelling of a FieldSet that Kubernetes stores in
// metadata.managedFields. Encoding follows the reference server byte for
// byte: elements in structured-merge-diff order (fields < keys < values <
// indexes), key fields sorted by name, values in Go's JSON, and `.` first for
// a node that is both a member and a parent.
//
// Both directions are memoized, because a live object's entries rarely
// change between writes: an encoded (frozen) set keeps its FieldsV1 object,
// and decoding looks a FieldsV1 object up by its shape (every key, in order)
// among the sets decoded lately. Encodings are shared: treat the objects
// returned as read-only.
import { isObject } from '../schema/model.js';
import { FieldPathError, parseKey } from './path.js';
import { EMPTY, FieldSet } from './fieldset.js';

export type FieldsV1 = { [key: string]: FieldsV1 };

/** Encodes a set as Kubernetes' FieldsV1 object (key order is significant). The set becomes read-only. */
export function toFieldsV1(set: FieldSet): FieldsV1 {
  return emit(set.freeze(), false);
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

// ---------------------------------------------------------------------------
// Decoding.

/** Sets decoded lately, by shape; the oldest go first. */
const decoded = new Map<string, FieldSet>();
export const DECODED_SETS_KEPT = 2048;

/**
 * An exact fingerprint of a FieldsV1 object: every key with its length, in
 * order, and the nesting; undefined when it is not a tree of plain objects
 * (decoding then reports the error).
 */
function shape(o: { [k: string]: unknown }): string | undefined {
  let s = '';
  for (const k in o) {
    const v = o[k];
    if (!isObject(v) || k.length > 0xfe00) return undefined;
    const sub = shape(v);
    if (sub === undefined) return undefined;
    s += String.fromCharCode(0x100 + k.length) + k + '{' + sub + '}';
  }
  return s;
}

/** Decodes a FieldsV1 object into a read-only set; throws FieldPathError on malformed keys. */
export function fromFieldsV1(v: unknown): FieldSet {
  if (v === undefined || v === null) return EMPTY;
  if (!isObject(v)) throw new FieldPathError('FieldsV1 must be a JSON object');
  const fp = shape(v);
  if (fp !== undefined) {
    const hit = decoded.get(fp);
    if (hit !== undefined) {
      decoded.delete(fp);
      decoded.set(fp, hit);
      return hit;
    }
  }
  const set = (read(v).children ?? EMPTY).freeze();
  if (fp !== undefined) {
    if (decoded.size >= DECODED_SETS_KEPT) decoded.delete(decoded.keys().next().value!);
    decoded.set(fp, set);
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
