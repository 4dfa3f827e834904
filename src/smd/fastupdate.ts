// The common non-apply update that needs no field-set algebra: a manager
// writing new values into fields it alone already owns (a controller's status
// write, e.g. ResourceQuota's status.used on every admitted batch). Kubernetes'
// Update would compare the objects, find only those leaves modified, take
// nothing from anyone and add nothing to the writer's set — so the only change
// to managedFields is the writer's time. Anything else (added or removed
// fields, a changed list, metadata, another version or another owner of a
// changed field, an ignored field) returns undefined: the engine decides.
import type { JsonValue } from '../schema/model.js';
import { isObject } from '../schema/model.js';
import { FieldSet } from './fieldset.js';
import { jsonEqual } from './json.js';
import { MAX_UPDATE_MANAGERS, sortEntries, type EntryOrderKey } from './managed.js';
import { field } from './path.js';
import type { JsonObject } from './typed.js';

export interface FastUpdateInput {
  live: JsonObject;
  updated: JsonObject;
  manager: string;
  apiVersion: string;
  subresource?: string;
  ignored?: FieldSet;
  now: () => string;
}

type RawEntry = Record<string, unknown>;

/** The updated object with its managedFields, or undefined when the general engine must decide. */
export function fastUpdate(o: FastUpdateInput): { object: JsonObject; changed: boolean } | undefined {
  const liveMeta = o.live.metadata;
  const newMeta = o.updated.metadata;
  if (!isObject(liveMeta) || !isObject(newMeta)) return undefined;
  const entries = (liveMeta as JsonObject).managedFields;
  if (!Array.isArray(entries) || entries.length === 0) return undefined;
  // A main-resource write starts from the request's entries: only the live ones, sent back, qualify.
  const sent = (newMeta as JsonObject).managedFields;
  if (!o.subresource && sent !== entries && !jsonEqual(sent as JsonValue, entries as JsonValue)) return undefined;
  if (!metadataSame(liveMeta as JsonObject, newMeta as JsonObject)) return undefined;
  // each changed leaf as its FieldsV1 keys (`f:<name>`), collected on one shared stack
  const changed: string[][] = [];
  const stack: string[] = [];
  if (!sameKeys(o.live, o.updated)) return undefined;
  for (const k in o.live) {
    if (k === 'metadata') continue;
    stack.push(`f:${k}`);
    if (!diff(o.live[k], o.updated[k], stack, changed)) return undefined;
    stack.pop();
  }
  const mine = writerIndex(entries as RawEntry[], o);
  if (mine < 0) return undefined;
  for (const keys of changed) {
    if (o.ignored && FieldSet.of(keys.map((k) => field(k.slice(2)))).recursiveDifference(o.ignored).empty()) return undefined;
    for (let i = 0; i < entries.length; i++) {
      const owns = ownsLeaf((entries[i] as RawEntry).fieldsV1, keys);
      if (owns !== (i === mine)) return undefined;
    }
  }
  if (changed.length === 0) return { object: withEntries(o.updated, entries as JsonValue[]), changed: false };
  const next = (entries as RawEntry[]).slice();
  next[mine] = stamped(next[mine]!, o.now());
  // sorted as they are: a copy of each (a spread of a stored entry) would cost more than the sort
  return { object: withEntries(o.updated, sortEntries(next as (RawEntry & EntryOrderKey)[]) as JsonValue[]), changed: true };
}

/** Metadata equal apart from managedFields. */
function metadataSame(a: JsonObject, b: JsonObject): boolean {
  if (!sameKeys(a, b, 'managedFields')) return false;
  for (const k in a) {
    if (k === 'managedFields') continue;
    if (!jsonEqual(a[k], b[k])) return false;
  }
  return true;
}

/** Whether both objects have the same own keys (`except` aside). */
function sameKeys(a: JsonObject, b: JsonObject, except?: string): boolean {
  let n = 0;
  for (const k in a) {
    if (k === except) continue;
    if (!Object.hasOwn(b, k)) return false;
    n++;
  }
  for (const k in b) if (k !== except) n--;
  return n === 0;
}

/** Collects the changed leaves under the stack's path; false when the change is not values of existing leaves. */
function diff(a: JsonValue | undefined, b: JsonValue | undefined, stack: string[], out: string[][]): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a === null || b === null) return false;
  if (typeof a !== 'object' && typeof b !== 'object') {
    if (typeof a !== typeof b) return false;
    out.push(stack.slice());
    return true;
  }
  if (Array.isArray(a) || Array.isArray(b)) return jsonEqual(a, b);
  if (typeof a !== 'object' || typeof b !== 'object') return false;
  const ao = a as JsonObject;
  const bo = b as JsonObject;
  if (!sameKeys(ao, bo)) return false;
  for (const k in ao) {
    stack.push(`f:${k}`);
    if (!diff(ao[k], bo[k], stack, out)) return false;
    stack.pop();
  }
  return true;
}

/** The writer's Update entry; -1 when absent, or when any entry is in another version or the Update entries are over the cap. */
function writerIndex(entries: RawEntry[], o: FastUpdateInput): number {
  let found = -1;
  let updaters = 0;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    if (!isObject(e) || e.apiVersion !== o.apiVersion || e.fieldsType !== 'FieldsV1' || !isObject(e.fieldsV1)) return -1;
    if (e.operation === 'Update') updaters++;
    if (e.manager === o.manager && e.operation === 'Update' && (e.subresource ?? '') === (o.subresource ?? '')) found = i;
  }
  return updaters > MAX_UPDATE_MANAGERS ? -1 : found;
}

/** Whether a FieldsV1 tree has the leaf at `keys` (its `f:<name>` keys) as a member (a leaf member is an empty object). */
function ownsLeaf(fieldsV1: unknown, keys: readonly string[]): boolean {
  let node: unknown = fieldsV1;
  for (const key of keys) {
    if (!isObject(node)) return false;
    const child = (node as Record<string, unknown>)[key];
    if (child === undefined) return false;
    node = child;
  }
  if (!isObject(node)) return false;
  for (const _ in node) return false;
  return true;
}

/** The entry with its time set, keys in the order managedFields are encoded. */
function stamped(e: RawEntry, time: string): RawEntry {
  const out: RawEntry = {};
  if (e.manager) out.manager = e.manager;
  out.operation = e.operation;
  out.apiVersion = e.apiVersion;
  out.time = time;
  out.fieldsType = e.fieldsType;
  out.fieldsV1 = e.fieldsV1;
  if (e.subresource) out.subresource = e.subresource;
  return out;
}

function withEntries(obj: JsonObject, entries: JsonValue[]): JsonObject {
  return { ...obj, metadata: { ...(obj.metadata as JsonObject), managedFields: entries } };
}
