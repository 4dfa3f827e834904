// ImagePolicyWebhook (off by default; validating), as kube-apiserver v1.27 runs
// it (plugin/pkg/admission/imagepolicy): every create or update of a pod (and
// of its ephemeralcontainers subresource) asks a backend, over HTTPS, whether
// its images may run (an ImageReview: review.ts).
//   allowed          → admitted; the answer's auditAnnotations are recorded
//                      on the request as `imagepolicywebhook.image-policy.k8s.io/<key>`
//   denied           → 403 `pods "p" is forbidden: image policy webhook backend
//                      denied one or more images: <reason>` (without a reason:
//                      `one or more images rejected by webhook backend`)
//   backend unusable (unreachable, failing after kube's retries, not an
//   ImageReview) → defaultAllow decides: true admits the pod, annotated
//                      `alpha.image-policy.k8s.io/failed-open: "true"` (also an
//                      audit annotation `…/failed-open`); false refuses it with
//                      the error, `pods "p" is forbidden: <error>`.
// Answers are cached (1024 entries) keyed by the review spec, allowTTL when
// allowed and denyTTL otherwise; failures are not cached. Configuration:
// config.ts; the backend is named by a connection-credentials file and called
// with src/webhook's client (retries: retryBackoff × 1.5, jitter 0.2, 5
// attempts; 30 s per review).
import { newBadRequest } from '../../../api/meta/index.js';
import type { AdmissionAttributes, AdmissionPlugin } from '../../../registry/admission.js';
import type { ApiObject } from '../../../registry/object.js';
import { loadConnectionFile, OutboundClient, type Connection } from '../../../webhook/index.js';
import { admissionForbidden, admissionForbiddenOf, subresourceOf, type Json } from '../common.js';
import { ExpiringLru } from './cache.js';
import { ImagePolicyConfigError, parseImagePolicyConfig, type ImagePolicyConfig } from './config.js';
import { imageReview, reviewSpec, reviewStatus, type ImageReviewStatus } from './review.js';

export const PLUGIN_NAME = 'ImagePolicyWebhook';
/** kube's AuditKeyPrefix: the plugin's name, lower case, under image-policy.k8s.io. */
export const AUDIT_KEY_PREFIX = 'imagepolicywebhook.image-policy.k8s.io/';
export const FAILED_OPEN_AUDIT_KEY = `${AUDIT_KEY_PREFIX}failed-open`;
/** kube's ImagePolicyFailedOpenKey, set on a pod admitted because the backend could not be asked. */
export const FAILED_OPEN_POD_ANNOTATION = 'alpha.image-policy.k8s.io/failed-open';
const CACHE_ENTRIES = 1024;
const REVIEW_TIMEOUT_MS = 30_000;

export interface ImagePolicyDeps {
  readonly config: ImagePolicyConfig;
  /** POSTs one ImageReview and answers the parsed body; throws when the backend cannot be asked. */
  readonly send: (review: Json) => Promise<unknown>;
  readonly now?: () => number;
}

export interface ImagePolicyPlugin extends AdmissionPlugin {
  /** Reviews sent to the backend (tests look). */
  readonly calls: number;
}

export function imagePolicyWebhook(deps: ImagePolicyDeps): ImagePolicyPlugin {
  const { config, send } = deps;
  const cache = new ExpiringLru<ImageReviewStatus>(CACHE_ENTRIES, deps.now ?? Date.now);
  let calls = 0;

  /** kube's webhookError: defaultAllow admits (marked as failed open), else the error refuses. */
  const failed = (a: AdmissionAttributes, pod: ApiObject, err: unknown): void => {
    if (!config.defaultAllow) throw admissionForbiddenOf(a, err);
    a.annotate?.(FAILED_OPEN_AUDIT_KEY, 'true');
    pod.metadata.annotations = { ...pod.metadata.annotations, [FAILED_OPEN_POD_ANNOTATION]: 'true' };
  };

  return {
    name: PLUGIN_NAME,
    get calls() {
      return calls;
    },
    async admit(a) {
      if (a.operation !== 'CREATE' && a.operation !== 'UPDATE') return;
      const sub = subresourceOf(a);
      if (a.resource.group !== '' || a.resource.resource !== 'pods' || (sub !== '' && sub !== 'ephemeralcontainers')) return;
      const pod = a.object;
      if (!pod) throw newBadRequest('Resource was marked with kind Pod but was unable to be converted');
      const spec = reviewSpec(pod, a.namespace, sub);
      const key = JSON.stringify(spec);
      let status = cache.get(key);
      if (!status) {
        try {
          calls++;
          status = reviewStatus(await send(imageReview(spec)));
        } catch (err) {
          return failed(a, pod, err);
        }
        cache.set(key, status, status.allowed ? config.allowTtlMs : config.denyTtlMs);
      }
      for (const k of Object.keys(status.auditAnnotations).sort()) a.annotate?.(AUDIT_KEY_PREFIX + k, status.auditAnnotations[k]!);
      if (!status.allowed) {
        throw admissionForbidden(a, status.reason ? `image policy webhook backend denied one or more images: ${status.reason}` : 'one or more images rejected by webhook backend');
      }
    },
  };
}

/**
 * The plugin from its admission configuration: parsed, its backend's
 * connection file read and checked (https). Every failure stops the start, as
 * kube's `couldn't init admission plugin "ImagePolicyWebhook": …`.
 */
export function imagePolicyWebhookFromConfig(raw: unknown): ImagePolicyPlugin {
  try {
    const config = parseImagePolicyConfig(raw);
    const client = new OutboundClient(backendConnection(config.kubeConfigFile), {
      timeoutMs: REVIEW_TIMEOUT_MS,
      maxResponseBytes: 1 << 20,
      backoff: { initialMs: config.retryBackoffMs, factor: 1.5, jitter: 0.2, steps: 5 },
    });
    return imagePolicyWebhook({ config, send: (body) => client.json({ method: 'POST', body }) });
  } catch (err) {
    throw new ImagePolicyConfigError(`couldn't init admission plugin "${PLUGIN_NAME}": ${(err as Error).message}`);
  }
}

function backendConnection(file: string): Connection {
  let c: Connection;
  try {
    c = loadConnectionFile(file);
  } catch (err) {
    throw new ImagePolicyConfigError(`imagePolicy.kubeConfigFile: ${(err as Error).message}`);
  }
  if (c.server.protocol !== 'https:') throw new ImagePolicyConfigError(`imagePolicy.kubeConfigFile: ${file}: the image policy backend ${c.server.href} must use https`);
  return c;
}
