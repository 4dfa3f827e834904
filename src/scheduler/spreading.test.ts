// The default spreading selector: services selecting the pod, merged with its
// controller's selector.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../registry/object.js';
import { spreadSelectors } from './spreading.js';
import { testPod } from './testing.js';

const svc = (name: string, selector: Record<string, string>): ApiObject => ({ apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'default' }, spec: { selector } });
const rs: ApiObject = { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'web-1', namespace: 'default' }, spec: { selector: { matchLabels: { app: 'web', hash: '1' } } } };
const owned = (labels: Record<string, string>, kind = 'ReplicaSet', apiVersion = 'apps/v1') => {
  const p = testPod('p', { labels });
  return { ...p, metadata: { ...p.metadata, ownerReferences: [{ apiVersion, kind, name: 'web-1', uid: 'u', controller: true }] } };
};

describe('spreadSelectors', () => {
  const selectors = spreadSelectors({ services: () => [svc('web', { app: 'web' }), svc('other', { app: 'db' }), svc('headless', {})], get: (kind, _ns, name) => (kind === 'ReplicaSet' && name === 'web-1' ? rs : undefined) });
  const rows: [string, ApiObject, Record<string, string>[], Record<string, string>[], boolean][] = [
    ['a pod selected by a service', testPod('p', { labels: { app: 'web' } }), [{ app: 'web' }, { app: 'web', x: 'y' }], [{ app: 'db' }, {}], false],
    ['a pod of a ReplicaSet: the service and the controller both', owned({ app: 'web', hash: '1' }), [{ app: 'web', hash: '1' }], [{ app: 'web', hash: '2' }, { hash: '1' }], false],
    ['a pod no service or controller selects', testPod('p', { labels: { app: 'lonely' } }), [], [{ app: 'lonely' }], true],
    ['a controller of another group is not read', owned({ app: 'lonely' }, 'ReplicaSet', 'example.com/v1'), [], [{ app: 'lonely' }], true],
  ];
  for (const [name, pod, match, miss, empty] of rows) {
    it(name, () => {
      const sel = selectors.defaultSelector(pod);
      assert.equal(sel.empty, empty);
      for (const l of match) assert.equal(sel.matches(l), true, JSON.stringify(l));
      for (const l of miss) assert.equal(sel.matches(l), false, JSON.stringify(l));
    });
  }
});
