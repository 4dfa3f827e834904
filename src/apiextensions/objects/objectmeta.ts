// ObjectMeta read from a custom resource's JSON as apiextensions-apiserver
// reads it (pkg/apiserver/schema/objectmeta coerce.go): the metadata value is
// decoded into Go's metav1.ObjectMeta — a value of the wrong type fails with
// encoding/json's message (metav1.Time and FieldsV1 decode themselves, uids
// are types.UID), or, when malformed fields are dropped, each field
// that does not decode on its own is left out — and written back as the
// struct serializes: unknown fields (and keys in another case) gone, empty
// fields omitted, keys in the struct's order, times in UTC with whole seconds, a zero
// creationTimestamp null (removed in embedded resources).
import { ObjectMeta } from '../../schema/common.js';
import { goDecodeError, goJsonKind } from '../../schema/gotypes.js';
import { isObject } from '../../schema/model.js';
import { timeText } from '../../conversion/gojson.js';

type Obj = Record<string, unknown>;

type FieldKind = 'string' | 'int64' | 'time' | 'ptrTime' | 'ptrInt64' | 'stringMap' | 'stringList' | 'ownerRefs' | 'managedFields';

/** metav1.ObjectMeta's JSON fields in struct order, with how each serializes. */
const META_FIELDS: readonly (readonly [string, FieldKind])[] = [
  ['name', 'string'], ['generateName', 'string'], ['namespace', 'string'], ['selfLink', 'string'], ['uid', 'string'],
  ['resourceVersion', 'string'], ['generation', 'int64'], ['creationTimestamp', 'time'], ['deletionTimestamp', 'ptrTime'],
  ['deletionGracePeriodSeconds', 'ptrInt64'], ['labels', 'stringMap'], ['annotations', 'stringMap'], ['ownerReferences', 'ownerRefs'],
  ['finalizers', 'stringList'], ['managedFields', 'managedFields'],
];

/** Kubernetes decodes JSON case-sensitively (sigs.k8s.io/json): a key is its field's only spelling. */
function fieldValue(o: Obj, name: string): unknown {
  return Object.prototype.hasOwnProperty.call(o, name) ? o[name] : undefined;
}

const nonEmptyString = (v: unknown): v is string => typeof v === 'string' && v !== '';

function ownerReference(v: unknown): Obj {
  const r = isObject(v) ? v : {};
  const out: Obj = {};
  for (const k of ['apiVersion', 'kind', 'name', 'uid']) {
    const s = fieldValue(r, k);
    out[k] = typeof s === 'string' ? s : '';
  }
  for (const k of ['controller', 'blockOwnerDeletion']) {
    const b = fieldValue(r, k);
    if (typeof b === 'boolean') out[k] = b;
  }
  return out;
}

function managedFieldsEntry(v: unknown): Obj {
  const e = isObject(v) ? v : {};
  const out: Obj = {};
  for (const k of ['manager', 'operation', 'apiVersion']) {
    const s = fieldValue(e, k);
    if (nonEmptyString(s)) out[k] = s;
  }
  const time = timeText(fieldValue(e, 'time'));
  if (time !== null) out.time = time;
  const fieldsType = fieldValue(e, 'fieldsType');
  if (nonEmptyString(fieldsType)) out.fieldsType = fieldsType;
  const fieldsV1 = fieldValue(e, 'fieldsV1');
  if (fieldsV1 !== undefined && fieldsV1 !== null) out.fieldsV1 = fieldsV1;
  const sub = fieldValue(e, 'subresource');
  if (nonEmptyString(sub)) out.subresource = sub;
  return out;
}

/** One field's serialized value, or undefined when the struct omits it. */
function serialize(kind: FieldKind, v: unknown): unknown {
  if (v === undefined || v === null) return undefined;
  switch (kind) {
    case 'string': return nonEmptyString(v) ? v : undefined;
    case 'int64': return v === 0 ? undefined : v;
    case 'time': case 'ptrTime': return timeText(v) ?? undefined;
    case 'ptrInt64': return v;
    case 'stringMap': return Object.keys(v as Obj).length === 0 ? undefined : { ...(v as Obj) };
    case 'stringList': return (v as unknown[]).length === 0 ? undefined : [...(v as unknown[])];
    case 'ownerRefs': return (v as unknown[]).length === 0 ? undefined : (v as unknown[]).map(ownerReference);
    case 'managedFields': return (v as unknown[]).length === 0 ? undefined : (v as unknown[]).map(managedFieldsEntry);
  }
}

/**
 * The ObjectMeta struct serialized back (SetObjectMeta), from metadata that
 * decodes. A zero creationTimestamp is written as null (a struct held by
 * value) unless `dropZeroCreationTimestamp` (embedded resources remove it).
 */
export function typedObjectMeta(metadata: unknown, opts: { dropZeroCreationTimestamp?: boolean } = {}): Obj {
  const m = isObject(metadata) ? metadata : {};
  const out: Obj = {};
  for (const [name, kind] of META_FIELDS) {
    const v = serialize(kind, fieldValue(m, name));
    if (v !== undefined) out[name] = v;
    else if (name === 'creationTimestamp' && opts.dropZeroCreationTimestamp !== true) out[name] = null;
  }
  return out;
}

/**
 * metav1.Time's own UnmarshalJSON: a value that is not a string fails as
 * decoding a Go string does, a string that is not RFC 3339 with the time
 * parser's text. Undefined when it decodes.
 */
function timeError(v: unknown): string | undefined {
  if (v === null || v === undefined) return undefined;
  if (typeof v !== 'string') return `json: cannot unmarshal ${goJsonKind(v)} into Go value of type string`;
  return goDecodeError(ObjectMeta.schema, { creationTimestamp: v }, 'ObjectMeta');
}

/** The first failing Time in document order: an unmarshaler's error stops decoding, so it wins over type errors. */
function firstTimeError(m: Obj): string | undefined {
  for (const k of Object.keys(m)) {
    if (k === 'creationTimestamp' || k === 'deletionTimestamp') {
      const e = timeError(m[k]);
      if (e) return e;
    } else if (k === 'managedFields' && Array.isArray(m[k])) {
      for (const entry of m[k] as unknown[]) {
        const e = isObject(entry) ? timeError(entry.time) : undefined;
        if (e) return e;
      }
    }
  }
  return undefined;
}

/** Times are checked on their own; FieldsV1 takes any JSON (its UnmarshalJSON keeps the bytes). */
function withoutSelfDecoded(m: Obj): Obj {
  const out: Obj = { ...m };
  delete out.creationTimestamp;
  delete out.deletionTimestamp;
  if (Array.isArray(m.managedFields)) {
    out.managedFields = m.managedFields.map((e) => {
      if (!isObject(e)) return e;
      const copy: Obj = { ...e };
      delete copy.time;
      delete copy.fieldsV1;
      return copy;
    });
  }
  return out;
}

/** Fields whose Go type is types.UID (a string kind with its own name). */
const UID_FIELD = /Go struct field (ObjectMeta\.uid|OwnerReference\.ownerReferences\.uid) of type string$/;

/** encoding/json's error decoding the value into metav1.ObjectMeta, or undefined when it decodes. */
export function objectMetaDecodeError(metadata: unknown): string | undefined {
  if (metadata === null) return undefined;
  if (!isObject(metadata)) return goDecodeError(ObjectMeta.schema, metadata, 'ObjectMeta');
  const t = firstTimeError(metadata);
  if (t !== undefined) return t;
  const e = goDecodeError(ObjectMeta.schema, withoutSelfDecoded(metadata), 'ObjectMeta');
  return e?.replace(UID_FIELD, (_m, f: string) => `Go struct field ${f} of type types.UID`);
}

/** Best effort (DropMalformedFields): the fields that decode one by one, the others dropped. Undefined when metadata is not an object. */
export function droppingMalformed(metadata: unknown): Obj | undefined {
  if (!isObject(metadata)) return undefined;
  const kept: Obj = {};
  for (const k of Object.keys(metadata)) if (objectMetaDecodeError({ [k]: metadata[k] }) === undefined) kept[k] = metadata[k];
  return kept;
}
