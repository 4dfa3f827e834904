// One request's audit record (kube's AuditContext + the event it fills):
// made by the audit filter when the policy's level for the request is not
// None, found by later stages through the request context. Later stages hand
// it what only they know — the request object (objectRef's name, uid,
// resourceVersion; the object itself from Request), the response object
// (RequestResponse), the error Status, the impersonated user — and each stage
// takes a snapshot (an AuditEvent) for the backends.
import type { RequestContext } from '../server/context.js';
import { auditAnnotationsOf } from '../server/auditannotations.js';
import { levelAtLeast, type AuditEvent, type EventCache, type EventUser, type Level, type ObjectReference, type RequestAuditConfig, type ResponseStatus, type Stage } from './types.js';

/** Epoch microseconds. */
export function nowMicros(): number {
  return Math.round((performance.timeOrigin + performance.now()) * 1000);
}

export class AuditRecord {
  readonly level: Level;
  impersonatedUser: EventUser | undefined;
  objectRef: ObjectReference | undefined;
  responseStatus: ResponseStatus | undefined;
  requestObject: string | undefined;
  responseObject: string | undefined;
  /** Whether a ResponseStarted event went out (long-running requests). */
  started = false;
  /** What the encoder keeps between this request's events. */
  private readonly cache: EventCache = {};

  constructor(
    readonly config: RequestAuditConfig,
    readonly auditID: string,
    readonly requestURI: string,
    readonly verb: string,
    readonly user: EventUser,
    readonly sourceIPs: readonly string[],
    readonly userAgent: string,
    readonly requestReceivedTimestamp: number,
    objectRef: ObjectReference | undefined,
  ) {
    this.level = config.level;
    this.objectRef = objectRef;
  }

  /**
   * The event of one stage, as the record stands now. The parts it shares with
   * the record are never changed afterwards (objectRef is replaced, not edited).
   */
  snapshot(ctx: RequestContext, stage: Stage, stageTimestamp: number): AuditEvent {
    const notes = auditAnnotationsOf(ctx);
    return {
      level: this.level, auditID: this.auditID, stage, requestURI: this.requestURI, verb: this.verb, user: this.user,
      impersonatedUser: this.impersonatedUser, sourceIPs: this.sourceIPs, userAgent: this.userAgent, objectRef: this.objectRef,
      responseStatus: this.responseStatus, requestObject: this.requestObject, responseObject: this.responseObject,
      requestReceivedTimestamp: this.requestReceivedTimestamp, stageTimestamp,
      annotations: notes.size > 0 ? annotationsObject(notes) : undefined,
      cache: this.cache,
    };
  }
}

/** The last annotation set made into an event's object: its keys and values in order, and the frozen object. */
let lastNotes: { readonly keys: readonly string[]; readonly values: readonly string[]; readonly obj: Readonly<Record<string, string>> } | undefined;

/**
 * The annotations as an event's object. Requests of one user mostly carry the
 * same ones (authorization's decision and reason), so the object of the last
 * set is shared while keys and values stay the same; the encoder then writes
 * its JSON once (encode.ts). Frozen: events share it.
 */
export function annotationsObject(notes: ReadonlyMap<string, string>): Readonly<Record<string, string>> {
  const last = lastNotes;
  if (last !== undefined && last.keys.length === notes.size) {
    let i = 0;
    for (const [k, v] of notes) {
      if (k !== last.keys[i] || v !== last.values[i]) break;
      i++;
    }
    if (i === notes.size) return last.obj;
  }
  const obj = Object.freeze(Object.fromEntries(notes));
  lastNotes = { keys: [...notes.keys()], values: [...notes.values()], obj };
  return obj;
}

/** Whether any request can be audited (a policy and a backend are configured). */
let enabled = false;

export function enableAuditHooks(on = true): void {
  enabled = on;
}

export function attachRecord(ctx: RequestContext, r: AuditRecord): void {
  ctx.audit = r;
}

export function auditRecordOf(ctx: RequestContext): AuditRecord | undefined {
  return enabled ? ctx.audit : undefined;
}

/** Whether the request is audited at all (authorization adds its annotations only then). */
export function isAudited(ctx: RequestContext): boolean {
  return enabled && ctx.audit !== undefined;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** JSON of an object without metadata.managedFields (and its items' — a list) when the policy says so. */
function objectJSON(obj: unknown, omitManagedFields: boolean): string {
  if (!omitManagedFields || !isObj(obj)) return JSON.stringify(obj);
  return JSON.stringify(withoutManagedFields(obj));
}

function withoutManagedFields(obj: Obj): Obj {
  let out = obj;
  const meta = obj.metadata;
  if (isObj(meta) && 'managedFields' in meta) {
    const { managedFields: _m, ...rest } = meta;
    out = { ...obj, metadata: rest };
  }
  if (Array.isArray(obj.items)) out = { ...out, items: obj.items.map((i) => (isObj(i) ? withoutManagedFields(i) : i)) };
  return out;
}

/**
 * kube's LogRequestObject: completes objectRef from the object's metadata
 * (namespace, name, uid, resourceVersion where the path did not say) at every
 * level, and keeps the object from Request on.
 */
export function auditRequestObject(ctx: RequestContext, obj: unknown, typeMeta?: { readonly apiVersion: string; readonly kind: string }): void {
  const r = auditRecordOf(ctx);
  if (!r) return;
  // a new objectRef: events already taken keep theirs
  const ref: ObjectReference = { ...r.objectRef };
  r.objectRef = ref;
  const meta = isObj(obj) && isObj(obj.metadata) ? obj.metadata : undefined;
  if (meta) {
    if (!ref.namespace && typeof meta.namespace === 'string') ref.namespace = meta.namespace;
    if (!ref.name && typeof meta.name === 'string') ref.name = meta.name;
    if (!ref.uid && typeof meta.uid === 'string') ref.uid = meta.uid;
    if (!ref.resourceVersion && typeof meta.resourceVersion === 'string') ref.resourceVersion = meta.resourceVersion;
  }
  if (!levelAtLeast(r.level, 'Request')) return;
  // kube encodes the object with its group-version: kind and apiVersion first when the decoder dropped them
  const typed = typeMeta && isObj(obj) && obj.kind === undefined ? { kind: typeMeta.kind, apiVersion: typeMeta.apiVersion, ...obj } : obj;
  r.requestObject = objectJSON(typed, r.config.omitManagedFields);
}

/** kube's LogRequestPatch: the patch body as sent (JSON; a YAML apply body as a JSON string). */
export function auditRequestPatch(ctx: RequestContext, text: string): void {
  const r = auditRecordOf(ctx);
  if (!r || !levelAtLeast(r.level, 'Request')) return;
  try {
    JSON.parse(text);
    r.requestObject = text;
  } catch {
    r.requestObject = JSON.stringify(text);
  }
}

/** Whether the response body is wanted (RequestResponse): callers build nothing otherwise. */
export function auditWantsResponse(ctx: RequestContext): boolean {
  const r = auditRecordOf(ctx);
  return r !== undefined && r.level === 'RequestResponse';
}

/** kube's LogResponseObject: a Status's fields become responseStatus; from RequestResponse the object is kept. */
export function auditResponseObject(ctx: RequestContext, obj: unknown): void {
  const r = auditRecordOf(ctx);
  if (!r) return;
  if (isObj(obj) && obj.kind === 'Status') auditResponseStatus(ctx, obj as ResponseStatus);
  if (r.level === 'RequestResponse') r.responseObject = objectJSON(obj, r.config.omitManagedFields);
}

/** A response body that is already JSON text (gets, writes answered from stored bytes, streamed lists). */
export function auditResponseText(ctx: RequestContext, text: string): void {
  const r = auditRecordOf(ctx);
  if (!r || r.level !== 'RequestResponse') return;
  r.responseObject = r.config.omitManagedFields ? objectJSON(JSON.parse(text), true) : text;
}

/** The Status an error answered with. */
export function auditResponseStatus(ctx: RequestContext, s: ResponseStatus): void {
  const r = auditRecordOf(ctx);
  if (!r) return;
  r.responseStatus = {
    ...(s.status ? { status: s.status } : {}), ...(s.message ? { message: s.message } : {}), ...(s.reason ? { reason: s.reason } : {}),
    ...(s.details !== undefined ? { details: s.details } : {}), ...(s.code ? { code: s.code } : {}),
  };
}

/** kube's LogImpersonatedUser. */
export function auditImpersonatedUser(ctx: RequestContext, u: { name: string; uid?: string; groups: readonly string[]; extra?: Readonly<Record<string, readonly string[]>> }): void {
  const r = auditRecordOf(ctx);
  if (!r) return;
  r.impersonatedUser = eventUser(u);
}

/** Event users by the authenticated user object they were made from (a token's user is one object for as long as it is cached). */
const eventUsers = new WeakMap<object, EventUser>();

export function eventUser(u: { name: string; uid?: string | undefined; groups: readonly string[]; extra?: Readonly<Record<string, readonly string[]>> | undefined }): EventUser {
  let e = eventUsers.get(u);
  if (e === undefined) {
    const made: { -readonly [K in keyof EventUser]: EventUser[K] } = { username: u.name, groups: u.groups };
    if (u.uid) made.uid = u.uid;
    if (u.extra) made.extra = u.extra;
    eventUsers.set(u, (e = made));
  }
  return e;
}
