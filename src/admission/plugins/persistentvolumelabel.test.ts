// PersistentVolumeLabel: deprecated, labels nothing without a cloud provider, and says so when built.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../registry/object.js';
import { PERSISTENT_VOLUME_LABEL_NO_CLOUD, PERSISTENT_VOLUME_LABEL_WARNING, persistentVolumeLabel } from './persistentvolumelabel.js';
import { attrs } from './testutil.js';

describe('PersistentVolumeLabel', () => {
  it('logs the deprecation and that it labels nothing', () => {
    const lines: string[] = [];
    persistentVolumeLabel((l) => lines.push(l));
    assert.deepEqual(lines, [PERSISTENT_VOLUME_LABEL_WARNING, PERSISTENT_VOLUME_LABEL_NO_CLOUD]);
    assert.match(lines[0]!, /^PersistentVolumeLabel admission controller is deprecated\./);
  });
  it('leaves a cloud disk volume as it is', async () => {
    const pv: ApiObject = { metadata: { name: 'pv1' }, spec: { gcePersistentDisk: { pdName: 'disk' }, capacity: { storage: '1Gi' } } };
    const a = attrs({ resource: 'persistentvolumes', namespace: '', object: pv });
    await persistentVolumeLabel(() => {}).admit(a);
    assert.deepEqual(a.object, { metadata: { name: 'pv1' }, spec: { gcePersistentDisk: { pdName: 'disk' }, capacity: { storage: '1Gi' } } });
  });
});
