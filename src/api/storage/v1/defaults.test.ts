// storage.svc.io/v1 defaulting (v1.27 behaviour).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FeatureGates } from '../../../features/gates.js';
import type { Json } from '../../core/v1/defaults.js';
import { defaulters } from './defaults.js';

const DRIVER = { attachRequired: true, podInfoOnMount: false, storageCapacity: false, fsGroupPolicy: 'ReadWriteOnceWithFSType', volumeLifecycleModes: ['Persistent'], requiresRepublish: false };
const rows: [kind: string, name: string, input: Json, want: Json, gates?: string][] = [
  ['StorageClass', 'reclaim Delete, binding Immediate', { provisioner: 'p' }, { provisioner: 'p', reclaimPolicy: 'Delete', volumeBindingMode: 'Immediate' }],
  ['StorageClass', 'given values kept', { reclaimPolicy: 'Retain', volumeBindingMode: 'WaitForFirstConsumer' }, { reclaimPolicy: 'Retain', volumeBindingMode: 'WaitForFirstConsumer' }],
  ['CSIDriver', 'every flag', {}, { spec: DRIVER }],
  ['CSIDriver', 'given values kept', { spec: { attachRequired: false, volumeLifecycleModes: ['Ephemeral'] } }, { spec: { ...DRIVER, attachRequired: false, volumeLifecycleModes: ['Ephemeral'] } }],
  ['CSIDriver', 'seLinuxMount with its gate', {}, { spec: { ...DRIVER, seLinuxMount: false } }, 'SELinuxMountReadWriteOncePod=true'],
  ['VolumeAttachment', 'inline spec sources only', { spec: { source: { inlineVolumeSpec: { hostPath: { path: '/x' } } } } }, { spec: { source: { inlineVolumeSpec: { hostPath: { path: '/x', type: '' } } } } }],
];

describe('storage.svc.io/v1 defaults', () => {
  for (const [kind, name, input, want, gates] of rows) {
    it(`${kind}: ${name}`, () => {
      const obj = structuredClone(input);
      defaulters[kind]!(obj, gates ? FeatureGates.parse(gates) : new FeatureGates());
      assert.deepEqual(obj, want);
    });
  }
});
