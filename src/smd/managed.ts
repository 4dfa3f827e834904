// metadata.managedFields: decoding and encoding entries, manager identity,
// ordering, the reset rule, the update-manager cap, and apply conflicts.
//
// Identity (as Kubernetes' BuildManagerIdentifier): an Apply entry is one per
// manager (+ subresource), whatever apiVersion it last applied with; an Update
// entry is one per manager + apiVersion (+ subresource). Entries are ordered
// Apply before Update, then by time (seconds; no time first), manager,
// apiVersion, subresource. Entries owning nothing are dropped by the engine.
import type { JsonValue } from '../schema/model.js';
import { isObject } from '../schema/model.js';
import { compareStrings, FieldPathError, FieldSet, fromFieldsV1, goJsonString, goQuote, pathToString, toFieldsV1, type FieldsV1, type Path } from './fieldpath.js';

export type Operation = 'Apply' | 'Update';

export interface ManagerInfo {
  readonly manager: string;
  readonly operation: Operation;
  /** For Apply, the version last applied with (not part of the identity). */
  readonly apiVersion: string;
  readonly subresource?: string;
}

export interface ManagedEntry extends ManagerInfo {
  /** RFC 3339 (seconds), or undefined when never stamped. */
  time?: string;
  fields: FieldSet;
}

/** Manager identity → entry. */
export type Managed = Map<string, ManagedEntry>;

/** The identity key of an entry: Go's JSON of the entry without fields, time (and apiVersion for Apply). */
export function managerId(m: Pick<ManagerInfo, 'manager' | 'operation' | 'apiVersion' | 'subresource'>): string {
  const parts: string[] = [];
  if (m.manager) parts.push(`"manager":${goJsonString(m.manager)}`);
  parts.push(`"operation":${goJsonString(m.operation)}`);
  if (m.operation === 'Update' && m.apiVersion) parts.push(`"apiVersion":${goJsonString(m.apiVersion)}`);
  if (m.subresource) parts.push(`"subresource":${goJsonString(m.subresource)}`);
  return '{' + parts.join(',') + '}';
}

export class ManagedFieldsError extends Error {
  override name = 'ManagedFieldsError';
}

/** Decodes metadata.managedFields; throws ManagedFieldsError as Kubernetes' DecodeManagedFields fails. */
export function decodeManaged(entries: unknown): Managed {
  const out: Managed = new Map();
  if (entries === undefined || entries === null) return out;
  if (!Array.isArray(entries)) throw new ManagedFieldsError('managedFields must be a list');
  entries.forEach((e: unknown, i) => {
    if (!isObject(e)) throw new ManagedFieldsError(`managed fields entry ${i} must be an object`);
    const operation = e.operation;
    if (operation !== 'Apply' && operation !== 'Update') throw new ManagedFieldsError('operation must be `Apply` or `Update`');
    const apiVersion = typeof e.apiVersion === 'string' ? e.apiVersion : '';
    if (apiVersion.length < 1) throw new ManagedFieldsError('apiVersion must not be empty');
    if (e.fieldsType === undefined || e.fieldsType === '') throw new ManagedFieldsError(`missing fieldsType in managed fields entry ${i}`);
    if (e.fieldsType !== 'FieldsV1') throw new ManagedFieldsError(`invalid fieldsType ${JSON.stringify(e.fieldsType)} in managed fields entry ${i}`);
    let fields: FieldSet;
    try {
      fields = fromFieldsV1(e.fieldsV1 ?? {});
    } catch (err) {
      throw new ManagedFieldsError(`error decoding set: ${err instanceof FieldPathError ? err.message : String(err)}`);
    }
    const entry: ManagedEntry = {
      manager: typeof e.manager === 'string' ? e.manager : '',
      operation,
      apiVersion,
      fields,
      ...(typeof e.subresource === 'string' && e.subresource ? { subresource: e.subresource } : {}),
      ...(typeof e.time === 'string' && e.time ? { time: e.time } : {}),
    };
    out.set(managerId(entry), entry);
  });
  return out;
}

/** Times recently parsed (entries' times repeat: one string per second of writes). */
const parsedTimes = new Map<string, number>();

/** An entry's time in whole seconds (Go's Time.Unix); none, or one that does not parse, is 0. */
function seconds(t: string | undefined): number {
  if (!t) return 0;
  let s = parsedTimes.get(t);
  if (s === undefined) {
    const ms = Date.parse(t);
    s = Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
    if (parsedTimes.size >= 256) parsedTimes.clear();
    parsedTimes.set(t, s);
  }
  return s;
}

/** What Kubernetes' order of managedFields entries reads (a raw stored entry has these too; one written by a client without a User-Agent has no manager). */
export type EntryOrderKey = Partial<Pick<ManagedEntry, 'manager' | 'operation' | 'apiVersion' | 'subresource' | 'time'>>;

/** Kubernetes' order of managedFields entries. */
export function compareEntries(p: ManagedEntry, q: ManagedEntry): number {
  return compareAt(p, q, seconds(p.time), seconds(q.time));
}

/** compareEntries, given each entry's time in seconds. */
function compareAt(p: EntryOrderKey, q: EntryOrderKey, ps: number, qs: number): number {
  // Raw stored entries (fastupdate.ts sorts them) may lack a manager: a client without a User-Agent writes none.
  if (p.operation !== q.operation) return compareStrings(p.operation ?? '', q.operation ?? '');
  if (ps !== qs) return ps < qs ? -1 : 1;
  return compareStrings(p.manager ?? '', q.manager ?? '') || compareStrings(p.apiVersion ?? '', q.apiVersion ?? '') || compareStrings(p.subresource ?? '', q.subresource ?? '');
}

/** Entries in Kubernetes' order (compareEntries, parsing each time once). */
export function sortEntries<E extends EntryOrderKey>(entries: E[]): E[] {
  if (entries.length < 2) return entries;
  const secs = new Map(entries.map((e) => [e, seconds(e.time)]));
  return entries.sort((p, q) => compareAt(p, q, secs.get(p)!, secs.get(q)!));
}

export interface ManagedFieldsEntryJson {
  manager?: string;
  operation: Operation;
  apiVersion: string;
  time?: string;
  fieldsType: 'FieldsV1';
  fieldsV1: FieldsV1;
  subresource?: string;
}

/** Encodes entries in Kubernetes' order and field order; `undefined` when there are none. */
export function encodeManaged(managed: Managed): ManagedFieldsEntryJson[] | undefined {
  if (managed.size === 0) return undefined;
  return sortEntries([...managed.values()]).map(encodeEntry);
}

/** One entry as the managedFields list holds it, members in Go's order. */
export function encodeEntry(e: ManagedEntry): ManagedFieldsEntryJson {
  const out = {} as ManagedFieldsEntryJson;
  if (e.manager) out.manager = e.manager;
  out.operation = e.operation;
  out.apiVersion = e.apiVersion;
  if (e.time) out.time = e.time;
  out.fieldsType = 'FieldsV1';
  out.fieldsV1 = toFieldsV1(e.fields);
  if (e.subresource) out.subresource = e.subresource;
  return out;
}

/**
 * Whether a request's managedFields asks for a reset: exactly one entry with
 * every field empty (`[{}]`). An empty list does not reset (spec "Apply",
 * item 13), so a client that drops the field cannot strip it by accident;
 * the recorded v1.26 server resets on `[]` too — we follow the spec.
 */
export function isResetRequest(entries: unknown): boolean {
  if (!Array.isArray(entries) || entries.length !== 1) return false;
  const e: unknown = entries[0];
  return isObject(e) && Object.values(e).every((v) => v === '' || v === null);
}

/**
 * The managed fields an update starts from (Kubernetes' decodeLiveOrNew):
 * a subresource write always keeps the live entries; a reset request starts
 * empty; otherwise the request's entries if they decode to something, else
 * the live object's.
 */
export function incomingManaged(opts: { live: unknown; request: unknown; subresource?: string }): Managed {
  const fromLive = (): Managed => {
    try {
      return decodeManaged(opts.live);
    } catch {
      return new Map();
    }
  };
  if (opts.subresource) return fromLive();
  if (isResetRequest(opts.request)) return new Map();
  try {
    const m = decodeManaged(opts.request);
    if (m.size > 0) return m;
  } catch {
    // fall through to the live entries
  }
  return fromLive();
}

/** The most Update entries kept; older ones merge into "ancient-changes" per apiVersion. */
export const MAX_UPDATE_MANAGERS = 10;

/** Merges the oldest Update entries into per-version "ancient-changes" buckets (Kubernetes' capManagersManager). */
export function capUpdateManagers(managed: Managed, max = MAX_UPDATE_MANAGERS): void {
  const updaters = [...managed.entries()].filter(([, e]) => e.operation === 'Update').map(([id]) => id);
  if (updaters.length <= max) return;
  updaters.sort((a, b) => {
    const sa = seconds(managed.get(a)!.time);
    const sb = seconds(managed.get(b)!.time);
    return sa !== sb ? (sa < sb ? -1 : 1) : compareStrings(a, b);
  });
  const firstOfVersion = new Map<string, string>();
  let length = updaters.length;
  for (let i = 0; i < updaters.length && length > max; i++) {
    const id = updaters[i]!;
    const e = managed.get(id)!;
    const bucketInfo = { manager: 'ancient-changes', operation: 'Update' as const, apiVersion: e.apiVersion };
    const bucket = managerId(bucketInfo);
    const first = firstOfVersion.get(e.apiVersion);
    if (first === undefined) {
      firstOfVersion.set(e.apiVersion, id);
      continue;
    }
    if (!managed.has(bucket)) {
      const f = managed.get(first)!;
      managed.delete(first);
      managed.set(bucket, { ...bucketInfo, fields: f.fields, ...(f.time ? { time: f.time } : {}) });
    }
    const b = managed.get(bucket)!;
    managed.delete(id);
    managed.set(bucket, { ...bucketInfo, fields: e.fields.union(b.fields), ...(e.time ? { time: e.time } : {}) });
    length--;
  }
}

// ---------------------------------------------------------------------------
// Conflicts.

export interface Conflict {
  readonly manager: ManagerInfo;
  readonly path: Path;
  /** The path as Kubernetes prints it: `.spec.containers[name="nginx"].image`. */
  readonly pathString: string;
}

export function conflict(manager: ManagerInfo, path: Path): Conflict {
  return { manager, path, pathString: pathToString(path) };
}

/**
 * How Kubernetes names a manager in conflicts (printManager of its identity):
 * `"bob"`, `"bob" with subresource "status"`, and for updaters ` using v1` after either.
 */
export function printManager(m: ManagerInfo): string {
  const name = m.subresource ? `${goQuote(m.manager)} with subresource ${goQuote(m.subresource)}` : goQuote(m.manager);
  return m.operation === 'Update' ? `${name} using ${m.apiVersion}` : name;
}

/** The Status message of a 409 apply conflict, exactly as Kubernetes writes it. */
export function conflictMessage(conflicts: readonly Conflict[]): string {
  if (conflicts.length === 1) return `Apply failed with 1 conflict: conflict with ${printManager(conflicts[0]!.manager)}: ${conflicts[0]!.pathString}`;
  const byManager = new Map<string, { info: ManagerInfo; paths: string[] }>();
  for (const c of conflicts) {
    const id = managerId(c.manager);
    const g = byManager.get(id) ?? { info: c.manager, paths: [] };
    g.paths.push(c.pathString);
    byManager.set(id, g);
  }
  const lines: string[] = [];
  for (const id of [...byManager.keys()].sort(compareStrings)) {
    const g = byManager.get(id)!;
    lines.push(`conflicts with ${printManager(g.info)}:`);
    for (const p of g.paths) lines.push(`- ${p}`);
  }
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
}

export interface ConflictCause {
  reason: 'FieldManagerConflict';
  message: string;
  field: string;
}

/** The Status causes of a 409 apply conflict (one per conflicting path). */
export function conflictCauses(conflicts: readonly Conflict[]): ConflictCause[] {
  return conflicts.map((c) => ({ reason: 'FieldManagerConflict', message: `conflict with ${printManager(c.manager)}`, field: c.pathString }));
}

/** Thrown by apply when fields owned by other managers would change; the edge makes it a 409. */
export class ApplyConflictError extends Error {
  override name = 'ApplyConflictError';
  constructor(readonly conflicts: readonly Conflict[]) {
    super(conflictMessage(conflicts));
  }
  causes(): ConflictCause[] {
    return conflictCauses(this.conflicts);
  }
}

export type { JsonValue };
