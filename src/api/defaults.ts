// The server-side defaulters of every built-in kind, by group (svc.io
// spelling, '' for core), version and kind: the one place the per-folder
// defaults.ts files are gathered. A defaulter mutates a decoded object in
// place exactly as kube-apiserver v1.27 defaults it on decode; the server
// runs it on every request body it decodes, and — as Kubernetes does on every
// decode from storage — again after the status reset of create for the kinds
// whose status has defaults (PVC/PV phase Pending; src/registry/strategies/
// index.ts; the namespace strategy sets its phase Active itself).
//
// Kinds without an entry have no defaults in v1.27: ConfigMap (its data {} is
// invisible on the wire), ServiceAccount, ResourceQuota, Event (core and
// events.svc.io), ComponentStatus, ControllerRevision, Ingress,
// PodDisruptionBudget (policy/v1), RuntimeClass (node.svc.io/v1), Lease
// (coordination.svc.io/v1), Role, ClusterRole, CSINode, CSIStorageCapacity,
// and the groups not listed below.
//
// Admission-time changes are separate: core/v1/defaults.ts exports
// defaultTolerationSeconds and defaultPodPriority for those plugins.
import { DEFAULT_GATES } from '../features/gates.js';
import * as admissionregistrationV1 from './admissionregistration/v1/defaults.js';
import * as admissionregistrationV1alpha1 from './admissionregistration/v1alpha1/defaults.js';
import * as apiextensionsV1 from './apiextensions/v1/defaults.js';
import * as appsV1 from './apps/v1/defaults.js';
import * as autoscalingV1 from './autoscaling/v1/defaults.js';
import * as autoscalingV2 from './autoscaling/v2/defaults.js';
import * as batchV1 from './batch/v1/defaults.js';
import * as coreV1 from './core/v1/defaults.js';
import * as discoveryV1 from './discovery/v1/defaults.js';
import * as flowcontrolV1beta2 from './flowcontrol/v1beta2/defaults.js';
import * as flowcontrolV1beta3 from './flowcontrol/v1beta3/defaults.js';
import * as networkingV1 from './networking/v1/defaults.js';
import * as rbacV1 from './rbac/v1/defaults.js';
import * as schedulingV1 from './scheduling/v1/defaults.js';
import * as storageV1 from './storage/v1/defaults.js';
import type { Gates, Json } from './core/v1/defaults.js';

/** A kind's defaulter, given the server's feature gates. */
export type KindDefaulter = (obj: Json, gates: Gates) => void;

const GROUPS: readonly [group: string, version: string, defaulters: Readonly<Record<string, KindDefaulter>>][] = [
  ['', 'v1', coreV1.defaulters],
  ['admissionregistration.svc.io', 'v1', admissionregistrationV1.defaulters],
  ['admissionregistration.svc.io', 'v1alpha1', admissionregistrationV1alpha1.defaulters],
  ['apiextensions.svc.io', 'v1', apiextensionsV1.defaulters],
  ['apps', 'v1', appsV1.defaulters],
  ['autoscaling', 'v1', autoscalingV1.defaulters],
  ['autoscaling', 'v2', autoscalingV2.defaulters],
  ['batch', 'v1', batchV1.defaulters],
  ['discovery.svc.io', 'v1', discoveryV1.defaulters],
  ['flowcontrol.apiserver.svc.io', 'v1beta2', flowcontrolV1beta2.defaulters],
  ['flowcontrol.apiserver.svc.io', 'v1beta3', flowcontrolV1beta3.defaulters],
  ['networking.svc.io', 'v1', networkingV1.defaulters],
  ['rbac.authorization.svc.io', 'v1', rbacV1.defaulters],
  ['scheduling.svc.io', 'v1', schedulingV1.defaulters],
  ['storage.svc.io', 'v1', storageV1.defaulters],
];

const byKey = new Map<string, KindDefaulter>();

const keyOf = (group: string, version: string, kind: string) => `${group}/${version}/${kind}`;

/** Adds a kind's defaulter; a second registration of the same kind throws. */
export function registerDefaulter(group: string, version: string, kind: string, fn: KindDefaulter): void {
  const key = keyOf(group, version, kind);
  if (byKey.has(key)) throw new Error(`defaulter for ${key} registered twice`);
  byKey.set(key, fn);
}

for (const [group, version, defaulters] of GROUPS) {
  for (const [kind, fn] of Object.entries(defaulters)) registerDefaulter(group, version, kind, fn);
}

/**
 * The defaulter of a kind (group in the svc.io spelling), bound to the
 * server's feature gates (v1.27's defaults unless given), or undefined when
 * the kind has no defaults.
 */
export function defaulterFor(group: string, version: string, kind: string, gates: Gates = DEFAULT_GATES): ((obj: Record<string, unknown>) => void) | undefined {
  const fn = byKey.get(keyOf(group, version, kind));
  return fn && ((obj) => fn(obj, gates));
}

/** Every kind with a defaulter, for tests. */
export function defaultedKinds(): { group: string; version: string; kind: string }[] {
  return [...byKey.keys()].map((k) => {
    const [group, version, kind] = k.split('/') as [string, string, string];
    return { group, version, kind };
  });
}
