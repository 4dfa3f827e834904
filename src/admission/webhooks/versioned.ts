// The object a webhook sees, in the version it asked for (kube's
// VersionedAttributes): the admission object is in its storage version; a
// webhook matched through an equivalent resource gets it converted
// (src/conversion), every webhook gets kind and apiVersion first, groups in
// the k8s.io spelling. A mutated object goes back the other way: defaulted in
// the webhook's version (as kube does after a patch), converted to the
// storage version, and written into the admission object in place (other
// plugins and the store hold that reference, and the store its metadata).
import { convert, ConversionError, needsConversion, parseApiVersion } from '../../conversion/index.js';
import { kubernetesGroup } from '../../endpoints/requestinfo.js';
import { defaulterFor } from '../../api/defaults.js';
import type { FeatureGates } from '../../features/gates.js';
import { clone, type ApiObject } from '../../registry/object.js';
import { put, type JsonObject, type JsonValue } from '../../patch/json.js';
import type { GroupVersionKind } from './equivalence.js';

type Obj = Record<string, unknown>;
const isPlain = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

const wireApiVersion = (group: string, version: string) => (group === '' ? version : `${kubernetesGroup(group)}/${version}`);

/** Whether the object (naming its apiVersion and kind) must be rewritten to be in `to`. */
function rewrites(o: Obj, to: GroupVersionKind): boolean {
  if (typeof o.apiVersion !== 'string' || typeof o.kind !== 'string' || o.kind !== to.kind) return false;
  // a pure function of four strings, asked on every call: remembered (apiVersion → kind → group → version)
  let byKind = rewriteMemo.get(o.apiVersion);
  if (!byKind) {
    if (rewriteMemo.size >= 256) rewriteMemo.clear();
    rewriteMemo.set(o.apiVersion, (byKind = new Map()));
  }
  let byGroup = byKind.get(to.kind);
  if (!byGroup) byKind.set(to.kind, (byGroup = new Map()));
  let byVersion = byGroup.get(to.group);
  if (!byVersion) byGroup.set(to.group, (byVersion = new Map()));
  let answer = byVersion.get(to.version);
  if (answer === undefined) byVersion.set(to.version, (answer = needsRewrite(o.apiVersion, to)));
  return answer;
}

const rewriteMemo = new Map<string, Map<string, Map<string, Map<string, boolean>>>>();

function needsRewrite(apiVersion: string, to: GroupVersionKind): boolean {
  const from = parseApiVersion(apiVersion);
  try {
    return needsConversion(from.group, from.version, to.group, to.version, to.kind);
  } catch (err) {
    if (err instanceof ConversionError) return false;
    throw err;
  }
}

/**
 * `o` in the webhook's version: a new object, kind and apiVersion first; with
 * `copy` false, what it holds is shared with `o` when no conversion is needed
 * (for callers that only serialize it).
 */
export function toWebhookVersion(o: ApiObject | undefined, to: GroupVersionKind, copy = true): Obj | undefined {
  if (!o) return undefined;
  const src = o as unknown as Obj;
  // objects without type meta (connect options built by the server) are sent as they are
  if (typeof src.kind !== 'string' || src.kind !== to.kind) {
    const { kind, apiVersion, ...rest } = src;
    return { ...(kind !== undefined ? { kind } : {}), ...(typeof apiVersion === 'string' ? { apiVersion: wireApiVersion(parseApiVersion(apiVersion).group, parseApiVersion(apiVersion).version) } : {}), ...(copy ? clone(rest) : rest) };
  }
  const converted = rewrites(src, to);
  const body = converted ? convert(src, to) : src;
  const deep = copy && !converted;
  // kind and apiVersion first, then the members in order: one new object (a rest copy and a spread made two)
  const out: Obj = { kind: to.kind, apiVersion: wireApiVersion(to.group, to.version) };
  for (const k of Object.keys(body)) {
    if (k === 'kind' || k === 'apiVersion') continue;
    // an own "__proto__" member stays a member (as the copies did), not the prototype
    put(out as JsonObject, k, (deep ? clone(body[k]) : body[k]) as JsonValue);
  }
  return out;
}

/**
 * Writes a mutated object (in the webhook's version `from`) into `target`
 * (the admission object, in its storage version) in place.
 */
export function writeBack(mutated: Obj, from: GroupVersionKind, target: ApiObject, gates: FeatureGates): void {
  const t = target as unknown as Obj;
  const storageApiVersion = typeof t.apiVersion === 'string' ? t.apiVersion : undefined;
  const storageKind = typeof t.kind === 'string' ? t.kind : undefined;
  let next: Obj = mutated;
  if (storageApiVersion && storageKind === from.kind) {
    defaulterFor(from.group, from.version, from.kind, gates)?.(next);
    const storage = parseApiVersion(storageApiVersion);
    const sourced = { ...next, apiVersion: from.group === '' ? from.version : `${from.group}/${from.version}`, kind: from.kind };
    next = rewrites(sourced, { ...storage, kind: storageKind }) ? convert(sourced, { ...storage, kind: storageKind }) : sourced;
  }
  // metadata keeps its identity too: the write path holds it (it sets resourceVersion on it after the write)
  const meta = t.metadata;
  const nextMeta = next.metadata;
  clear(t);
  Object.assign(t, next);
  if (isPlain(meta) && isPlain(nextMeta)) {
    clear(meta);
    Object.assign(meta, nextMeta);
    t.metadata = meta;
  }
  if (storageApiVersion !== undefined) t.apiVersion = storageApiVersion;
  if (storageKind !== undefined) t.kind = storageKind;
}

/**
 * Deletes every member of `o`, the last added first: V8 then undoes each
 * addition and the object stays a fast one (deleting in any other order turns
 * it into a dictionary, slower for every later read and JSON.stringify of the
 * object the request goes on to store and answer with).
 */
function clear(o: Obj): void {
  const keys = Object.keys(o);
  for (let i = keys.length - 1; i >= 0; i--) delete o[keys[i]!];
}
