// The review kinds: virtual, create-only resources answered from the
// authenticator and authorizer and never stored — TokenReview,
// SelfSubjectReview, SubjectAccessReview, SelfSubjectAccessReview,
// LocalSubjectAccessReview, SelfSubjectRulesReview.
// The access reviews validate as kube v1.27's pkg/apis/authorization/validation
// (422 with the internal object's empty kind: `.authorization.k8s.io "" is
// invalid`), reconcile metadata.namespace with the URL as kube's create handler
// does (400 on a mismatch), and answer the chain's decision: allowed, denied,
// reason, and evaluationError when an authorizer could not evaluate.
// SelfSubjectRulesReview asks the chain's rulesFor (every authorizer's rules,
// concatenated; incomplete if any cannot list) and answers a new object.
import { newBadRequest, newInvalid, fieldPath, invalid as fieldInvalid, type FieldError } from '../api/meta/index.js';
import { GoValue, goStringMap, goStringSlice } from '../api/meta/govalue.js';
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
  switch (r.kind) {
    case 'TokenReview': {
      const spec = obj(r.body.spec);
      const metadata = { ...obj(r.body.metadata), creationTimestamp: null };
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
    case 'SelfSubjectAccessReview': {
      const spec = accessSpec(r.body.spec, false);
      const meta = requestMetadata(r, false);
      const errs = [...attributesErrors(spec), ...emptyMetadataErrors(meta, false)];
      if (errs.length > 0) throw invalid(r.group, errs);
      return { metadata: { creationTimestamp: null }, spec: specBody(spec, false), status: await decide(deps, attributesOf(r.user, spec)) };
    }
    case 'SubjectAccessReview': {
      const spec = accessSpec(r.body.spec, true);
      const meta = requestMetadata(r, false);
      const errs = [...attributesErrors(spec), ...subjectErrors(spec), ...emptyMetadataErrors(meta, false)];
      if (errs.length > 0) throw invalid(r.group, errs);
      return { metadata: { creationTimestamp: null }, spec: specBody(spec, true), status: await decide(deps, attributesOf(subjectOf(spec), spec)) };
    }
    case 'LocalSubjectAccessReview': {
      const spec = accessSpec(r.body.spec, true);
      const meta = requestMetadata(r, true);
      const errs = [...attributesErrors(spec), ...subjectErrors(spec), ...emptyMetadataErrors(meta, true)];
      if (spec.resourceAttributes && (spec.resourceAttributes.namespace ?? '') !== r.namespace) {
        errs.push(invalid_('spec.resourceAttributes.namespace', spec.resourceAttributes.namespace ?? '', 'must match metadata.namespace'));
      }
      if (spec.nonResourceAttributes) errs.push(invalid_('spec.nonResourceAttributes', goNonResourceAttributes(spec.nonResourceAttributes), 'disallowed on this kind of request'));
      if (errs.length > 0) throw invalid(r.group, errs);
      if (!r.namespace) throw newBadRequest('namespace is required on this type: ');
      return { metadata: { namespace: r.namespace, creationTimestamp: null }, spec: specBody(spec, true), status: await decide(deps, attributesOf(subjectOf(spec), spec)) };
    }
    case 'SelfSubjectRulesReview': {
      requestMetadata(r, false);
      const namespace = str(obj(r.body.spec).namespace);
      if (!namespace) throw newBadRequest('no namespace on request');
      const rules = deps.authorizer.rulesFor?.(r.user, namespace) ?? { resourceRules: [], nonResourceRules: [] };
      // kube answers a new object: the request's spec is not echoed.
      return {
        metadata: { creationTimestamp: null },
        spec: {},
        status: {
          resourceRules: rules.resourceRules.map((x) => ({
            verbs: [...x.verbs],
            ...(x.apiGroups.length > 0 ? { apiGroups: [...x.apiGroups] } : {}),
            ...(x.resources.length > 0 ? { resources: [...x.resources] } : {}),
            ...(x.resourceNames && x.resourceNames.length > 0 ? { resourceNames: [...x.resourceNames] } : {}),
          })),
          nonResourceRules: rules.nonResourceRules.map((x) => ({ verbs: [...x.verbs], ...(x.nonResourceURLs.length > 0 ? { nonResourceURLs: [...x.nonResourceURLs] } : {}) })),
          incomplete: rules.incomplete === true,
          ...(rules.evaluationError ? { evaluationError: rules.evaluationError } : {}),
        },
      };
    }
    default:
      return undefined;
  }
}

// The access reviews, as kube's REST handlers and pkg/apis/authorization/validation answer them.

type ResourceAttrs = { namespace?: string; verb?: string; group?: string; version?: string; resource?: string; subresource?: string; name?: string };
type NonResourceAttrs = { path?: string; verb?: string };

/** A SubjectAccessReviewSpec as kube decodes it: known fields only, empty strings and lists left out. */
interface AccessSpec {
  readonly resourceAttributes?: ResourceAttrs;
  readonly nonResourceAttributes?: NonResourceAttrs;
  readonly user?: string;
  readonly groups?: string[];
  readonly extra?: Record<string, string[]>;
  readonly uid?: string;
}

const RESOURCE_FIELDS = ['namespace', 'verb', 'group', 'version', 'resource', 'subresource', 'name'] as const;

function accessSpec(v: unknown, withSubject: boolean): AccessSpec {
  const spec = obj(v);
  const present = (x: unknown) => x !== undefined && x !== null;
  const pick = <K extends string>(x: unknown, keys: readonly K[]) => {
    const o = obj(x);
    return Object.fromEntries(keys.filter((k) => str(o[k]) !== '').map((k) => [k, str(o[k])])) as Partial<Record<K, string>>;
  };
  const extra = obj(spec.extra);
  const groups = strs(spec.groups);
  return {
    ...(present(spec.resourceAttributes) ? { resourceAttributes: pick(spec.resourceAttributes, RESOURCE_FIELDS) } : {}),
    ...(present(spec.nonResourceAttributes) ? { nonResourceAttributes: pick(spec.nonResourceAttributes, ['path', 'verb'] as const) } : {}),
    ...(withSubject && str(spec.user) ? { user: str(spec.user) } : {}),
    ...(withSubject && groups.length > 0 ? { groups } : {}),
    ...(withSubject && Object.keys(extra).length > 0 ? { extra: Object.fromEntries(Object.entries(extra).map(([k, x]) => [k, strs(x)])) } : {}),
    ...(withSubject && str(spec.uid) ? { uid: str(spec.uid) } : {}),
  };
}

/** The spec the answer echoes (a SelfSubjectAccessReviewSpec has the attributes only). */
function specBody(spec: AccessSpec, withSubject: boolean): Obj {
  if (withSubject) return { ...spec };
  return { ...(spec.resourceAttributes ? { resourceAttributes: spec.resourceAttributes } : {}), ...(spec.nonResourceAttributes ? { nonResourceAttributes: spec.nonResourceAttributes } : {}) };
}

const invalid_ = (path: string, value: unknown, detail: string): FieldError => fieldInvalid(fieldPath(path), value, detail);

/** kube's Invalid for a review: the internal object has no kind, hence `.authorization.k8s.io ""`. */
function invalid(group: string, errs: readonly FieldError[]) {
  return newInvalid({ group, kind: '' }, '', errs);
}

function attributesErrors(spec: AccessSpec): FieldError[] {
  if (spec.resourceAttributes && spec.nonResourceAttributes) return [invalid_('spec.nonResourceAttributes', goNonResourceAttributes(spec.nonResourceAttributes), 'cannot be specified in combination with resourceAttributes')];
  // Go prints the nil attributes as the string "null", quoted.
  if (!spec.resourceAttributes && !spec.nonResourceAttributes) return [invalid_('spec.resourceAttributes', 'null', 'exactly one of nonResourceAttributes or resourceAttributes must be specified')];
  return [];
}

function subjectErrors(spec: AccessSpec): FieldError[] {
  return !spec.user && !spec.groups ? [invalid_('spec.user', '', 'at least one of user or group must be specified')] : [];
}

/**
 * The request's metadata after kube's create handler has reconciled its namespace with the URL's
 * (EnsureObjectNamespaceMatchesRequestNamespace): cleared for a cluster-scoped review, the URL's
 * when empty, a 400 when they differ.
 */
function requestMetadata(r: ReviewRequest, namespaced: boolean): Obj {
  const meta = { ...obj(r.body.metadata) };
  const ns = str(meta.namespace);
  if (!namespaced) delete meta.namespace;
  else if (ns && ns !== r.namespace) throw newBadRequest('the namespace of the provided object does not match the namespace sent on the request');
  else meta.namespace = r.namespace;
  return meta;
}

/** kube: metadata must be empty (managedFields aside; namespace aside for a LocalSubjectAccessReview). */
function emptyMetadataErrors(meta: Obj, namespaced: boolean): FieldError[] {
  const set = Object.entries(meta).some(([k, v]) => k !== 'managedFields' && !(namespaced && k === 'namespace') && !isZero(v));
  if (!set) return [];
  return [invalid_('metadata', goObjectMeta(meta), namespaced ? 'must be empty except for namespace' : 'must be empty')];
}

/** Go's zero value, as Semantic.DeepEqual sees it (an empty map or list equals a nil one). */
function isZero(v: unknown): boolean {
  if (v === undefined || v === null || v === '' || v === 0 || v === false) return true;
  if (Array.isArray(v)) return v.length === 0;
  return isObject(v) && Object.keys(v).length === 0;
}

const q = (s: unknown) => JSON.stringify(str(s));

function goNonResourceAttributes(a: NonResourceAttrs): GoValue {
  return new GoValue(a, `authorization.NonResourceAttributes{Path:${q(a.path)}, Verb:${q(a.verb)}}`);
}

/** metav1.ObjectMeta as Go's %#v prints it (managedFields left out: kube prints pointers there). */
function goObjectMeta(m: Obj): GoValue {
  const ts = (v: unknown) => {
    const d = typeof v === 'string' ? new Date(v) : undefined;
    if (!d || Number.isNaN(d.getTime())) return 'time.Date(1, time.January, 1, 0, 0, 0, 0, time.UTC)';
    const month = d.toLocaleString('en-US', { month: 'long', timeZone: 'UTC' });
    return `time.Date(${d.getUTCFullYear()}, time.${month}, ${d.getUTCDate()}, ${d.getUTCHours()}, ${d.getUTCMinutes()}, ${d.getUTCSeconds()}, 0, time.Local)`;
  };
  const owners = Array.isArray(m.ownerReferences) && m.ownerReferences.length > 0
    ? `[]v1.OwnerReference{${m.ownerReferences.map((o) => `v1.OwnerReference{APIVersion:${q(obj(o).apiVersion)}, Kind:${q(obj(o).kind)}, Name:${q(obj(o).name)}, UID:${q(obj(o).uid)}, Controller:(*bool)(nil), BlockOwnerDeletion:(*bool)(nil)}`).join(', ')}}`
    : '[]v1.OwnerReference(nil)';
  const map = (v: unknown) => (isObject(v) && Object.keys(v).length > 0 ? goStringMap(v).goText : 'map[string]string(nil)');
  const fields = [
    `Name:${q(m.name)}`, `GenerateName:${q(m.generateName)}`, `Namespace:${q(m.namespace)}`, `SelfLink:${q(m.selfLink)}`, `UID:${q(m.uid)}`,
    `ResourceVersion:${q(m.resourceVersion)}`, `Generation:${typeof m.generation === 'number' ? m.generation : 0}`, `CreationTimestamp:${ts(m.creationTimestamp)}`,
    `DeletionTimestamp:${m.deletionTimestamp ? ts(m.deletionTimestamp) : '<nil>'}`, `DeletionGracePeriodSeconds:(*int64)(nil)`,
    `Labels:${map(m.labels)}`, `Annotations:${map(m.annotations)}`, `OwnerReferences:${owners}`,
    `Finalizers:${Array.isArray(m.finalizers) && m.finalizers.length > 0 ? goStringSlice('string', m.finalizers).goText : '[]string(nil)'}`,
    'ManagedFields:[]v1.ManagedFieldsEntry(nil)',
  ];
  return new GoValue(m, `v1.ObjectMeta{${fields.join(', ')}}`);
}

/** SubjectAccessReview's subject: the spec's user, uid, groups and extra. */
function subjectOf(spec: AccessSpec): UserInfo {
  return { name: spec.user ?? '', ...(spec.uid ? { uid: spec.uid } : {}), groups: spec.groups ?? [], ...(spec.extra ? { extra: spec.extra } : {}) };
}

/** kube's authorizationutil.ResourceAttributesFrom / NonResourceAttributesFrom: an empty version means every version (`*`). */
function attributesOf(user: UserInfo, spec: AccessSpec): Attributes {
  const ra = spec.resourceAttributes;
  if (ra) {
    return {
      user, verb: ra.verb ?? '', isResourceRequest: true, path: '', apiGroup: ra.group ?? '', apiVersion: ra.version || '*',
      namespace: ra.namespace ?? '', resource: ra.resource ?? '', subresource: ra.subresource ?? '', name: ra.name ?? '',
    };
  }
  const nra = spec.nonResourceAttributes ?? {};
  return { user, verb: nra.verb ?? '', isResourceRequest: false, path: nra.path ?? '' };
}

/** The status kube writes: allowed always, denied when denied, the reason, the evaluation error. */
async function decide(deps: ReviewDeps, a: Attributes): Promise<Obj> {
  const d = await deps.authorizer.authorize(a);
  return {
    allowed: d.decision === 'allow',
    ...(d.decision === 'deny' ? { denied: true } : {}),
    ...(d.reason ? { reason: d.reason } : {}),
    ...(d.error ? { evaluationError: d.error } : {}),
  };
}

function userInfo(u: UserInfo): Obj {
  return { username: u.name, ...(u.uid ? { uid: u.uid } : {}), groups: [...u.groups], ...(u.extra && Object.keys(u.extra).length ? { extra: u.extra } : {}) };
}
