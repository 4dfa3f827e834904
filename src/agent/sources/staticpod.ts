// Static pods' annotations as the kubelet writes them (pkg/kubelet/config
// common.go): config.hash (the pod's uid), config.source (file, http),
// config.seen (first seen) and a mirror pod's config.mirror — in kube's
// spelling (kubernetes.io/config.*) and this project's (svc.io/config.*) —
// and the names static pods get. Manifests are decoded into pods by
// manifest.ts (loaded only when static pods are configured: it holds the
// pod validation).
import type { ApiObject } from '../../registry/object.js';

export type PodSource = 'file' | 'http';

const both = (key: string): [string, string] => [`kubernetes.io/${key}`, `svc.io/${key}`];
export const CONFIG_HASH = both('config.hash');
export const CONFIG_SOURCE = both('config.source');
export const CONFIG_SEEN = both('config.seen');
export const CONFIG_MIRROR = both('config.mirror');

export class ManifestError extends Error {
  override readonly name = 'ManifestError';
}

/** The annotation value in either spelling. */
export function annotation(pod: ApiObject, keys: readonly [string, string]): string | undefined {
  const a = pod.metadata.annotations ?? {};
  return a[keys[0]] ?? a[keys[1]];
}

/** The static pod's hash (its config.hash annotation): what its mirror pod's config.mirror must say. */
export const podHash = (pod: ApiObject): string | undefined => annotation(pod, CONFIG_HASH);

/** Whether the pod is a mirror pod. */
export const isMirrorPod = (pod: ApiObject): boolean => annotation(pod, CONFIG_MIRROR) !== undefined;

/** kube's generatePodName. */
export const staticPodName = (name: string, nodeName: string): string => `${name}-${nodeName.toLowerCase()}`;

/** Stamps the pod config's annotations: source, and when first seen (RFC 3339 with nanoseconds, kept from `seen` when known). */
export function stampSeen(pod: ApiObject, source: PodSource, seen: string): ApiObject {
  const annotations = { ...(pod.metadata.annotations ?? {}) };
  for (const k of CONFIG_SOURCE) annotations[k] = source;
  for (const k of CONFIG_SEEN) annotations[k] = seen;
  return { ...pod, metadata: { ...pod.metadata, annotations } };
}

/** Go's time.RFC3339Nano of a millisecond time. */
export { rfc3339Nano } from '../../api/meta/time.js';
