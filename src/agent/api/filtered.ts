// A view of a shared informer holding only the objects a predicate keeps —
// the in-process agent's "pods with spec.nodeName=<node>" and "the Node named
// <node>", as the field selectors of the remote agent's watches would. An
// object moving into the view is an add, out of it a delete.
import type { ApiObject } from '../../registry/object.js';
import type { ResourceHandler } from '../../controllers/shared.js';
import type { ObjectCache } from '../api.js';

/** What the view needs of a shared informer (SharedInformer has it): handlers can be removed. */
export interface Source {
  get(namespace: string, name: string): ApiObject | undefined;
  list(): ApiObject[];
  addHandler(h: ResourceHandler): () => void;
  start(): Promise<void>;
  waitForSync(): Promise<void>;
}

export class FilteredCache implements ObjectCache {
  private readonly removers: (() => void)[] = [];

  /** `beforeStart` runs once before the source starts (the node's list/watch authorization). */
  constructor(private readonly source: Source, private readonly keep: (o: ApiObject) => boolean, private readonly beforeStart: () => Promise<void> = async () => {}) {}

  get(namespace: string, name: string): ApiObject | undefined {
    const o = this.source.get(namespace, name);
    return o && this.keep(o) ? o : undefined;
  }

  list(): ApiObject[] {
    return this.source.list().filter(this.keep);
  }

  addHandler(h: ResourceHandler): void {
    this.removers.push(this.source.addHandler({
      onAdd: (o) => { if (this.keep(o)) h.onAdd?.(o); },
      onUpdate: (old, o) => {
        const was = this.keep(old);
        const is = this.keep(o);
        if (was && is) h.onUpdate?.(old, o);
        else if (is) h.onAdd?.(o);
        else if (was) h.onDelete?.(old);
      },
      onDelete: (o) => { if (this.keep(o)) h.onDelete?.(o); },
    }));
  }

  private started: Promise<void> | undefined;

  start(): Promise<void> {
    this.started ??= this.beforeStart().then(() => this.source.start());
    return this.started;
  }

  waitForSync(): Promise<void> {
    return this.source.waitForSync();
  }

  /** Removes this view's handlers (the shared informer goes on for its other users). */
  stop(): void {
    for (const r of this.removers.splice(0)) r();
  }
}
