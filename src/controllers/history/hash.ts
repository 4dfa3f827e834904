// A ControllerRevision's hash (kube's history.HashControllerRevision): 32-bit
// FNV-1 (Go's fnv.New32 — not FNV-1a) over the revision's data as raw JSON,
// then over the collision count written in decimal when there is one, the sum
// printed in decimal and each digit mapped into rand.SafeEncodeString's
// alphabet. kube hashes `data.Raw`, the bytes the controller made with Go's
// json.Marshal of a map: compact, keys sorted, HTML-safe escapes. `rawData`
// writes those bytes for a decoded value, so the hash of data built from the
// same object is kube's.
import { compareGoKeys, goEncode } from '../../patch/rawjson.js';
import type { JsonValue } from '../../registry/object.js';
import { safeEncodeString } from '../deployment/hash.js';

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** FNV-1 (multiply, then xor) over bytes, continuing from `seed`. */
export function fnv32(bytes: Uint8Array, seed = FNV_OFFSET): number {
  let h = seed;
  for (const b of bytes) h = (Math.imul(h, FNV_PRIME) ^ b) >>> 0;
  return h >>> 0;
}

/** A JSON value with object keys in Go's map order at every level. */
function sortedKeys(v: unknown): JsonValue {
  if (Array.isArray(v)) return v.map(sortedKeys);
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const out: { [k: string]: JsonValue } = {};
    for (const k of Object.keys(o).filter((k) => o[k] !== undefined).sort(compareGoKeys)) out[k] = sortedKeys(o[k]);
    return out;
  }
  return v as JsonValue;
}

/** The bytes Go's json.Marshal writes for this value decoded into maps (kube's revision data.Raw). */
export function rawData(data: unknown): string {
  return data === undefined || data === null ? '' : goEncode(sortedKeys(data));
}

/** kube's HashControllerRevision over the revision's data, with the collision count (`probe`) when given. */
export function hashControllerRevision(data: unknown, probe?: number): string {
  const enc = new TextEncoder();
  let h = fnv32(enc.encode(rawData(data)));
  if (probe !== undefined) h = fnv32(enc.encode(String(Math.trunc(probe))), h);
  return safeEncodeString(String(h));
}
