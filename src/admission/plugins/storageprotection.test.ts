// StorageObjectInUseProtection: which writes get which finalizer.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AdmissionAttributes, AdmissionOperation } from '../../registry/admission.js';
import type { ApiObject } from '../../registry/object.js';
import { PV_PROTECTION, PVC_PROTECTION, storageObjectInUseProtection } from './storageprotection.js';

function attrs(operation: AdmissionOperation, group: string, resource: string, finalizers?: string[]): AdmissionAttributes {
  const object: ApiObject = { metadata: { name: 'x', ...(finalizers ? { finalizers } : {}) } };
  return { operation, object, oldObject: undefined, resource: { group, version: 'v1', resource, kind: '' }, namespace: '', name: 'x', namespaced: false, dryRun: false, user: undefined };
}

describe('StorageObjectInUseProtection', () => {
  const plugin = storageObjectInUseProtection();
  it('is a mutating plugin', () => assert.equal(plugin.phase, 'mutating'));
  const rows: [string, AdmissionAttributes, string[] | undefined][] = [
    ['a new claim', attrs('CREATE', '', 'persistentvolumeclaims'), [PVC_PROTECTION]],
    ['a new volume', attrs('CREATE', '', 'persistentvolumes'), [PV_PROTECTION]],
    ['a new claim with finalizers of its own', attrs('CREATE', '', 'persistentvolumeclaims', ['example.com/x']), ['example.com/x', PVC_PROTECTION]],
    ['a new claim that already has it', attrs('CREATE', '', 'persistentvolumeclaims', [PVC_PROTECTION]), [PVC_PROTECTION]],
    ['an updated claim (the finalizer may have been removed on purpose)', attrs('UPDATE', '', 'persistentvolumeclaims', []), []],
    ['another kind', attrs('CREATE', '', 'configmaps'), undefined],
    ['a same-named resource of another group', attrs('CREATE', 'example.com', 'persistentvolumeclaims'), undefined],
  ];
  for (const [what, a, want] of rows) {
    it(what, async () => {
      await plugin.admit(a);
      assert.deepEqual(a.object!.metadata.finalizers, want);
    });
  }
  it('uses the svc.io spelling', () => {
    assert.equal(PVC_PROTECTION, 'svc.io/pvc-protection');
    assert.equal(PV_PROTECTION, 'svc.io/pv-protection');
  });
});
