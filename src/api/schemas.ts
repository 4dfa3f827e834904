// The schema of every built-in kind, by group (svc.io spelling), version and
// kind: the one place the per-group folders (src/api/<group>/<version>/) are
// gathered. Groups without a folder yet simply have no schema (their bodies are
// stored as sent).
import { toSchema, type S } from '../schema/dsl.js';
import type { Schema } from '../schema/model.js';
import * as admissionregistrationV1 from './admissionregistration/v1/index.js';
import * as admissionregistrationV1alpha1 from './admissionregistration/v1alpha1/index.js';
import * as apiextensionsV1 from './apiextensions/v1/index.js';
import * as appsV1 from './apps/v1/index.js';
import * as autoscalingV1 from './autoscaling/v1/index.js';
import * as autoscalingV2 from './autoscaling/v2/index.js';
import * as batchV1 from './batch/v1/index.js';
import * as policyV1 from './policy/v1/index.js';
import * as apiregistrationV1 from './apiregistration/v1/index.js';
import * as apiserverinternalV1alpha1 from './apiserverinternal/v1alpha1/index.js';
import * as authenticationV1 from './authentication/v1/index.js';
import * as authenticationV1alpha1 from './authentication/v1alpha1/index.js';
import * as authenticationV1beta1 from './authentication/v1beta1/index.js';
import * as authorizationV1 from './authorization/v1/index.js';
import * as certificatesV1 from './certificates/v1/index.js';
import * as certificatesV1alpha1 from './certificates/v1alpha1/index.js';
import * as coordinationV1 from './coordination/v1/index.js';
import * as coreV1 from './core/v1/index.js';
import * as discoveryV1 from './discovery/v1/index.js';
import * as eventsV1 from './events/v1/index.js';
import * as flowcontrolV1beta2 from './flowcontrol/v1beta2/index.js';
import * as flowcontrolV1beta3 from './flowcontrol/v1beta3/index.js';
import * as networkingV1 from './networking/v1/index.js';
import * as networkingV1alpha1 from './networking/v1alpha1/index.js';
import * as nodeV1 from './node/v1/index.js';
import * as rbacV1 from './rbac/v1/index.js';
import * as resourceV1alpha2 from './resource/v1alpha2/index.js';
import * as schedulingV1 from './scheduling/v1/index.js';
import * as storageV1 from './storage/v1/index.js';

type Kinds = Readonly<Record<string, S>>;

const GROUPS: readonly [group: string, version: string, kinds: Kinds][] = [
  ['', 'v1', coreV1.kinds],
  ['admissionregistration.svc.io', 'v1', admissionregistrationV1.kinds],
  ['admissionregistration.svc.io', 'v1alpha1', admissionregistrationV1alpha1.kinds],
  ['apiextensions.svc.io', 'v1', apiextensionsV1.kinds],
  ['apps', 'v1', appsV1.kinds],
  ['autoscaling', 'v1', autoscalingV1.kinds],
  ['autoscaling', 'v2', autoscalingV2.kinds],
  ['batch', 'v1', batchV1.kinds],
  ['policy', 'v1', policyV1.kinds],
  ['apiregistration.svc.io', 'v1', apiregistrationV1.kinds],
  ['internal.apiserver.svc.io', 'v1alpha1', apiserverinternalV1alpha1.kinds],
  ['authentication.svc.io', 'v1', authenticationV1.kinds],
  ['authentication.svc.io', 'v1alpha1', authenticationV1alpha1.kinds],
  ['authentication.svc.io', 'v1beta1', authenticationV1beta1.kinds],
  ['authorization.svc.io', 'v1', authorizationV1.kinds],
  ['certificates.svc.io', 'v1', certificatesV1.kinds],
  ['certificates.svc.io', 'v1alpha1', certificatesV1alpha1.kinds],
  ['coordination.svc.io', 'v1', coordinationV1.kinds],
  ['discovery.svc.io', 'v1', discoveryV1.kinds],
  ['events.svc.io', 'v1', eventsV1.kinds],
  ['flowcontrol.apiserver.svc.io', 'v1beta2', flowcontrolV1beta2.kinds],
  ['flowcontrol.apiserver.svc.io', 'v1beta3', flowcontrolV1beta3.kinds],
  ['networking.svc.io', 'v1', networkingV1.kinds],
  ['networking.svc.io', 'v1alpha1', networkingV1alpha1.kinds],
  ['node.svc.io', 'v1', nodeV1.kinds],
  ['rbac.authorization.svc.io', 'v1', rbacV1.kinds],
  ['resource.svc.io', 'v1alpha2', resourceV1alpha2.kinds],
  ['scheduling.svc.io', 'v1', schedulingV1.kinds],
  ['storage.svc.io', 'v1', storageV1.kinds],
];

const byKey = new Map<string, Schema>();
for (const [group, version, kinds] of GROUPS) {
  for (const [kind, s] of Object.entries(kinds)) {
    const key = `${group}/${version}/${kind}`;
    if (byKey.has(key)) throw new Error(`schema for ${key} registered twice`);
    byKey.set(key, toSchema(s));
  }
}

/** The schema of a kind (group in the svc.io spelling), or undefined when none is written yet. */
export function schemaFor(group: string, version: string, kind: string): Schema | undefined {
  return byKey.get(`${group}/${version}/${kind}`);
}

/** Every registered kind, for tests and publishing. */
export function registeredKinds(): { group: string; version: string; kind: string }[] {
  return [...byKey.keys()].map((k) => {
    const [group, version, kind] = k.split('/') as [string, string, string];
    return { group, version, kind };
  });
}
