// ExtendedResourceToleration: the tolerations a pod gets for the extended resources it requests.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../registry/object.js';
import { extendedResourceToleration } from './extendedresourcetoleration.js';
import { isExtendedResourceName } from '../../api/core/v1/resourcenames.js';
import { attrs } from './testutil.js';

const gpu = (key: string) => ({ key, operator: 'Exists', effect: 'NoSchedule' });

function pod(requests: Record<string, string>[], initRequests: Record<string, string>[] = [], tolerations?: unknown[]): ApiObject {
  const cs = (rs: Record<string, string>[]) => rs.map((r, i) => ({ name: `c${i}`, image: 'x', resources: { requests: r } }));
  return { metadata: { name: 'p' }, spec: { containers: cs(requests), initContainers: cs(initRequests), ...(tolerations ? { tolerations } : {}) } };
}

describe('ExtendedResourceToleration', () => {
  const plugin = extendedResourceToleration();
  const rows: [string, ApiObject, unknown[] | undefined, Parameters<typeof attrs>[0]?][] = [
    ['no extended resources', pod([{ cpu: '1', memory: '1Gi', 'hugepages-2Mi': '2Mi' }]), undefined],
    ['one, in a container', pod([{ cpu: '1', 'example.com/gpu': '1' }]), [gpu('example.com/gpu')]],
    ['from containers and init containers, sorted, once each', pod([{ 'z.io/b': '1' }, { 'example.com/gpu': '1' }], [{ 'example.com/gpu': '1' }]), [gpu('example.com/gpu'), gpu('z.io/b')]],
    ['kubernetes.io and svc.io resources are native', pod([{ 'kubernetes.io/x': '1', 'svc.io/y': '1' }]), undefined],
    ['kept after existing tolerations', pod([{ 'example.com/gpu': '1' }], [], [{ key: 'a', operator: 'Equal', value: 'b', effect: 'NoSchedule' }]), [{ key: 'a', operator: 'Equal', value: 'b', effect: 'NoSchedule' }, gpu('example.com/gpu')]],
    ['an equal toleration is not repeated', pod([{ 'example.com/gpu': '1' }], [], [gpu('example.com/gpu')]), [gpu('example.com/gpu')]],
    ['on update too', pod([{ 'example.com/gpu': '1' }]), [gpu('example.com/gpu')], { operation: 'UPDATE' }],
    ['not on a subresource', pod([{ 'example.com/gpu': '1' }]), undefined, { subresource: 'status' }],
  ];
  for (const [what, object, want, extra] of rows) {
    it(what, async () => {
      const a = attrs({ object, ...extra });
      await plugin.admit(a);
      assert.deepEqual((a.object!.spec as Record<string, unknown>).tolerations, want);
    });
  }
  it('names', () => {
    assert.equal(isExtendedResourceName('example.com/gpu'), true);
    assert.equal(isExtendedResourceName('cpu'), false);
    assert.equal(isExtendedResourceName('requests.example.com/gpu'), false);
    assert.equal(isExtendedResourceName('example.com/-bad'), false);
  });
});
