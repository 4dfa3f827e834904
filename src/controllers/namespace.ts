// The namespace controller: when a namespace is terminating (deletionTimestamp
// set), delete everything inside it, wait until it is all gone (objects with
// finalizers take their time), then remove the `kubernetes` finalizer from
// spec.finalizers so the namespace itself goes away.
//
// It watches namespaces in storage directly (the watch cache comes later) and
// retries a namespace every `retryMs` while content remains.
import type { Store, WatchHandle } from '../storage/interface.js';
import type { Registry } from '../registry/registry.js';
import { isObject, type ApiObject } from '../registry/object.js';
import { NAMESPACE_FINALIZER } from '../registry/strategies/namespaces.js';
import { WorkQueue } from './workqueue.js';

export interface NamespaceControllerOptions {
  readonly retryMs?: number;
  /** Namespaces cleaned at once (--concurrent-namespace-syncs). */
  readonly workers?: number;
}

export class NamespaceController {
  private watch: WatchHandle | undefined;
  private readonly queue: WorkQueue<string>;

  constructor(private readonly registry: Registry, private readonly storage: Store, opts: NamespaceControllerOptions = {}) {
    this.queue = new WorkQueue((name) => this.sync(name), {
      retryMs: opts.retryMs ?? 2000, workers: opts.workers,
      onError: (name, err) => console.error(`namespace controller: cleaning namespace ${name} failed; will retry`, err),
    });
  }

  async start(): Promise<void> {
    const namespaces = this.registry.store('', 'namespaces');
    const { items, resourceVersion } = await namespaces.list('');
    for (const ns of items) if (ns.metadata.deletionTimestamp) this.enqueue(ns.metadata.name!);
    this.watch = await this.storage.watch({ prefix: namespaces.key('', ''), fromRevision: Number(resourceVersion) }, {
      onEvents: (events) => {
        for (const e of events) {
          if (e.type === 'delete') continue;
          const obj = namespaces.decode(e.kv);
          if (obj.metadata.deletionTimestamp) this.enqueue(obj.metadata.name!);
        }
      },
      onError: (err) => {
        if (this.queue.stopped) return;
        console.error('namespace controller: watch failed; restarting', err);
        setTimeout(() => void this.start().catch((e) => console.error('namespace controller: restart failed', e)), 1000).unref();
      },
    });
  }

  stop(): void {
    this.queue.stop();
    this.watch?.close();
  }

  private enqueue(name: string): void {
    this.queue.add(name, name);
  }

  /** Every namespaced resource with a store of its own, once (custom resources included, whichever versions are served). */
  private storedResources(): { group: string; resource: string }[] {
    const seen = new Map<string, { group: string; resource: string }>();
    for (const r of this.registry.resources()) {
      if (!r.namespaced || r.virtual || r.sharesStorageWith) continue;
      seen.set(`${r.group}/${r.resource}`, r);
    }
    return [...seen.values()];
  }

  /** One pass over a terminating namespace; true when nothing is left to do. */
  private async sync(name: string): Promise<boolean> {
    const namespaces = this.registry.store('', 'namespaces');
    let ns: ApiObject;
    try {
      ns = await namespaces.get('', name);
    } catch {
      return true; // already gone
    }
    if (!ns.metadata.deletionTimestamp) return true;
    let remaining = 0;
    for (const r of this.storedResources()) {
      const store = this.registry.store(r.group, r.resource);
      const left = await store.deleteCollection(name, {}, { dryRun: false, propagationPolicy: 'Background' });
      remaining += left.items.length;
    }
    if (remaining > 0) {
      // Deleted objects may linger (finalizers, grace periods): check again before finalizing.
      for (const r of this.storedResources()) {
        if ((await this.registry.store(r.group, r.resource).list(name)).items.length > 0) return false;
      }
    }
    await namespaces.guaranteedUpdate('', name, (cur) => {
      const spec = isObject(cur.spec) ? cur.spec : {};
      const finalizers = Array.isArray(spec.finalizers) ? (spec.finalizers as string[]) : [];
      cur.spec = { ...spec, finalizers: finalizers.filter((f) => f !== NAMESPACE_FINALIZER) };
      return cur;
    }, { dryRun: false, subresource: 'finalize' });
    return true;
  }
}
