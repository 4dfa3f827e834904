// PATCH (spec "Patch and apply"): the media type picks the patch (JSON patch,
// merge patch, strategic merge patch driven by the kind's schema); the patched
// object then goes the whole write path of an update — typed decoding and
// fieldValidation, defaulting, strategy, validation, admission — with
// optimistic concurrency: a patch naming a resourceVersion that is no longer
// current is 409; one naming none is retried on conflicts.
//
// JSON and merge patches take k8s.io/apiserver's jsonPatcher path: the patch is
// applied to the current object's JSON and the result is decoded as the kind,
// so anything that does not decode — a wrong JSON type, a document that is not
// an object, another apiVersion or kind — is 422 Invalid with one cause on the
// field `patch` whose value is the patched JSON (see decodePatchedJSON).
import { fieldPath, invalid, newBadRequest, newInvalid, newUnsupportedMediaType, type StatusError } from '../api/meta/index.js';
import { toSvcGroup } from '../api/catalog/index.js';
import { schemaFor } from '../api/schemas.js';
import { goFormat } from '../patch/gofmt.js';
import { goEscapes } from '../patch/rawjson.js';
import { applyMergePatch, applyStrategic, decodeJsonPatch, decodeMergePatch, decodeStrategicPatch, isPatchError, metaFromOpenAPI, patchErrorToStatus, runJsonPatch, type JsonObject, type JsonPatchOperation, type JsonValue, type OpenAPISchema, type PatchMeta } from '../patch/index.js';
import { checkAndPrune, goJsonKind } from '../schema/gotypes.js';
import type { Schema } from '../schema/model.js';
import type { FieldValidation } from './fieldvalidation.js';

export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

const MEDIA_TYPES: Readonly<Record<string, PatchType>> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
  'application/apply-patch+yaml': 'apply',
};

/** The patch type of a Content-Type; anything else is 415 listing what is accepted. */
export function patchTypeOf(contentType: string | undefined, schemaKnown: boolean): PatchType {
  const type = MEDIA_TYPES[(contentType ?? '').split(';')[0]!.trim().toLowerCase()];
  const accepted = ['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml', ...(schemaKnown ? ['application/strategic-merge-patch+json'] : [])];
  if (!type || (type === 'strategic' && !schemaKnown)) throw newUnsupportedMediaType(accepted);
  return type;
}

/** A decoded patch document, ready to apply to each attempt's current object. */
export type DecodedPatch =
  | { readonly type: 'json'; readonly ops: readonly JsonPatchOperation[]; readonly strict: readonly string[] }
  | { readonly type: 'merge' | 'strategic'; readonly doc: JsonObject };

/** A patched document, and the text a 422 `patch` cause shows for it. */
export interface Patched {
  readonly value: JsonValue;
  readonly causeValue: () => string;
}

function asStatus<T>(f: () => T): T {
  try {
    return f();
  } catch (err) {
    if (isPatchError(err)) throw patchErrorToStatus(err);
    throw err;
  }
}

export function decodePatch(type: Exclude<PatchType, 'apply'>, text: string, validation: FieldValidation = 'Warn'): DecodedPatch {
  return asStatus(() => {
    if (type === 'json') {
      const { operations, strict } = decodeJsonPatch(text, validation);
      return { type, ops: operations, strict };
    }
    return { type, doc: type === 'merge' ? decodeMergePatch(text) : decodeStrategicPatch(text) };
  });
}

const metas = new WeakMap<Schema, PatchMeta>();

function patchMetaOf(schema: Schema): PatchMeta {
  let m = metas.get(schema);
  if (!m) metas.set(schema, (m = metaFromOpenAPI(schema as unknown as OpenAPISchema)));
  return m;
}

/**
 * Applies a decoded patch to (a copy of) the current object as its client sees
 * it. The cause value is what Kubernetes puts in a 422 `patch` cause: for a JSON
 * patch the document as evanphx/json-patch returns it; for a merge patch the
 * patched object with its top-level keys sorted (Go's map order); for a
 * strategic merge patch the patch itself as Go's %+v prints a map.
 */
export function applyPatch(current: JsonObject, patch: DecodedPatch, schema: Schema | undefined): Patched {
  return asStatus(() => {
    if (patch.type === 'json') {
      const r = runJsonPatch(current, patch.ops);
      return { value: r.value, causeValue: () => r.goJSON() };
    }
    if (patch.type === 'merge') {
      const value = applyMergePatch(current, patch.doc);
      const text = JSON.stringify(sortedTop(value)); // now: decoding prunes the object in place
      return { value, causeValue: () => goEscapes(text) };
    }
    const value = applyStrategic(structuredClone(current), structuredClone(patch.doc), schema ? patchMetaOf(schema) : undefined);
    return { value, causeValue: () => goFormat(patch.doc) };
  });
}

function sortedTop(v: JsonValue): JsonValue {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
  return Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]!]));
}

/** The kind a patch targets: the URL's group (svc.io spelling), version and kind, and its apiVersion as the client spells it. */
export interface PatchTarget {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly apiVersion: string;
}

/** A 422 Invalid with one cause on `patch` (GroupKind{} and no name, as jsonPatcher builds it). */
export function patchInvalid(patched: Patched, detail: string): StatusError {
  return newInvalid({ group: '', kind: '' }, '', [invalid(fieldPath('patch'), patched.causeValue(), detail)]);
}

const FIND_KIND_TYPE = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

/**
 * The patched JSON of a JSON or merge patch as the object to decode, after the
 * checks runtime.DecodeInto makes before it reads any field:
 * - it must be an object (the serializer first reads apiVersion and kind from it);
 * - apiVersion and kind must be strings, apiVersion a group/version;
 * - an empty apiVersion or kind takes the URL's (gvkWithDefaults);
 * - another group, version or kind: a kind the server does not know is "no kind
 *   … is registered"; a known other kind is decoded as that kind and then fails
 *   to convert ("unknown conversion"), or fails on its own field types first.
 * apiVersion and kind are then set to the request's spelling.
 */
export function patchedObject(patched: Patched, target: PatchTarget): JsonObject {
  const value = patched.value;
  const fail = (detail: string) => patchInvalid(patched, detail);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    if (value === null) return { apiVersion: target.apiVersion, kind: target.kind }; // JSON null decodes as nothing
    throw fail(`couldn't get version/kind; json parse error: json: cannot unmarshal ${goJsonKind(value)} into Go value of type ${FIND_KIND_TYPE}`);
  }
  for (const key of Object.keys(value)) {
    const v = value[key]!;
    if ((key === 'apiVersion' || key === 'kind') && v !== null && typeof v !== 'string') {
      throw fail(`couldn't get version/kind; json parse error: json: cannot unmarshal ${goJsonKind(v)} into Go struct field .${key} of type string`);
    }
  }
  const apiVersion = typeof value.apiVersion === 'string' ? value.apiVersion : '';
  const written = typeof value.kind === 'string' ? value.kind : '';
  let group = '';
  let version = '';
  if (apiVersion !== '' && apiVersion !== '/') {
    const parts = apiVersion.split('/');
    if (parts.length > 2) throw fail(`unexpected GroupVersion string: ${apiVersion}`);
    [group, version] = parts.length === 1 ? ['', parts[0]!] : [parts[0]!, parts[1]!];
  }
  const kind = written || target.kind;
  const sameGroup = toSvcGroup(group) === target.group;
  if (group === '' && version === '') [group, version] = [target.group, target.version];
  else if (version === '' && sameGroup) version = target.version;
  if (version === '') throw fail(`Object 'apiVersion' is missing in '${patched.causeValue()}'`);
  const svcGroup = toSvcGroup(group);
  if (svcGroup !== target.group || version !== target.version || kind !== target.kind) {
    const gv = group ? `${group}/${version}` : version;
    const schema = schemaFor(svcGroup, version, kind);
    if (!schema) throw fail(`no kind "${kind}" is registered for version "${gv}" in scheme "pkg/api/legacyscheme/scheme.go:30"`);
    // Another version of the same kind converts in Kubernetes; it is read here as the URL's version.
    if (kind !== target.kind || svcGroup !== target.group) {
      const { typeError } = checkAndPrune(schema, structuredClone(value), kind);
      if (typeError !== undefined) throw fail(typeError);
      throw fail(`converting (${version}.${kind}) to (${internalPackage(target.group)}.${target.kind}): unknown conversion`);
    }
  }
  const { apiVersion: _a, kind: _k, ...rest } = value;
  return { apiVersion: target.apiVersion, kind: target.kind, ...rest };
}

/** The Go package of a group's internal types, as reflect names them ("core.ConfigMap", "apps.Deployment"). */
function internalPackage(group: string): string {
  if (group === '' || group === 'events.svc.io') return 'core';
  if (group === 'internal.apiserver.svc.io') return 'apiserverinternal';
  return group.split('.')[0]!;
}

/** A patched object that is not a JSON object (only a JSON patch can make one): 400, as before typed decoding. */
export function requireObject(v: JsonValue): JsonObject {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw newBadRequest(`the patched object must be a JSON object, not ${Array.isArray(v) ? 'an array' : String(v)}`);
  return v;
}
