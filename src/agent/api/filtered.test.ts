import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ResourceHandler } from '../../controllers/shared.js';
import type { ApiObject } from '../../registry/object.js';
import { FilteredCache, type Source } from './filtered.js';

const pod = (name: string, nodeName: string): ApiObject => ({ metadata: { name, namespace: 'ns' }, spec: { nodeName } });

function fakeSource(initial: ApiObject[]) {
  const objects = new Map(initial.map((o) => [o.metadata.name!, o]));
  const handlers = new Set<ResourceHandler>();
  const order: string[] = [];
  const source: Source = {
    get: (_ns, name) => objects.get(name),
    list: () => [...objects.values()],
    addHandler(h) {
      handlers.add(h);
      for (const o of objects.values()) h.onAdd?.(o);
      return () => handlers.delete(h);
    },
    start: async () => { order.push('start'); },
    waitForSync: async () => {},
  };
  const emit = {
    add: (o: ApiObject) => { objects.set(o.metadata.name!, o); handlers.forEach((h) => h.onAdd?.(o)); },
    update: (o: ApiObject) => { const old = objects.get(o.metadata.name!)!; objects.set(o.metadata.name!, o); handlers.forEach((h) => h.onUpdate?.(old, o)); },
    delete: (name: string) => { const old = objects.get(name)!; objects.delete(name); handlers.forEach((h) => h.onDelete?.(old)); },
  };
  return { source, emit, order, handlers };
}

describe('FilteredCache: the pods of one node', () => {
  const rows: [string, (e: ReturnType<typeof fakeSource>['emit']) => void, string[]][] = [
    ['present at the start: only the node\'s', () => {}, ['add a']],
    ['a pod bound to the node is added', (e) => e.add(pod('c', 'n1')), ['add a', 'add c']],
    ['a pod of another node is not seen', (e) => e.add(pod('c', 'n2')), ['add a']],
    ['an update of the node\'s pod', (e) => e.update({ ...pod('a', 'n1'), status: { phase: 'Running' } }), ['add a', 'update a']],
    ['a pod moving onto the node is an add', (e) => e.update(pod('b', 'n1')), ['add a', 'add b']],
    ['a pod moving away is a delete', (e) => e.update(pod('a', 'n2')), ['add a', 'delete a']],
    ['a deleted pod of the node', (e) => e.delete('a'), ['add a', 'delete a']],
    ['a deleted pod of another node is not seen', (e) => e.delete('b'), ['add a']],
  ];
  for (const [name, act, want] of rows) {
    it(name, () => {
      const { source, emit } = fakeSource([pod('a', 'n1'), pod('b', 'n2')]);
      const view = new FilteredCache(source, (o) => (o.spec as { nodeName?: string }).nodeName === 'n1');
      const seen: string[] = [];
      view.addHandler({ onAdd: (o) => seen.push(`add ${o.metadata.name}`), onUpdate: (_o, n) => seen.push(`update ${n.metadata.name}`), onDelete: (o) => seen.push(`delete ${o.metadata.name}`) });
      act(emit);
      assert.deepEqual(seen, want);
    });
  }

  it('get and list answer only the node\'s; start authorizes first; stop removes the handlers', async () => {
    const { source, order, handlers } = fakeSource([pod('a', 'n1'), pod('b', 'n2')]);
    const view = new FilteredCache(source, (o) => (o.spec as { nodeName?: string }).nodeName === 'n1', async () => { order.push('authorize'); });
    assert.equal(view.get('ns', 'b'), undefined);
    assert.equal(view.get('ns', 'a')?.metadata.name, 'a');
    assert.deepEqual(view.list().map((o) => o.metadata.name), ['a']);
    await Promise.all([view.start(), view.start()]);
    assert.deepEqual(order, ['authorize', 'start']);
    view.addHandler({});
    assert.equal(handlers.size, 1);
    view.stop();
    assert.equal(handlers.size, 0);
  });

  it('a refused authorization fails the start', async () => {
    const { source, order } = fakeSource([]);
    const view = new FilteredCache(source, () => true, async () => { throw new Error('forbidden'); });
    await assert.rejects(view.start(), /forbidden/);
    assert.deepEqual(order, []);
  });
});
