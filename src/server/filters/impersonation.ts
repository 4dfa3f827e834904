// Impersonation: a caller acts as another user with Impersonate-User,
// Impersonate-Group (repeatable), Impersonate-Uid and Impersonate-Extra-<key>
// (key lower-cased and percent-decoded). Each requested value is authorized
// separately for the caller, with verb "impersonate" and the value as the name:
//
//   Impersonate-User (a user)                   users                    core, cluster scope
//   Impersonate-User system:serviceaccount:n:a  serviceaccounts          core, namespace n, name a
//   Impersonate-Group                           groups                   core
//   Impersonate-Extra-<key>                     userextras/<key>         authentication.svc.io
//   Impersonate-Uid                             uids                     authentication.svc.io
//
// The first refusal answers 403 naming it. The acting user then gets
// system:authenticated (system:unauthenticated for system:anonymous) unless the
// groups already say which; a service account without requested groups gets
// its two service-account groups. An empty Impersonate-User is ignored; groups,
// uid or extras without a user are 400 (kube ≤1.27 answers 500 text/plain with
// the same message — a client mistake is never a 500 here; see the README).
// The headers are removed once used.
import { newBadRequest } from '../../api/meta/index.js';
import { dns1123LabelErrors, dns1123SubdomainErrors } from '../../api/meta/validation.js';
import { AUTHENTICATED, ANONYMOUS, UNAUTHENTICATED, type UserInfo } from '../../authn/user.js';
import { deleteHeaders, headerNamesWithPrefix, headerValue, headerValues, pathUnescape, type HeaderSource } from '../../authn/headers.js';
import type { Attributes, Authorizer } from '../../authz/authorizer.js';
import { userOf, type Handler, type RequestContext } from '../context.js';
import { forbiddenError } from '../../authz/forbidden.js';
import { recordFilterLatency } from '../../metrics/apiserver.js';
import { auditImpersonatedUser } from '../../audit/record.js';

/** The group of the uids and userextras resources (RBAC must also match the authentication.k8s.io spelling). */
export const IMPERSONATION_GROUP = 'authentication.svc.io';
const USER = 'impersonate-user';
const GROUP = 'impersonate-group';
const UID = 'impersonate-uid';
const EXTRA_PREFIX = 'impersonate-extra-';

/** One thing asked for, as kube's ObjectReference (its Go %v form appears in the 400 message). */
interface Wanted {
  readonly kind: 'User' | 'ServiceAccount' | 'Group' | 'UserExtra' | 'UID';
  readonly namespace: string;
  readonly name: string;
  readonly apiVersion: string;
  readonly fieldPath: string;
}

export function withImpersonation(next: Handler, authorizer: Authorizer): Handler {
  return async (ctx) => {
    const started = performance.now();
    const src = { headers: ctx.req.headers, rawHeaders: (ctx.req as { rawHeaders?: string[] }).rawHeaders };
    if (!mentionsImpersonation(src)) return passed(ctx, started, next);
    const wanted = impersonationRequests(src);
    if (wanted.length === 0) return passed(ctx, started, next);
    const requestor = userOf(ctx);
    for (const w of wanted) {
      const a = attributesFor(w, requestor, ctx.url.pathname);
      const d = await authorizer.authorize(a);
      if (d.decision !== 'allow') {
        ctx.refusedBy = 'impersonation';
        throw forbiddenError(a, d.reason);
      }
    }
    ctx.user = actingUser(wanted, headerValues(src, GROUP).length > 0);
    auditImpersonatedUser(ctx, ctx.user);
    deleteHeaders(src, [USER, GROUP, UID, ...headerNamesWithPrefix(src, EXTRA_PREFIX)]);
    await passed(ctx, started, next);
  };
}

/** The hot path: most requests carry no Impersonate-* header at all. */
function mentionsImpersonation(src: HeaderSource): boolean {
  const raw = src.rawHeaders;
  if (!raw) return Object.keys(src.headers).some((h) => h.startsWith('impersonate-'));
  for (let i = 0; i < raw.length; i += 2) {
    const n = raw[i]!;
    if (n.length > 12 && (n.charCodeAt(0) | 32) === 105 && n.toLowerCase().startsWith('impersonate-')) return true;
  }
  return false;
}

/** What the headers ask for, in kube's order (user, groups, extras, uid); throws 400 for anything without a user. */
export function impersonationRequests(src: HeaderSource): Wanted[] {
  const out: Wanted[] = [];
  const user = headerValue(src, USER);
  if (user !== '') {
    const sa = splitServiceAccount(user);
    out.push(sa ? { kind: 'ServiceAccount', namespace: sa.namespace, name: sa.name, apiVersion: '', fieldPath: '' } : { kind: 'User', namespace: '', name: user, apiVersion: '', fieldPath: '' });
  }
  const groups = headerValues(src, GROUP);
  for (const g of groups) out.push({ kind: 'Group', namespace: '', name: g, apiVersion: '', fieldPath: '' });
  const extras = headerNamesWithPrefix(src, EXTRA_PREFIX);
  for (const h of extras) {
    const key = pathUnescape(h.slice(EXTRA_PREFIX.length));
    for (const v of headerValues(src, h)) out.push({ kind: 'UserExtra', namespace: '', name: v, apiVersion: `${IMPERSONATION_GROUP}/v1`, fieldPath: key });
  }
  const uid = headerValue(src, UID);
  if (uid !== '') out.push({ kind: 'UID', namespace: '', name: uid, apiVersion: `${IMPERSONATION_GROUP}/v1`, fieldPath: '' });
  if (user === '' && (groups.length > 0 || extras.length > 0 || uid !== '')) {
    throw newBadRequest(`requested [${out.map(goObjectReference).join(' ')}] without impersonating a user`);
  }
  return out;
}

/** `system:serviceaccount:<namespace>:<name>` with a valid namespace and name (kube's SplitUsername). */
export function splitServiceAccount(user: string): { namespace: string; name: string } | undefined {
  const prefix = 'system:serviceaccount:';
  if (!user.startsWith(prefix)) return undefined;
  const parts = user.slice(prefix.length).split(':');
  if (parts.length !== 2) return undefined;
  const [namespace, name] = parts as [string, string];
  if (dns1123LabelErrors(namespace).length > 0 || dns1123SubdomainErrors(name).length > 0) return undefined;
  return { namespace, name };
}

function attributesFor(w: Wanted, user: UserInfo, path: string): Attributes {
  const base = { user, verb: 'impersonate', isResourceRequest: true as const, path, name: w.name, namespace: '', subresource: '' };
  switch (w.kind) {
    case 'User':
      return { ...base, apiGroup: '', apiVersion: 'v1', resource: 'users' };
    case 'Group':
      return { ...base, apiGroup: '', apiVersion: 'v1', resource: 'groups' };
    case 'ServiceAccount':
      return { ...base, apiGroup: '', apiVersion: 'v1', resource: 'serviceaccounts', namespace: w.namespace };
    case 'UserExtra':
      return { ...base, apiGroup: IMPERSONATION_GROUP, apiVersion: 'v1', resource: 'userextras', subresource: w.fieldPath };
    case 'UID':
      return { ...base, apiGroup: IMPERSONATION_GROUP, apiVersion: 'v1', resource: 'uids' };
  }
}

/** The user the request acts as once every request was allowed. */
export function actingUser(wanted: readonly Wanted[], groupsSpecified: boolean): UserInfo {
  let name = '';
  let uid: string | undefined;
  let groups: string[] = [];
  const extra: Record<string, string[]> = {};
  for (const w of wanted) {
    switch (w.kind) {
      case 'ServiceAccount':
        name = `system:serviceaccount:${w.namespace}:${w.name}`;
        if (!groupsSpecified) groups = ['system:serviceaccounts', `system:serviceaccounts:${w.namespace}`];
        break;
      case 'User':
        name = w.name;
        break;
      case 'Group':
        groups.push(w.name);
        break;
      case 'UserExtra':
        (extra[w.fieldPath] ??= []).push(w.name);
        break;
      case 'UID':
        uid = w.name;
        break;
    }
  }
  if (name !== ANONYMOUS) {
    if (!groups.includes(AUTHENTICATED) && !groups.includes(UNAUTHENTICATED)) groups.push(AUTHENTICATED);
  } else if (!groups.includes(UNAUTHENTICATED)) groups.push(UNAUTHENTICATED);
  return { name, groups, ...(uid !== undefined ? { uid } : {}), ...(Object.keys(extra).length > 0 ? { extra } : {}) };
}

/** Go's %v of a v1.ObjectReference: {Kind Namespace Name UID APIVersion ResourceVersion FieldPath}. */
function goObjectReference(w: Wanted): string {
  return `{${[w.kind, w.namespace, w.name, '', w.apiVersion, '', w.fieldPath].join(' ')}}`;
}

/** Hands the request on, recording how long this filter took (apiserver_request_filter_duration_seconds). */
function passed(ctx: RequestContext, started: number, next: Handler): Promise<void> {
  recordFilterLatency('impersonation', (performance.now() - started) / 1000);
  return next(ctx);
}
