// One sync's decision for claims and volumes (kube's pv_controller tests in
// spirit: a starting state, the action the sync takes).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../registry/object.js';
import {
  MSG_CLAIM_LOST_REFERENCE, MSG_CLAIM_LOST_VOLUME, MSG_CLAIM_MISBOUND, MSG_NO_CLASS, MSG_NO_RECYCLER, MSG_VOLUME_MODE_MISMATCH, MSG_WAIT_FOR_CONSUMER,
  externalProvisioningMessage, planClaim, planVolume, type ClaimAction, type VolumeAction,
} from './decide.js';
import { testClaim, testClass, testVolume } from './testing.js';

const bound = { 'pv.kubernetes.io/bind-completed': 'yes' };

/** The action in a comparable shape: the volume by name. */
function summary(a: ClaimAction): Record<string, unknown> {
  return a.kind === 'bind' ? { kind: 'bind', volume: a.volume.metadata.name } : { ...a };
}

describe('planClaim', () => {
  const classes = [testClass('fast'), testClass('late', { mode: 'WaitForFirstConsumer' }), testClass('none', { provisioner: 'kubernetes.io/no-provisioner' }), testClass('std', { isDefault: true })];
  const rows: { name: string; claim: ApiObject; volumes?: ApiObject[]; defaults?: boolean; want: Record<string, unknown> }[] = [
    { name: 'unbound, a volume fits: bind', claim: testClaim('c', { cls: '' }), volumes: [testVolume('v', { cls: '' })], want: { kind: 'bind', volume: 'v' } },
    { name: 'unbound, nothing fits, no class: Pending + FailedBinding', claim: testClaim('c', { cls: '' }), want: { kind: 'pending', event: { type: 'Normal', reason: 'FailedBinding', message: MSG_NO_CLASS } } },
    { name: 'unbound, class with an external provisioner: provision', claim: testClaim('c', { cls: 'fast' }), want: { kind: 'provision', provisioner: 'example.com/csi', event: { type: 'Normal', reason: 'ExternalProvisioning', message: externalProvisioningMessage('example.com/csi') } } },
    { name: 'unbound, class missing: ProvisioningFailed', claim: testClaim('c', { cls: 'gone' }), want: { kind: 'provisionFailed', event: { type: 'Warning', reason: 'ProvisioningFailed', message: 'storageclass.storage.k8s.io "gone" not found' } } },
    { name: 'unbound, kubernetes.io/no-provisioner: no volume plugin', claim: testClaim('c', { cls: 'none' }), want: { kind: 'provisionFailed', event: { type: 'Warning', reason: 'ProvisioningFailed', message: 'no volume plugin matched name: kubernetes.io/no-provisioner' } } },
    { name: 'WaitForFirstConsumer without a selected node: Pending + WaitForFirstConsumer', claim: testClaim('c', { cls: 'late' }), volumes: [testVolume('v', { cls: 'late' })], want: { kind: 'pending', event: { type: 'Normal', reason: 'WaitForFirstConsumer', message: MSG_WAIT_FOR_CONSUMER } } },
    { name: 'WaitForFirstConsumer with a selected node: provision', claim: testClaim('c', { cls: 'late', annotations: { 'volume.kubernetes.io/selected-node': 'n1' } }), want: { kind: 'provision', provisioner: 'example.com/csi', event: { type: 'Normal', reason: 'ExternalProvisioning', message: externalProvisioningMessage('example.com/csi') } } },
    { name: 'WaitForFirstConsumer, a volume pre-bound by the scheduler: bind', claim: testClaim('c', { cls: 'late' }), volumes: [testVolume('v', { cls: 'late', claim: { name: 'c', uid: 'uid-c' } })], want: { kind: 'bind', volume: 'v' } },
    { name: 'no class at all, RetroactiveDefaultStorageClass: the default is assigned', claim: testClaim('c'), defaults: true, want: { kind: 'assignClass', className: 'std' } },
    { name: 'names a missing volume: Pending, no event', claim: testClaim('c', { cls: '', volumeName: 'v' }), want: { kind: 'pending' } },
    { name: 'names an unclaimed volume that fits: bind', claim: testClaim('c', { cls: '', volumeName: 'v' }), volumes: [testVolume('v', { cls: '' })], want: { kind: 'bind', volume: 'v' } },
    { name: 'names a volume too small: Pending + VolumeMismatch', claim: testClaim('c', { cls: '', volumeName: 'v', size: '5Gi' }), volumes: [testVolume('v', { cls: '' })], want: { kind: 'pending', event: { type: 'Warning', reason: 'VolumeMismatch', message: 'Cannot bind to requested volume "v": requested PV is too small' } } },
    { name: 'names a volume claimed by another (user binding): Pending', claim: testClaim('c', { cls: '', volumeName: 'v' }), volumes: [testVolume('v', { claim: { name: 'd', uid: 'uid-d' } })], want: { kind: 'pending' } },
    { name: 'bound: everything in place, bind() checks it', claim: testClaim('c', { volumeName: 'v', annotations: bound }), volumes: [testVolume('v', { claim: { name: 'c', uid: 'uid-c' }, phase: 'Bound' })], want: { kind: 'bind', volume: 'v' } },
    { name: 'bound, volume lost its claimRef: bind again', claim: testClaim('c', { volumeName: 'v', annotations: bound }), volumes: [testVolume('v')], want: { kind: 'bind', volume: 'v' } },
    { name: 'bound, volumeName cleared: Lost', claim: testClaim('c', { annotations: bound }), want: { kind: 'lost', event: { type: 'Warning', reason: 'ClaimLost', message: MSG_CLAIM_LOST_REFERENCE } } },
    { name: 'bound, volume gone: Lost', claim: testClaim('c', { volumeName: 'v', annotations: bound }), want: { kind: 'lost', event: { type: 'Warning', reason: 'ClaimLost', message: MSG_CLAIM_LOST_VOLUME } } },
    { name: 'bound, volume bound to another claim: Lost (misbound)', claim: testClaim('c', { volumeName: 'v', annotations: bound }), volumes: [testVolume('v', { claim: { name: 'd', uid: 'uid-d' } })], want: { kind: 'lost', event: { type: 'Warning', reason: 'ClaimMisbound', message: MSG_CLAIM_MISBOUND } } },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const volumes = r.volumes ?? [];
      const a = planClaim(r.claim, {
        volume: (n) => volumes.find((v) => v.metadata.name === n), volumes: () => volumes,
        storageClass: (n) => classes.find((c) => c.metadata.name === n),
        ...(r.defaults ? { defaultClass: () => classes[3] } : {}),
      });
      assert.deepEqual(summary(a), r.want);
    });
  }
});

describe('planVolume', () => {
  const claimOf = (o: { uid?: string; volumeName?: string; volumeMode?: string } = {}) => testClaim('c', { uid: o.uid ?? 'uid-c', ...(o.volumeName ? { volumeName: o.volumeName } : {}), ...(o.volumeMode ? { volumeMode: o.volumeMode } : {}) });
  const provisioned = { 'pv.kubernetes.io/provisioned-by': 'svc.io/local-path' };
  const rows: { name: string; volume: ApiObject; claim?: ApiObject; want: VolumeAction }[] = [
    { name: 'no claimRef: Available', volume: testVolume('v', { phase: 'Pending' }), want: { kind: 'phase', phase: 'Available' } },
    { name: 'pre-bound by the user, not yet bound (no uid): Available', volume: testVolume('v', { claim: { name: 'c' } }), want: { kind: 'phase', phase: 'Available' } },
    { name: 'its claim is bound to it: Bound', volume: testVolume('v', { claim: { name: 'c', uid: 'uid-c' } }), claim: claimOf({ volumeName: 'v' }), want: { kind: 'phase', phase: 'Bound' } },
    { name: 'its claim has not got there yet: the claim syncs', volume: testVolume('v', { claim: { name: 'c', uid: 'uid-c' } }), claim: claimOf(), want: { kind: 'syncClaim' } },
    {
      name: 'its claim wants another volume mode: Pending + VolumeMismatch', volume: testVolume('v', { claim: { name: 'c', uid: 'uid-c' } }), claim: claimOf({ volumeMode: 'Block' }),
      want: { kind: 'phase', phase: 'Pending', event: { type: 'Warning', reason: 'VolumeMismatch', message: MSG_VOLUME_MODE_MISMATCH }, claimEvent: { type: 'Warning', reason: 'VolumeMismatch', message: MSG_VOLUME_MODE_MISMATCH } },
    },
    { name: 'claim gone, Retain: Released, kept', volume: testVolume('v', { claim: { name: 'c', uid: 'uid-c' }, phase: 'Bound' }), want: { kind: 'release', reclaim: { kind: 'retain' } } },
    { name: 'a new claim of the same name (other uid): Released', volume: testVolume('v', { claim: { name: 'c', uid: 'uid-c' } }), claim: claimOf({ uid: 'new' }), want: { kind: 'release', reclaim: { kind: 'retain' } } },
    { name: 'claim gone, Delete, static: deleted by the binder', volume: testVolume('v', { claim: { name: 'c', uid: 'uid-c' }, policy: 'Delete' }), want: { kind: 'release', reclaim: { kind: 'delete' } } },
    { name: 'claim gone, Delete, provisioned: its provisioner deletes', volume: testVolume('v', { claim: { name: 'c', uid: 'uid-c' }, policy: 'Delete', annotations: provisioned }), want: { kind: 'release', reclaim: { kind: 'external', provisioner: 'svc.io/local-path' } } },
    { name: 'claim gone, Recycle: Failed, no recycler', volume: testVolume('v', { claim: { name: 'c', uid: 'uid-c' }, policy: 'Recycle' }), want: { kind: 'release', reclaim: { kind: 'fail', event: { type: 'Warning', reason: 'VolumeFailedRecycle', message: MSG_NO_RECYCLER } } } },
    { name: 'the claim went to another volume, binding made by the controller: unbind', volume: testVolume('v', { claim: { name: 'c', uid: 'uid-c' }, annotations: { 'pv.kubernetes.io/bound-by-controller': 'yes' } }), claim: claimOf({ volumeName: 'w' }), want: { kind: 'unbind' } },
    { name: 'the claim went to another volume, user binding: left alone', volume: testVolume('v', { claim: { name: 'c', uid: 'uid-c' } }), claim: claimOf({ volumeName: 'w' }), want: { kind: 'none' } },
    { name: 'the claim went elsewhere, provisioned with Delete: released', volume: testVolume('v', { claim: { name: 'c', uid: 'uid-c' }, policy: 'Delete', annotations: provisioned }), claim: claimOf({ volumeName: 'w' }), want: { kind: 'release', reclaim: { kind: 'external', provisioner: 'svc.io/local-path' } } },
  ];
  for (const r of rows) it(r.name, () => assert.deepEqual(planVolume(r.volume, r.claim), r.want));
});
