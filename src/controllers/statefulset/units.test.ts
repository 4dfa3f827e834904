// The pure pieces: pod identity and claims, the retention policy's owner
// references, revision data and ApplyRevision, status completion.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '../../registry/object.js';
import {
  identityMatches, newStatefulSetPod, parentAndOrdinal, podClaims, storageMatches, newVersionedPod,
} from './identity.js';
import { claimOwnerMatches, claimWithPolicyRefs, hasStaleOwnerRef, wantedRefs } from './retention.js';
import { applyRevision, newRevision, revisionPatch } from './revisions.js';
import { completeRollingUpdate, inconsistentStatus } from './status.js';
import { hashControllerRevision } from '../history/index.js';

const REF = { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: 'su', controller: true, blockOwnerDeletion: true };
const SET: ApiObject = {
  apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'web', namespace: 'ns', uid: 'su', annotations: { 'kubernetes.io/change-cause': 'v1' } },
  spec: {
    replicas: 3, serviceName: 'svc', selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'i:1' }], volumes: [{ name: 'cfg', configMap: { name: 'x' } }] } },
    volumeClaimTemplates: [{ metadata: { name: 'data', labels: { tier: 'db' } }, spec: { resources: { requests: { storage: '1Gi' } } }, status: { phase: 'Pending' } }],
    updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1 } },
  },
};

test('parentAndOrdinal', () => {
  const rows: [string, string, number][] = [['web-0', 'web', 0], ['my-web-12', 'my-web', 12], ['web', '', -1], ['web-x', '', -1], ['web-99999999999', 'web', -1]];
  for (const [name, parent, ordinal] of rows) assert.deepEqual(parentAndOrdinal(name), { parent, ordinal }, name);
});

test('newStatefulSetPod: name, labels, hostname, subdomain, claim volumes first, owner', () => {
  const p = newStatefulSetPod(SET, 2, REF);
  assert.equal(p.metadata.name, 'web-2');
  assert.equal(p.metadata.namespace, 'ns');
  assert.deepEqual(p.metadata.labels, { app: 'web', 'statefulset.kubernetes.io/pod-name': 'web-2' });
  const spec = p.spec as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  assert.equal(spec.hostname, 'web-2');
  assert.equal(spec.subdomain, 'svc');
  assert.deepEqual(spec.volumes, [{ name: 'data', persistentVolumeClaim: { claimName: 'data-web-2' } }, { name: 'cfg', configMap: { name: 'x' } }]);
  assert.deepEqual(p.metadata.ownerReferences, [REF]);
  assert.ok(identityMatches(SET, p));
  assert.ok(storageMatches(SET, p));
});

test('identityMatches and storageMatches notice what differs', () => {
  const rows: [string, (p: ApiObject) => void, boolean, boolean][] = [
    ['as made', () => {}, true, true],
    ['pod-name label gone', (p) => delete p.metadata.labels!['statefulset.kubernetes.io/pod-name'], false, true],
    ['other namespace', (p) => { p.metadata.namespace = 'x'; }, false, true],
    ['claim volume pointing elsewhere', (p) => { (p.spec as any).volumes[0].persistentVolumeClaim.claimName = 'other'; }, true, false], // eslint-disable-line @typescript-eslint/no-explicit-any
    ['claim volume gone', (p) => { (p.spec as any).volumes = []; }, true, false], // eslint-disable-line @typescript-eslint/no-explicit-any
  ];
  for (const [name, change, identity, storage] of rows) {
    const p = newStatefulSetPod(SET, 1, REF);
    change(p);
    assert.equal(identityMatches(SET, p), identity, name);
    assert.equal(storageMatches(SET, p), storage, name);
  }
});

test('podClaims: name <template>-<set>-<ordinal>, template labels plus matchLabels, no status', () => {
  const claims = podClaims(SET, newStatefulSetPod(SET, 0, REF));
  assert.deepEqual([...claims.keys()], ['data']);
  const c = claims.get('data')!;
  assert.deepEqual(c.metadata, { name: 'data-web-0', namespace: 'ns', labels: { tier: 'db', app: 'web' } });
  assert.equal(c.status, undefined);
  assert.equal(c.kind, 'PersistentVolumeClaim');
});

test('newVersionedPod: below the partition at the current revision, else at the update revision', () => {
  const updateSet = structuredClone(SET);
  (updateSet.spec as any).template.spec.containers[0].image = 'i:2'; // eslint-disable-line @typescript-eslint/no-explicit-any
  const rows: [number, string, string][] = [[0, 'A', 'i:1'], [1, 'B', 'i:2'], [2, 'B', 'i:2']];
  for (const [ordinal, rev, image] of rows) {
    const p = newVersionedPod({ currentSet: SET, updateSet, currentRevision: 'A', updateRevision: 'B', ordinal, ref: REF });
    assert.equal(p.metadata.labels!['controller-revision-hash'], rev);
    assert.equal((p.spec as any).containers[0].image, image); // eslint-disable-line @typescript-eslint/no-explicit-any
  }
});

const withPolicy = (whenDeleted: string, whenScaled: string): ApiObject => ({ ...SET, spec: { ...(SET.spec as object), persistentVolumeClaimRetentionPolicy: { whenDeleted, whenScaled } } });
const POD: ApiObject = { metadata: { name: 'web-1', uid: 'pu' } };

test('retention policy: the references wanted on a claim', () => {
  const rows: [string, string, boolean, { set: boolean; pod: boolean } | undefined][] = [
    ['Retain', 'Retain', false, { set: false, pod: false }],
    ['Retain', 'Retain', true, { set: false, pod: false }],
    ['Delete', 'Retain', false, { set: true, pod: false }],
    ['Delete', 'Retain', true, { set: true, pod: false }],
    ['Retain', 'Delete', false, { set: false, pod: false }],
    ['Retain', 'Delete', true, { set: false, pod: true }],
    ['Delete', 'Delete', false, { set: true, pod: false }],
    ['Delete', 'Delete', true, { set: false, pod: true }],
    ['Bogus', 'Retain', false, undefined],
  ];
  for (const [deleted, scaled, down, want] of rows) assert.deepEqual(wantedRefs(withPolicy(deleted, scaled), down), want, `${deleted}/${scaled}/${down}`);
});

test('retention policy: references added and removed, others kept', () => {
  const other = { apiVersion: 'v1', kind: 'ConfigMap', name: 'keep', uid: 'k' };
  const claim: ApiObject = { metadata: { name: 'data-web-1', ownerReferences: [other] } };
  const s = withPolicy('Delete', 'Delete');
  const inRange = claimWithPolicyRefs(claim, s, POD, false)!;
  assert.deepEqual(inRange.metadata.ownerReferences, [other, { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: 'su' }]);
  assert.ok(claimOwnerMatches(inRange, s, POD, false));
  assert.equal(claimWithPolicyRefs(inRange, s, POD, false), undefined, 'nothing to change');
  const scaled = claimWithPolicyRefs(inRange, s, POD, true)!;
  assert.deepEqual(scaled.metadata.ownerReferences, [other, { apiVersion: 'v1', kind: 'Pod', name: 'web-1', uid: 'pu' }]);
  const retained = claimWithPolicyRefs(scaled, withPolicy('Retain', 'Retain'), POD, true)!;
  assert.deepEqual(retained.metadata.ownerReferences, [other]);
});

test('hasStaleOwnerRef: a reference by the pod name with another uid', () => {
  const rows: [ApiObject['metadata']['ownerReferences'], boolean][] = [
    [undefined, false],
    [[{ apiVersion: 'v1', kind: 'Pod', name: 'web-1', uid: 'pu' }], false],
    [[{ apiVersion: 'v1', kind: 'Pod', name: 'web-1', uid: 'old' }], true],
    [[{ apiVersion: 'v1', kind: 'Pod', name: 'web-2', uid: 'old' }], false],
  ];
  for (const [refs, want] of rows) assert.equal(hasStaleOwnerRef({ metadata: { name: 'c', ...(refs ? { ownerReferences: refs } : {}) } }, POD), want);
});

test('revisions: replace patch of the template, named by its hash, annotated as the set; applyRevision restores the template', () => {
  const data = revisionPatch(SET);
  assert.deepEqual(data, { spec: { template: { ...(SET.spec as any).template, $patch: 'replace' } } }); // eslint-disable-line @typescript-eslint/no-explicit-any
  const r = newRevision(SET, REF, 4, 0);
  assert.equal(r.metadata.name, `web-${hashControllerRevision(data, 0)}`);
  assert.equal(r.revision, 4);
  assert.deepEqual(r.metadata.annotations, { 'kubernetes.io/change-cause': 'v1' });
  assert.equal(r.metadata.labels!.app, 'web');
  const changed = structuredClone(SET);
  (changed.spec as any).template.spec.containers[0].image = 'i:9'; // eslint-disable-line @typescript-eslint/no-explicit-any
  (changed.spec as any).replicas = 7; // eslint-disable-line @typescript-eslint/no-explicit-any
  const restored = applyRevision(changed, r);
  assert.deepEqual((restored.spec as any).template, (SET.spec as any).template); // eslint-disable-line @typescript-eslint/no-explicit-any
  assert.equal((restored.spec as any).replicas, 7); // eslint-disable-line @typescript-eslint/no-explicit-any
});

test('completeRollingUpdate and inconsistentStatus', () => {
  const status = { observedGeneration: 1, replicas: 3, readyReplicas: 3, availableReplicas: 3, currentReplicas: 1, updatedReplicas: 3, currentRevision: 'A', updateRevision: 'B' };
  const s: ApiObject = { ...SET, metadata: { ...SET.metadata, generation: 1 } };
  const done = { ...status };
  completeRollingUpdate(s, done);
  assert.equal(done.currentRevision, 'B');
  assert.equal(done.currentReplicas, 3);
  const notReady = { ...status, readyReplicas: 2 };
  completeRollingUpdate(s, notReady);
  assert.equal(notReady.currentRevision, 'A');
  const onDelete = { ...s, spec: { ...(s.spec as object), updateStrategy: { type: 'OnDelete' } } };
  const od = { ...status };
  completeRollingUpdate(onDelete, od);
  assert.equal(od.currentRevision, 'A');
  assert.equal(inconsistentStatus({ ...s, status: {} }, done), true);
  assert.equal(inconsistentStatus({ ...s, status: { ...done } }, done), false);
  assert.equal(inconsistentStatus({ ...s, status: { ...done, availableReplicas: 1 } }, done), true);
});
