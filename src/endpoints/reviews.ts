// The review kinds: virtual, create-only resources answered from the
// authenticator and authorizer and never stored — TokenReview,
// SelfSubjectReview, SubjectAccessReview, SelfSubjectAccessReview,
// LocalSubjectAccessReview, SelfSubjectRulesReview.
import { newBadRequest, newInvalid, fieldPath, required, type FieldError } from '../api/meta/index.js';
import type { UnionAuthenticator } from '../authn/authenticator.js';
import { AuthenticationError } from '../authn/authenticator.js';
import type { Attributes, Authorizer } from '../authz/authorizer.js';
import type { UserInfo } from '../authn/user.js';
import { isObject } from '../registry/object.js';

export interface ReviewDeps {
  readonly authenticator: UnionAuthenticator;
  readonly authorizer: Authorizer;
  /**
   * TokenReview's authenticator: the token authenticators alone (no client certificates, no
   * request headers, no anonymous fallback); without it TokenReview uses `authenticator`.
   */
  readonly tokenAuthenticator?: UnionAuthenticator;
  /** --api-audiences: the audiences a TokenReview without spec.audiences checks the token for. */
  readonly apiAudiences?: readonly string[];
}

export interface ReviewRequest {
  readonly kind: string;
  readonly group: string;
  readonly namespace: string;
  readonly user: UserInfo;
  readonly body: Record<string, unknown>;
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (isObject(v) ? v : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** The review's response body (the request object with its status), or undefined for a kind that is not a review. */
export async function review(deps: ReviewDeps, r: ReviewRequest): Promise<Obj | undefined> {
  const spec = obj(r.body.spec);
  const metadata = { ...obj(r.body.metadata), creationTimestamp: null };
  switch (r.kind) {
    case 'TokenReview': {
      const token = str(spec.token);
      if (!token) throw newBadRequest('token is required for TokenReview in authentication');
      const requested = strs(spec.audiences);
      const audiences = requested.length > 0 ? requested : deps.apiAudiences ?? [];
      const authenticator = deps.tokenAuthenticator ?? deps.authenticator;
      try {
        const r = await authenticator.authenticate({ headers: { authorization: `Bearer ${token}` }, ...(audiences.length > 0 ? { audiences } : {}) });
        if (r.user.name === 'system:anonymous' && !deps.tokenAuthenticator) return { metadata, spec, status: { user: {} } };
        return { metadata, spec, status: { authenticated: true, user: userInfo(r.user), ...(r.audiences ? { audiences: [...r.audiences] } : {}) } };
      } catch (err) {
        if (err instanceof AuthenticationError) return { metadata, spec, status: { user: {}, error: err.message } };
        throw err;
      }
    }
    case 'SelfSubjectReview':
      // kube answers a new object: only a creationTimestamp of now
      return { metadata: { creationTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z') }, status: { userInfo: userInfo(r.user) } };
    case 'SelfSubjectAccessReview':
      return { metadata, spec, status: await decide(deps, r.user, spec, r.group, r.kind) };
    case 'LocalSubjectAccessReview': {
      const ns = str(obj(spec.resourceAttributes).namespace);
      if (ns !== r.namespace) throw newBadRequest(`spec.resourceAttributes.namespace must match namespace: ${r.namespace}`);
      return { metadata: { ...metadata, namespace: r.namespace }, spec, status: await decide(deps, subject(spec, r), spec, r.group, r.kind) };
    }
    case 'SubjectAccessReview':
      return { metadata, spec, status: await decide(deps, subject(spec, r), spec, r.group, r.kind) };
    case 'SelfSubjectRulesReview': {
      const rules = deps.authorizer.rulesFor?.(r.user, str(spec.namespace));
      return {
        metadata,
        spec,
        status: rules
          ? { resourceRules: rules.resourceRules, nonResourceRules: rules.nonResourceRules, incomplete: false }
          : { resourceRules: [], nonResourceRules: [], incomplete: true, evaluationError: 'the authorizer cannot list rules' },
      };
    }
    default:
      return undefined;
  }
}

function subject(spec: Obj, r: ReviewRequest): UserInfo {
  const extra = obj(spec.extra);
  const user = str(spec.user);
  const groups = strs(spec.groups);
  if (!user && groups.length === 0) throw newInvalid({ group: r.group, kind: r.kind }, '', [required(fieldPath('spec.user'), 'at least one of user or group must be specified')]);
  return { name: user, uid: str(spec.uid), groups, extra: Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, strs(v)])) };
}

async function decide(deps: ReviewDeps, user: UserInfo, spec: Obj, group: string, kind: string): Promise<Obj> {
  const ra = spec.resourceAttributes;
  const nra = spec.nonResourceAttributes;
  const errs: FieldError[] = [];
  if (ra === undefined && nra === undefined) errs.push(required(fieldPath('spec.resourceAttributes'), 'exactly one of nonResourceAttributes or resourceAttributes must be specified'));
  if (ra !== undefined && nra !== undefined) errs.push(required(fieldPath('spec.resourceAttributes'), 'cannot be specified in combination with nonResourceAttributes'));
  if (errs.length > 0) throw newInvalid({ group, kind }, '', errs);
  const a: Attributes = ra !== undefined
    ? (() => {
        const x = obj(ra);
        return { user, verb: str(x.verb), isResourceRequest: true as const, path: '', apiGroup: str(x.group), apiVersion: str(x.version), namespace: str(x.namespace), resource: str(x.resource), subresource: str(x.subresource), name: str(x.name) };
      })()
    : (() => {
        const x = obj(nra);
        return { user, verb: str(x.verb), isResourceRequest: false as const, path: str(x.path) };
      })();
  const d = await deps.authorizer.authorize(a);
  return {
    allowed: d.decision === 'allow',
    ...(d.decision === 'deny' ? { denied: true } : {}),
    ...(d.reason ? { reason: d.reason } : {}),
  };
}

function userInfo(u: UserInfo): Obj {
  return { username: u.name, ...(u.uid ? { uid: u.uid } : {}), groups: [...u.groups], ...(u.extra && Object.keys(u.extra).length ? { extra: u.extra } : {}) };
}
