// What the workload controllers (ReplicaSet, Deployment, StatefulSet,
// DaemonSet) share around their owners:
//   - ObjectQueue: their work queue keyed `namespace/name`, taking keys only
//     once the informers have synced (kube runs no worker before
//     WaitForCacheSync), now or after a delay (kube's AddAfter), the delays
//     dropped at stop;
//   - resolveControllerRef: the owner a controller reference names, from an
//     informer, if it is still that object (kube's resolveControllerRef);
//   - ownersSelecting: the owners whose non-empty selector matches an
//     orphan's labels (kube's getPodReplicaSets, getStatefulSetsForPod…: a
//     nil or empty selector matches nothing);
//   - queueOwnersOfUpdate: the core of their update handlers (updatePod,
//     updateHistory).
import type { ApiObject, OwnerReference } from '../registry/object.js';
import { deepEqual, isObject } from '../registry/object.js';
import { controllerOf } from './replicaset/pods.js';
import { selectorMatches } from '../api/meta/checks.js';
import type { SharedInformer } from './shared.js';
import type { WorkQueue } from './workqueue.js';

export const objectKey = (o: ApiObject): string => `${o.metadata.namespace ?? ''}/${o.metadata.name}`;

export class ObjectQueue {
  private ready = false;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(private readonly queue: WorkQueue<string>) {}

  /** The informers have synced: from now on adds reach the queue. */
  open(): void {
    this.ready = true;
  }

  add(o: ApiObject): void {
    if (!this.ready || this.queue.stopped) return;
    const key = objectKey(o);
    this.queue.add(key, key);
  }

  addAfter(o: ApiObject, ms: number): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      this.add(o);
    }, ms);
    t.unref();
    this.timers.add(t);
  }

  /** Drops the pending delays (the work queue is its owner's to stop). */
  stop(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}

/** The object of `kind` that `ref` names in the namespace, if the informer holds that very object (same uid). */
export function resolveControllerRef(informer: SharedInformer, namespace: string, ref: OwnerReference | undefined, kind: string): ApiObject | undefined {
  if (!ref || ref.kind !== kind) return undefined;
  const owner = informer.get(namespace, ref.name);
  return owner && owner.metadata.uid === ref.uid ? owner : undefined;
}

/** A selector with nothing in it (or none at all): kube's controllers let it select nothing. */
export function isEmptySelector(sel: unknown): boolean {
  if (!isObject(sel)) return true;
  const labels = isObject(sel.matchLabels) ? Object.keys(sel.matchLabels) : [];
  const exprs = Array.isArray(sel.matchExpressions) ? sel.matchExpressions : [];
  return labels.length === 0 && exprs.length === 0;
}

/** The informer's owners in `obj`'s namespace whose non-empty selector matches `obj`'s labels. */
export function ownersSelecting(informer: SharedInformer, obj: ApiObject, selectorOf: (owner: ApiObject) => unknown): ApiObject[] {
  const labels = obj.metadata.labels ?? {};
  return informer.list(obj.metadata.namespace ?? '').filter((owner) => {
    const sel = selectorOf(owner);
    return !isEmptySelector(sel) && selectorMatches(sel, labels);
  });
}

/** How a controller finds the owners of the objects it owns. */
export interface OwnerLookup {
  /** The owner a controller reference names, if it is still that object. */
  resolve(namespace: string, ref: OwnerReference): ApiObject | undefined;
  /** The owners selecting an orphan. */
  selecting(obj: ApiObject): ApiObject[];
}

/**
 * An owned object changed: its former owner is queued when its controller
 * reference changed, and its owner; an orphan whose labels or reference
 * changed queues the owners selecting it (they may adopt it). Returns the
 * owner, if any.
 */
export function queueOwnersOfUpdate(work: ObjectQueue, old: ApiObject, obj: ApiObject, owners: OwnerLookup): ApiObject | undefined {
  const oldRef = controllerOf(old);
  const ref = controllerOf(obj);
  const refChanged = !deepEqual(oldRef ?? null, ref ?? null);
  if (refChanged && oldRef) {
    const prior = owners.resolve(old.metadata.namespace ?? '', oldRef);
    if (prior) work.add(prior);
  }
  if (ref) {
    const owner = owners.resolve(obj.metadata.namespace ?? '', ref);
    if (owner) work.add(owner);
    return owner;
  }
  if (refChanged || !deepEqual(old.metadata.labels ?? {}, obj.metadata.labels ?? {})) for (const o of owners.selecting(obj)) work.add(o);
  return undefined;
}
