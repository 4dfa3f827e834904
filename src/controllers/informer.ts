// What the controllers watch: every object of one resource, listed then
// watched from the list's revision in storage; each object that appears or
// changes goes to `onObject`, each deleted one to `onDelete` (its last state).
// A failed watch starts again from a fresh list after a second. Objects are
// the store's shared, deep-frozen decodings (one JSON parse per stored value
// for every informer, lister and shared informer that sees it): handlers
// must not change them.
import type { Store, WatchHandle } from '../storage/interface.js';
import type { Registry } from '../registry/registry.js';
import type { ApiObject } from '../registry/object.js';
import { isStatusError } from '../api/meta/index.js';

export interface InformerHandlers {
  onObject(obj: ApiObject): void;
  onDelete?(obj: ApiObject): void;
  /**
   * Every object of a (re)list, before their onObject calls: what a handler keeps of objects
   * missing from it is stale (deleted while the watch was down; no onDelete comes for them).
   */
  onList?(objs: readonly ApiObject[]): void;
}

export class Informer {
  private handle: WatchHandle | undefined;
  private stopped = false;

  constructor(
    private readonly registry: Registry, private readonly storage: Store,
    private readonly resource: { readonly group: string; readonly resource: string },
    private readonly handlers: InformerHandlers, private readonly label: string,
  ) {}

  async start(): Promise<void> {
    const store = this.registry.store(this.resource.group, this.resource.resource);
    const { entries, resourceVersion } = await store.listEntries('');
    const items = entries.map((e) => store.decodeShared(e.kv));
    this.handlers.onList?.(items);
    for (const obj of items) this.handlers.onObject(obj);
    if (this.stopped) return;
    this.handle = await store.watchStorage('', Number(resourceVersion), {
      onEvents: (events) => {
        for (const e of events) {
          if (e.type === 'delete') this.handlers.onDelete?.(store.decodeShared(e.prev));
          else this.handlers.onObject(store.decodeShared(e.kv));
        }
      },
      onError: (err) => {
        if (this.stopped) return;
        console.error(`${this.label}: watch of ${this.resource.resource} failed; restarting`, err);
        setTimeout(() => void this.start().catch((e) => console.error(`${this.label}: restart failed`, e)), 1000).unref();
      },
    });
    if (this.stopped) this.handle.close();
  }

  stop(): void {
    this.stopped = true;
    this.handle?.close();
  }
}

/** Whether an error is a Status with this reason (NotFound, AlreadyExists, Conflict…). */
export const isReason = (err: unknown, reason: string): boolean => isStatusError(err) && err.status.reason === reason;

/** Whether a create failed because its namespace is going away (kube's NamespaceTerminatingCause). */
export const isNamespaceTerminating = (err: unknown): boolean =>
  isStatusError(err) && (err.status.details?.causes ?? []).some((c) => c.reason === 'NamespaceTerminating');

/** The field manager the built-in controllers write as (kube: kube-controller-manager). */
export const CONTROLLER_MANAGER = 'svc-controller-manager';
