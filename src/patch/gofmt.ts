// Go's fmt verbs as apimachinery's error texts use them on decoded JSON: %v of
// map[string]interface{} ("map[a:1 b:[x y]]", keys sorted), of []interface{}
// ("[a b]"), of nil ("<nil>"), and reflect.TypeOf names ("[]interface {}").
import { type JsonValue, isObject } from './json.js';

export function goFormat(v: JsonValue): string {
  if (v === null) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(goFormat).join(' ')}]`;
  if (isObject(v)) {
    const keys = Object.keys(v).sort();
    return `map[${keys.map((k) => `${k}:${goFormat(v[k]!)}`).join(' ')}]`;
  }
  if (typeof v === 'number') return Number.isInteger(v) && Math.abs(v) < 1e21 ? v.toFixed(0) : String(v).replace(/e([+-])(\d)$/, 'e$10$2');
  return String(v);
}

/** reflect.TypeOf(v).String() for a value decoded by apimachinery's JSON (integers are int64). */
export function goTypeName(v: JsonValue): string {
  if (v === null) return '<nil>';
  if (Array.isArray(v)) return '[]interface {}';
  if (isObject(v)) return 'map[string]interface {}';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  return typeof v === 'string' ? 'string' : 'bool';
}
