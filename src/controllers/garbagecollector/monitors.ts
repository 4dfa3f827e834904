// The collector's monitors (kube's GraphBuilder.syncMonitors): one handler on
// a shared informer per monitored resource, each event handed to the graph
// with the resource's apiVersion and kind. Built-in resources use the
// context's shared informers; a custom resource gets an informer of its own,
// stopped when its CRD goes (and replaced when a new CRD of the same name is
// served from a new store), since the shared factory keeps an informer for
// the life of the process.
import type { ControllerContext } from '../context.js';
import { SharedInformer } from '../shared.js';
import type { ApiObject } from '../../registry/object.js';
import type { GenericStore } from '../../registry/store.js';
import type { GraphEvent } from './graph.js';
import type { ResourceMapping } from './mapper.js';

interface Monitor {
  readonly mapping: ResourceMapping;
  readonly informer: SharedInformer;
  /** The store a custom resource's own informer reads (undefined for shared informers). */
  readonly store?: GenericStore;
  active: boolean;
}

export class Monitors {
  private readonly monitors = new Map<string, Monitor>();

  constructor(private readonly ctx: ControllerContext, private readonly onEvent: (e: GraphEvent) => void) {}

  /** The monitored resources (`group/resource`, svc.io spelling), sorted. */
  resources(): string[] {
    return [...this.monitors.keys()].sort();
  }

  /** Makes the monitor set the given resources; answers whether it changed and the new monitors' first lists. */
  sync(resources: readonly ResourceMapping[]): { changed: boolean; started: Promise<void>[] } {
    const wanted = new Map(resources.map((r) => [`${r.target.group}/${r.target.resource}`, r]));
    let changed = false;
    for (const [key, m] of this.monitors) {
      const w = wanted.get(key);
      if (w && w.apiVersion === m.mapping.apiVersion && w.kind === m.mapping.kind && !this.storeChanged(m)) continue;
      this.remove(key, m);
      changed = true;
    }
    const started: Promise<void>[] = [];
    for (const [key, mapping] of wanted) {
      if (this.monitors.has(key)) continue;
      const m = this.add(mapping);
      this.monitors.set(key, m);
      started.push(m.informer.start().catch((err) => console.error(`garbage collector: monitor ${key} failed to start: ${(err as Error).message}`)));
      changed = true;
    }
    return { changed, started };
  }

  stop(): void {
    for (const [key, m] of this.monitors) this.remove(key, m);
  }

  private add(mapping: ResourceMapping): Monitor {
    const { group, resource } = mapping.target;
    let informer: SharedInformer;
    let store: GenericStore | undefined;
    if (mapping.custom) {
      store = this.ctx.registry.store(group, resource);
      informer = new SharedInformer(store, { group, resource });
    } else {
      informer = this.ctx.informers.informer(group, resource);
    }
    const m: Monitor = { mapping, informer, ...(store ? { store } : {}), active: true };
    const emit = (type: GraphEvent['type'], obj: ApiObject, old?: ApiObject) => {
      if (!m.active) return;
      this.onEvent({ type, apiVersion: mapping.apiVersion, kind: mapping.kind, meta: obj.metadata, ...(old ? { oldMeta: old.metadata } : {}) });
    };
    informer.addHandler({
      onAdd: (obj) => emit('add', obj),
      onUpdate: (old, obj) => emit('update', obj, old),
      onDelete: (obj) => emit('delete', obj),
    });
    return m;
  }

  private remove(key: string, m: Monitor): void {
    m.active = false;
    if (m.store) m.informer.stop();
    this.monitors.delete(key);
  }

  private storeChanged(m: Monitor): boolean {
    if (!m.store) return false;
    const { group, resource } = m.mapping.target;
    return !this.ctx.registry.has(group, resource) || this.ctx.registry.store(group, resource) !== m.store;
  }
}
