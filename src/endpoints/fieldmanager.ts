// Field ownership at the edge (spec "Apply (field ownership)"): who a write's
// manager is, metadata.managedFields kept on every write verb, and the
// server-side apply of a PATCH application/apply-patch+yaml. The merge and
// ownership engine is src/smd; this module maps requests onto it and its
// errors onto Status, once.
import { parseGoYaml } from './yaml.js';
import { fieldPath, forbidden, invalid, newBadRequest, newInvalid, required, tooLong, type FieldError, StatusError } from '../api/meta/index.js';
import type { ApiObject } from '../registry/object.js';
import type { Schema } from '../schema/model.js';
import { ApplyBadRequestError, ApplyConflictError, applyObject, FieldSet, TypedError, updateObject, type VersionConverter } from '../smd/index.js';
import type { JsonObject } from '../smd/typed.js';
import { canonicalGroup, queryBool, spellApiVersion } from './requestinfo.js';
import { goZeroObject } from '../schema/gozero.js';
import { decodeJson, type Decoded } from '../schema/json.js';

/** Kubernetes' limit on a field manager's name. */
export const FIELD_MANAGER_MAX_LENGTH = 128;

/** What managedFields bookkeeping needs to know of one write request. */
export interface FieldTracking {
  readonly manager: string;
  /** The request's group/version as managedFields records it ("v1", "apps/v1"). */
  readonly apiVersion: string;
  readonly kind: string;
  readonly schema: Schema | undefined;
  readonly subresource?: string;
  /** Fields the write cannot change (the strategy resets them), so nobody owns them through it. */
  readonly ignored?: FieldSet;
  /** The kind's other versions, for entries recorded in one (src/endpoints/versioning.ts managedFieldsConverter). */
  readonly converter?: VersionConverter;
  /** A custom resource: unstructured, so a create starts from {} rather than a Go zero object (its new objects are owned, with "."). */
  readonly unstructured?: boolean;
}

const printable = (ch: string): boolean => /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u.test(ch);

/** Kubernetes' prefixFromUserAgent: the text before the first '/', printable characters only, at most 128 bytes. */
export function managerFromUserAgent(userAgent: string | undefined): string {
  let out = '';
  for (const ch of (userAgent ?? '').split('/')[0]!) {
    if (!printable(ch)) continue;
    if (Buffer.byteLength(out + ch) > FIELD_MANAGER_MAX_LENGTH) break;
    out += ch;
  }
  return out;
}

function managerErrors(name: string): FieldError[] {
  const errs: FieldError[] = [];
  const path = fieldPath('fieldManager');
  if (name.length > FIELD_MANAGER_MAX_LENGTH) errs.push(tooLong(path, FIELD_MANAGER_MAX_LENGTH));
  let pos = 0;
  for (const ch of name) {
    if (!printable(ch)) errs.push(invalid(path, name, `invalid character ${goRune(ch)} (at position ${pos})`));
    pos += Buffer.byteLength(ch);
  }
  return errs;
}

/** Go's %#U: U+0009 '\t' is printed without the character when it is not printable. */
function goRune(ch: string): string {
  return `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * The manager of a write: `fieldManager` when given (checked as Kubernetes
 * checks it), else derived from the User-Agent. Apply requires it; `force`
 * belongs to apply only.
 */
export function fieldManagerOf(q: URLSearchParams, userAgent: string | undefined, optionsKind: 'CreateOptions' | 'UpdateOptions' | 'PatchOptions', apply = false): string {
  const given = q.get('fieldManager') ?? '';
  const errs: FieldError[] = [];
  if (optionsKind === 'PatchOptions') {
    if (!apply && q.has('force')) errs.push(forbidden(fieldPath('force'), 'may not be specified for non-apply patch'));
    if (apply && given === '') errs.push(required(fieldPath('fieldManager'), 'is required for apply patch'));
  }
  errs.push(...managerErrors(given));
  if (errs.length > 0) throw newInvalid({ group: 'meta.svc.io', kind: optionsKind }, '', errs);
  return given || managerFromUserAgent(userAgent);
}

const zeros = new WeakMap<Schema, JsonObject>();

/** What a create starts from: the kind's Go zero object (see goZeroObject). */
function emptyOf(schema: Schema | undefined): JsonObject {
  if (!schema) return {};
  let z = zeros.get(schema);
  if (!z) zeros.set(schema, (z = goZeroObject(schema) as JsonObject));
  return z;
}

/**
 * What both engine calls (update and apply) take from a request's tracking,
 * with `live`: one object of one shape (no conditional spreads, no copy of
 * it per call — those cost more than the fast path of a status write).
 */
function engineOptions(t: FieldTracking, live: ApiObject | undefined) {
  return {
    manager: t.manager, apiVersion: t.apiVersion, schema: t.schema, now, empty: t.unstructured ? {} : emptyOf(t.schema),
    subresource: t.subresource || undefined, ignored: t.ignored || undefined, converter: t.converter || undefined,
    live: live && (live as unknown as JsonObject),
  };
}

/** The time managedFields record: RFC 3339 to the second (one string per second). */
function now(): string {
  const second = Math.floor(Date.now() / 1000);
  if (second !== nowSecond) {
    nowSecond = second;
    nowText = new Date(second * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
  }
  return nowText;
}
let nowSecond = -1;
let nowText = '';

/**
 * managedFields after a create (`live` undefined), update or non-apply patch.
 * As Kubernetes' UpdateNoErrors, bookkeeping that fails drops managedFields
 * rather than failing the write.
 */
export function trackWrite(t: FieldTracking, live: ApiObject | undefined, updated: ApiObject): ApiObject {
  try {
    const r = updateObject(Object.assign(engineOptions(t, live), { updated: updated as unknown as JsonObject }));
    return r.object as unknown as ApiObject;
  } catch (err) {
    console.error(`svc: managedFields bookkeeping failed for ${t.kind} ${updated.metadata?.namespace ?? ''}/${updated.metadata?.name ?? ''}:`, err);
    const out = { ...updated, metadata: { ...updated.metadata } };
    delete out.metadata.managedFields;
    return out;
  }
}

/** A decoded apply request: the applied configuration and the options of the request. */
export interface ApplyRequest {
  readonly config: JsonObject;
  readonly force: boolean;
  /** Field-validation warnings of decoding the YAML (duplicate keys under Warn). */
  readonly warnings: string[];
}

/** Decodes an apply body (YAML or JSON), as Kubernetes' apply patcher does, with duplicate keys per fieldValidation. */
export function decodeApply(text: string, q: URLSearchParams, mode: 'Strict' | 'Warn' | 'Ignore'): ApplyRequest {
  const warnings: string[] = [];
  let config: unknown;
  const json = jsonFirst(text);
  if (json) {
    // JSON (what kubectl and most clients send) is YAML; JSON.parse is ~50× faster than a YAML parser.
    if (json.duplicates.length > 0) {
      const msg = `duplicate field ${json.duplicates.map((d) => JSON.stringify(d)).join(', ')}`;
      if (mode === 'Strict') throw newBadRequest(`error strict decoding YAML: ${msg}`);
      if (mode === 'Warn') warnings.push(msg);
    }
    config = json.value;
  } else {
    try {
      config = parseGoYaml(text, { uniqueKeys: true });
    } catch (err) {
      const msg = (err as Error).message.split('\n')[0]!;
      if (!/Map keys must be unique/.test(msg)) throw newBadRequest(`error decoding YAML: ${msg}`);
      if (mode === 'Strict') throw newBadRequest(`error strict decoding YAML: ${msg}`);
      if (mode === 'Warn') warnings.push(msg);
      config = parseGoYaml(text, { uniqueKeys: false });
    }
  }
  if (config === null || config === undefined) config = {};
  if (typeof config !== 'object' || Array.isArray(config)) throw newBadRequest(`error decoding YAML: cannot unmarshal ${Array.isArray(config) ? 'array' : typeof config} into an object`);
  return { config: config as JsonObject, force: queryBool(q, 'force'), warnings };
}

/** The body decoded as JSON when it is JSON, else undefined (then it is YAML). */
function jsonFirst(text: string): Decoded | undefined {
  if (!/^\s*\{/.test(text)) return undefined;
  try {
    return decodeJson(text);
  } catch {
    return undefined; // e.g. YAML flow style that is not JSON: the YAML parser decides
  }
}

/** Server-side apply of `req` onto `live` (undefined: the apply creates the object). */
export function applyTo(t: FieldTracking, live: ApiObject | undefined, req: ApplyRequest): ApiObject {
  try {
    // A k8s.io-spelled apiVersion is the served group's (checkAppliedKind matched it in either spelling).
    const spelled = typeof req.config.apiVersion === 'string' && spellApiVersion(req.config.apiVersion, undefined) === t.apiVersion;
    const config = spelled ? { ...req.config, apiVersion: t.apiVersion } : req.config;
    const r = applyObject(Object.assign(engineOptions(t, live), { config, force: req.force }));
    return r.object as unknown as ApiObject;
  } catch (err) {
    throw applyError(err, t, req.config);
  }
}

/** The engine's errors as Kubernetes answers them. */
function applyError(err: unknown, t: FieldTracking, config: JsonObject): unknown {
  if (err instanceof ApplyConflictError) {
    return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: err.message, reason: 'Conflict', details: { causes: err.causes() }, code: 409 });
  }
  if (err instanceof ApplyBadRequestError) return newBadRequest(err.message);
  if (err instanceof TypedError) {
    // The group as the applied object spells it (k8s.io for a stock client).
    const sent = typeof config.apiVersion === 'string' && config.apiVersion.includes('/') && canonicalGroup(config.apiVersion.split('/')[0]!) === t.apiVersion.split('/')[0] ? config.apiVersion : t.apiVersion;
    const [group, version] = sent.includes('/') ? sent.split('/') : ['', sent];
    const meta = (typeof config.metadata === 'object' && config.metadata !== null ? config.metadata : {}) as JsonObject;
    const id = `${typeof meta.namespace === 'string' ? meta.namespace : ''}/${typeof meta.name === 'string' ? meta.name : ''}`;
    const message = `failed to create typed patch object (${id}; ${group}/${version}, Kind=${t.kind}): ${err.message}`;
    return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code: 500 });
  }
  return err;
}
