// The JSON a store writes for an object: exactly JSON.stringify of the
// object without metadata.resourceVersion, built so that what rarely changes
// is not encoded again: each managedFields entry's FieldsV1 — most of the
// bytes of an object several managers write — comes from the text the
// field-ownership engine memoized for its (interned) set (src/smd/fieldsv1.ts).
import { encodedFieldsV1JSON } from '../smd/index.js';
import type { ApiObject } from './object.js';

type Json = Record<string, unknown>;

const isPlain = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** JSON.stringify(obj) with metadata.resourceVersion left out. */
export function storedJSON(obj: ApiObject): string {
  return objectJSON(obj as unknown as Json, (k, v) => (k === 'metadata' && isPlain(v) ? metadataJSON(v) : undefined));
}

function metadataJSON(meta: Json): string {
  return objectJSON(meta, (k, v) => (k === 'resourceVersion' ? null : k === 'managedFields' && Array.isArray(v) ? managedFieldsJSON(v) : undefined));
}

function managedFieldsJSON(entries: unknown[]): string {
  let out = '[';
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    if (i > 0) out += ',';
    out += isPlain(e) ? objectJSON(e, (k, v) => (k === 'fieldsV1' && isPlain(v) ? encodedFieldsV1JSON(v) : undefined)) : (JSON.stringify(e) ?? 'null');
  }
  return out + ']';
}

/**
 * An object's JSON, key by key as JSON.stringify writes it (own enumerable
 * keys in order; undefined values left out); `special` may give a key's
 * text itself (a string), leave the key out (null) or defer (undefined).
 */
function objectJSON(o: Json, special: (key: string, value: unknown) => string | null | undefined): string {
  let out = '{';
  let sep = false;
  for (const k of Object.keys(o)) {
    const v = o[k];
    const given = special(k, v);
    if (given === null) continue;
    const text = given ?? JSON.stringify(v);
    if (text === undefined) continue; // undefined, a function or a symbol: JSON.stringify leaves the key out
    out += (sep ? ',' : '') + JSON.stringify(k) + ':' + text;
    sep = true;
  }
  return out + '}';
}
