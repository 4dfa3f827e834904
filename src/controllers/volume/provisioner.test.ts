// The local-path provisioner's decisions and the volume it makes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../registry/object.js';
import { localPathClass, localPathVolume, unsupported } from './localpath.js';
import { shouldDelete, shouldProvision } from './provisioner.js';
import { testClaim, testNodeObject, testVolume } from './testing.js';

const P = 'svc.io/local-path';
const cls = localPathClass('local-path', P, true);
const asked = { 'volume.kubernetes.io/storage-provisioner': P };
const selected = { ...asked, 'volume.kubernetes.io/selected-node': 'n1' };

describe('shouldProvision', () => {
  const rows: [string, ApiObject, ApiObject | undefined, boolean][] = [
    ['asked by the binder and placed by the scheduler', testClaim('c', { cls: 'local-path', annotations: selected }), cls, true],
    ['the beta spelling of the go-ahead counts', testClaim('c', { cls: 'local-path', annotations: { 'volume.beta.kubernetes.io/storage-provisioner': P, 'volume.kubernetes.io/selected-node': 'n1' } }), cls, true],
    ['not yet placed (WaitForFirstConsumer)', testClaim('c', { cls: 'local-path', annotations: asked }), cls, false],
    ['not asked by the binder yet', testClaim('c', { cls: 'local-path', annotations: { 'volume.kubernetes.io/selected-node': 'n1' } }), cls, false],
    ['asked of another provisioner', testClaim('c', { cls: 'local-path', annotations: { ...selected, 'volume.kubernetes.io/storage-provisioner': 'other' } }), cls, false],
    ['already bound', testClaim('c', { cls: 'local-path', annotations: selected, volumeName: 'v' }), cls, false],
    ['a class of another provisioner', testClaim('c', { cls: 'x', annotations: selected }), { ...cls, provisioner: 'other' }, false],
    ['no class', testClaim('c', { cls: 'x', annotations: selected }), undefined, false],
  ];
  for (const [name, claim, c, want] of rows) it(name, () => assert.equal(shouldProvision(claim, c, P), want));
});

describe('shouldDelete', () => {
  const mine = { 'pv.kubernetes.io/provisioned-by': P };
  const rows: [string, ApiObject, boolean][] = [
    ['Released, Delete, made here', testVolume('v', { phase: 'Released', policy: 'Delete', annotations: mine }), true],
    ['still Bound', testVolume('v', { phase: 'Bound', policy: 'Delete', annotations: mine }), false],
    ['Retain', testVolume('v', { phase: 'Released', policy: 'Retain', annotations: mine }), false],
    ['made by another provisioner', testVolume('v', { phase: 'Released', policy: 'Delete', annotations: { 'pv.kubernetes.io/provisioned-by': 'x' } }), false],
    ['a static volume', testVolume('v', { phase: 'Released', policy: 'Delete' }), false],
  ];
  for (const [name, v, want] of rows) it(name, () => assert.equal(shouldDelete(v, P), want));
});

describe('the local-path volume and class', () => {
  it('a hostPath directory named <pv>_<ns>_<claim> under the base dir, pinned to the node, pre-bound to the claim', () => {
    const claim = testClaim('data', { cls: 'local-path', size: '3Gi', annotations: selected });
    const pv = localPathVolume({ claim, storageClass: cls, node: testNodeObject('n1', { 'kubernetes.io/hostname': 'host-1' }), baseDir: '/data/', provisioner: P });
    assert.deepEqual(pv, {
      apiVersion: 'v1', kind: 'PersistentVolume',
      metadata: { name: 'pvc-uid-data', annotations: { 'pv.kubernetes.io/provisioned-by': P } },
      spec: {
        capacity: { storage: '3Gi' }, accessModes: ['ReadWriteOnce'], persistentVolumeReclaimPolicy: 'Delete', storageClassName: 'local-path', volumeMode: 'Filesystem',
        claimRef: { kind: 'PersistentVolumeClaim', namespace: 'ns', name: 'data', uid: 'uid-data', apiVersion: 'v1', resourceVersion: '10' },
        hostPath: { path: '/data/pvc-uid-data_ns_data', type: 'DirectoryOrCreate' },
        nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['host-1'] }] }] } },
      },
    });
  });
  it('claims it cannot serve, in rancher\'s words', () => {
    assert.equal(unsupported(testClaim('c', { modes: ['ReadWriteMany'] })), 'Only support ReadWriteOnce access mode');
    assert.equal(unsupported(testClaim('c', { selector: { matchLabels: { a: 'b' } } })), 'claim.Spec.Selector is not supported');
    assert.equal(unsupported(testClaim('c', { modes: ['ReadWriteOncePod'] })), undefined);
  });
  it('the class is the default only when asked', () => {
    assert.equal(localPathClass('local-path', P, false).metadata.annotations, undefined);
    assert.deepEqual(cls.metadata.annotations, { 'storageclass.kubernetes.io/is-default-class': 'true' });
    assert.equal(cls.volumeBindingMode, 'WaitForFirstConsumer');
  });
});
