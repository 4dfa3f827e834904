// Writing events: the JSON line kube's log backend writes (an audit.k8s.io/v1
// Event, fields in kube's order, empty ones left out as Go's omitempty does,
// map keys sorted as Go sorts them), the EventList the webhook posts, and the
// "legacy" one-line text (kube's audit.EventString). Hand-ordered string
// building: no intermediate object per event.
import type { AuditEvent, EventCache, EventUser, ObjectReference, ResponseStatus } from './types.js';

/** The Event apiVersion kube writes; `audit.svc.io/v1` on request (--audit-log-version). */
export const DEFAULT_EVENT_VERSION = 'audit.k8s.io/v1';
export const EVENT_VERSIONS = ['audit.k8s.io/v1', 'audit.svc.io/v1'] as const;

const q = JSON.stringify;

/** What JSON.stringify would escape in a string (quotes, backslashes, control characters, surrogates). */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;
/** A string as JSON.stringify writes it; plain strings (nearly all) without the call (measured ~50 ns less per string). */
export function str(s: string): string {
  return NEEDS_ESCAPE.test(s) ? q(s) : `"${s}"`;
}
/** A string array as JSON.stringify writes it. */
function strList(list: readonly string[]): string {
  let out = '[';
  for (let i = 0; i < list.length; i++) out += i > 0 ? `,${str(list[i]!)}` : str(list[i]!);
  return `${out}]`;
}

function pad(n: number, w: number): string {
  return String(n).padStart(w, '0');
}

/** The last second formatted (events come in bursts within one second). */
let lastSecond = -1;
let lastSecondText = '';

/** metav1.MicroTime's JSON form: RFC 3339 with exactly six fraction digits, UTC. */
export function microTime(us: number): string {
  const sec = Math.floor(us / 1e6);
  if (sec !== lastSecond) {
    const d = new Date(sec * 1000);
    lastSecondText = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}T${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}.`;
    lastSecond = sec;
  }
  const frac = Math.floor(us) - sec * 1e6;
  return `${lastSecondText}${frac >= 100000 ? frac : pad(frac, 6)}Z`;
}

/** Go's time.RFC3339Nano: the fraction without trailing zeros (none when whole). */
export function rfc3339Nano(us: number): string {
  const t = microTime(us);
  const frac = t.slice(20, 26).replace(/0+$/, '');
  return `${t.slice(0, 19)}${frac ? `.${frac}` : ''}Z`;
}

/** Quoted strings seen often (annotation keys and values), bounded. */
const quotedCache = new Map<string, string>();
function quoted(s: string): string {
  let v = quotedCache.get(s);
  if (v === undefined) {
    v = str(s);
    if (quotedCache.size < 2048 && s.length < 256) quotedCache.set(s, v);
  }
  return v;
}

/** A Go map[string]string or map[string][]string: keys sorted as encoding/json sorts them. */
function sortedMap(m: Readonly<Record<string, string | readonly string[]>>): string {
  const keys = Object.keys(m).sort();
  let s = '{';
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const v = m[k]!;
    s += `${i > 0 ? ',' : ''}${quoted(k)}:${typeof v === 'string' ? quoted(v) : q(v)}`;
  }
  return `${s}}`;
}

/** A user's JSON by its event user object (shared by the requests of one authenticated user). */
const userTexts = new WeakMap<EventUser, string>();

export function userJSON(u: EventUser): string {
  let text = userTexts.get(u);
  if (text === undefined) userTexts.set(u, (text = userText(u)));
  return text;
}

function userText(u: EventUser): string {
  const parts: string[] = [];
  if (u.username) parts.push(`"username":${str(u.username)}`);
  if (u.uid) parts.push(`"uid":${str(u.uid)}`);
  if (u.groups && u.groups.length > 0) parts.push(`"groups":${strList(u.groups)}`);
  if (u.extra && Object.keys(u.extra).length > 0) parts.push(`"extra":${sortedMap(u.extra)}`);
  return `{${parts.join(',')}}`;
}

const REF_FIELDS = ['resource', 'namespace', 'name', 'uid', 'apiGroup', 'apiVersion', 'resourceVersion', 'subresource'] as const;

function objectRefJSON(r: Readonly<ObjectReference>): string {
  let s = '';
  for (const f of REF_FIELDS) {
    const v = r[f];
    if (v) s += `${s ? ',' : ''}"${f}":${str(v)}`;
  }
  return `{${s}}`;
}

function statusJSON(st: ResponseStatus): string {
  let s = '{"metadata":{}';
  if (st.status) s += `,"status":${str(st.status)}`;
  if (st.message) s += `,"message":${str(st.message)}`;
  if (st.reason) s += `,"reason":${str(st.reason)}`;
  if (st.details !== undefined) s += `,"details":${q(st.details)}`;
  if (st.code) s += `,"code":${st.code}`;
  return `${s}}`;
}

/** The last frozen annotations object encoded and its text: one object is shared by the events of many requests (record.ts). */
let lastAnnotations: object | undefined;
let lastAnnotationsText = '';

/** The event's end: its annotations (when there are any) and the closing brace. */
function annotationsTail(a: Readonly<Record<string, string>>): string {
  if (a === lastAnnotations) return lastAnnotationsText;
  const text = Object.keys(a).length > 0 ? `,"annotations":${sortedMap(a)}}` : '}';
  // only a frozen object can be trusted to say the same next time
  if (Object.isFrozen(a)) {
    lastAnnotations = a;
    lastAnnotationsText = text;
  }
  return text;
}

const HEADS = new Map<string, string>();
function head(apiVersion: string): string {
  let h = HEADS.get(apiVersion);
  if (h === undefined) HEADS.set(apiVersion, (h = `{"kind":"Event","apiVersion":${q(apiVersion)},"level":"`));
  return h;
}

/** Where the pieces of an encoded event go: a string, or bytes (the log backend's batch buffer). */
export interface PieceSink {
  put(piece: string): void;
}

/** One event as kube's JSON (no newline), piece by piece. The request's stage-independent pieces are encoded once (ev.cache). */
export function writeEventJSON(out: PieceSink, ev: AuditEvent, apiVersion: string = DEFAULT_EVENT_VERSION): void {
  const c: EventCache = ev.cache ?? {};
  const id = (c.id ??= `","auditID":${str(ev.auditID)},"stage":"`);
  const mid = (c.mid ??= `","requestURI":${str(ev.requestURI)},"verb":${str(ev.verb)},"user":${userJSON(ev.user)}`);
  const tail = (c.tail ??= `${ev.sourceIPs.length > 0 ? `,"sourceIPs":${strList(ev.sourceIPs)}` : ''}${ev.userAgent ? `,"userAgent":${str(ev.userAgent)}` : ''}`);
  out.put(head(apiVersion));
  out.put(ev.level);
  out.put(id);
  out.put(ev.stage);
  out.put(mid);
  if (ev.impersonatedUser) out.put(`,"impersonatedUser":${userJSON(ev.impersonatedUser)}`);
  out.put(tail);
  if (ev.objectRef) {
    if (c.ref !== ev.objectRef) {
      c.ref = ev.objectRef;
      c.refJSON = `,"objectRef":${objectRefJSON(ev.objectRef)}`;
    }
    out.put(c.refJSON!);
  }
  if (ev.responseStatus) out.put(`,"responseStatus":${statusJSON(ev.responseStatus)}`);
  if (ev.requestObject !== undefined) {
    out.put(',"requestObject":');
    out.put(ev.requestObject);
  }
  if (ev.responseObject !== undefined) {
    out.put(',"responseObject":');
    out.put(ev.responseObject);
  }
  out.put(c.received ??= `,"requestReceivedTimestamp":"${microTime(ev.requestReceivedTimestamp)}","stageTimestamp":"`);
  out.put(microTime(ev.stageTimestamp));
  out.put('"');
  if (ev.annotations) out.put(annotationsTail(ev.annotations));
  else out.put('}');
}

class StringSink implements PieceSink {
  text = '';
  put(piece: string): void {
    this.text += piece;
  }
}

/** One event as kube's JSON (no newline). */
export function eventJSON(ev: AuditEvent, apiVersion: string = DEFAULT_EVENT_VERSION): string {
  const s = new StringSink();
  writeEventJSON(s, ev, apiVersion);
  return s.text;
}

/** The body the webhook backend posts: an EventList of the batch. */
export function eventListJSON(events: readonly AuditEvent[], apiVersion: string = DEFAULT_EVENT_VERSION): string {
  return `{"kind":"EventList","apiVersion":${q(apiVersion)},"metadata":{},"items":[${events.map((e) => eventJSON(e, apiVersion)).join(',')}]}`;
}

const quotedList = (list: readonly string[]) => list.map((g) => q(g)).join(',');

/** kube's audit.EventString: the `legacy` log format and the lines of plugin error logs. */
export function eventString(ev: AuditEvent): string {
  let username = '<none>';
  let groups = '<none>';
  if (ev.user.username) {
    username = ev.user.username;
    if (ev.user.groups && ev.user.groups.length > 0) groups = quotedList(ev.user.groups);
  }
  let as = '<self>';
  let asgroups = '<lookup>';
  if (ev.impersonatedUser) {
    as = ev.impersonatedUser.username ?? '';
    if (ev.impersonatedUser.groups) asgroups = quotedList(ev.impersonatedUser.groups);
  }
  const namespace = ev.objectRef?.namespace || '<none>';
  const response = ev.responseStatus ? String(ev.responseStatus.code ?? 0) : '<deferred>';
  const ip = ev.sourceIPs[0] ?? '<unknown>';
  return `${rfc3339Nano(ev.requestReceivedTimestamp)} AUDIT: id=${q(ev.auditID)} stage=${q(ev.stage)} ip=${q(ip)} method=${q(ev.verb)} user=${q(username)} groups=${q(groups)} as=${q(as)} asgroups=${q(asgroups)} user-agent=${q(ev.userAgent)} namespace=${q(namespace)} uri=${q(ev.requestURI)} response="${response}"`;
}
