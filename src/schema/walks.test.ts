// The write path's one-walk versions (gotypes.ts checkAndPrune, gozero.ts
// finishGoDecode) against the plain walks they replace — kept below as the
// reference: Go's type check, the unknown-field walk (unknown.ts) with
// pruning, the omitempty drop and the zero-value fill — on random bodies of
// every registered kind: valid and invalid values, unknown fields, zero
// values, nulls, maps and embedded resources.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { registeredKinds, schemaFor } from '../api/schemas.js';
import { ObjectMeta, kind } from './common.js';
import { embedded, int32, list, mapOf, obj, ref, str } from './dsl.js';
import { base64Error, checkAndPrune, goDecodeError, goJsonKind, goTypeName } from './gotypes.js';
import { dropGoOmitted, fillGoZeroValues, finishGoDecode } from './gozero.js';
import { isObject, type Schema } from './model.js';
import { prune } from './prune.js';

// ---- the reference walks (the straightforward versions, one concern each; leaf
// checks such as Go's base64 decoding are shared with gotypes.ts, not compared) ----

const QUANTITY = /^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$/;
const QUANTITY_ERROR = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const TIME_IDS = new Set(['io.k8s.apimachinery.pkg.apis.meta.v1.Time', 'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime']);
const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
const structName = (s: Schema): string | undefined => (s.id ? s.id.slice(s.id.lastIndexOf('.') + 1) : undefined);

interface Ctx {
  struct: string;
  path: string[];
}

function typeError(v: unknown, s: Schema, c: Ctx, detail: string = goJsonKind(v)): string {
  const where = c.path.length === 0 ? 'Go value' : `Go struct field ${c.struct}.${c.path.join('.')}`;
  return `json: cannot unmarshal ${detail} into ${where} of type ${goTypeName(s)}`;
}

const inRange = (n: number, format: string | undefined) => (format === 'int32' ? n >= -2147483648 && n <= 2147483647 : Number.isSafeInteger(n) || Math.abs(n) < 9.3e18);

function refCheck(s: Schema, v: unknown, c: Ctx): string | undefined {
  if (v === null || v === undefined) return undefined;
  if (s['x-kubernetes-preserve-unknown-fields'] && s.type === undefined) return undefined;
  if (s.format === 'quantity') {
    if (typeof v === 'number') return undefined;
    if (typeof v !== 'string') return typeError(v, s, c);
    return QUANTITY.test(v.trim()) ? undefined : QUANTITY_ERROR;
  }
  if (s['x-kubernetes-int-or-string']) {
    if (typeof v === 'string') return undefined;
    if (typeof v === 'number') return Number.isInteger(v) && inRange(v, 'int32') ? undefined : `json: cannot unmarshal number ${v} into Go value of type int32`;
    return `json: cannot unmarshal ${goJsonKind(v)} into Go value of type int32`;
  }
  if (s.id && TIME_IDS.has(s.id)) {
    if (typeof v !== 'string') return typeError(v, s, c);
    return RFC3339.test(v) ? undefined : `parsing time ${JSON.stringify(v)} as "2006-01-02T15:04:05Z07:00": cannot parse ${JSON.stringify(v)} as "2006"`;
  }
  switch (s.type) {
    case 'string':
      if (typeof v !== 'string') return typeError(v, s, c);
      return s.format === 'byte' ? base64Error(v) : undefined;
    case 'boolean':
      return typeof v === 'boolean' ? undefined : typeError(v, s, c);
    case 'integer':
      if (typeof v !== 'number') return typeError(v, s, c);
      return Number.isInteger(v) && inRange(v, s.format) ? undefined : typeError(v, s, c, `number ${v}`);
    case 'number':
      return typeof v === 'number' ? undefined : typeError(v, s, c);
    case 'array': {
      if (!Array.isArray(v)) return typeError(v, s, c);
      if (!s.items) return undefined;
      for (const item of v) {
        const e = refCheck(s.items, item, c);
        if (e) return e;
      }
      return undefined;
    }
    case 'object': {
      if (!isObject(v)) return typeError(v, s, c);
      const props = s.properties;
      const extra = isObject(s.additionalProperties) ? (s.additionalProperties as Schema) : undefined;
      const inner: Ctx = { struct: structName(s) ?? c.struct, path: c.path };
      for (const k of Object.keys(v)) {
        const prop = props?.[k];
        let e: string | undefined;
        if (prop) {
          inner.path.push(k);
          e = refCheck(prop, v[k], inner);
          inner.path.pop();
        } else if (extra) e = refCheck(extra, v[k], inner);
        if (e) return e;
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

const refDecodeError = (s: Schema, v: unknown, kindName: string) => refCheck(s, v, { struct: structName(s) ?? kindName, path: [] });

function refFill(s: Schema, v: unknown, top: boolean): void {
  if (Array.isArray(v)) {
    if (s.items) for (const item of v) refFill(s.items, item, false);
    return;
  }
  const props = s.properties;
  if (!isObject(v) || !props) return;
  if (!top) {
    for (const [k, sub] of Object.entries(props)) {
      if (sub.id !== OBJECT_META) continue;
      const meta = isObject(v[k]) ? v[k] : (v[k] = {});
      if (!('creationTimestamp' in (meta as object))) (meta as Record<string, unknown>).creationTimestamp = null;
    }
  }
  for (const k in v) {
    const sub = props[k];
    if (sub && (top || sub.id !== OBJECT_META)) refFill(sub, v[k], false);
  }
  for (const [k, sub] of Object.entries(props)) {
    if (!sub.goAlways) continue;
    if (v[k] === undefined || (v[k] === null && refZero(sub) !== null)) v[k] = refZero(sub);
  }
  for (const k of top ? ['spec', 'status'] : []) {
    const sub = props[k];
    if (sub?.type === 'object' && sub.properties && (v[k] === undefined || v[k] === null)) v[k] = refZero(sub);
  }
}

/** What Go writes for an always-written field holding its zero value. */
function refZero(s: Schema): unknown {
  if (s.format === 'quantity') return '0';
  if (s['x-kubernetes-int-or-string']) return 0;
  if (s.properties) {
    const o: Record<string, unknown> = {};
    refFill(s, o, false);
    return o;
  }
  if (s.format === 'date-time' || (s.id && TIME_IDS.has(s.id))) return null;
  switch (s.type) {
    case 'string':
      return s.format === 'byte' ? null : '';
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return false;
    default:
      return null;
  }
}

function isOmittable(sub: Schema, v: unknown): boolean {
  if (Array.isArray(v)) return v.length === 0;
  if (isObject(v)) return !sub.properties && Object.keys(v).length === 0 && !sub['x-kubernetes-preserve-unknown-fields'];
  return v === '' || v === 0 || v === false;
}

function refDrop(s: Schema, v: unknown): void {
  if (Array.isArray(v)) {
    if (s.items) for (const item of v) refDrop(s.items, item);
    return;
  }
  if (!isObject(v)) return;
  const props = s.properties;
  if (props) {
    for (const k in v) {
      const sub = props[k];
      if (!sub) continue;
      if (sub.proto !== undefined && !sub.protoKeepZero && !sub['x-kubernetes-int-or-string'] && isOmittable(sub, v[k])) delete v[k];
      else refDrop(sub, v[k]);
    }
  } else if (typeof s.additionalProperties === 'object') {
    for (const k in v) refDrop(s.additionalProperties, v[k]);
  }
}

// ---- random bodies ----

/** A small deterministic PRNG (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ODD = [null, '', 0, false, true, 1.5, 3000000000, 'x', 'lots', ' 1 ', '2020-01-01T00:00:00Z', 'not base64!!', 'YWRtaW4=', [], {}, [1], { a: 1 }];
const UNKNOWN_KEYS = ['zzUnknown', 'constructor', 'toString', 'bogus'];

function generator(seed: number) {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const clone = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;
  function gen(s: Schema, depth: number): unknown {
    if (r() < 0.04) return clone(pick(ODD));
    if (s.format === 'quantity') return pick(['500m', '1Gi', 0, 2, 'lots', ' 1 ', '']);
    if (s['x-kubernetes-int-or-string']) return pick(['http', 80, 0, '', 1.5, 3000000000]);
    if (s.id && TIME_IDS.has(s.id)) return pick(['2020-01-01T00:00:00Z', 'yesterday', null]);
    switch (s.type) {
      case 'string':
        return pick(s.format === 'byte' ? ['YWRtaW4=', '', 'not base64!!'] : ['', 'a', 'value', 'default']);
      case 'boolean':
        return r() < 0.5;
      case 'integer':
        return pick([0, 1, 42, -1, 2147483648]);
      case 'number':
        return pick([0, 1.5, 3]);
      case 'array':
        if (!s.items || depth > 7) return [];
        return Array.from({ length: Math.floor(r() * 3) }, () => gen(s.items!, depth + 1));
      case 'object':
      case undefined: {
        if (depth > 7) return {};
        const out: Record<string, unknown> = {};
        const props = s.properties ?? {};
        for (const k of Object.keys(props)) if (r() < 0.3) out[k] = gen(props[k]!, depth + 1);
        if (isObject(s.additionalProperties)) for (let i = Math.floor(r() * 3); i > 0; i--) out[`k${i}`] = gen(s.additionalProperties as Schema, depth + 1);
        if (s['x-kubernetes-embedded-resource'] && r() < 0.7) {
          out.apiVersion = 'v1';
          out.kind = 'Thing';
          out.metadata = gen(ObjectMeta.schema, depth + 1);
        }
        if (r() < 0.08) out[pick(UNKNOWN_KEYS)] = clone(pick(ODD));
        if (s.type === undefined && !s.properties && r() < 0.5) return clone(pick(ODD));
        return out;
      }
      default:
        return clone(pick(ODD));
    }
  }
  return gen;
}

const text = (v: unknown) => JSON.stringify(v);
const copy = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

// A kind with the shapes the built-in schemas lack: an embedded resource, a map of structs, a template.
const Extra = kind({
  spec: obj({
    template: embedded(),
    byName: mapOf(obj({ port: int32().proto(1), name: str().proto(2) }).id('x.v1.Entry')).proto(1),
    templates: list(obj({ metadata: ref(ObjectMeta).proto(1), spec: obj({ image: str().proto(1) }).proto(2) }).id('x.v1.Template')).proto(2),
  }).proto(2),
}).id('x.v1.Extra');

const kinds: { kind: string; schema: Schema }[] = [
  ...registeredKinds().map((k) => ({ kind: k.kind, schema: schemaFor(k.group, k.version, k.kind)! })),
  { kind: 'Extra', schema: Extra.schema },
];

describe('the one-walk typed decoding equals the plain walks', () => {
  for (const { kind: name, schema } of kinds) {
    it(name, () => {
      const gen = generator(name.length * 7919 + name.charCodeAt(0));
      for (let i = 0; i < 40; i++) {
        const body = gen(schema, 0) as Record<string, unknown>;
        const want = refDecodeError(schema, body, name);
        assert.equal(goDecodeError(schema, body, name), want);
        const got = copy(body);
        const result = checkAndPrune(schema, got, name);
        if (want !== undefined) {
          assert.deepEqual(result, { typeError: want });
          assert.equal(text(got), text(body), 'a body with a type error is left as it was');
          continue;
        }
        const pruned = copy(body);
        const removed = prune(schema, pruned);
        assert.deepEqual(result, { unknown: removed });
        assert.equal(text(got), text(pruned));
      }
    });
  }
});

describe('the one-walk Go drop and fill equal the plain walks', () => {
  for (const { kind: name, schema } of kinds) {
    it(name, () => {
      const gen = generator(name.length * 104729 + name.charCodeAt(1));
      for (let i = 0; i < 40; i++) {
        const body = gen(schema, 0) as Record<string, unknown>;
        const both = copy(body);
        refDrop(schema, both);
        refFill(schema, both, true);
        const got = copy(body);
        finishGoDecode(schema, got);
        assert.equal(text(got), text(both), 'finishGoDecode');
        const dropped = copy(body);
        refDrop(schema, dropped);
        const gotDropped = copy(body);
        dropGoOmitted(schema, gotDropped);
        assert.equal(text(gotDropped), text(dropped), 'dropGoOmitted');
        const filled = copy(body);
        refFill(schema, filled, true);
        const gotFilled = copy(body);
        fillGoZeroValues(schema, gotFilled);
        assert.equal(text(gotFilled), text(filled), 'fillGoZeroValues');
      }
    });
  }
});

describe('the random bodies reach what they should', () => {
  it('type errors, unknown fields and clean bodies all occur', () => {
    const schema = schemaFor('', 'v1', 'Pod')!;
    const gen = generator(42);
    const seen = { typeError: 0, unknown: 0, clean: 0 };
    for (let i = 0; i < 300; i++) {
      const r = checkAndPrune(schema, gen(schema, 0), 'Pod');
      if (r.typeError !== undefined) seen.typeError++;
      else if (r.unknown.length > 0) seen.unknown++;
      else seen.clean++;
    }
    assert.ok(seen.typeError > 10 && seen.unknown > 10 && seen.clean > 10, JSON.stringify(seen));
  });
  it('names the map field, the struct and the list element in errors', () => {
    const body = { spec: { byName: { a: { port: 'x' } }, templates: [{ spec: { image: 1 } }] } };
    assert.equal(checkAndPrune(Extra.schema, copy(body), 'Extra').typeError, 'json: cannot unmarshal string into Go struct field Entry.spec.byName.port of type int32');
    assert.equal(refDecodeError(Extra.schema, body, 'Extra'), 'json: cannot unmarshal string into Go struct field Entry.spec.byName.port of type int32');
  });
  it('prunes inside embedded metadata, map values and list items', () => {
    const body = { spec: { template: { apiVersion: 'v1', kind: 'X', metadata: { name: 'n', bad: 1 } }, byName: { a: { port: 1, nope: 2 } }, templates: [{ spec: { image: 'i', x: 1 } }] } };
    const got = copy(body);
    assert.deepEqual(checkAndPrune(Extra.schema, got, 'Extra'), { unknown: ['spec.template.metadata.bad', 'spec.byName.a.nope', 'spec.templates[0].spec.x'] });
    assert.deepEqual(got, { spec: { template: { apiVersion: 'v1', kind: 'X', metadata: { name: 'n' } }, byName: { a: { port: 1 } }, templates: [{ spec: { image: 'i' } }] } });
  });
});
