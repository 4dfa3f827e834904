// The apiextensions/v1 types whose JSON has two shapes and whose message
// has a field for each: JSONSchemaPropsOrArray {schema=1, jSONSchemas=2},
// JSONSchemaPropsOrBool {allows=1, schema=2}, JSONSchemaPropsOrStringArray
// {schema=1, property=2}; and JSON {raw=1}.
import { JSONSchemaProps, PKG } from '../api/apiextensions/v1/jsonschema.js';
import { isObject } from '../schema/model.js';
import { toSchema } from '../schema/dsl.js';
import { decodeMessage, encodeMessage, readRaw, registerSpecial, writeRaw } from './codec.js';
import { LEN, Reader, VARINT } from './wire.js';

const props = toSchema(JSONSchemaProps);

/** Reads a two-field message: what field 1 and field 2 hold (field 2 may repeat). */
function fields(bytes: Uint8Array): { one?: Uint8Array | number; two: Uint8Array[] } {
  const r = new Reader(bytes);
  const out: { one?: Uint8Array | number; two: Uint8Array[] } = { two: [] };
  while (!r.done) {
    const { field, wireType } = r.tag();
    if (field === 1 && wireType === LEN) out.one = r.bytes();
    else if (field === 1 && wireType === VARINT) out.one = r.varint();
    else if (field === 2 && wireType === LEN) out.two.push(r.bytes());
    else r.skip(wireType);
  }
  return out;
}

registerSpecial(`${PKG}.JSON`, { encode: writeRaw, decode: readRaw });

registerSpecial(`${PKG}.JSONSchemaPropsOrArray`, {
  encode(w, v) {
    if (Array.isArray(v)) for (const s of v) if (isObject(s)) w.tag(2, LEN).bytes(encodeMessage(props, s));
    if (isObject(v)) w.tag(1, LEN).bytes(encodeMessage(props, v));
  },
  decode(bytes) {
    const f = fields(bytes);
    if (f.one instanceof Uint8Array) return decodeMessage(props, f.one);
    return f.two.map((b) => decodeMessage(props, b));
  },
});

registerSpecial(`${PKG}.JSONSchemaPropsOrBool`, {
  encode(w, v) {
    w.tag(1, VARINT).uvarint(v === false ? 0 : 1);
    if (isObject(v)) w.tag(2, LEN).bytes(encodeMessage(props, v));
  },
  decode(bytes) {
    const r = new Reader(bytes);
    let allows = false;
    let schema: Record<string, unknown> | undefined;
    while (!r.done) {
      const { field, wireType } = r.tag();
      if (field === 1 && wireType === VARINT) allows = r.varint() !== 0;
      else if (field === 2 && wireType === LEN) schema = decodeMessage(props, r.bytes());
      else r.skip(wireType);
    }
    return schema ?? allows;
  },
});

registerSpecial(`${PKG}.JSONSchemaPropsOrStringArray`, {
  encode(w, v) {
    if (Array.isArray(v)) for (const p of v) if (typeof p === 'string') w.tag(2, LEN).string(p);
    if (isObject(v)) w.tag(1, LEN).bytes(encodeMessage(props, v));
  },
  decode(bytes) {
    const f = fields(bytes);
    if (f.one instanceof Uint8Array) return decodeMessage(props, f.one);
    return f.two.map((b) => Buffer.from(b.buffer, b.byteOffset, b.length).toString('utf8'));
  },
});
