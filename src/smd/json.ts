// JSON value helpers of the engine: deep equality, deep copy, and what the walks count as an empty list or map.
import { isObject, type JsonValue } from '../schema/model.js';

export type JsonObject = { [key: string]: JsonValue };

/** Deep equality of JSON values (map key order does not matter). */
export function jsonEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const bo = b as JsonObject;
  let n = 0;
  for (const k in a) {
    if (!Object.hasOwn(bo, k) || !jsonEqual((a as JsonObject)[k], bo[k])) return false;
    n++;
  }
  for (const _ in bo) n--;
  return n === 0;
}

/** A deep copy of a JSON value. */
export function cloneJson<T extends JsonValue | undefined>(v: T): T {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) {
    const out: JsonValue[] = new Array(v.length);
    for (let i = 0; i < v.length; i++) out[i] = cloneJson(v[i]!);
    return out as T;
  }
  const out: JsonObject = {};
  for (const k in v) {
    const c = cloneJson((v as JsonObject)[k]!);
    if (k === '__proto__') Object.defineProperty(out, k, { value: c, enumerable: true, writable: true, configurable: true });
    else out[k] = c;
  }
  return out as T;
}

/** Whether `v` is no list, or a list without items (the walks treat both as an empty list). */
export const emptyList = (v: JsonValue | undefined): boolean => !Array.isArray(v) || v.length === 0;

/** Whether `v` is no map, or a map without keys (the walks treat both as an empty map). */
export function emptyMap(v: JsonValue | undefined): boolean {
  if (!isObject(v)) return true;
  for (const _ in v) return false;
  return true;
}
