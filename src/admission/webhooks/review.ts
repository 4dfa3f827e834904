// AdmissionReview out and back (kube's request/admissionreview.go).
//
// Out: `admission.k8s.io/v1` or `v1beta1` (the first of the webhook's
// admissionReviewVersions this server speaks; both have the same request
// shape), groups in the k8s.io spelling as kube-apiserver writes them, fields
// in kube's order with its omitempty rules (name, namespace, subResource
// omitted when empty; object, oldObject and options null when absent).
//
// Back: the answer must be a JSON AdmissionReview with a response; for v1 it
// must name `admission.k8s.io/v1` (the svc.io spelling is accepted too) and
// kind AdmissionReview, and echo the uid; a mutating webhook's patch needs
// patchType JSONPatch (v1beta1: a patch is taken as JSONPatch; its uid and
// type are not checked, as kube); a validating webhook may return neither.
import type { UserInfo } from '../../authn/user.js';
import { kubernetesGroup } from '../../endpoints/requestinfo.js';
import type { GroupVersionKind, GroupVersionResource } from './equivalence.js';

export const SUPPORTED_REVIEW_VERSIONS = ['v1', 'v1beta1'] as const;
export type ReviewVersion = (typeof SUPPORTED_REVIEW_VERSIONS)[number];

/** The version to send, or undefined (kube: "webhook does not accept known AdmissionReview versions (v1, v1beta1)"). */
export function reviewVersionFor(accepted: readonly string[]): ReviewVersion | undefined {
  return accepted.find((v): v is ReviewVersion => (SUPPORTED_REVIEW_VERSIONS as readonly string[]).includes(v));
}

export const NO_KNOWN_REVIEW_VERSION = 'webhook does not accept known AdmissionReview versions (v1, v1beta1)';

export interface ReviewInput {
  readonly version: ReviewVersion;
  /** The resource and kind the webhook is called with (after an Equivalent match) and those of the request. */
  readonly resource: GroupVersionResource;
  readonly kind: GroupVersionKind;
  readonly subresource: string;
  readonly requestResource: GroupVersionResource;
  readonly requestKind: GroupVersionKind;
  readonly requestSubresource: string;
  readonly name: string;
  readonly namespace: string;
  readonly operation: string;
  readonly user: UserInfo | undefined;
  readonly object: unknown;
  readonly oldObject: unknown;
  readonly dryRun: boolean;
  readonly options: unknown;
}

/** The user as the review's userInfo holds it (empty members left out). */
export function userInfo(u: UserInfo | undefined): Record<string, unknown> {
  const w: Record<string, unknown> = {};
  if (!u) return w;
  if (u.name) w.username = u.name;
  if (u.uid) w.uid = u.uid;
  if (u.groups.length > 0) w.groups = [...u.groups];
  if (u.extra && Object.keys(u.extra).length > 0) w.extra = u.extra;
  return w;
}

// The kinds, resources and users a review names as JSON text: the first two
// by their (group, version, name) strings, since the kinds and resources a
// request names are new objects per request (a WeakMap keyed by them would
// miss and grow on every call); a user by its object (one per authenticated
// user).
const kindTexts = new Map<string, Map<string, Map<string, string>>>();
const resourceTexts = new Map<string, Map<string, Map<string, string>>>();
const userText = new WeakMap<UserInfo, string>();

function textOf(cache: Map<string, Map<string, Map<string, string>>>, group: string, version: string, name: string, member: 'kind' | 'resource'): string {
  let byVersion = cache.get(group);
  if (!byVersion) cache.set(group, (byVersion = new Map()));
  let byName = byVersion.get(version);
  if (!byName) byVersion.set(version, (byName = new Map()));
  let text = byName.get(name);
  if (text === undefined) {
    if (byName.size >= 1024) byName.clear(); // names come from the request path: bounded
    byName.set(name, (text = JSON.stringify({ group: kubernetesGroup(group), version, [member]: name })));
  }
  return text;
}

function userInfoText(u: UserInfo | undefined): string {
  if (!u) return '{}';
  let text = userText.get(u);
  if (text === undefined) userText.set(u, (text = JSON.stringify(userInfo(u))));
  return text;
}

/**
 * The review's JSON text (review.test.ts holds it equal to JSON.stringify of
 * the review built as an object), written without building the review
 * object: the kinds, resources and user are cached text, only the object,
 * old object and options are serialized per call.
 */
export function reviewText(r: Omit<ReviewInput, 'version'>, version: ReviewVersion, uid: string): string {
  let t = `{"kind":"AdmissionReview","apiVersion":"admission.k8s.io/${version}","request":{"uid":${JSON.stringify(uid)},"kind":${textOf(kindTexts, r.kind.group, r.kind.version, r.kind.kind, 'kind')},"resource":${textOf(resourceTexts, r.resource.group, r.resource.version, r.resource.resource, 'resource')}`;
  if (r.subresource) t += `,"subResource":${JSON.stringify(r.subresource)}`;
  t += `,"requestKind":${textOf(kindTexts, r.requestKind.group, r.requestKind.version, r.requestKind.kind, 'kind')},"requestResource":${textOf(resourceTexts, r.requestResource.group, r.requestResource.version, r.requestResource.resource, 'resource')}`;
  if (r.requestSubresource) t += `,"requestSubResource":${JSON.stringify(r.requestSubresource)}`;
  if (r.name) t += `,"name":${JSON.stringify(r.name)}`;
  if (r.namespace) t += `,"namespace":${JSON.stringify(r.namespace)}`;
  t += `,"operation":${JSON.stringify(r.operation)},"userInfo":${userInfoText(r.user)},"object":${JSON.stringify(r.object ?? null)},"oldObject":${JSON.stringify(r.oldObject ?? null)}`;
  if (r.dryRun !== undefined) t += `,"dryRun":${JSON.stringify(r.dryRun)}`;
  return `${t},"options":${JSON.stringify(r.options ?? null)}}}`;
}

/** What a verified answer says. */
export interface ReviewAnswer {
  readonly allowed: boolean;
  readonly result: unknown;
  /** Decoded JSON patch operations (mutating only), empty when none. */
  readonly patch: Buffer | undefined;
  readonly warnings: readonly string[];
  readonly auditAnnotations: Readonly<Record<string, string>>;
}

/** An answer that is not a usable AdmissionReview (kube wraps it: "received invalid webhook response: …"). */
export class InvalidReviewError extends Error {
  override readonly name = 'InvalidReviewError';
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

const ACCEPTED_GROUPS = new Set(['admission.k8s.io', 'admission.svc.io']);

/** Go's GroupVersionKind.String() of what the answer named: "group/version, Kind=kind". */
function gvkText(apiVersion: unknown, kind: unknown): string {
  const av = typeof apiVersion === 'string' ? apiVersion : '';
  const slash = av.indexOf('/');
  const [group, version] = slash < 0 ? ['', av] : [av.slice(0, slash), av.slice(slash + 1)];
  return `${group}/${version}, Kind=${typeof kind === 'string' ? kind : ''}`;
}

function base64Bytes(v: unknown): Buffer | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(v)) throw new InvalidReviewError('illegal base64 data in response.patch');
  const b = Buffer.from(v, 'base64');
  return b.length > 0 ? b : undefined;
}

/** An answer's warnings and audit annotations when it has none (most answers): shared, frozen. */
const NO_WARNINGS: readonly string[] = Object.freeze([]);
const NO_ANNOTATIONS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/** Checks a decoded answer to the review of `uid` (kube's VerifyAdmissionResponse). */
export function verifyAnswer(version: ReviewVersion, uid: string, mutating: boolean, answer: unknown): ReviewAnswer {
  const review = isObj(answer) ? answer : {};
  const response = review.response;
  if (!isObj(response)) throw new InvalidReviewError('webhook response was absent');
  let patch: Buffer | undefined;
  if (version === 'v1') {
    if (response.uid !== uid) throw new InvalidReviewError(`expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(typeof response.uid === 'string' ? response.uid : '')}`);
    const av = typeof review.apiVersion === 'string' ? review.apiVersion : '';
    const slash = av.indexOf('/');
    if (slash < 0 || !ACCEPTED_GROUPS.has(av.slice(0, slash)) || av.slice(slash + 1) !== 'v1' || review.kind !== 'AdmissionReview') {
      throw new InvalidReviewError(`expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got ${gvkText(review.apiVersion, review.kind)}`);
    }
    const hasType = response.patchType !== undefined && response.patchType !== null;
    const bytes = base64Bytes(response.patch);
    if (mutating) {
      if (bytes && !hasType) throw new InvalidReviewError('webhook returned response.patch but not response.patchType');
      if (!bytes && hasType) throw new InvalidReviewError('webhook returned response.patchType but not response.patch');
      if (hasType && response.patchType !== 'JSONPatch') {
        if (response.patchType === '') throw new InvalidReviewError('webhook returned invalid response.patchType of ""');
        throw new UnsupportedPatchTypeError(String(response.patchType));
      }
      patch = bytes;
    } else {
      if (bytes) throw new InvalidReviewError('validating webhook may not return response.patch');
      if (hasType) throw new InvalidReviewError('validating webhook may not return response.patchType');
    }
  } else if (mutating) {
    patch = base64Bytes(response.patch);
  }
  const warnings = Array.isArray(response.warnings) ? response.warnings.filter((w): w is string => typeof w === 'string') : NO_WARNINGS;
  let auditAnnotations: Record<string, string> = NO_ANNOTATIONS;
  if (isObj(response.auditAnnotations)) {
    auditAnnotations = {};
    for (const [k, v] of Object.entries(response.auditAnnotations)) if (typeof v === 'string') auditAnnotations[k] = v;
  }
  return { allowed: response.allowed === true, result: response.status, patch, warnings, auditAnnotations };
}

/** A patchType other than JSONPatch (kube: `unsupported patch type "x"`, a call error carrying the answer's status). */
export class UnsupportedPatchTypeError extends Error {
  override readonly name = 'UnsupportedPatchTypeError';
  constructor(readonly patchType: string) {
    super(`unsupported patch type ${JSON.stringify(patchType)}`);
  }
}
