// The ImageReview (imagepolicy v1alpha1) the ImagePolicyWebhook sends and the
// answer it reads. We send kube's spelling of the group, `imagepolicy.k8s.io`
// (backends are written for Kubernetes), and accept answers in either
// spelling, of the version sent, kind ImageReview.
//   spec.containers   [{image}] of the pod: its containers then its init
//                     containers; for the ephemeralcontainers subresource its
//                     ephemeral containers only
//   spec.annotations  the pod's annotations whose key holds
//                     `.image-policy.k8s.io/` (or our `.image-policy.svc.io/`)
//   spec.namespace    the request's namespace
// Empty fields are left out (Go's omitempty) and annotation keys sorted (Go
// writes maps so): the spec's JSON text is also the decision cache's key.
//   status.allowed, status.reason, status.auditAnnotations (recorded on the
//   request, each key prefixed `imagepolicywebhook.image-policy.k8s.io/`).
import { isObject } from '../../../registry/object.js';
import { checkReviewEnvelope } from '../../../webhook/review.js';
import type { Json } from '../common.js';

export const IMAGE_REVIEW_GROUP = 'imagepolicy.k8s.io';
export const IMAGE_REVIEW_VERSION = 'v1alpha1';
/** Pod annotations forwarded to the backend hold one of these. */
export const FORWARDED_ANNOTATION_DOMAINS = ['.image-policy.k8s.io/', '.image-policy.svc.io/'] as const;

export interface ImageReviewSpec {
  readonly containers?: readonly { readonly image?: string }[];
  readonly annotations?: Readonly<Record<string, string>>;
  readonly namespace?: string;
}

export interface ImageReviewStatus {
  readonly allowed: boolean;
  readonly reason: string;
  readonly auditAnnotations: Readonly<Record<string, string>>;
}

/** The annotations a backend sees: those of the image policy domains, keys sorted. */
export function forwardedAnnotations(all: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(all ?? {}).sort()) {
    if (FORWARDED_ANNOTATION_DOMAINS.some((d) => k.includes(d))) out[k] = all![k]!;
  }
  return out;
}

/** The review spec of a pod write (`subresource` '' or 'ephemeralcontainers'). */
export function reviewSpec(pod: { metadata: { annotations?: Record<string, string> }; spec?: unknown }, namespace: string, subresource: string): ImageReviewSpec {
  const spec = isObject(pod.spec) ? pod.spec : {};
  const lists = subresource === 'ephemeralcontainers' ? ['ephemeralContainers'] : ['containers', 'initContainers'];
  const containers = lists.flatMap((l) => (Array.isArray(spec[l]) ? (spec[l] as unknown[]) : []))
    .map((c) => (isObject(c) && typeof c.image === 'string' && c.image !== '' ? { image: c.image } : {}));
  const annotations = forwardedAnnotations(pod.metadata.annotations);
  return {
    ...(containers.length > 0 ? { containers } : {}),
    ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
    ...(namespace ? { namespace } : {}),
  };
}

/** The body POSTed to the backend. */
export function imageReview(spec: ImageReviewSpec): Json {
  return {
    kind: 'ImageReview', apiVersion: `${IMAGE_REVIEW_GROUP}/${IMAGE_REVIEW_VERSION}`,
    metadata: { creationTimestamp: null }, spec, status: { allowed: false },
  };
}

/** The answer's status, once it is an ImageReview of the version sent with a well-typed status; throws otherwise. */
export function reviewStatus(answer: unknown): ImageReviewStatus {
  const bad = (why: string): never => {
    throw new Error(`the image policy backend answered an invalid ImageReview: ${why}`);
  };
  const review = checkReviewEnvelope(answer, { kind: 'ImageReview', group: IMAGE_REVIEW_GROUP, version: IMAGE_REVIEW_VERSION }, bad);
  const s = review.status ?? {};
  if (!isObject(s)) return bad('status is not an object');
  if (s.allowed !== undefined && s.allowed !== null && typeof s.allowed !== 'boolean') bad('status.allowed is not a boolean');
  if (s.reason !== undefined && s.reason !== null && typeof s.reason !== 'string') bad('status.reason is not a string');
  const audit = s.auditAnnotations ?? {};
  if (!isObject(audit) || Object.values(audit).some((v) => typeof v !== 'string')) bad('status.auditAnnotations is not a map of strings');
  return { allowed: s.allowed === true, reason: typeof s.reason === 'string' ? s.reason : '', auditAnnotations: { ...(audit as Record<string, string>) } };
}
