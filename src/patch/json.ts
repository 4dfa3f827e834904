// JSON values as the patch library sees them, and the few operations every patch
// type needs: type tests, deep equality, deep copy, and safe key assignment (a key
// named "__proto__" must become an own property, never a prototype change).
export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Sets `o[k] = v` as an own, enumerable property whatever `k` is. */
export function put(o: JsonObject, k: string, v: JsonValue): void {
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}

export function has(o: JsonObject, k: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, k);
}

export function deepCopy<T extends JsonValue>(v: T): T {
  if (Array.isArray(v)) return v.map((x) => deepCopy(x)) as T;
  if (isObject(v)) {
    const out: JsonObject = {};
    for (const k of Object.keys(v)) put(out, k, deepCopy(v[k]!));
    return out as T;
  }
  return v;
}

/** Structural equality: object key order is irrelevant, array order is not. */
export function deepEqual(a: JsonValue, b: JsonValue): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]!));
  if (isObject(a)) {
    if (!isObject(b)) return false;
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => has(b, k) && deepEqual(a[k]!, b[k]!));
  }
  return false;
}

/** The bytes JSON.stringify would produce, counted as UTF-8 (what Go's size limits count). */
export function jsonSize(v: JsonValue): number {
  return Buffer.byteLength(JSON.stringify(v), 'utf8');
}
