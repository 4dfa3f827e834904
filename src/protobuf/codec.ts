// Schema-driven protobuf codec: a JSON object ⇄ the message Kubernetes'
// generated.proto defines for it, using the `proto` numbers of our schemas.
//
// Encoding writes what the JSON holds, in field-number order: scalars, nested
// messages (always, even empty), repeated fields unpacked (proto2, as gogo
// writes them), maps as entries {key=1, value=2} sorted by key, Go-embedded
// structs (`protoIn`) as a message of their own. Shared meta types have their
// own messages: Time/MicroTime {seconds=1, nanos=2}, Quantity {string=1},
// IntOrString {type=1, intVal=2, strVal=3}, and raw JSON ({raw=1}) for
// RawExtension, FieldsV1 and values of any shape.
//
// Decoding gives the JSON a Go client's object would have: a scalar zero is
// dropped unless its schema says Go shows it (protoKeepZero: a pointer, or no
// omitempty), messages are kept even when empty, an empty Time is null.
import { isObject, type Schema } from '../schema/model.js';
import { FIXED32, FIXED64, LEN, Reader, VARINT, Writer } from './wire.js';
import { decodeTime, encodeTime } from './time.js';

const TIME = 'io.k8s.apimachinery.pkg.apis.meta.v1.Time';
const MICRO_TIME = 'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime';

/** A message whose wire form is not its schema's (the apiextensions "Or" types). */
export interface Special {
  encode(w: Writer, value: unknown): void;
  decode(bytes: Uint8Array): unknown;
}

const specials = new Map<string, Special>();

/** Registers the wire form of the shared type with this schema id. */
export function registerSpecial(id: string, special: Special): void {
  specials.set(id, special);
}

type Entry = { readonly name: string; readonly schema: Schema } | { readonly plan: Plan };
interface Plan {
  readonly byNumber: Map<number, Entry>;
  /** Field numbers in ascending order. */
  readonly order: number[];
}

const plans = new WeakMap<Schema, Plan>();

/** The fields of an object schema by number, Go-embedded structs as nested plans. */
function planOf(s: Schema): Plan {
  let p = plans.get(s);
  if (p) return p;
  p = { byNumber: new Map(), order: [] };
  for (const [name, prop] of Object.entries(s.properties ?? {})) {
    if (prop.proto === undefined) continue;
    let at = p;
    for (const n of prop.protoIn ?? []) {
      let e = at.byNumber.get(n);
      if (!e) at.byNumber.set(n, (e = { plan: { byNumber: new Map(), order: [] } }));
      if (!('plan' in e)) throw new Error(`protobuf: field ${n} of ${s.id ?? 'a message'} is both a field and an embedded message`);
      at = e.plan;
    }
    if (at.byNumber.has(prop.proto)) throw new Error(`protobuf: field number ${prop.proto} used twice in ${s.id ?? 'a message'} (${name})`);
    at.byNumber.set(prop.proto, { name, schema: prop });
  }
  const sort = (q: Plan): void => {
    q.order.push(...[...q.byNumber.keys()].sort((a, b) => a - b));
    for (const e of q.byNumber.values()) if ('plan' in e) sort(e.plan);
  };
  sort(p);
  plans.set(s, p);
  return p;
}

// ---- encoding ----

/** The message bytes of `value` under the object schema `s`. */
export function encodeMessage(s: Schema, value: Record<string, unknown>): Buffer {
  const w = new Writer();
  writeFields(w, planOf(s), value);
  return w.finish();
}

function writeFields(w: Writer, p: Plan, value: Record<string, unknown>): void {
  for (const n of p.order) {
    const e = p.byNumber.get(n)!;
    if ('plan' in e) {
      const sub = new Writer();
      writeFields(sub, e.plan, value);
      if (sub.length > 0) w.tag(n, LEN).bytes(sub.finish()); // an empty embedded struct reads the same written or not
      continue;
    }
    const v = value[e.name];
    if (v !== undefined) writeField(w, n, e.schema, v);
  }
}

const isMap = (s: Schema): boolean => s.type === 'object' && !s.properties && isObject(s.additionalProperties) && !s.id;

function writeField(w: Writer, n: number, s: Schema, v: unknown): void {
  if (v === null) {
    if (s.id === TIME || s.id === MICRO_TIME) w.tag(n, LEN).uvarint(0); // Go's zero Time: an empty message
    return;
  }
  if (s.type === 'array' && s.items) {
    if (Array.isArray(v)) for (const item of v) if (item !== null) writeValue(w, n, s.items, item);
    return;
  }
  if (isMap(s)) {
    if (!isObject(v)) return;
    const valueSchema = s.additionalProperties as Schema;
    for (const k of Object.keys(v).sort()) {
      const item = v[k];
      const entry = new Writer();
      entry.tag(1, LEN).string(k);
      if (item !== null && item !== undefined) {
        if (valueSchema.type === 'array' && valueSchema.items) {
          // map<string, []T> travels as map<string, {repeated T items = 1}> (ExtraValue)
          const inner = new Writer();
          if (Array.isArray(item)) for (const x of item) writeValue(inner, 1, valueSchema.items, x);
          entry.tag(2, LEN).bytes(inner.finish());
        } else writeValue(entry, 2, valueSchema, item);
      }
      w.tag(n, LEN).bytes(entry.finish());
    }
    return;
  }
  writeValue(w, n, s, v);
}

function writeValue(w: Writer, n: number, s: Schema, v: unknown): void {
  const special = s.id === undefined ? undefined : specials.get(s.id);
  if (special) {
    const sub = new Writer();
    special.encode(sub, v);
    w.tag(n, LEN).bytes(sub.finish());
    return;
  }
  if (s.id === TIME || s.id === MICRO_TIME) {
    if (typeof v !== 'string') return;
    const t = encodeTime(v);
    if (!t) return;
    w.tag(n, LEN).bytes(new Writer(24).tag(1, VARINT).varint(t.seconds).tag(2, VARINT).varint(t.nanos).finish());
    return;
  }
  if (s.format === 'quantity') {
    if (typeof v !== 'string' && typeof v !== 'number') return;
    w.tag(n, LEN).bytes(new Writer(32).tag(1, LEN).string(String(v)).finish());
    return;
  }
  if (s['x-kubernetes-int-or-string']) {
    const m = new Writer(32);
    if (typeof v === 'number') m.tag(1, VARINT).varint(0).tag(2, VARINT).varint(v).tag(3, LEN).string('');
    else if (typeof v === 'string') m.tag(1, VARINT).varint(1).tag(2, VARINT).varint(0).tag(3, LEN).string(v);
    else return;
    w.tag(n, LEN).bytes(m.finish());
    return;
  }
  if (isRawJson(s)) {
    w.tag(n, LEN).bytes(new Writer().tag(1, LEN).bytes(Buffer.from(JSON.stringify(v))).finish());
    return;
  }
  switch (s.type) {
    case 'object':
      if (isObject(v)) w.tag(n, LEN).bytes(encodeMessage(s, v));
      return;
    case 'string':
      if (typeof v !== 'string') return;
      if (s.format === 'byte') w.tag(n, LEN).bytes(Buffer.from(v, 'base64'));
      else w.tag(n, LEN).string(v);
      return;
    case 'integer':
      if (typeof v === 'number' && Number.isInteger(v)) w.tag(n, VARINT).varint(v);
      return;
    case 'boolean':
      if (typeof v === 'boolean') w.tag(n, VARINT).uvarint(v ? 1 : 0);
      return;
    case 'number':
      if (typeof v === 'number') w.tag(n, FIXED64).double(v);
      return;
    default:
      return;
  }
}

/** Values kept as JSON text in a {raw=1} message: RawExtension, FieldsV1, JSON, and anything without a typed shape. */
function isRawJson(s: Schema): boolean {
  if (s.properties || isObject(s.additionalProperties)) return false;
  return s['x-kubernetes-preserve-unknown-fields'] === true || s['x-kubernetes-embedded-resource'] === true || (s.type === undefined && !s['x-kubernetes-int-or-string']);
}

// ---- decoding ----

/** The JSON object of a message under the object schema `s`. */
export function decodeMessage(s: Schema, bytes: Uint8Array): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  readFields(planOf(s), bytes, out);
  return out;
}

/** Raw JSON values that hold an enveloped object (k8s\0…) instead of JSON text are decoded by this hook. */
let envelopeHook: ((bytes: Uint8Array) => unknown) | undefined;
export function setEnvelopeDecoder(f: (bytes: Uint8Array) => unknown): void {
  envelopeHook = f;
}

function readFields(p: Plan, bytes: Uint8Array, out: Record<string, unknown>): void {
  const r = new Reader(bytes);
  while (!r.done) {
    const { field, wireType } = r.tag();
    const e = p.byNumber.get(field);
    if (!e) {
      r.skip(wireType);
      continue;
    }
    if ('plan' in e) {
      if (wireType !== LEN) throw new Error(`field ${field}: expected an embedded message`);
      readFields(e.plan, r.bytes(), out);
      continue;
    }
    const s = e.schema;
    if (s.type === 'array' && s.items) {
      const list = (Array.isArray(out[e.name]) ? out[e.name] : (out[e.name] = [])) as unknown[];
      if (wireType === LEN && isPackable(s.items)) {
        const packed = new Reader(r.bytes());
        while (!packed.done) list.push(readScalar(s.items, s.items.type === 'number' ? FIXED64 : VARINT, packed));
      } else list.push(readValue(s.items, wireType, r));
      continue;
    }
    if (isMap(s)) {
      if (wireType !== LEN) throw new Error(`field ${field}: expected a map entry`);
      const map = (isObject(out[e.name]) ? out[e.name] : (out[e.name] = {})) as Record<string, unknown>;
      const [k, v] = readEntry(s.additionalProperties as Schema, r.bytes());
      map[k] = v;
      continue;
    }
    const v = readValue(s, wireType, r);
    if (isZero(s, v) && !s.protoKeepZero) delete out[e.name];
    else out[e.name] = v;
  }
}

const isPackable = (s: Schema): boolean => (s.type === 'integer' || s.type === 'boolean' || s.type === 'number') && !s['x-kubernetes-int-or-string'];

function isZero(s: Schema, v: unknown): boolean {
  if (s.type === 'object' || s.id === TIME || s.id === MICRO_TIME || s['x-kubernetes-int-or-string'] || isRawJson(s)) return false;
  return v === '' || v === 0 || v === false;
}

function readEntry(valueSchema: Schema, bytes: Uint8Array): [string, unknown] {
  const r = new Reader(bytes);
  let key = '';
  let value: unknown;
  while (!r.done) {
    const { field, wireType } = r.tag();
    if (field === 1 && wireType === LEN) key = r.string();
    else if (field === 2) {
      if (valueSchema.type === 'array' && valueSchema.items) {
        const items: unknown[] = [];
        const inner = new Reader(r.bytes());
        while (!inner.done) {
          const t = inner.tag();
          if (t.field === 1) items.push(readValue(valueSchema.items, t.wireType, inner));
          else inner.skip(t.wireType);
        }
        value = items;
      } else value = readValue(valueSchema, wireType, r);
    } else r.skip(wireType);
  }
  return [key, value === undefined ? zeroOf(valueSchema) : value];
}

/** Go's zero value as JSON, for a map entry without a value. */
function zeroOf(s: Schema): unknown {
  if (s.type === 'array') return [];
  if (s.format === 'quantity') return '0';
  switch (s.type) {
    case 'string':
      return '';
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return false;
    case 'object':
      return {};
    default:
      return null;
  }
}

function readValue(s: Schema, wireType: number, r: Reader): unknown {
  const special = s.id === undefined ? undefined : specials.get(s.id);
  if (special) return special.decode(r.bytes());
  if (s.id === TIME || s.id === MICRO_TIME) return readTime(r.bytes(), s.id === MICRO_TIME);
  if (s.format === 'quantity') {
    const m = new Reader(r.bytes());
    let q = '0';
    while (!m.done) {
      const t = m.tag();
      if (t.field === 1 && t.wireType === LEN) q = m.string() || '0';
      else m.skip(t.wireType);
    }
    return q;
  }
  if (s['x-kubernetes-int-or-string']) {
    const m = new Reader(r.bytes());
    let type = 0;
    let intVal = 0;
    let strVal = '';
    while (!m.done) {
      const t = m.tag();
      if (t.field === 1 && t.wireType === VARINT) type = m.varint();
      else if (t.field === 2 && t.wireType === VARINT) intVal = m.varint();
      else if (t.field === 3 && t.wireType === LEN) strVal = m.string();
      else m.skip(t.wireType);
    }
    return type === 1 ? strVal : intVal;
  }
  if (isRawJson(s)) return readRaw(r.bytes());
  if (s.type === 'object') return decodeMessage(s, r.bytes());
  return readScalar(s, wireType, r);
}

function readScalar(s: Schema, wireType: number, r: Reader): unknown {
  switch (s.type) {
    case 'string': {
      if (wireType !== LEN) throw new Error(`expected a string, got wire type ${wireType}`);
      if (s.format !== 'byte') return r.string();
      const b = r.bytes();
      return Buffer.from(b.buffer, b.byteOffset, b.length).toString('base64');
    }
    case 'integer':
      if (wireType !== VARINT) throw new Error(`expected a varint, got wire type ${wireType}`);
      return s.format === 'int32' ? r.varint() | 0 : r.varint();
    case 'boolean':
      if (wireType !== VARINT) throw new Error(`expected a varint, got wire type ${wireType}`);
      return r.varint() !== 0;
    case 'number':
      if (wireType === FIXED64) return r.double();
      if (wireType === FIXED32) return r.float();
      if (wireType === VARINT) return r.varint();
      throw new Error(`expected a double, got wire type ${wireType}`);
    default:
      r.skip(wireType);
      return undefined;
  }
}

function readTime(bytes: Uint8Array, micro: boolean): string | null {
  if (bytes.length === 0) return null;
  const m = new Reader(bytes);
  let seconds = 0;
  let nanos = 0;
  while (!m.done) {
    const t = m.tag();
    if (t.field === 1 && t.wireType === VARINT) seconds = m.varint();
    else if (t.field === 2 && t.wireType === VARINT) nanos = m.varint();
    else m.skip(t.wireType);
  }
  return decodeTime(seconds, nanos, micro);
}

/** A {raw=1} message's JSON value (null when empty, as Go's RawExtension shows nothing). */
export function readRaw(bytes: Uint8Array): unknown {
  const m = new Reader(bytes);
  let raw: Uint8Array | undefined;
  while (!m.done) {
    const t = m.tag();
    if (t.field === 1 && t.wireType === LEN) raw = m.bytes();
    else m.skip(t.wireType);
  }
  return rawValue(raw);
}

/** The JSON value of raw bytes: JSON text, or an enveloped object. */
export function rawValue(raw: Uint8Array | undefined): unknown {
  if (!raw || raw.length === 0) return null;
  if (raw[0] === 0x6b && raw[1] === 0x38 && raw[2] === 0x73 && raw[3] === 0 && envelopeHook) return envelopeHook(raw);
  return JSON.parse(Buffer.from(raw.buffer, raw.byteOffset, raw.length).toString('utf8'));
}

/** Writes {raw=1: JSON text of value}: RawExtension, FieldsV1 and apiextensions' JSON. */
export function writeRaw(w: Writer, value: unknown): void {
  w.tag(1, LEN).bytes(Buffer.from(JSON.stringify(value)));
}
