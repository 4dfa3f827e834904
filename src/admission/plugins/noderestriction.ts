// NodeRestriction (kube v1.27 plugin/pkg/admission/noderestriction): a node
// agent — user `system:node:<name>` in `system:nodes` — may write only what
// belongs to it: its own Node (not its taints, not restricted labels), mirror
// pods bound to it and owned by its Node, status and deletion of pods bound
// to it, evictions of those pods, PVC status (status.capacity and
// status.conditions only), tokens for pods bound to it, its own Lease in
// svc-node-lease and its own CSINode. Other users pass untouched.
import { isStatusError } from '../../api/meta/index.js';
import { NODE_LEASE_NAMESPACE, nodeIdentity } from '../../authz/node/authorizer.js';
import { podConfigMapNames, podSecretNames } from '../../authz/node/references.js';
import type { AdmissionAttributes, AdmissionPlugin } from '../../registry/admission.js';
import { deepEqual, isObject, type ApiObject } from '../../registry/object.js';
import { admissionForbidden } from './common.js';
import { isKubeletLabel, labelNamespace } from './kubeletlabels.js';

export { isKubeletLabel } from './kubeletlabels.js';

/** The mirror pod annotation: the canonical spelling and kube's, both accepted. */
export const MIRROR_ANNOTATIONS = ['svc.io/config.mirror', 'kubernetes.io/config.mirror'] as const;

export interface NodeRestrictionDeps {
  /** A pod by namespace and name; rejects with the API's NotFound when there is none. */
  getPod(namespace: string, name: string): Promise<ApiObject>;
  /** A Node by name; rejects with the API's NotFound when there is none. */
  getNode(name: string): Promise<ApiObject>;
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (isObject(v) ? v : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const q = (s: string) => JSON.stringify(s);

// ---- labels --------------------------------------------------------------

/** Namespaces reserved to the cluster: a node agent may set only the labels above in them. */
const RESERVED_NAMESPACES = ['kubernetes.io', 'k8s.io', 'svc.io'];
/** Labels that steer workloads to trusted nodes: never set by the nodes themselves. */
const NODE_RESTRICTION_NAMESPACES = ['node-restriction.kubernetes.io', 'node-restriction.svc.io'];

const inNamespace = (ns: string, domains: readonly string[]) => domains.some((d) => ns === d || ns.endsWith(`.${d}`));


/** Of the keys added, removed or changed, those a node may not touch, sorted. */
export function forbiddenLabels(labels: Obj, oldLabels: Obj): string[] {
  const modified = new Set<string>();
  for (const [k, v] of Object.entries(labels)) if (!Object.hasOwn(oldLabels, k) || oldLabels[k] !== v) modified.add(k);
  for (const [k, v] of Object.entries(oldLabels)) if (!Object.hasOwn(labels, k) || labels[k] !== v) modified.add(k);
  return [...modified]
    .filter((k) => {
      const ns = labelNamespace(k);
      return inNamespace(ns, NODE_RESTRICTION_NAMESPACES) || (inNamespace(ns, RESERVED_NAMESPACES) && !isKubeletLabel(k));
    })
    .sort();
}

// ---- the plugin -------------------------------------------------------------

export function nodeRestrictionPlugin(deps: NodeRestrictionDeps): AdmissionPlugin {
  return {
    name: 'NodeRestriction',
    // kube runs it in the mutating phase (it changes nothing), on create, update and delete
    phase: 'mutating',
    async admit(a) {
      if (a.operation === 'CONNECT' || !a.user) return;
      const nodeName = nodeIdentity(a.user);
      if (nodeName === undefined) return;
      const forbid = (message: string) => admissionForbidden(a, message);
      if (nodeName === '') throw forbid(`could not determine node from user ${q(a.user.name)}`);
      const { group, resource } = a.resource;
      const sub = a.subresource ?? '';
      if (group === '' && resource === 'pods') {
        if (sub === '') return admitPod(nodeName, a, deps);
        if (sub === 'status') return admitPodStatus(nodeName, a);
        if (sub === 'eviction') return admitPodEviction(nodeName, a, deps);
        throw forbid(`unexpected pod subresource ${q(sub)}, only 'status' and 'eviction' are allowed`);
      }
      if (group === '' && resource === 'nodes') return admitNode(nodeName, a);
      if (group === '' && resource === 'persistentvolumeclaims') {
        if (sub === 'status') return admitPVCStatus(nodeName, a);
        throw forbid('may only update PVC status');
      }
      if (group === '' && resource === 'serviceaccounts') return admitServiceAccount(nodeName, a, deps);
      if (group === 'coordination.svc.io' && resource === 'leases') return admitLease(nodeName, a);
      if (group === 'storage.svc.io' && resource === 'csinodes') return admitCSINode(nodeName, a);
    },
  };
}


/** A lookup: NotFound passes through as it is, other failures become 403 with their text (kube's NewForbidden(a, err)). */
async function lookup(a: AdmissionAttributes, get: () => Promise<ApiObject>): Promise<ApiObject> {
  try {
    return await get();
  } catch (err) {
    if (isStatusError(err) && err.status.code === 404) throw err;
    throw admissionForbidden(a, err instanceof Error ? err.message : String(err));
  }
}

const nodeNameOf = (pod: ApiObject | undefined): string => str(obj(pod?.spec).nodeName);

async function admitPod(nodeName: string, a: AdmissionAttributes, deps: NodeRestrictionDeps): Promise<void> {
  if (a.operation === 'CREATE') return admitPodCreate(nodeName, a, deps);
  if (a.operation === 'DELETE') {
    const existing = a.oldObject ?? (await lookup(a, () => deps.getPod(a.namespace, a.name)));
    if (nodeNameOf(existing) !== nodeName) throw admissionForbidden(a, `node ${q(nodeName)} can only delete pods with spec.nodeName set to itself`);
    return;
  }
  throw admissionForbidden(a, `unexpected operation ${q(a.operation)}, node ${q(nodeName)} can only create and delete mirror pods`);
}

async function admitPodCreate(nodeName: string, a: AdmissionAttributes, deps: NodeRestrictionDeps): Promise<void> {
  const pod = a.object!;
  const annotations = obj(pod.metadata.annotations);
  if (!MIRROR_ANNOTATIONS.some((k) => Object.hasOwn(annotations, k))) {
    throw admissionForbidden(a, `pod does not have ${q(MIRROR_ANNOTATIONS[0])} annotation, node ${q(nodeName)} can only create mirror pods`);
  }
  if (nodeNameOf(pod) !== nodeName) throw admissionForbidden(a, `node ${q(nodeName)} can only create pods with spec.nodeName set to itself`);
  const owners = Array.isArray(pod.metadata.ownerReferences) ? pod.metadata.ownerReferences.map(obj) : [];
  if (owners.length > 1) throw admissionForbidden(a, `node ${q(nodeName)} can only create pods with a single owner reference set to itself`);
  const owner = owners[0];
  if (owner === undefined || owner.apiVersion !== 'v1' || owner.kind !== 'Node' || owner.name !== nodeName) {
    throw admissionForbidden(a, `node ${q(nodeName)} can only create pods with an owner reference set to itself`);
  }
  if (owner.controller !== true) throw admissionForbidden(a, `node ${q(nodeName)} can only create pods with a controller owner reference set to itself`);
  if (owner.blockOwnerDeletion === true) throw admissionForbidden(a, `node ${q(nodeName)} must not set blockOwnerDeletion on an owner reference`);
  const node = await lookup(a, () => deps.getNode(nodeName));
  const uid = str(owner.uid);
  if (uid !== (node.metadata.uid ?? '')) throw admissionForbidden(a, `node ${nodeName} UID mismatch: expected ${uid} got ${node.metadata.uid ?? ''}`);

  // a mirror pod may refer to no other API object
  const spec = obj(pod.spec);
  if (str(spec.serviceAccountName) !== '') throw admissionForbidden(a, `node ${q(nodeName)} can not create pods that reference a service account`);
  if (podSecretNames(pod).length > 0) throw admissionForbidden(a, `node ${q(nodeName)} can not create pods that reference secrets`);
  if (podConfigMapNames(pod).length > 0) throw admissionForbidden(a, `node ${q(nodeName)} can not create pods that reference configmaps`);
  const volumes = Array.isArray(spec.volumes) ? spec.volumes.map(obj) : [];
  if (volumes.some((v) => isObject(v.persistentVolumeClaim))) {
    throw admissionForbidden(a, `node ${q(nodeName)} can not create pods that reference persistentvolumeclaims`);
  }
}

function admitPodStatus(nodeName: string, a: AdmissionAttributes): void {
  if (a.operation !== 'UPDATE') throw admissionForbidden(a, `unexpected operation ${q(a.operation)}`);
  if (nodeNameOf(a.oldObject) !== nodeName) throw admissionForbidden(a, `node ${q(nodeName)} can only update pod status for pods with spec.nodeName set to itself`);
  if (!labelsEqual(obj(a.object?.metadata.labels), obj(a.oldObject?.metadata.labels))) {
    throw admissionForbidden(a, `node ${q(nodeName)} cannot update labels through pod status`);
  }
}

const labelsEqual = (x: Obj, y: Obj) => Object.keys(x).length === Object.keys(y).length && Object.entries(x).every(([k, v]) => Object.hasOwn(y, k) && y[k] === v);

async function admitPodEviction(nodeName: string, a: AdmissionAttributes, deps: NodeRestrictionDeps): Promise<void> {
  if (a.operation !== 'CREATE') throw admissionForbidden(a, `unexpected operation ${a.operation}`);
  // the pod named by the request's path, else by the Eviction
  const podName = a.name || str(a.object?.metadata.name);
  if (podName === '') throw admissionForbidden(a, 'could not determine pod from request data');
  const pod = await lookup(a, () => deps.getPod(a.namespace, podName));
  if (nodeNameOf(pod) !== nodeName) throw admissionForbidden(a, `node ${nodeName} can only evict pods with spec.nodeName set to itself`);
}

/** The claim without what a node may change in it (status.capacity, status.conditions) nor bookkeeping. */
function pvcComparable(pvc: ApiObject | undefined): Obj {
  const { resourceVersion: _rv, managedFields: _mf, ...metadata } = pvc?.metadata ?? {};
  const { capacity: _c, conditions: _cond, ...status } = obj(pvc?.status);
  return { ...pvc, metadata, status };
}

/** The paths where two values differ (the text kube renders with cmp.Diff; ours names the fields). */
function diffPaths(x: unknown, y: unknown, path: string, out: string[]): void {
  if (deepEqual(x, y)) return;
  if (isObject(x) && isObject(y)) {
    for (const k of new Set([...Object.keys(x), ...Object.keys(y)])) diffPaths(x[k], y[k], path ? `${path}.${k}` : k, out);
    return;
  }
  out.push(path);
}

function admitPVCStatus(nodeName: string, a: AdmissionAttributes): void {
  if (a.operation !== 'UPDATE') throw admissionForbidden(a, `unexpected operation ${q(a.operation)}`);
  const paths: string[] = [];
  diffPaths(pvcComparable(a.oldObject), pvcComparable(a.object), '', paths);
  if (paths.length > 0) {
    throw admissionForbidden(a, `node ${q(nodeName)} is not allowed to update fields other than status.capacity and status.conditions: ${paths.join(', ')}`);
  }
}

/** Semantic equality of optional lists: absent and empty are the same. */
const sameList = (x: unknown, y: unknown) => deepEqual(Array.isArray(x) && x.length > 0 ? x : [], Array.isArray(y) && y.length > 0 ? y : []);

function admitNode(nodeName: string, a: AdmissionAttributes): void {
  if (a.name !== nodeName) throw admissionForbidden(a, `node ${q(nodeName)} is not allowed to modify node ${q(a.name)}`);
  const spec = obj(a.object?.spec);
  if (a.operation === 'CREATE') {
    if (spec.configSource != null) throw admissionForbidden(a, `node ${q(nodeName)} is not allowed to create pods with a non-nil configSource`);
    const bad = forbiddenLabels(obj(a.object!.metadata.labels), {});
    if (bad.length > 0) throw admissionForbidden(a, `node ${q(nodeName)} is not allowed to set the following labels: ${bad.join(', ')}`);
  }
  if (a.operation === 'UPDATE') {
    const oldSpec = obj(a.oldObject?.spec);
    if (spec.configSource != null && !deepEqual(spec.configSource, oldSpec.configSource)) {
      throw admissionForbidden(a, `node ${q(nodeName)} is not allowed to update configSource to a new non-nil configSource`);
    }
    if (!sameList(spec.taints, oldSpec.taints)) throw admissionForbidden(a, `node ${q(nodeName)} is not allowed to modify taints`);
    const bad = forbiddenLabels(obj(a.object!.metadata.labels), obj(a.oldObject!.metadata.labels));
    if (bad.length > 0) throw admissionForbidden(a, `is not allowed to modify labels: ${bad.join(', ')}`);
  }
}

async function admitServiceAccount(nodeName: string, a: AdmissionAttributes, deps: NodeRestrictionDeps): Promise<void> {
  if (a.operation !== 'CREATE' || a.subresource !== 'token') return;
  // a node's token must be bound to a pod scheduled on it
  const ref = obj(obj(a.object?.spec).boundObjectRef);
  if (ref.apiVersion !== 'v1' || ref.kind !== 'Pod' || str(ref.name) === '') throw admissionForbidden(a, 'node requested token not bound to a pod');
  const uid = str(ref.uid);
  if (uid === '') throw admissionForbidden(a, 'node requested token with a pod binding without a uid');
  const pod = await lookup(a, () => deps.getPod(a.namespace, str(ref.name)));
  if (uid !== pod.metadata.uid) {
    throw admissionForbidden(a, `the UID in the bound object reference (${uid}) does not match the UID in record. The object might have been deleted and then recreated`);
  }
  if (nodeNameOf(pod) !== nodeName) throw admissionForbidden(a, 'node requested token bound to a pod scheduled on a different node');
}

/** On create the name is the object's (kube's a.GetName() is empty then); otherwise the request's. */
const targetName = (a: AdmissionAttributes) => (a.operation === 'CREATE' ? str(a.object?.metadata.name) : a.name);

function admitLease(nodeName: string, a: AdmissionAttributes): void {
  if (a.namespace !== NODE_LEASE_NAMESPACE) throw admissionForbidden(a, `can only access leases in the ${q(NODE_LEASE_NAMESPACE)} system namespace`);
  if (targetName(a) !== nodeName) throw admissionForbidden(a, 'can only access node lease with the same name as the requesting node');
}

function admitCSINode(nodeName: string, a: AdmissionAttributes): void {
  if (targetName(a) !== nodeName) throw admissionForbidden(a, 'can only access CSINode with the same name as the requesting node');
}
