// Shared informers, as client-go's: one list+watch per resource, fed by the
// watch cache in process (GenericStore.listEntries / watchStorage: no HTTP),
// holding every object of the resource by namespace and name (the lister),
// and telling each registered handler of adds, updates and deletes. A failed
// watch (410 after compaction, a storage error) relists after a second and
// reconciles: objects missing from the new list are delivered as deletes,
// changed ones as updates (a failed relist is tried again). A handler that
// throws is logged; the others and the watch go on. Objects are shared and deep-frozen: a handler
// copies one before changing it. `resyncMs` delivers every object again as an
// update of itself, as client-go's resync period.
import type { Registry } from '../registry/registry.js';
import type { GenericStore } from '../registry/store.js';
import type { ApiObject } from '../registry/object.js';
import type { WatchHandle } from '../storage/interface.js';

export interface ResourceHandler {
  onAdd?(obj: ApiObject): void;
  onUpdate?(old: ApiObject, obj: ApiObject): void;
  /** The object's last known state (client-go's DeletedFinalStateUnknown is not distinguished). */
  onDelete?(obj: ApiObject): void;
}

export interface GroupResource {
  /** svc.io spelling; '' for core. */
  readonly group: string;
  readonly resource: string;
}

const RELIST_DELAY_MS = 1000;

export class SharedInformer {
  /** namespace → name → object. */
  private readonly byNamespace = new Map<string, Map<string, ApiObject>>();
  private readonly handlers: ResourceHandler[] = [];
  private handle: WatchHandle | undefined;
  private started: Promise<void> | undefined;
  private stopped = false;
  private resyncTimer: NodeJS.Timeout | undefined;
  private synced = false;
  private readonly syncWaiters: (() => void)[] = [];

  constructor(private readonly store: GenericStore, readonly resource: GroupResource, private readonly resyncMs = 0) {}

  /**
   * Adds a handler; objects already known are delivered to it as adds. Returns
   * its removal (client-go's RemoveEventHandler): a controller's stop() calls
   * it, since the informer outlives the controller (leadership lost and won
   * again builds a new one).
   */
  addHandler(h: ResourceHandler): () => void {
    this.handlers.push(h);
    if (h.onAdd) for (const obj of this.all()) h.onAdd(obj);
    return () => {
      const i = this.handlers.indexOf(h);
      if (i >= 0) this.handlers.splice(i, 1);
    };
  }

  get(namespace: string, name: string): ApiObject | undefined {
    return this.byNamespace.get(namespace)?.get(name);
  }

  /** The objects of a namespace, or of all namespaces when `namespace` is undefined. */
  list(namespace?: string): ApiObject[] {
    if (namespace !== undefined) return [...(this.byNamespace.get(namespace)?.values() ?? [])];
    return [...this.all()];
  }

  get size(): number {
    let n = 0;
    for (const m of this.byNamespace.values()) n += m.size;
    return n;
  }

  get hasSynced(): boolean {
    return this.synced;
  }

  /** Resolves once the first list was delivered. */
  waitForSync(): Promise<void> {
    return this.synced ? Promise.resolve() : new Promise((r) => this.syncWaiters.push(r));
  }

  start(): Promise<void> {
    this.started ??= this.listAndWatch();
    if (this.resyncMs > 0 && !this.resyncTimer) {
      this.resyncTimer = setInterval(() => this.resync(), this.resyncMs);
      this.resyncTimer.unref();
    }
    return this.started;
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.resyncTimer);
    this.handle?.close();
  }

  private *all(): Iterable<ApiObject> {
    for (const m of this.byNamespace.values()) yield* m.values();
  }

  private async listAndWatch(): Promise<void> {
    const { entries, resourceVersion } = await this.store.listEntries('');
    const objects = entries.map((e) => this.store.decodeShared(e.kv));
    const revision = Number(resourceVersion);
    if (this.stopped) return;
    this.replace(objects);
    this.synced = true;
    for (const w of this.syncWaiters.splice(0)) w();
    this.handle = await this.store.watchStorage('', revision, {
      onEvents: (events) => {
        for (const e of events) {
          if (e.type === 'delete') this.remove(this.store.decodeShared(e.prev));
          else this.put(this.store.decodeShared(e.kv));
        }
      },
      onError: (err) => {
        if (this.stopped) return;
        console.error(`informer ${this.label}: watch failed (${err.message}); relisting`);
        this.started = this.relist();
      },
    });
    if (this.stopped) this.handle.close();
  }

  /** A new list and watch after RELIST_DELAY_MS, tried again (after the same delay) until one works or the informer stops. */
  private async relist(): Promise<void> {
    this.handle = undefined;
    for (;;) {
      await new Promise((r) => setTimeout(r, RELIST_DELAY_MS).unref());
      if (this.stopped) return;
      try {
        await this.listAndWatch();
        return;
      } catch (err) {
        console.error(`informer ${this.label}: relist failed (${(err as Error).message}); trying again`);
      }
    }
  }

  private get label(): string {
    return `${this.resource.group || 'core'}/${this.resource.resource}`;
  }

  /** A handler's failure is logged, not passed on: it must not end the watch feeding every other handler. */
  private deliver(call: (h: ResourceHandler) => void): void {
    for (const h of this.handlers) {
      try {
        call(h);
      } catch (err) {
        console.error(`informer ${this.label}: a handler failed`, err);
      }
    }
  }

  /** A (re)list: what is gone is deleted, the rest added or updated. */
  private replace(objects: readonly ApiObject[]): void {
    const seen = new Set<string>();
    for (const o of objects) seen.add(`${o.metadata.namespace ?? ''}/${o.metadata.name}`);
    for (const o of [...this.all()]) if (!seen.has(`${o.metadata.namespace ?? ''}/${o.metadata.name}`)) this.remove(o);
    for (const o of objects) this.put(o);
  }

  private put(obj: ApiObject): void {
    const ns = obj.metadata.namespace ?? '';
    let m = this.byNamespace.get(ns);
    if (!m) this.byNamespace.set(ns, (m = new Map()));
    const old = m.get(obj.metadata.name!);
    if (old && old.metadata.resourceVersion === obj.metadata.resourceVersion) return;
    m.set(obj.metadata.name!, obj);
    this.deliver((h) => (old ? h.onUpdate?.(old, obj) : h.onAdd?.(obj)));
  }

  private remove(obj: ApiObject): void {
    const ns = obj.metadata.namespace ?? '';
    const m = this.byNamespace.get(ns);
    const last = m?.get(obj.metadata.name!);
    if (!m || !last) return;
    m.delete(obj.metadata.name!);
    if (m.size === 0) this.byNamespace.delete(ns);
    this.deliver((h) => h.onDelete?.(last));
  }

  private resync(): void {
    for (const obj of [...this.all()]) this.deliver((h) => h.onUpdate?.(obj, obj));
  }
}

/** One SharedInformer per resource, made on first use; started with the factory (or at once when it already runs). */
export class InformerFactory {
  private readonly informers = new Map<string, SharedInformer>();
  private running = false;

  constructor(private readonly registry: Registry, private readonly resyncMs = 0) {}

  informer(group: string, resource: string): SharedInformer {
    const key = `${group}/${resource}`;
    let inf = this.informers.get(key);
    if (!inf) {
      inf = new SharedInformer(this.registry.store(group, resource), { group, resource }, this.resyncMs);
      this.informers.set(key, inf);
      if (this.running) void inf.start().catch((err) => console.error(`informer ${key}: start failed`, err));
    }
    return inf;
  }

  /** Starts every informer made so far (and those made later) and waits for their first lists. */
  async start(): Promise<void> {
    this.running = true;
    await Promise.all([...this.informers.values()].map((i) => i.start()));
  }

  stop(): void {
    this.running = false;
    for (const i of this.informers.values()) i.stop();
  }
}
