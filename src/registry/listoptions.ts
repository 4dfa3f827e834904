// List and get read plans from resourceVersion, resourceVersionMatch, limit
// and continue — every row of the spec's tables — and the opaque continue
// token (which carries the revision of the first page and where to resume).
import { fieldPath, forbidden, newBadRequest, newInvalid, notSupported, type FieldError } from '../api/meta/index.js';
import { goJsonSyntaxError } from '../schema/json.js';

/** How fresh a read must be (spec "Resource versions"). */
export type ReadMode =
  | { readonly kind: 'mostRecent' }
  | { readonly kind: 'any' }
  | { readonly kind: 'notOlderThan'; readonly revision: number }
  | { readonly kind: 'exact'; readonly revision: number };

export interface ListPlan {
  readonly mode: ReadMode;
  /** 0: no limit. */
  readonly limit: number;
  /** Set when continuing a paged list: the first page's revision is mode.revision (exact). */
  readonly startAfter?: string;
  readonly continuing: boolean;
}

const LIST_OPTIONS = { group: 'meta.svc.io', kind: 'ListOptions' };

/** Parses a resourceVersion; anything but a decimal revision is a client error. */
export function parseResourceVersion(rv: string): number {
  if (!/^\d+$/.test(rv)) throw newBadRequest(`resourceVersion: Invalid value: ${JSON.stringify(rv)}: must be a resourceVersion returned by this server`);
  return Number(rv);
}

export function planGet(q: URLSearchParams): ReadMode {
  const rv = q.get('resourceVersion');
  if (rv === null || rv === '') return { kind: 'mostRecent' };
  if (rv === '0') return { kind: 'any' };
  return { kind: 'notOlderThan', revision: parseResourceVersion(rv) };
}

export function planList(q: URLSearchParams, collectionPrefix: string): ListPlan {
  const rv = q.get('resourceVersion') ?? '';
  const match = q.get('resourceVersionMatch') ?? '';
  const cont = q.get('continue') ?? '';
  const limitText = q.get('limit');
  let limit = 0;
  if (limitText !== null && limitText !== '') {
    if (!/^-?\d+$/.test(limitText)) throw newBadRequest(`limit: Invalid value: ${JSON.stringify(limitText)}: must be an integer`);
    limit = Math.max(0, Number(limitText));
  }
  const errs: FieldError[] = [];
  if (match !== '' && match !== 'Exact' && match !== 'NotOlderThan') errs.push(notSupported(fieldPath('resourceVersionMatch'), match, ['Exact', 'NotOlderThan', '']));
  if (match !== '' && rv === '') errs.push(forbidden(fieldPath('resourceVersionMatch'), 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
  if (match !== '' && cont !== '') errs.push(forbidden(fieldPath('resourceVersionMatch'), 'resourceVersionMatch is forbidden when continue is provided'));
  if (match === 'Exact' && rv === '0') errs.push(forbidden(fieldPath('resourceVersionMatch'), 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
  if (q.has('sendInitialEvents')) errs.push(forbidden(fieldPath('sendInitialEvents'), 'sendInitialEvents is forbidden for list'));
  if (errs.length > 0) throw newInvalid(LIST_OPTIONS, '', errs);

  if (cont !== '') {
    // A continue token fixes the revision; "0" is tolerated, any other resourceVersion is not.
    if (rv !== '' && rv !== '0') throw newBadRequest('specifying resource version is not allowed when using continue');
    const token = decodeContinue(cont, collectionPrefix);
    return { mode: { kind: 'exact', revision: token.revision }, limit, startAfter: token.startAfter, continuing: true };
  }
  if (rv === '') return { mode: { kind: 'mostRecent' }, limit, continuing: false };
  if (rv === '0') return { mode: { kind: 'any' }, limit, continuing: false };
  const revision = parseResourceVersion(rv);
  if (match === 'Exact' || (match === '' && limit > 0)) return { mode: { kind: 'exact', revision }, limit, continuing: false };
  return { mode: { kind: 'notOlderThan', revision }, limit, continuing: false };
}

interface TokenBody {
  v: string;
  rv: number;
  start: string;
}

/** The token for the page after `lastKey` (a full storage key) at `revision`. */
export function encodeContinue(revision: number, lastKey: string, collectionPrefix: string): string {
  const body: TokenBody = { v: 'meta.svc.io/v1', rv: revision, start: lastKey.slice(collectionPrefix.length) };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

/** Go's base64.RawURLEncoding.DecodeString: the URL alphabet, no padding; errors worded as Go's. */
function goRawURLBase64(text: string): Buffer {
  const bad = text.search(/[^A-Za-z0-9_-]/);
  if (bad >= 0) throw new Error(`illegal base64 data at input byte ${bad}`);
  if (text.length % 4 === 1) throw new Error(`illegal base64 data at input byte ${text.length - 1}`);
  return Buffer.from(text, 'base64url');
}

/** A decode failure in Go's words: base64's own, or encoding/json's syntax error read byte by byte (as Go reads). */
function goJsonError(err: Error, token: string): string {
  if (err.message.startsWith('illegal base64')) return err.message;
  return goJsonSyntaxError(goRawURLBase64(token)) ?? err.message;
}

export function decodeContinue(token: string, collectionPrefix: string): { revision: number; startAfter: string } {
  let body: TokenBody;
  try {
    body = JSON.parse(goRawURLBase64(token).toString('utf8')) as TokenBody;
  } catch (err) {
    throw newBadRequest(`invalid continue token: continue key is not valid: ${goJsonError(err as Error, token)}`);
  }
  if (!body || body.v !== 'meta.svc.io/v1' || !Number.isInteger(body.rv) || body.rv <= 0 || typeof body.start !== 'string' || body.start.includes('..')) {
    throw newBadRequest('invalid continue token: continue key is not valid: the token was not issued by this server');
  }
  return { revision: body.rv, startAfter: collectionPrefix + body.start };
}

/**
 * Where a watch starts (spec "Watch rules" and the watch table):
 *   state — synthetic ADDED events for the state read with `mode`, then the changes after it;
 *   after — the changes after `revision` only.
 * `initialEventsEnd`: with sendInitialEvents=true, a BOOKMARK marks the end of the state.
 */
export type WatchPlan =
  | { readonly start: 'state'; readonly mode: ReadMode; readonly initialEventsEnd: boolean }
  | { readonly start: 'after'; readonly revision: number | 'now' };

/** A Go-style boolean query parameter that is present; undefined when absent. */
function optionalBool(q: URLSearchParams, key: string): boolean | undefined {
  const v = q.get(key);
  if (v === null) return undefined;
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False', ''].includes(v)) return false;
  throw newBadRequest(`${key}: Invalid value: ${JSON.stringify(v)}: strconv.ParseBool: parsing ${JSON.stringify(v)}: invalid syntax`);
}

/** The watch start per the spec's table, with Kubernetes' validation of the watch options. */
export function planWatch(q: URLSearchParams, watchListEnabled: boolean): WatchPlan {
  const rv = q.get('resourceVersion') ?? '';
  const match = q.get('resourceVersionMatch') ?? '';
  const sendInitial = optionalBool(q, 'sendInitialEvents');
  const errs: FieldError[] = [];
  if (sendInitial !== undefined) {
    if (match !== 'NotOlderThan') errs.push(forbidden(fieldPath('resourceVersionMatch'), 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'));
    if (!watchListEnabled) errs.push(forbidden(fieldPath('sendInitialEvents'), 'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled'));
  }
  if (match !== '') {
    if (sendInitial === undefined) errs.push(forbidden(fieldPath('resourceVersionMatch'), 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'));
    if (match !== 'NotOlderThan') errs.push(notSupported(fieldPath('resourceVersionMatch'), match, ['NotOlderThan']));
    if ((q.get('continue') ?? '') !== '') errs.push(forbidden(fieldPath('resourceVersionMatch'), 'resourceVersionMatch is forbidden when continue is provided'));
  }
  if (errs.length > 0) throw newInvalid(LIST_OPTIONS, '', errs);

  if (sendInitial === true) {
    const mode: ReadMode = rv === '' ? { kind: 'mostRecent' } : rv === '0' ? { kind: 'any' } : { kind: 'notOlderThan', revision: parseResourceVersion(rv) };
    return { start: 'state', mode, initialEventsEnd: true };
  }
  if (rv === '' || rv === '0') {
    // sendInitialEvents=false: from now, no synthetic events; unset: the state first (legacy behaviour).
    if (sendInitial === false) return { start: 'after', revision: 'now' };
    return { start: 'state', mode: rv === '' ? { kind: 'mostRecent' } : { kind: 'any' }, initialEventsEnd: false };
  }
  return { start: 'after', revision: parseResourceVersion(rv) };
}
