// The Node authorizer's decisions and kube v1.27's reason texts, over a graph
// with one pod on node n1.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { UserInfo } from '../../authn/user.js';
import { FeatureGates } from '../../features/gates.js';
import type { Attributes, Decision } from '../authorizer.js';
import { NodeAuthorizer, nodeIdentity } from './authorizer.js';
import { Graph } from './graph.js';
import { GraphPopulator } from './populator.js';
import { nodeRules } from './rules.js';

const n1: UserInfo = { name: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] };
const nameless: UserInfo = { name: 'system:node:', groups: ['system:nodes'] };
const notInGroup: UserInfo = { name: 'system:node:n1', groups: ['system:authenticated'] };
const alice: UserInfo = { name: 'alice', groups: ['system:nodes'] };

function res(user: UserInfo, verb: string, resource: string, o: { ns?: string; group?: string; name?: string; sub?: string } = {}): Attributes {
  return {
    user, isResourceRequest: true, path: '/x', verb, apiGroup: o.group ?? '', apiVersion: 'v1',
    namespace: o.ns ?? '', resource, subresource: o.sub ?? '', name: o.name ?? '',
  };
}

const graph = new Graph();
const populator = new GraphPopulator(graph);
populator.onPod({
  metadata: { name: 'web', namespace: 'ns', uid: 'u1' },
  spec: {
    nodeName: 'n1', serviceAccountName: 'runner', containers: [{ name: 'c', image: 'i' }],
    volumes: [{ name: 's', secret: { secretName: 'app' } }, { name: 'c', configMap: { name: 'cfg' } }, { name: 'd', persistentVolumeClaim: { claimName: 'data' } }],
    resourceClaims: [{ name: 'gpu', source: { resourceClaimName: 'gpu-claim' } }],
  },
});
populator.onPod({ metadata: { name: 'other', namespace: 'ns', uid: 'u2' }, spec: { nodeName: 'n2', containers: [{ name: 'c', image: 'i' }], volumes: [{ name: 's', secret: { secretName: 'theirs' } }] } });
populator.onPV({ metadata: { name: 'vol' }, spec: { claimRef: { namespace: 'ns', name: 'data' } } });
populator.onVolumeAttachment({ metadata: { name: 'att' }, spec: { nodeName: 'n1' } });
const authz = new NodeAuthorizer(graph);

const ALLOW = { decision: 'allow', reason: '' } as const;
const no = (reason: string): Decision => ({ decision: 'noOpinion', reason });
const NO_RELATION = no("no relationship found between node 'n1' and this object");

describe('nodeIdentity', () => {
  it('needs the prefix and the system:nodes group', () => {
    assert.equal(nodeIdentity(n1), 'n1');
    assert.equal(nodeIdentity(nameless), '');
    assert.equal(nodeIdentity(notInGroup), undefined);
    assert.equal(nodeIdentity(alice), undefined);
  });
});

describe('NodeAuthorizer', () => {
  const cases: [string, Attributes, Decision][] = [
    // who
    ['a non-node user: no opinion, no reason', res(alice, 'get', 'secrets', { ns: 'ns', name: 'app' }), no('')],
    ['a node user outside system:nodes', res(notInGroup, 'get', 'secrets', { ns: 'ns', name: 'app' }), no('')],
    ['a node user without a node name', res(nameless, 'get', 'secrets', { ns: 'ns', name: 'app' }), no('unknown node for user "system:node:"')],
    // secrets and configmaps: get/list/watch of a related, named, namespaced object
    ['its pod\'s secret', res(n1, 'get', 'secrets', { ns: 'ns', name: 'app' }), ALLOW],
    ['watch of its pod\'s secret by name', res(n1, 'watch', 'secrets', { ns: 'ns', name: 'app' }), ALLOW],
    ['list of its pod\'s configmap by name', res(n1, 'list', 'configmaps', { ns: 'ns', name: 'cfg' }), ALLOW],
    ['another node\'s pod\'s secret', res(n1, 'get', 'secrets', { ns: 'ns', name: 'theirs' }), NO_RELATION],
    ['an unknown secret', res(n1, 'get', 'secrets', { ns: 'ns', name: 'nope' }), NO_RELATION],
    ['list without a name', res(n1, 'list', 'secrets', { ns: 'ns' }), no('No Object name found')],
    ['create a configmap', res(n1, 'create', 'configmaps', { ns: 'ns' }), no('can only read resources of this type')],
    ['update a secret', res(n1, 'update', 'secrets', { ns: 'ns', name: 'app' }), no('can only read resources of this type')],
    ['a secret subresource', res(n1, 'get', 'secrets', { ns: 'ns', name: 'app', sub: 'x' }), no('cannot read subresource')],
    ['secrets across namespaces', res(n1, 'list', 'secrets'), no('can only read namespaced object of this type')],
    // pvcs, pvs, resource claims, volume attachments: get only
    ['its pod\'s pvc', res(n1, 'get', 'persistentvolumeclaims', { ns: 'ns', name: 'data' }), ALLOW],
    ['the pv bound to it', res(n1, 'get', 'persistentvolumes', { name: 'vol' }), ALLOW],
    ['list pvs', res(n1, 'list', 'persistentvolumes'), no('can only get individual resources of this type')],
    ['pv subresource', res(n1, 'get', 'persistentvolumes', { name: 'vol', sub: 'status' }), no('cannot get subresource')],
    ['pvc status update', res(n1, 'update', 'persistentvolumeclaims', { ns: 'ns', name: 'data', sub: 'status' }), ALLOW],
    ['pvc status patch of an unrelated claim', res(n1, 'patch', 'persistentvolumeclaims', { ns: 'ns', name: 'x', sub: 'status' }), NO_RELATION],
    ['pvc status get', res(n1, 'get', 'persistentvolumeclaims', { ns: 'ns', name: 'data', sub: 'status' }), no('can only get/update/patch this type')],
    ['pvc without a name', res(n1, 'get', 'persistentvolumeclaims', { ns: 'ns' }), no('No Object name found')],
    ['its resource claim (either group spelling)', res(n1, 'get', 'resourceclaims', { group: 'resource.k8s.io', ns: 'ns', name: 'gpu-claim' }), ALLOW],
    ['an unrelated resource claim', res(n1, 'get', 'resourceclaims', { group: 'resource.svc.io', ns: 'ns', name: 'x' }), NO_RELATION],
    ['its volume attachment', res(n1, 'get', 'volumeattachments', { group: 'storage.svc.io', name: 'att' }), ALLOW],
    ['watch volume attachments', res(n1, 'watch', 'volumeattachments', { group: 'storage.k8s.io' }), no('can only get individual resources of this type')],
    // service-account tokens
    ['a token for its pod\'s service account', res(n1, 'create', 'serviceaccounts', { ns: 'ns', name: 'runner', sub: 'token' }), ALLOW],
    ['a token for another service account', res(n1, 'create', 'serviceaccounts', { ns: 'ns', name: 'default', sub: 'token' }), NO_RELATION],
    ['get a service account', res(n1, 'get', 'serviceaccounts', { ns: 'ns', name: 'runner' }), no('can only create tokens for individual service accounts')],
    ['create a service account', res(n1, 'create', 'serviceaccounts', { ns: 'ns' }), no('can only create tokens for individual service accounts')],
    ['create another subresource', res(n1, 'create', 'serviceaccounts', { ns: 'ns', name: 'runner', sub: 'x' }), no('can only create token subresource of serviceaccount')],
    // leases
    ['its lease', res(n1, 'update', 'leases', { group: 'coordination.svc.io', ns: 'svc-node-lease', name: 'n1' }), ALLOW],
    ['create a lease (name left to NodeRestriction)', res(n1, 'create', 'leases', { group: 'coordination.k8s.io', ns: 'svc-node-lease' }), ALLOW],
    ['another node\'s lease', res(n1, 'get', 'leases', { group: 'coordination.svc.io', ns: 'svc-node-lease', name: 'n2' }), no('can only access node lease with the same name as the requesting node')],
    ['a lease elsewhere', res(n1, 'get', 'leases', { group: 'coordination.svc.io', ns: 'default', name: 'n1' }), no('can only access leases in the "svc-node-lease" system namespace')],
    ['list leases', res(n1, 'list', 'leases', { group: 'coordination.svc.io', ns: 'svc-node-lease' }), no('can only get, create, update, patch, or delete a node lease')],
    // csinodes
    ['its CSINode', res(n1, 'patch', 'csinodes', { group: 'storage.svc.io', name: 'n1' }), ALLOW],
    ['create a CSINode', res(n1, 'create', 'csinodes', { group: 'storage.svc.io' }), ALLOW],
    ['another CSINode', res(n1, 'delete', 'csinodes', { group: 'storage.svc.io', name: 'n2' }), no('can only access CSINode with the same name as the requesting node')],
    ['a CSINode subresource', res(n1, 'get', 'csinodes', { group: 'storage.svc.io', name: 'n1', sub: 'status' }), no('cannot authorize CSINode subresources')],
    ['watch CSINodes', res(n1, 'watch', 'csinodes', { group: 'storage.svc.io' }), no('can only get, create, update, patch, or delete a CSINode')],
    // everything else: the fixed node rules, no reason when they do not allow
    ['any pod (node rules)', res(n1, 'get', 'pods', { ns: 'ns', name: 'other' }), ALLOW],
    ['list nodes', res(n1, 'list', 'nodes'), ALLOW],
    ['another node\'s Node object (left to NodeRestriction)', res(n1, 'patch', 'nodes', { name: 'n2' }), ALLOW],
    ['node status', res(n1, 'update', 'nodes', { name: 'n1', sub: 'status' }), ALLOW],
    ['delete a node', res(n1, 'delete', 'nodes', { name: 'n1' }), no('')],
    ['pod status', res(n1, 'patch', 'pods', { ns: 'ns', name: 'web', sub: 'status' }), ALLOW],
    ['events', res(n1, 'create', 'events', { ns: 'ns' }), ALLOW],
    ['a CSR', res(n1, 'create', 'certificatesigningrequests', { group: 'certificates.k8s.io' }), ALLOW],
    ['a namespace', res(n1, 'get', 'namespaces', { name: 'ns' }), no('')],
    ['a deployment', res(n1, 'get', 'deployments', { group: 'apps', ns: 'ns', name: 'd' }), no('')],
    ['a non-resource path', { user: n1, isResourceRequest: false, verb: 'get', path: '/healthz' }, no('')],
  ];
  for (const [name, a, want] of cases) it(name, () => assert.deepEqual(authz.authorize(a), want));

  it('resource claims in the node rules only with DynamicResourceAllocation', () => {
    const has = (rules: ReturnType<typeof nodeRules>) => rules.some((r) => r.resources?.includes('resourceclaims'));
    assert.equal(has(nodeRules()), false);
    assert.equal(has(nodeRules(FeatureGates.parse('DynamicResourceAllocation=true'))), true);
  });

  it('rulesFor: incomplete for nodes, nothing for others', () => {
    assert.deepEqual(authz.rulesFor(n1), { resourceRules: [], nonResourceRules: [], incomplete: true, evaluationError: 'node authorizer does not support user rule resolution' });
    assert.deepEqual(authz.rulesFor(alice), { resourceRules: [], nonResourceRules: [] });
  });
});
