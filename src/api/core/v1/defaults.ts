// Server-side defaulting for core/v1, as kube-apiserver v1.27 applies it when
// it decodes a request body (and again when it decodes a stored object): the
// SetDefaults_* functions and declarative `+default` markers of core/v1, plus
// the v1 ⇄ internal conversions that change what a client reads back
// (Secret stringData → data, spec.serviceAccount mirrored from
// serviceAccountName, podIP/podIPs and podCIDR/podCIDRs kept in step, the
// dropped init-container annotations).
//
// Every function mutates a decoded JSON object in place. A Go pointer that is
// nil, a string that is "" and a number that is 0 are all "unset" in Go; in
// JSON that is an absent or null member (and "" / 0 where Go cannot tell
// them apart). A member holding the wrong JSON type is left alone for
// validation to report. Non-pointer Go structs that defaulting writes into
// (Deployment.spec.strategy, a pod template's spec) are created when absent,
// as Go's zero value would be.
//
// Not here, by design:
// - admission-time changes: defaultTolerationSeconds and defaultPodPriority
//   (defaults-pod.ts) are exported for the DefaultTolerationSeconds and Priority plugins;
//   the ServiceAccount plugin (serviceAccountName "default", token volume) is
//   not defaulting.
// - what the registry fills on create: Service clusterIP(s), ipFamilies,
//   ipFamilyPolicy, nodePorts, healthCheckNodePort; Namespace
//   spec.finalizers ["kubernetes"]; status resets; PVC dataSource/dataSourceRef
//   normalisation; Job selector and controller-uid labels; generation.
// - Quantity rounding to milli scale and canonical formatting (SetDefaults_ResourceList)
//   belong to the Quantity codec; ConfigMap data {} (SetDefaults_ConfigMap)
//   is invisible on the wire (omitempty) and is not reproduced.
//
// The defaulters live in one module per kind family; this module gathers
// them (importers keep using defaults.ts) and holds the small remaining kinds.
import { at, each, filledMap, isObj, mirrorFirst, orStr, struct, unset, type Gates, type Json } from './defaults-common.js';
import { defaultPod, defaultPodTemplate, defaultReplicationController } from './defaults-pod.js';
import { defaultEndpoints, defaultService } from './defaults-service.js';
import { defaultPersistentVolume, defaultPersistentVolumeClaim } from './defaults-storage.js';

export * from './defaults-common.js';
export * from './defaults-container.js';
export * from './defaults-pod.js';
export * from './defaults-service.js';
export * from './defaults-storage.js';

// ---- the rest of core/v1 ----

/**
 * The labels kept equal to a namespace's name: kube-apiserver's kubernetes.io/metadata.name in the
 * svc.io spelling (../../../../shared/DESIGN.md §2) and, beside it, kube's own, which stock tools and
 * manifests select namespaces by (NetworkPolicy and webhook namespaceSelectors).
 */
export const NAMESPACE_NAME_LABELS = ['svc.io/metadata.name', 'kubernetes.io/metadata.name'] as const;

export function defaultNamespace(ns: Json): void {
  const metadata = at(ns, 'metadata');
  const name = metadata?.name;
  if (metadata && typeof name === 'string' && name !== '') {
    const labels = struct(metadata, 'labels');
    if (labels) for (const l of NAMESPACE_NAME_LABELS) labels[l] = name;
  }
  const status = struct(ns, 'status');
  if (status) orStr(status, 'phase', 'Active');
}

export function defaultNode(node: Json): void {
  const spec = at(node, 'spec');
  if (spec) mirrorFirst(spec, 'podCIDR', 'podCIDRs', (c) => c, (x) => x);
  const status = at(node, 'status');
  const capacity = status && filledMap(status, 'capacity');
  if (status && capacity && unset(status, 'allocatable')) status.allocatable = { ...capacity };
}

/** Secret: type Opaque; stringData is written over data (base64 of its UTF-8 bytes) and never stored. */
export function defaultSecret(secret: Json): void {
  orStr(secret, 'type', 'Opaque');
  const stringData = secret.stringData;
  if (isObj(stringData) && Object.keys(stringData).length > 0) {
    const data = struct(secret, 'data');
    if (data) for (const [k, v] of Object.entries(stringData)) data[k] = Buffer.from(String(v), 'utf8').toString('base64');
  }
  delete secret.stringData;
}

export function defaultLimitRange(lr: Json): void {
  for (const item of each(at(lr, 'spec'), 'limits')) {
    if (item.type !== 'Container') continue;
    const fill = (target: string, ...sources: string[]) => {
      const out: Json = { ...(at(item, target) ?? {}) };
      for (const src of sources) for (const [k, v] of Object.entries(at(item, src) ?? {})) if (!(k in out)) out[k] = v;
      if (Object.keys(out).length > 0 || !unset(item, target)) item[target] = out;
    };
    fill('default', 'max');
    fill('defaultRequest', 'default', 'min');
  }
}

/** The core/v1 defaulters by kind. */
export const defaulters: Readonly<Record<string, (obj: Json, gates: Gates) => void>> = {
  Pod: defaultPod,
  PodTemplate: defaultPodTemplate,
  ReplicationController: defaultReplicationController,
  Service: defaultService,
  Endpoints: defaultEndpoints,
  PersistentVolumeClaim: defaultPersistentVolumeClaim,
  PersistentVolume: defaultPersistentVolume,
  Namespace: defaultNamespace,
  Node: defaultNode,
  Secret: defaultSecret,
  LimitRange: defaultLimitRange,
};
