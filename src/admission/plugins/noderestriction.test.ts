// NodeRestriction: what a node agent may write, with kube's texts (golden
// transcripts admission-07 and admission-12, svc.io spellings).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isStatusError, newNotFound } from '../../api/meta/index.js';
import type { UserInfo } from '../../authn/user.js';
import type { AdmissionAttributes, AdmissionOperation } from '../../registry/admission.js';
import type { ApiObject } from '../../registry/object.js';
import { forbiddenLabels, nodeRestrictionPlugin } from './noderestriction.js';

const N1: UserInfo = { name: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] };
const ADMIN: UserInfo = { name: 'admin', groups: ['system:masters'] };

const pods: Record<string, ApiObject> = {
  mine: { metadata: { name: 'mine', namespace: 'ns', uid: 'pod-uid-1' }, spec: { nodeName: 'n1' } },
  other: { metadata: { name: 'other', namespace: 'ns', uid: 'pod-uid-2' }, spec: { nodeName: 'n2' } },
};
const plugin = nodeRestrictionPlugin({
  getPod: async (_ns, name) => {
    const p = pods[name];
    if (!p) throw newNotFound({ group: '', resource: 'pods' }, name);
    return p;
  },
  getNode: async (name) => {
    if (name !== 'n1') throw newNotFound({ group: '', resource: 'nodes' }, name);
    return { metadata: { name: 'n1', uid: 'node-uid-1' } };
  },
});

interface Req {
  op: AdmissionOperation;
  group?: string;
  resource: string;
  sub?: string;
  ns?: string;
  name: string;
  obj?: ApiObject;
  old?: ApiObject;
  user?: UserInfo;
}
function attrs(r: Req): AdmissionAttributes {
  return {
    operation: r.op, object: r.obj, oldObject: r.old,
    resource: { group: r.group ?? '', version: 'v1', resource: r.resource, kind: '' },
    namespace: r.ns ?? '', name: r.name, namespaced: r.ns !== undefined, dryRun: false, user: r.user ?? N1,
    ...(r.sub ? { subresource: r.sub } : {}),
  };
}

const node = (labels: Record<string, string>, spec: Record<string, unknown> = {}): ApiObject => ({ metadata: { name: 'n1', labels }, spec });
const nodeRef = { apiVersion: 'v1', kind: 'Node', name: 'n1', uid: 'node-uid-1', controller: true };
function mirror(name: string, opts: { annotation?: string; owners?: unknown[]; nodeName?: string; spec?: Record<string, unknown> } = {}): ApiObject {
  return {
    metadata: {
      name, namespace: 'ns',
      annotations: { [opts.annotation ?? 'kubernetes.io/config.mirror']: 'hash' },
      ownerReferences: (opts.owners ?? [nodeRef]) as never,
    },
    spec: { nodeName: opts.nodeName ?? 'n1', containers: [{ name: 'app', image: 'x' }], ...opts.spec },
  };
}

type Want = null | { code: number; message: string };
const forbidden = (message: string): Want => ({ code: 403, message });

const rows: [string, Req, Want][] = [
  // other users are not restricted
  ['an admin creates another node', { op: 'CREATE', resource: 'nodes', name: 'n2', obj: { metadata: { name: 'n2' } }, user: ADMIN }, null],
  ['a user named like a node but not in system:nodes', { op: 'CREATE', resource: 'nodes', name: 'n2', obj: { metadata: { name: 'n2' } }, user: { name: 'system:node:n1', groups: [] } }, null],
  ['a node user without a name', { op: 'CREATE', resource: 'nodes', name: 'n2', obj: { metadata: { name: 'n2' } }, user: { name: 'system:node:', groups: ['system:nodes'] } },
    forbidden('nodes "n2" is forbidden: could not determine node from user "system:node:"')],

  // nodes (admission-07)
  ['its own node', { op: 'CREATE', resource: 'nodes', name: 'n1', obj: node({ 'kubernetes.io/hostname': 'n1' }) }, null],
  ['another node', { op: 'CREATE', resource: 'nodes', name: 'n2', obj: { metadata: { name: 'n2' } } },
    forbidden('nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"')],
  ['another node\'s status', { op: 'UPDATE', resource: 'nodes', sub: 'status', name: 'n2', obj: { metadata: { name: 'n2' } }, old: { metadata: { name: 'n2' } } },
    forbidden('nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"')],
  ['registering with a restricted label', { op: 'CREATE', resource: 'nodes', name: 'n1', obj: node({ 'node-restriction.kubernetes.io/pool': 'x', 'kubernetes.io/role': 'm' }) },
    forbidden('nodes "n1" is forbidden: node "n1" is not allowed to set the following labels: kubernetes.io/role, node-restriction.kubernetes.io/pool')],
  ['registering with a config source', { op: 'CREATE', resource: 'nodes', name: 'n1', obj: node({}, { configSource: { configMap: {} } }) },
    forbidden('nodes "n1" is forbidden: node "n1" is not allowed to create pods with a non-nil configSource')],
  ['allowed labels', { op: 'UPDATE', resource: 'nodes', name: 'n1', obj: node({ 'kubernetes.io/hostname': 'n1', 'topology.kubernetes.io/zone': 'z1', 'node.kubernetes.io/instance-type': 'small', 'example.com/own': 'x' }), old: node({ 'kubernetes.io/hostname': 'n1' }) }, null],
  ['a node-restriction label', { op: 'UPDATE', resource: 'nodes', name: 'n1', obj: node({ 'node-restriction.kubernetes.io/pool': 'secure' }), old: node({}) },
    forbidden('nodes "n1" is forbidden: is not allowed to modify labels: node-restriction.kubernetes.io/pool')],
  ['another kubernetes.io label', { op: 'UPDATE', resource: 'nodes', name: 'n1', obj: node({ 'kubernetes.io/role': 'master' }), old: node({}) },
    forbidden('nodes "n1" is forbidden: is not allowed to modify labels: kubernetes.io/role')],
  ['removing a restricted label', { op: 'UPDATE', resource: 'nodes', name: 'n1', obj: node({}), old: node({ 'node-restriction.svc.io/pool': 'secure' }) },
    forbidden('nodes "n1" is forbidden: is not allowed to modify labels: node-restriction.svc.io/pool')],
  ['unchanged restricted labels', { op: 'UPDATE', resource: 'nodes', name: 'n1', obj: node({ 'node-restriction.svc.io/pool': 's' }), old: node({ 'node-restriction.svc.io/pool': 's' }) }, null],
  ['taints', { op: 'UPDATE', resource: 'nodes', name: 'n1', obj: node({}, { taints: [{ key: 'k', value: 'v', effect: 'NoSchedule' }] }), old: node({}) },
    forbidden('nodes "n1" is forbidden: node "n1" is not allowed to modify taints')],
  ['no taints and an empty list are the same', { op: 'UPDATE', resource: 'nodes', name: 'n1', obj: node({}, { taints: [] }), old: node({}) }, null],
  ['a new config source', { op: 'UPDATE', resource: 'nodes', name: 'n1', obj: node({}, { configSource: { configMap: { name: 'c' } } }), old: node({}) },
    forbidden('nodes "n1" is forbidden: node "n1" is not allowed to update configSource to a new non-nil configSource')],
  ['its status', { op: 'UPDATE', resource: 'nodes', sub: 'status', name: 'n1', obj: { ...node({}), status: { capacity: { cpu: '2' } } }, old: node({}) }, null],
  ['deleting itself (RBAC refuses it, not this plugin)', { op: 'DELETE', resource: 'nodes', name: 'n1', old: node({}) }, null],

  // pods (admission-12)
  ['a mirror pod', { op: 'CREATE', resource: 'pods', ns: 'ns', name: 'mirror', obj: mirror('mirror') }, null],
  ['a mirror pod with the svc.io annotation', { op: 'CREATE', resource: 'pods', ns: 'ns', name: 'mirror', obj: mirror('mirror', { annotation: 'svc.io/config.mirror' }) }, null],
  ['a mirror pod without an owner', { op: 'CREATE', resource: 'pods', ns: 'ns', name: 'mirror', obj: mirror('mirror', { owners: [] }) },
    forbidden('pods "mirror" is forbidden: node "n1" can only create pods with an owner reference set to itself')],
  ['a plain pod', { op: 'CREATE', resource: 'pods', ns: 'ns', name: 'plain', obj: { metadata: { name: 'plain' }, spec: { nodeName: 'n1' } } },
    forbidden('pods "plain" is forbidden: pod does not have "svc.io/config.mirror" annotation, node "n1" can only create mirror pods')],
  ['a mirror pod for another node', { op: 'CREATE', resource: 'pods', ns: 'ns', name: 'mirror-n2', obj: mirror('mirror-n2', { nodeName: 'n2' }) },
    forbidden('pods "mirror-n2" is forbidden: node "n1" can only create pods with spec.nodeName set to itself')],
  ['two owners', { op: 'CREATE', resource: 'pods', ns: 'ns', name: 'm', obj: mirror('m', { owners: [nodeRef, nodeRef] }) },
    forbidden('pods "m" is forbidden: node "n1" can only create pods with a single owner reference set to itself')],
  ['owned by another node', { op: 'CREATE', resource: 'pods', ns: 'ns', name: 'm', obj: mirror('m', { owners: [{ ...nodeRef, name: 'n2' }] }) },
    forbidden('pods "m" is forbidden: node "n1" can only create pods with an owner reference set to itself')],
  ['not a controller reference', { op: 'CREATE', resource: 'pods', ns: 'ns', name: 'm', obj: mirror('m', { owners: [{ ...nodeRef, controller: false }] }) },
    forbidden('pods "m" is forbidden: node "n1" can only create pods with a controller owner reference set to itself')],
  ['blockOwnerDeletion', { op: 'CREATE', resource: 'pods', ns: 'ns', name: 'm', obj: mirror('m', { owners: [{ ...nodeRef, blockOwnerDeletion: true }] }) },
    forbidden('pods "m" is forbidden: node "n1" must not set blockOwnerDeletion on an owner reference')],
  ['a stale node uid', { op: 'CREATE', resource: 'pods', ns: 'ns', name: 'm', obj: mirror('m', { owners: [{ ...nodeRef, uid: 'old' }] }) },
    forbidden('pods "m" is forbidden: node n1 UID mismatch: expected old got node-uid-1')],
  ['a service account', { op: 'CREATE', resource: 'pods', ns: 'ns', name: 'm', obj: mirror('m', { spec: { serviceAccountName: 'runner' } }) },
    forbidden('pods "m" is forbidden: node "n1" can not create pods that reference a service account')],
  ['a secret volume', { op: 'CREATE', resource: 'pods', ns: 'ns', name: 'm', obj: mirror('m', { spec: { volumes: [{ name: 'v', secret: { secretName: 's' } }] } }) },
    forbidden('pods "m" is forbidden: node "n1" can not create pods that reference secrets')],
  ['a configmap env', { op: 'CREATE', resource: 'pods', ns: 'ns', name: 'm', obj: mirror('m', { spec: { containers: [{ name: 'a', envFrom: [{ configMapRef: { name: 'c' } }] }] } }) },
    forbidden('pods "m" is forbidden: node "n1" can not create pods that reference configmaps')],
  ['a claim', { op: 'CREATE', resource: 'pods', ns: 'ns', name: 'm', obj: mirror('m', { spec: { volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'c' } }] } }) },
    forbidden('pods "m" is forbidden: node "n1" can not create pods that reference persistentvolumeclaims')],
  ['updating a pod', { op: 'UPDATE', resource: 'pods', ns: 'ns', name: 'mine', obj: pods.mine, old: pods.mine },
    forbidden('pods "mine" is forbidden: unexpected operation "UPDATE", node "n1" can only create and delete mirror pods')],
  ['the status of its pod', { op: 'UPDATE', resource: 'pods', sub: 'status', ns: 'ns', name: 'mine', obj: pods.mine, old: pods.mine }, null],
  ['the status of another node\'s pod', { op: 'UPDATE', resource: 'pods', sub: 'status', ns: 'ns', name: 'other', obj: pods.other, old: pods.other },
    forbidden('pods "other" is forbidden: node "n1" can only update pod status for pods with spec.nodeName set to itself')],
  ['labels through status', { op: 'UPDATE', resource: 'pods', sub: 'status', ns: 'ns', name: 'mine', obj: { ...pods.mine!, metadata: { ...pods.mine!.metadata, labels: { a: 'b' } } }, old: pods.mine },
    forbidden('pods "mine" is forbidden: node "n1" cannot update labels through pod status')],
  ['deleting its pod', { op: 'DELETE', resource: 'pods', ns: 'ns', name: 'mine', old: pods.mine }, null],
  ['deleting another node\'s pod', { op: 'DELETE', resource: 'pods', ns: 'ns', name: 'other', old: pods.other },
    forbidden('pods "other" is forbidden: node "n1" can only delete pods with spec.nodeName set to itself')],
  ['evicting its pod', { op: 'CREATE', resource: 'pods', sub: 'eviction', ns: 'ns', name: 'mine', obj: { metadata: { name: 'mine' } } }, null],
  ['evicting another node\'s pod', { op: 'CREATE', resource: 'pods', sub: 'eviction', ns: 'ns', name: 'other', obj: { metadata: { name: 'other' } } },
    forbidden('pods "other" is forbidden: node n1 can only evict pods with spec.nodeName set to itself')],
  ['evicting a missing pod', { op: 'CREATE', resource: 'pods', sub: 'eviction', ns: 'ns', name: 'gone', obj: { metadata: { name: 'gone' } } },
    { code: 404, message: 'pods "gone" not found' }],
  ['another pod subresource', { op: 'CREATE', resource: 'pods', sub: 'binding', ns: 'ns', name: 'mine', obj: { metadata: { name: 'mine' } } },
    forbidden('pods "mine" is forbidden: unexpected pod subresource "binding", only \'status\' and \'eviction\' are allowed')],

  // persistent volume claims
  ['claim capacity and conditions', { op: 'UPDATE', resource: 'persistentvolumeclaims', sub: 'status', ns: 'ns', name: 'c',
    obj: { metadata: { name: 'c', resourceVersion: '2' }, status: { phase: 'Bound', capacity: { storage: '2Gi' }, conditions: [{ type: 'Resizing' }] } },
    old: { metadata: { name: 'c', resourceVersion: '1' }, status: { phase: 'Bound', capacity: { storage: '1Gi' } } } }, null],
  ['claim phase', { op: 'UPDATE', resource: 'persistentvolumeclaims', sub: 'status', ns: 'ns', name: 'c',
    obj: { metadata: { name: 'c' }, status: { phase: 'Lost' } }, old: { metadata: { name: 'c' }, status: { phase: 'Bound' } } },
    forbidden('persistentvolumeclaims "c" is forbidden: node "n1" is not allowed to update fields other than status.capacity and status.conditions: status.phase')],
  ['a claim itself', { op: 'UPDATE', resource: 'persistentvolumeclaims', ns: 'ns', name: 'c', obj: { metadata: { name: 'c' } }, old: { metadata: { name: 'c' } } },
    forbidden('persistentvolumeclaims "c" is forbidden: may only update PVC status')],

  // tokens
  ['a token for its pod', { op: 'CREATE', resource: 'serviceaccounts', sub: 'token', ns: 'ns', name: 'default',
    obj: { metadata: { name: 'default' }, spec: { boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'mine', uid: 'pod-uid-1' } } } }, null],
  ['a token not bound to a pod', { op: 'CREATE', resource: 'serviceaccounts', sub: 'token', ns: 'ns', name: 'default', obj: { metadata: { name: 'default' }, spec: {} } },
    forbidden('serviceaccounts "default" is forbidden: node requested token not bound to a pod')],
  ['a token bound without uid', { op: 'CREATE', resource: 'serviceaccounts', sub: 'token', ns: 'ns', name: 'default',
    obj: { metadata: { name: 'default' }, spec: { boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'mine' } } } },
    forbidden('serviceaccounts "default" is forbidden: node requested token with a pod binding without a uid')],
  ['a token for a recreated pod', { op: 'CREATE', resource: 'serviceaccounts', sub: 'token', ns: 'ns', name: 'default',
    obj: { metadata: { name: 'default' }, spec: { boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'mine', uid: 'old' } } } },
    forbidden('serviceaccounts "default" is forbidden: the UID in the bound object reference (old) does not match the UID in record. The object might have been deleted and then recreated')],
  ['a token for another node\'s pod', { op: 'CREATE', resource: 'serviceaccounts', sub: 'token', ns: 'ns', name: 'default',
    obj: { metadata: { name: 'default' }, spec: { boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'other', uid: 'pod-uid-2' } } } },
    forbidden('serviceaccounts "default" is forbidden: node requested token bound to a pod scheduled on a different node')],
  ['a service account itself', { op: 'CREATE', resource: 'serviceaccounts', ns: 'ns', name: 'sa', obj: { metadata: { name: 'sa' } } }, null],

  // leases and CSINodes
  ['its lease', { op: 'CREATE', group: 'coordination.svc.io', resource: 'leases', ns: 'svc-node-lease', name: 'n1', obj: { metadata: { name: 'n1' } } }, null],
  ['another lease', { op: 'UPDATE', group: 'coordination.svc.io', resource: 'leases', ns: 'svc-node-lease', name: 'n2', obj: { metadata: { name: 'n2' } }, old: { metadata: { name: 'n2' } } },
    forbidden('leases.coordination.svc.io "n2" is forbidden: can only access node lease with the same name as the requesting node')],
  ['a lease elsewhere', { op: 'CREATE', group: 'coordination.svc.io', resource: 'leases', ns: 'default', name: 'n1', obj: { metadata: { name: 'n1' } } },
    forbidden('leases.coordination.svc.io "n1" is forbidden: can only access leases in the "svc-node-lease" system namespace')],
  ['its CSINode', { op: 'CREATE', group: 'storage.svc.io', resource: 'csinodes', name: 'n1', obj: { metadata: { name: 'n1' } } }, null],
  ['another CSINode', { op: 'DELETE', group: 'storage.svc.io', resource: 'csinodes', name: 'n2', old: { metadata: { name: 'n2' } } },
    forbidden('csinodes.storage.svc.io "n2" is forbidden: can only access CSINode with the same name as the requesting node')],
  ['other resources', { op: 'CREATE', resource: 'configmaps', ns: 'ns', name: 'c', obj: { metadata: { name: 'c' } } }, null],
];

describe('NodeRestriction', () => {
  it('runs in the mutating phase, as kube orders it', () => assert.equal(plugin.phase, 'mutating'));
  for (const [what, req, want] of rows) {
    it(what, async () => {
      try {
        await plugin.admit(attrs(req));
        assert.equal(want, null, 'admitted, expected a refusal');
      } catch (err) {
        if (!isStatusError(err) || want === null) throw err;
        assert.deepEqual({ code: err.status.code, message: err.status.message }, want);
      }
    });
  }
});

describe('node labels', () => {
  const rows: [string, boolean][] = [
    ['kubernetes.io/hostname', true], ['svc.io/hostname', true], ['kubernetes.io/arch', true], ['svc.io/os', true],
    ['beta.kubernetes.io/os', true], ['beta.svc.io/arch', true], ['beta.kubernetes.io/instance-type', true],
    ['topology.kubernetes.io/region', true], ['topology.svc.io/zone', true], ['failure-domain.beta.kubernetes.io/zone', true],
    ['failure-domain.beta.svc.io/region', true], ['node.kubernetes.io/instance-type', true], ['node.svc.io/anything', true],
    ['kubelet.kubernetes.io/x', true], ['foo.kubelet.svc.io/x', true], ['example.com/x', true], ['plain', true],
    ['kubernetes.io/role', false], ['svc.io/role', false], ['k8s.io/x', false], ['foo.k8s.io/x', false],
    ['beta.kubernetes.io/other', false], ['node-role.kubernetes.io/master', false], ['node-restriction.kubernetes.io/pool', false],
    ['node-restriction.svc.io/pool', false], ['team.node-restriction.svc.io/x', false], ['node-restriction.example.com/x', true],
  ];
  for (const [key, allowed] of rows) {
    it(`${key}: ${allowed ? 'allowed' : 'forbidden'}`, () => assert.deepEqual(forbiddenLabels({ [key]: 'v' }, {}), allowed ? [] : [key]));
  }
});
