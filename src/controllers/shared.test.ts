import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../registry/object.js';
import type { GenericStore } from '../registry/store.js';
import type { KeyValue, WatchEvent, WatchSink } from '../storage/interface.js';
import type { Registry } from '../registry/registry.js';
import { InformerFactory, SharedInformer, type ResourceHandler } from './shared.js';

/** A store with what an informer uses: a list at a revision, a watch whose sink the test drives. */
class FakeStore {
  objects = new Map<string, KeyValue>();
  revision = 0;
  sinks: { sink: WatchSink; from: number; closed: boolean }[] = [];
  lists = 0;
  failLists = 0;

  kv(ns: string, name: string, data = ''): KeyValue {
    this.revision++;
    const obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: ns || undefined, name, resourceVersion: String(this.revision) }, data: { v: data } };
    return { key: `/cm/${ns}/${name}`, value: new TextEncoder().encode(JSON.stringify(obj)), createRevision: this.revision, modRevision: this.revision };
  }
  put(ns: string, name: string, data = ''): WatchEvent {
    const prev = this.objects.get(`${ns}/${name}`);
    const kv = this.kv(ns, name, data);
    this.objects.set(`${ns}/${name}`, kv);
    return prev ? { type: 'update', revision: this.revision, kv, prev } : { type: 'create', revision: this.revision, kv };
  }
  del(ns: string, name: string): WatchEvent {
    const prev = this.objects.get(`${ns}/${name}`)!;
    this.objects.delete(`${ns}/${name}`);
    return { type: 'delete', revision: ++this.revision, key: prev.key, prev };
  }
  async listEntries() {
    this.lists++;
    if (this.failLists > 0) {
      this.failLists--;
      throw new Error('storage unavailable');
    }
    return { entries: [...this.objects.values()].map((kv) => ({ kv })), resourceVersion: String(this.revision) };
  }
  async watchStorage(_ns: string, from: number, sink: WatchSink) {
    const w = { sink, from, closed: false };
    this.sinks.push(w);
    return { close: () => void (w.closed = true) };
  }
  decodeShared(kv: KeyValue): ApiObject {
    return JSON.parse(new TextDecoder().decode(kv.value)) as ApiObject;
  }
  /** Sends events to the open watch. */
  emit(...events: WatchEvent[]): void {
    const w = this.sinks.at(-1)!;
    assert.equal(w.closed, false);
    w.sink.onEvents(events);
  }
}

const recording = (log: string[]): ResourceHandler => ({
  onAdd: (o) => log.push(`add ${o.metadata.name}`),
  onUpdate: (old, o) => log.push(`update ${o.metadata.name} ${(old.data as { v: string }).v}→${(o.data as { v: string }).v}`),
  onDelete: (o) => log.push(`delete ${o.metadata.name}`),
});

async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(cond(), 'condition not met');
}

function informer(store: FakeStore): SharedInformer {
  return new SharedInformer(store as unknown as GenericStore, { group: '', resource: 'configmaps' });
}

describe('SharedInformer', () => {
  it('lists, then delivers adds, updates and deletes from the watch at the list revision; the lister follows', async () => {
    const store = new FakeStore();
    store.put('a', 'one', '1');
    store.put('b', 'two', '1');
    const inf = informer(store);
    const log: string[] = [];
    inf.addHandler(recording(log));
    assert.equal(inf.hasSynced, false);
    await inf.start();
    await inf.waitForSync();
    assert.equal(store.sinks[0]!.from, 2, 'the watch starts at the list revision');
    assert.deepEqual(log.sort(), ['add one', 'add two']);
    log.length = 0;
    store.emit(store.put('a', 'one', '2'), store.put('a', 'three', '1'), store.del('b', 'two'));
    assert.deepEqual(log, ['update one 1→2', 'add three', 'delete two']);
    assert.deepEqual(inf.list('a').map((o) => o.metadata.name).sort(), ['one', 'three']);
    assert.deepEqual(inf.list('b'), []);
    assert.equal(inf.get('a', 'one')!.metadata.resourceVersion, '3');
    assert.equal(inf.size, 2);
    inf.stop();
    assert.equal(store.sinks[0]!.closed, true);
  });

  it('a handler added later gets the known objects as adds; an event at a known resourceVersion is no update', async () => {
    const store = new FakeStore();
    store.put('', 'x');
    const inf = informer(store);
    await inf.start();
    const log: string[] = [];
    inf.addHandler(recording(log));
    assert.deepEqual(log, ['add x']);
    store.emit({ type: 'update', revision: 1, kv: store.objects.get('/x')!, prev: store.objects.get('/x')! });
    assert.deepEqual(log, ['add x']);
    inf.stop();
  });

  it('after a watch error it relists and reconciles: missing objects are deletes, changed ones updates, new ones adds', async () => {
    const store = new FakeStore();
    store.put('n', 'kept', '1');
    store.put('n', 'changed', '1');
    store.put('n', 'gone', '1');
    const inf = informer(store);
    const log: string[] = [];
    inf.addHandler(recording(log));
    await inf.start();
    log.length = 0;
    // Changes the watch never delivered (as when storage was compacted past its position).
    store.put('n', 'changed', '2');
    store.del('n', 'gone');
    store.put('n', 'new', '1');
    store.failLists = 1; // the first relist fails too: tried again
    store.sinks[0]!.sink.onError(new Error('required revision has been compacted'));
    await until(() => store.sinks.length === 2);
    assert.equal(store.lists, 3);
    assert.deepEqual(log.sort(), ['add new', 'delete gone', 'update changed 1→2']);
    assert.deepEqual(inf.list().map((o) => o.metadata.name).sort(), ['changed', 'kept', 'new']);
    assert.equal(store.sinks[1]!.from, store.revision, 'watching again from the new list');
    log.length = 0;
    store.emit(store.put('n', 'kept', '2'));
    assert.deepEqual(log, ['update kept 1→2']);
    inf.stop();
  });

  it('a removed handler hears nothing more; the others do', async () => {
    const store = new FakeStore();
    const inf = informer(store);
    const gone: string[] = [];
    const kept: string[] = [];
    const remove = inf.addHandler(recording(gone));
    inf.addHandler(recording(kept));
    await inf.start();
    store.emit(store.put('', 'a'));
    remove();
    store.emit(store.put('', 'b'));
    assert.deepEqual(gone, ['add a']);
    assert.deepEqual(kept, ['add a', 'add b']);
    inf.stop();
  });

  it('a throwing handler is logged; the other handlers and the watch go on', async () => {
    const store = new FakeStore();
    const inf = informer(store);
    const log: string[] = [];
    inf.addHandler({ onAdd: () => { throw new Error('boom'); } });
    inf.addHandler(recording(log));
    await inf.start();
    const errors = console.error;
    console.error = () => {};
    try {
      store.emit(store.put('', 'a'));
      store.emit(store.put('', 'b'));
    } finally {
      console.error = errors;
    }
    assert.deepEqual(log, ['add a', 'add b']);
    inf.stop();
  });

  it('waitForSync resolves once the first list is in; an informer stopped while listing opens no watch', async () => {
    const store = new FakeStore();
    store.put('', 'a');
    const stopped = informer(store);
    const started = stopped.start();
    stopped.stop();
    await started;
    assert.equal(store.sinks.length, 0);
    const inf = informer(store);
    const n = inf.waitForSync().then(() => inf.list().length);
    await inf.start();
    assert.equal(await n, 1);
    assert.equal(inf.hasSynced, true);
    inf.stop();
  });
});

describe('InformerFactory', () => {
  it('one informer per resource; start() lists those made so far; one made later starts at once; stop() closes their watches', async () => {
    const stores = new Map<string, FakeStore>();
    const registry = { store: (g: string, r: string) => stores.get(`${g}/${r}`) ?? stores.set(`${g}/${r}`, new FakeStore()).get(`${g}/${r}`)! } as unknown as Registry;
    const f = new InformerFactory(registry);
    const cms = f.informer('', 'configmaps');
    assert.equal(f.informer('', 'configmaps'), cms, 'shared');
    stores.get('/configmaps')!.put('ns', 'a');
    assert.equal(cms.hasSynced, false, 'nothing runs before start');
    await f.start();
    assert.equal(cms.hasSynced, true);
    assert.equal(cms.list().length, 1);
    const rs = f.informer('apps', 'replicasets');
    await rs.waitForSync();
    assert.equal(stores.get('apps/replicasets')!.sinks.length, 1, 'watching without another start()');
    f.stop();
    await new Promise((r) => setImmediate(r)); // a watch still opening closes as it opens
    assert.ok([...stores.values()].every((s) => s.sinks.every((w) => w.closed)));
  });
});
