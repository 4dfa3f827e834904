// The node, owner-reference and certificate admission plugins over HTTPS
// (issue 20), as the users they restrict (static tokens; Node,RBAC
// authorization): TaintNodesByCondition; NodeRestriction as system:node:n1
// (golden admission-07 and -12; ServiceAccount is disabled so the mirror-pod
// refusals are NodeRestriction's own — with it kube's ServiceAccount plugin
// answers first); OwnerReferencesPermissionEnforcement for users who may or
// may not delete / finalize; CertificateSubjectRestriction,
// CertificateApproval and CertificateSigning for users with and without
// approve / sign on the signer. One server for all.
import * as x509 from '@peculiar/x509';
import assert from 'node:assert/strict';
import { webcrypto } from 'node:crypto';
import { after, before, describe } from 'node:test';
import { tempDir } from '../../src/testing/tempdir.js';
import { eventually, startTestServer, writeTokenFile, type TestServer } from './harness.js';
import { given, rows, type Row } from './admission-table.js';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

const USERS = ['alice', 'bob', 'carol', 'approver', 'noapprover', 'signer', 'nosigner', 'requester'];
const TOKENS = ['token-node-n1,system:node:n1,n1,"system:nodes"', ...USERS.map((u) => `token-${u},${u},uid-${u}`)].join('\n') + '\n';
const N1 = 'token-node-n1';
const as = (user: string) => `token-${user}`;

/** A ClusterRole with these rules bound to the user. */
const grant = (user: string, rules: unknown[]): [string, unknown][] => [
  ['/apis/rbac.authorization.k8s.io/v1/clusterroles', { metadata: { name: `adm-${user}` }, rules }],
  ['/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
    metadata: { name: `adm-${user}` }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: `adm-${user}` },
    subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: user }],
  }],
];
const CM_RULE = (verbs: string[]) => ({ apiGroups: [''], resources: ['configmaps'], verbs });
const CSR_READ = { apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests'], verbs: ['get', 'list'] };
const CSR_SUB = (sub: string) => ({ apiGroups: ['certificates.k8s.io'], resources: [`certificatesigningrequests/${sub}`], verbs: ['update', 'patch'] });
const SIGNERS = (verb: string, names: string[]) => ({ apiGroups: ['certificates.k8s.io'], resources: ['signers'], verbs: [verb], resourceNames: names });

// ---- TaintNodesByCondition -------------------------------------------------

const NOT_READY = { key: 'node.svc.io/not-ready', effect: 'NoSchedule' };
const node = (name: string, spec: Record<string, unknown> = {}, labels: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name, labels }, spec });
const TAINT_NODES: Row[] = [
  { what: 'a new node is tainted not-ready', method: 'POST', path: '/api/v1/nodes', body: node('t1'), status: 201,
    get: '/api/v1/nodes/t1', stored: (n) => assert.deepEqual(n.spec.taints, [NOT_READY]) },
  { what: 'after its own taints', method: 'POST', path: '/api/v1/nodes', body: node('t2', { taints: [{ key: 'gpu', value: 'x', effect: 'NoSchedule' }] }), status: 201,
    expect: (n) => assert.deepEqual(n.spec.taints, [{ key: 'gpu', value: 'x', effect: 'NoSchedule' }, NOT_READY]) },
  { what: 'the kubernetes.io spelling is not tainted twice', method: 'POST', path: '/api/v1/nodes',
    body: node('t3', { taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }] }), status: 201,
    expect: (n) => assert.deepEqual(n.spec.taints, [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }]) },
  { what: 'an update is not its concern', method: 'PATCH', path: '/api/v1/nodes/t1', body: { spec: { taints: null } }, status: 200,
    expect: (n) => assert.equal(n.spec.taints, undefined) },
  { what: 'dry run: the same taint, nothing stored', method: 'POST', path: '/api/v1/nodes?dryRun=All', body: node('t-dry'), status: 201,
    expect: (n) => assert.deepEqual(n.spec.taints, [NOT_READY]), absent: '/api/v1/nodes/t-dry' },
];

// ---- NodeRestriction (golden admission-07, -12) ------------------------------

const ns = 'nr';
const PODS = `/api/v1/namespaces/${ns}/pods`;
const n1 = { uid: '' };
const mirror = (name: string, spec: Record<string, unknown> = {}, owner: Record<string, unknown> | null = {}) => () => ({
  apiVersion: 'v1', kind: 'Pod',
  metadata: { name, annotations: { 'kubernetes.io/config.mirror': `hash-${name}` }, ...(owner ? { ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'n1', uid: n1.uid, controller: true, ...owner }] } : {}) },
  spec: { containers: [{ name: 'app', image: 'registry.example/app:1.0' }], nodeName: 'n1', ...spec },
});
const nodeForbidden = (what: string, text: string) => `${what} is forbidden: ${text}`;
const NODE_RESTRICTION: Row[] = [
  { what: 'a node creates its own Node, tainted not-ready', as: N1, method: 'POST', path: '/api/v1/nodes', body: node('n1', {}, { 'kubernetes.io/hostname': 'n1' }), status: 201,
    expect: (n) => {
      n1.uid = n.metadata.uid;
      assert.deepEqual(n.spec.taints, [NOT_READY]);
    } },
  { what: 'not another node', as: N1, method: 'POST', path: '/api/v1/nodes', body: node('n2'), status: 403,
    message: nodeForbidden('nodes "n2"', 'node "n1" is not allowed to modify node "n2"'), absent: '/api/v1/nodes/n2' },
  { what: 'dry run: the same refusal', as: N1, method: 'POST', path: '/api/v1/nodes?dryRun=All', body: node('n2'), status: 403,
    message: nodeForbidden('nodes "n2"', 'node "n1" is not allowed to modify node "n2"') },
  { what: 'it sets allowed labels', as: N1, method: 'PATCH', path: '/api/v1/nodes/n1',
    body: { metadata: { labels: { 'topology.kubernetes.io/zone': 'z1', 'node.kubernetes.io/instance-type': 'small', 'example.com/own': 'x' } } }, status: 200,
    expect: (n) => assert.equal(n.metadata.labels['example.com/own'], 'x') },
  { what: 'not node-restriction labels', as: N1, method: 'PATCH', path: '/api/v1/nodes/n1', body: { metadata: { labels: { 'node-restriction.kubernetes.io/pool': 'secure' } } }, status: 403,
    message: nodeForbidden('nodes "n1"', 'is not allowed to modify labels: node-restriction.kubernetes.io/pool') },
  { what: 'not other kubernetes.io labels', as: N1, method: 'PATCH', path: '/api/v1/nodes/n1', body: { metadata: { labels: { 'kubernetes.io/role': 'master' } } }, status: 403,
    message: nodeForbidden('nodes "n1"', 'is not allowed to modify labels: kubernetes.io/role') },
  { what: 'not its taints', as: N1, method: 'PATCH', path: '/api/v1/nodes/n1', body: { spec: { taints: [{ key: 'k', value: 'v', effect: 'NoSchedule' }] } }, status: 403,
    message: nodeForbidden('nodes "n1"', 'node "n1" is not allowed to modify taints') },
  { what: 'its status', as: N1, method: 'PATCH', path: '/api/v1/nodes/n1/status', body: { status: { capacity: { cpu: '2', memory: '2Gi', pods: '10' } } }, status: 200 },
  { what: 'a mirror pod needs its owner reference (golden)', as: N1, method: 'POST', path: PODS, body: mirror('mirror', {}, null), status: 403,
    message: nodeForbidden('pods "mirror"', 'node "n1" can only create pods with an owner reference set to itself') },
  { what: 'a mirror pod owned by its Node', as: N1, method: 'POST', path: PODS, body: mirror('mirror'), status: 201 },
  { what: 'not a pod without the mirror annotation', as: N1, method: 'POST', path: PODS,
    body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'plain' }, spec: { containers: [{ name: 'app', image: 'registry.example/app:1.0' }], nodeName: 'n1' } }, status: 403,
    // kube names kubernetes.io/config.mirror (golden); svc names its own spelling, and takes both
    message: nodeForbidden('pods "plain"', 'pod does not have "svc.io/config.mirror" annotation, node "n1" can only create mirror pods') },
  { what: 'not for another node', as: N1, method: 'POST', path: PODS, body: mirror('mirror-n2', { nodeName: 'n2' }), status: 403,
    message: nodeForbidden('pods "mirror-n2"', 'node "n1" can only create pods with spec.nodeName set to itself') },
  { what: 'not a controller-less owner', as: N1, method: 'POST', path: PODS, body: mirror('mirror-nc', {}, { controller: false }), status: 403,
    message: nodeForbidden('pods "mirror-nc"', 'node "n1" can only create pods with a controller owner reference set to itself') },
  { what: 'not with a wrong Node uid', as: N1, method: 'POST', path: PODS, body: mirror('mirror-uid', {}, { uid: 'not-the-uid' }), status: 403,
    message: new RegExp(`^pods "mirror-uid" is forbidden: node n1 UID mismatch: expected not-the-uid got [0-9a-f-]+$`) },
  { what: 'not referencing a service account', as: N1, method: 'POST', path: PODS, body: mirror('mirror-sa', { serviceAccountName: 'runner' }), status: 403,
    message: nodeForbidden('pods "mirror-sa"', 'node "n1" can not create pods that reference a service account') },
  { what: 'not referencing secrets', as: N1, method: 'POST', path: PODS, body: mirror('mirror-secret', { volumes: [{ name: 's', secret: { secretName: 'creds' } }] }), status: 403,
    message: nodeForbidden('pods "mirror-secret"', 'node "n1" can not create pods that reference secrets') },
  { what: 'not referencing configmaps', as: N1, method: 'POST', path: PODS, body: mirror('mirror-cm', { volumes: [{ name: 'c', configMap: { name: 'cfg' } }] }), status: 403,
    message: nodeForbidden('pods "mirror-cm"', 'node "n1" can not create pods that reference configmaps') },
  { what: 'the status of its own pod', as: N1, method: 'PATCH', path: `${PODS}/mirror/status`, body: { status: { phase: 'Running' } }, status: 200 },
  { what: 'not the status of another node\'s pod', as: N1, method: 'PATCH', path: `${PODS}/on-n2/status`, body: { status: { phase: 'Running' } }, status: 403,
    message: nodeForbidden('pods "on-n2"', 'node "n1" can only update pod status for pods with spec.nodeName set to itself') },
  // not yet: pods/eviction is not served (405), so NodeRestriction's eviction rule ("node n1 can only evict pods
  // with spec.nodeName set to itself") is covered by its unit table only (noted on issue 20)
  { what: 'not deleting another node\'s pod', as: N1, method: 'DELETE', path: `${PODS}/on-n2`, status: 403,
    message: nodeForbidden('pods "on-n2"', 'node "n1" can only delete pods with spec.nodeName set to itself') },
  { what: 'dry run: the same refusal, nothing deleted', as: N1, method: 'DELETE', path: `${PODS}/on-n2?dryRun=All`, status: 403,
    message: nodeForbidden('pods "on-n2"', 'node "n1" can only delete pods with spec.nodeName set to itself'), get: `${PODS}/on-n2` },
  { what: 'deleting its own pod', as: N1, method: 'DELETE', path: `${PODS}/mirror`, status: 200 },
  { what: 'not deleting its Node (RBAC, golden)', as: N1, method: 'DELETE', path: '/api/v1/nodes/n1', status: 403,
    message: nodeForbidden('nodes "n1"', 'User "system:node:n1" cannot delete resource "nodes" in API group "" at the cluster scope') },
];

// ---- OwnerReferencesPermissionEnforcement -----------------------------------

const OWN = '/api/v1/namespaces/own/configmaps';
const owner = { uid: '' };
const owned = (name: string, ref: Record<string, unknown> = {}) => () => ({
  apiVersion: 'v1', kind: 'ConfigMap', data: { k: 'v' },
  metadata: { name, ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.uid, ...ref }] },
});
const CANT_DELETE = (name: string) => `configmaps "${name}" is forbidden: cannot set an ownerRef on a resource you can't delete: , <nil>`;
const CANT_FINALIZE = (name: string) => `configmaps "${name}" is forbidden: cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set finalizers on: , <nil>`;
const OWNER_REFERENCES: Row[] = [
  { what: 'no owner references: no question', as: as('alice'), method: 'POST', path: OWN, body: { metadata: { name: 'a-plain' } }, status: 201 },
  { what: 'an owner reference needs delete', as: as('alice'), method: 'POST', path: OWN, body: owned('a-owned'), status: 403, message: CANT_DELETE('a-owned'), absent: `${OWN}/a-owned` },
  { what: 'dry run: the same refusal', as: as('alice'), method: 'POST', path: `${OWN}?dryRun=All`, body: owned('a-owned'), status: 403, message: CANT_DELETE('a-owned') },
  { what: 'an update keeping the references is not checked', as: as('alice'), method: 'PATCH', path: `${OWN}/by-admin`, body: { data: { k: 'w' } }, status: 200 },
  { what: 'an update changing them is', as: as('alice'), method: 'PATCH', path: `${OWN}/by-admin`, body: { metadata: { ownerReferences: null } }, status: 403, message: CANT_DELETE('by-admin') },
  { what: 'with delete: a reference', as: as('bob'), method: 'POST', path: OWN, body: owned('b-owned'), status: 201 },
  { what: 'blockOwnerDeletion needs the owner\'s finalizers', as: as('bob'), method: 'POST', path: OWN, body: owned('b-block', { blockOwnerDeletion: true }), status: 403,
    message: CANT_FINALIZE('b-block') },
  { what: 'an owner kind nobody serves', as: as('bob'), method: 'POST', path: OWN, body: owned('b-widget', { apiVersion: 'example.com/v1', kind: 'Widget', blockOwnerDeletion: true }), status: 403,
    message: 'configmaps "b-widget" is forbidden: cannot set blockOwnerDeletion in this case because cannot find RESTMapping for APIVersion example.com/v1 Kind Widget: no matches for kind "Widget" in version "example.com/v1"' },
  { what: 'with update on configmaps/finalizers', as: as('carol'), method: 'POST', path: OWN, body: owned('c-block', { blockOwnerDeletion: true }), status: 201 },
  { what: 'system:masters may', method: 'POST', path: OWN, body: owned('admin-block', { blockOwnerDeletion: true }), status: 201 },
];

// ---- certificates --------------------------------------------------------------

const CSRS = '/apis/certificates.k8s.io/v1/certificatesigningrequests';
const requests: Record<string, string> = {};
async function csrPem(subject: string): Promise<string> {
  const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify']);
  const req = await x509.Pkcs10CertificateRequestGenerator.create({ name: subject, keys: keys as never, signingAlgorithm: alg });
  return Buffer.from(req.toString('pem')).toString('base64');
}
const csr = (name: string, signerName: string, which: string) => () => ({
  apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name },
  spec: { signerName, request: requests[which], usages: ['client auth'] },
});
const SIGNER = 'example.com/signer';
// svc names the group in its svc.io spelling in every error, whichever spelling the request used
const csrForbidden = (name: string, text: string) => `certificatesigningrequests.certificates.k8s.io "${name}" is forbidden: ${text}`;
const cond = (type: string) => ({ type, status: 'True', reason: 'Test', message: 'by the suite' });
const condition = (type: string) => ({ status: { conditions: [cond(type)] } });
/** A status write after approval keeps the Approved condition (validation refuses removing it). */
const afterApproval = (type: string) => ({ status: { conditions: [cond('Approved'), cond(type)] } });
const CERTIFICATES: Row[] = [
  { what: 'system:masters from kube-apiserver-client is 403', as: as('requester'), method: 'POST', path: CSRS, body: csr('masters', 'kubernetes.io/kube-apiserver-client', 'masters'), status: 403,
    message: csrForbidden('masters', 'use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed'), absent: `${CSRS}/masters` },
  { what: 'dry run: the same refusal', as: as('requester'), method: 'POST', path: `${CSRS}?dryRun=All`, body: csr('masters', 'kubernetes.io/kube-apiserver-client', 'masters'), status: 403,
    message: csrForbidden('masters', 'use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed') },
  { what: 'other organizations', as: as('requester'), method: 'POST', path: CSRS, body: csr('dev', 'kubernetes.io/kube-apiserver-client', 'dev'), status: 201 },
  { what: 'system:masters for another signer', as: as('requester'), method: 'POST', path: CSRS, body: csr('ext', SIGNER, 'masters'), status: 201 },
  { what: 'approve without approve on the signer is 403', as: as('noapprover'), method: 'PATCH', path: `${CSRS}/ext/approval`, body: condition('Approved'), status: 403,
    message: csrForbidden('ext', `user not permitted to approve requests with signerName "${SIGNER}"`) },
  { what: 'dry run: the same refusal', as: as('noapprover'), method: 'PATCH', path: `${CSRS}/ext/approval?dryRun=All`, body: condition('Approved'), status: 403,
    message: csrForbidden('ext', `user not permitted to approve requests with signerName "${SIGNER}"`) },
  { what: 'approve on the signer\'s name', as: as('approver'), method: 'PATCH', path: `${CSRS}/ext/approval`, body: condition('Approved'), status: 200 },
  { what: 'the approval is stored', method: 'GET', path: `${CSRS}/ext`, status: 200, expect: (c) => assert.equal(c.status?.conditions?.[0]?.type, 'Approved') },
  { what: 'a status condition without sign on the signer is 403', as: as('nosigner'), method: 'PATCH', path: `${CSRS}/ext/status`, body: afterApproval('Failed'), status: 403,
    message: csrForbidden('ext', `user not permitted to sign requests with signerName "${SIGNER}"`) },
  { what: 'sign on the signer\'s domain', as: as('signer'), method: 'PATCH', path: `${CSRS}/ext/status`, body: afterApproval('Failed'), status: 200 },
];

describe('node, owner-reference and certificate admission plugins', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({
      tokenAuthFile: writeTokenFile(tempDir('svc-adm-nodes-'), TOKENS),
      admission: { enable: ['NodeRestriction', 'OwnerReferencesPermissionEnforcement'], disable: ['ServiceAccount'] },
    });
    requests.masters = await csrPem('CN=eve, O=dev, O=system:masters');
    requests.dev = await csrPem('CN=bob, O=dev');
    await given(t, [
      ['/api/v1/namespaces', { metadata: { name: ns } }],
      ['/api/v1/namespaces', { metadata: { name: 'own' } }],
      [PODS, { metadata: { name: 'on-n2' }, spec: { containers: [{ name: 'app', image: 'registry.example/app:1.0' }], nodeName: 'n2' } }],
      ...grant('alice', [CM_RULE(['create', 'get', 'update', 'patch'])]),
      ...grant('bob', [CM_RULE(['create', 'get', 'delete'])]),
      ...grant('carol', [CM_RULE(['create', 'get', 'delete']), { apiGroups: [''], resources: ['configmaps/finalizers'], verbs: ['update'] }]),
      ...grant('requester', [{ apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests'], verbs: ['create'] }]),
      ...grant('approver', [CSR_READ, CSR_SUB('approval'), SIGNERS('approve', [SIGNER])]),
      ...grant('noapprover', [CSR_READ, CSR_SUB('approval'), SIGNERS('approve', ['example.com/other'])]),
      ...grant('signer', [CSR_READ, CSR_SUB('status'), SIGNERS('sign', ['example.com/*'])]),
      ...grant('nosigner', [CSR_READ, CSR_SUB('status')]),
    ]);
    const o = await t.req('POST', OWN, { metadata: { name: 'owner' } });
    owner.uid = o.body.metadata.uid;
    await given(t, [[OWN, owned('by-admin')()]]);
    // the RBAC cache follows the bindings through a watch
    await eventually(async () => (await t.req('GET', CSRS, undefined, { token: as('nosigner') })).status === 200);
  });
  after(async () => t?.stop());
  const server = () => t;

  describe('TaintNodesByCondition', () => rows(server, TAINT_NODES));
  describe('NodeRestriction', () => rows(server, NODE_RESTRICTION));
  describe('OwnerReferencesPermissionEnforcement', () => rows(server, OWNER_REFERENCES));
  describe('CertificateSubjectRestriction, CertificateApproval, CertificateSigning', () => rows(server, CERTIFICATES));
});
