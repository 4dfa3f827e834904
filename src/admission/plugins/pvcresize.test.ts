// PersistentVolumeClaimResize: which size changes pass.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newNotFound } from '../../api/meta/index.js';
import type { ApiObject } from '../../registry/object.js';
import type { Getter } from './common.js';
import { persistentVolumeClaimResize } from './pvcresize.js';
import { attrs, outcome } from './testutil.js';

const classes: Record<string, ApiObject> = {
  grow: { metadata: { name: 'grow' }, allowVolumeExpansion: true },
  fixed: { metadata: { name: 'fixed' }, allowVolumeExpansion: false },
  unset: { metadata: { name: 'unset' } },
};
const getter: Getter = () => ({ get: async (_ns, name) => {
  const c = classes[name];
  if (!c) throw newNotFound({ group: 'storage.svc.io', resource: 'storageclasses' }, name);
  return c;
} });

function claim(storage: string | undefined, cls: string | undefined, phase = 'Bound', annotations?: Record<string, string>): ApiObject {
  return {
    metadata: { name: 'data', ...(annotations ? { annotations } : {}) },
    spec: { ...(cls !== undefined ? { storageClassName: cls } : {}), resources: storage ? { requests: { storage } } : {} },
    status: { phase },
  };
}
const ONLY_DYNAMIC = 'persistentvolumeclaims "data" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize';

describe('PersistentVolumeClaimResize', () => {
  const plugin = persistentVolumeClaimResize(getter);
  const rows: [string, ApiObject, ApiObject, string | undefined][] = [
    ['growing with an expandable class', claim('2Gi', 'grow'), claim('1Gi', 'grow'), undefined],
    ['growing across units (1G → 1Gi)', claim('1Gi', 'grow'), claim('1G', 'grow'), undefined],
    ['same size', claim('1Gi', 'fixed'), claim('1Gi', 'fixed'), undefined],
    ['equal in other units', claim('1024Mi', 'fixed'), claim('1Gi', 'fixed'), undefined],
    ['shrinking is for validation to refuse', claim('1Gi', 'fixed'), claim('2Gi', 'fixed'), undefined],
    ['growing an unbound claim', claim('2Gi', 'grow'), claim('1Gi', 'grow', 'Pending'), 'persistentvolumeclaims "data" is forbidden: Only bound persistent volume claims can be expanded'],
    ['class that does not allow it', claim('2Gi', 'fixed'), claim('1Gi', 'fixed'), ONLY_DYNAMIC],
    ['class without the field', claim('2Gi', 'unset'), claim('1Gi', 'unset'), ONLY_DYNAMIC],
    ['class that does not exist', claim('2Gi', 'gone'), claim('1Gi', 'gone'), ONLY_DYNAMIC],
    ['no class', claim('2Gi', undefined), claim('1Gi', undefined), ONLY_DYNAMIC],
    ['class changed', claim('2Gi', 'grow'), claim('1Gi', 'fixed'), ONLY_DYNAMIC],
    ['class from the beta annotation', claim('2Gi', undefined, 'Bound', { 'volume.beta.kubernetes.io/storage-class': 'grow' }), claim('1Gi', undefined, 'Bound', { 'volume.beta.kubernetes.io/storage-class': 'grow' }), undefined],
    ['a first request counts as growth', claim('1Gi', 'fixed'), claim(undefined, 'fixed'), ONLY_DYNAMIC],
  ];
  for (const [what, object, oldObject, want] of rows) {
    it(what, async () => {
      const st = await outcome(() => plugin.admit(attrs({ operation: 'UPDATE', resource: 'persistentvolumeclaims', object, oldObject })));
      assert.equal(st?.message, want);
      if (want) assert.equal(st?.code, 403);
    });
  }
  it('ignores the status subresource', async () => {
    assert.equal(await outcome(() => plugin.admit(attrs({ operation: 'UPDATE', subresource: 'status', resource: 'persistentvolumeclaims', object: claim('2Gi', 'fixed'), oldObject: claim('1Gi', 'fixed') }))), undefined);
  });
});
