// The bytes a store writes for an object: exactly the UTF-8 of
// JSON.stringify of the object without metadata.resourceVersion, built so
// that what rarely changes is not encoded again: each managedFields entry's
// FieldsV1 — most of the bytes of an object several managers write — comes
// as the bytes the field-ownership engine memoized for its (interned) set
// (src/smd/fieldsv1.ts); the rest is stringified as usual, and every piece
// is written once into the result.
import { encodedFieldsV1JSON } from '../smd/index.js';
import type { ApiObject } from './object.js';

type Json = Record<string, unknown>;

const isPlain = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Text pieces and memoized byte pieces, in order; written into one buffer at the end. */
class Pieces {
  private readonly parts: (string | Buffer)[] = [];
  private text = '';

  str(s: string): void {
    this.text += s;
  }

  bytes(b: Buffer): void {
    if (this.text !== '') this.parts.push(this.text);
    this.text = '';
    this.parts.push(b);
  }

  done(): Buffer {
    if (this.parts.length === 0) return Buffer.from(this.text);
    if (this.text !== '') this.parts.push(this.text);
    let length = 0;
    for (const p of this.parts) length += typeof p === 'string' ? Buffer.byteLength(p) : p.length;
    const out = Buffer.allocUnsafe(length);
    let at = 0;
    for (const p of this.parts) at += typeof p === 'string' ? out.write(p, at) : p.copy(out, at);
    return out;
  }
}

/** How objectJSON writes one key: left out, written by the function given (after the key), or by JSON.stringify (undefined). */
type Special = (key: string, value: unknown) => 'skip' | ((out: Pieces) => void) | undefined;

/** The UTF-8 of JSON.stringify(obj) with metadata.resourceVersion left out. */
export function storedBytes(obj: ApiObject): Buffer {
  const out = new Pieces();
  objectJSON(out, obj as unknown as Json, (k, v) => (k === 'metadata' && isPlain(v) ? (o) => objectJSON(o, v, metadataKey) : undefined));
  return out.done();
}

const metadataKey: Special = (k, v) => (k === 'resourceVersion' ? 'skip' : k === 'managedFields' && Array.isArray(v) ? (o) => managedFieldsJSON(o, v) : undefined);

function managedFieldsJSON(out: Pieces, entries: unknown[]): void {
  out.str('[');
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    if (i > 0) out.str(',');
    if (isPlain(e)) objectJSON(out, e, entryKey);
    else out.str(JSON.stringify(e) ?? 'null');
  }
  out.str(']');
}

const entryKey: Special = (k, v) => {
  const b = k === 'fieldsV1' && isPlain(v) ? encodedFieldsV1JSON(v) : undefined;
  return b === undefined ? undefined : (o) => o.bytes(b);
};

/** An object's JSON, key by key as JSON.stringify writes it (own enumerable keys in order; undefined values left out). */
function objectJSON(out: Pieces, o: Json, special: Special): void {
  out.str('{');
  let sep = false;
  for (const k of Object.keys(o)) {
    const v = o[k];
    const s = special(k, v);
    if (s === 'skip') continue;
    if (s !== undefined) {
      out.str((sep ? ',' : '') + JSON.stringify(k) + ':');
      s(out);
    } else {
      const text = JSON.stringify(v);
      if (text === undefined) continue; // undefined, a function or a symbol: JSON.stringify leaves the key out
      out.str((sep ? ',' : '') + JSON.stringify(k) + ':' + text);
    }
    sep = true;
  }
  out.str('}');
}
