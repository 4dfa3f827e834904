// Storage metrics of kube-apiserver v1.27 (apiserver/pkg/storage/etcd3/metrics):
//
//   etcd_request_duration_seconds {operation, type}  every storage call, both backends,
//       through one decorator over the Store interface (instrumentStore)
//   apiserver_storage_objects {resource}             objects per resource, read from the
//       watch caches when /metrics is scraped (kube counts in storage once a minute)
//   apiserver_storage_list_{total,fetched_objects_total,evaluated_objects_total,
//       returned_objects_total} {resource}          LISTs the watch cache could not serve
//
// `type`: kube v1.27 reports the Go type of the object (`*core.Pod`); this server
// has no Go types and reports the group-resource instead (`pods`,
// `deployments.apps`), the value kube's `resource` label of storage_objects uses.
import type { DeleteResult, GetOptions, KeyValue, RangeOptions, RangeResult, Store, WatchHandle, WatchOptions, WatchSink, WriteOptions } from '../storage/interface.js';
import { newCounter, newGauge, newHistogram, type CounterChild, type HistogramChild } from './registry.js';

export const etcdRequestDuration = newHistogram({
  name: 'etcd_request_duration_seconds',
  help: 'Etcd request latency in seconds for each operation and object type.',
  labelNames: ['operation', 'type'],
  buckets: [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60],
});

const listLabels = ['resource'] as const;
export const storageListTotal = newCounter({ name: 'apiserver_storage_list_total', help: 'Number of LIST requests served from storage', labelNames: listLabels });
export const storageListFetched = newCounter({ name: 'apiserver_storage_list_fetched_objects_total', help: 'Number of objects read from storage in the course of serving a LIST request', labelNames: listLabels });
export const storageListEvaluated = newCounter({ name: 'apiserver_storage_list_evaluated_objects_total', help: 'Number of objects tested in the course of serving a LIST request from storage', labelNames: listLabels });
export const storageListReturned = newCounter({ name: 'apiserver_storage_list_returned_objects_total', help: 'Number of objects returned for a LIST request from storage', labelNames: listLabels });

const listChildren = new WeakMap<object, { total: CounterChild; fetched: CounterChild; evaluated: CounterChild; returned: CounterChild }>();

/**
 * A LIST served from storage rather than the watch cache (kube's
 * RecordStorageListMetrics): objects read, tested by the selectors (every one
 * read, as kube decodes and tests each) and returned. `of` is the store's
 * group-resource, kept as one object per store.
 */
export function recordStorageList(of: { readonly group: string; readonly resource: string }, fetched: number, returned: number): void {
  let c = listChildren.get(of);
  if (!c) {
    const resource = of.group === '' ? of.resource : `${of.resource}.${of.group}`;
    listChildren.set(of, (c = { total: storageListTotal.child({ resource }), fetched: storageListFetched.child({ resource }), evaluated: storageListEvaluated.child({ resource }), returned: storageListReturned.child({ resource }) }));
  }
  c.total.inc();
  c.fetched.inc(fetched);
  c.evaluated.inc(fetched);
  c.returned.inc(returned);
}

/** Where apiserver_storage_objects reads its counts: watch caches by key prefix. */
export interface ObjectCountSource {
  cachedObjectCounts(): Iterable<{ readonly prefix: string; readonly count: number }>;
}
let countSource: ObjectCountSource | undefined;
let countResourceOf: ((key: string) => string) | undefined;

export const storageObjects = newGauge({
  name: 'apiserver_storage_objects',
  help: 'Number of stored objects at the time of last check split by kind.',
  labelNames: ['resource'], stabilityLevel: 'STABLE',
  collect(set) {
    if (!countSource || !countResourceOf) return;
    for (const c of countSource.cachedObjectCounts()) set({ resource: countResourceOf(c.prefix) }, c.count);
  },
});

/** Makes apiserver_storage_objects read a server's watch caches (the last server started wins). */
export function countObjectsFrom(source: ObjectCountSource, resourceOf: (key: string) => string): void {
  countSource = source;
  countResourceOf = resourceOf;
}

const ROOT = '/registry/';

/**
 * The group-resource of a storage key: `/registry/<resource>/…` for the core
 * group, `/registry/<group>/<resource>/…` otherwise (a group has a dot or is a
 * served group, such as `apps`); keys elsewhere are "other".
 */
export function keyResource(isGroup: (segment: string) => boolean): (key: string) => string {
  const memo = new Map<string, string>();
  // Groups without a dot are built in (a custom resource's group has one): asked once per segment.
  const groups = new Map<string, boolean>();
  const grouped = (s: string): boolean => {
    if (s.includes('.')) return true;
    let g = groups.get(s);
    if (g === undefined && groups.size < 10_000) groups.set(s, (g = isGroup(s)));
    return g ?? isGroup(s);
  };
  return (key) => {
    if (!key.startsWith(ROOT)) return 'other';
    const i1 = key.indexOf('/', ROOT.length);
    const first = i1 < 0 ? key.slice(ROOT.length) : key.slice(ROOT.length, i1);
    if (i1 < 0 || !grouped(first)) return first;
    const i2 = key.indexOf('/', i1 + 1);
    const second = i2 < 0 ? key.slice(i1 + 1) : key.slice(i1 + 1, i2);
    const memoKey = `${first}/${second}`;
    let r = memo.get(memoKey);
    if (r === undefined) {
      r = second === '' ? first : `${second}.${first}`;
      if (memo.size < 10_000) memo.set(memoKey, r);
    }
    return r;
  };
}

type Operation = 'get' | 'list' | 'create' | 'update' | 'delete';

/** etcd_request_duration_seconds around every read and write of `store`. */
export function instrumentStore(store: Store, resourceOf: (key: string) => string): Store {
  const children = new Map<string, HistogramChild>();
  const child = (op: Operation, key: string): HistogramChild => {
    const type = resourceOf(key);
    const k = `${op}\u0000${type}`;
    let c = children.get(k);
    if (!c) children.set(k, (c = etcdRequestDuration.child({ operation: op, type })));
    return c;
  };
  async function timed<T>(op: Operation, key: string, call: () => Promise<T>): Promise<T> {
    const start = performance.now();
    try {
      return await call();
    } finally {
      child(op, key).observe((performance.now() - start) / 1000);
    }
  }
  return {
    backend: store.backend,
    get: (key: string, opts?: GetOptions): Promise<KeyValue | null> => timed('get', key, () => store.get(key, opts)),
    range: (prefix: string, opts?: RangeOptions): Promise<RangeResult> => timed('list', prefix, () => store.range(prefix, opts)),
    create: (key: string, value: Uint8Array): Promise<KeyValue> => timed('create', key, () => store.create(key, value)),
    update: (key: string, value: Uint8Array, opts?: WriteOptions): Promise<KeyValue> => timed('update', key, () => store.update(key, value, opts)),
    delete: (key: string, opts?: WriteOptions): Promise<DeleteResult> => timed('delete', key, () => store.delete(key, opts)),
    watch: (opts: WatchOptions, sink: WatchSink): Promise<WatchHandle> => store.watch(opts, sink),
    compact: (revision: number) => store.compact(revision),
    currentRevision: () => store.currentRevision(),
    compactedRevision: () => store.compactedRevision(),
    close: () => store.close(),
  };
}
