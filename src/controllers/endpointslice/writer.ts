// A slice plan written (kube's reconciler finalize, both controllers'):
// creates (none while the owner is being deleted; a terminating namespace
// ends the sync quietly), updates computed on the latest object, deletes; each
// write remembered by the tracker so a stale informer view is recognised.
import type { ControllerClient } from '../client.js';
import { isNamespaceTerminating, isReason } from '../informer.js';
import type { SliceTracker } from './stale.js';
import type { SharedInformer } from '../shared.js';
import { ENDPOINT_SLICES, LABEL_MANAGED_BY, LABEL_SERVICE_NAME, type EndpointSlice } from './types.js';

export interface SlicePlan {
  readonly create: readonly EndpointSlice[];
  readonly update: readonly EndpointSlice[];
  readonly delete: readonly EndpointSlice[];
}

export interface WriteTarget {
  readonly client: ControllerClient;
  readonly tracker: SliceTracker;
  /** The owner's key (namespace/name): what the tracker files the writes under. */
  readonly key: string;
  readonly namespace: string;
  /** For errors: "for Service ns/name". */
  readonly what: string;
  /** False while the owner is being deleted: no new slices. */
  readonly mayCreate: boolean;
}

export async function writeSlices(w: WriteTarget, plan: SlicePlan): Promise<void> {
  if (w.mayCreate) {
    for (const slice of plan.create) {
      try {
        w.tracker.written(w.key, await w.client.create(ENDPOINT_SLICES, w.namespace, slice) as EndpointSlice);
      } catch (err) {
        if (isNamespaceTerminating(err)) return;
        throw new Error(`failed to create EndpointSlice ${w.what}: ${(err as Error).message}`);
      }
    }
  }
  for (const slice of plan.update) {
    try {
      const written = await w.client.update(ENDPOINT_SLICES, w.namespace, slice.metadata.name!, (cur) => ({
        ...cur,
        metadata: {
          ...cur.metadata, labels: slice.metadata.labels ?? {}, annotations: slice.metadata.annotations ?? {},
          ownerReferences: slice.metadata.ownerReferences ?? [],
        },
        endpoints: slice.endpoints, ports: slice.ports ?? [],
      }));
      w.tracker.written(w.key, written as EndpointSlice);
    } catch (err) {
      throw new Error(`failed to update ${slice.metadata.name} EndpointSlice ${w.what}: ${(err as Error).message}`);
    }
  }
  for (const slice of plan.delete) {
    try {
      await w.client.delete(ENDPOINT_SLICES, w.namespace, slice.metadata.name!);
      w.tracker.expectDeletion(w.key, slice);
    } catch (err) {
      if (isReason(err, 'NotFound')) continue;
      throw new Error(`failed to delete ${slice.metadata.name} EndpointSlice ${w.what}: ${(err as Error).message}`);
    }
  }
}

/**
 * The slice informer's handlers for a controller's own slices (found by
 * `ownerKey`): a slice moved between owners or managers syncs both sides, an
 * event that is not our own write syncs its owner, a deletion is forgotten by
 * the tracker and syncs the owner.
 */
export function sliceHandlers(tracker: SliceTracker, ownerKey: (s: EndpointSlice) => string | undefined, enqueue: (key: string) => void) {
  const onSlice = (s: EndpointSlice) => {
    const key = ownerKey(s);
    if (key && !tracker.expected(key, s)) enqueue(key);
  };
  return {
    onAdd: (s: EndpointSlice) => onSlice(s),
    onUpdate: (o: EndpointSlice, s: EndpointSlice) => {
      const before = ownerKey(o);
      const now = ownerKey(s);
      if (before === now) return onSlice(s);
      if (before) enqueue(before);
      if (now) enqueue(now);
    },
    onDelete: (s: EndpointSlice) => {
      const key = ownerKey(s);
      if (!key) return;
      tracker.deleted(key, s);
      enqueue(key);
    },
  };
}

/** The owner key of a slice managed by `manager` (its service-name label), if it is one. */
export function managedSliceKey(manager: string, s: EndpointSlice): string | undefined {
  const labels = s.metadata.labels ?? {};
  if (labels[LABEL_MANAGED_BY] !== manager || !labels[LABEL_SERVICE_NAME]) return undefined;
  return `${s.metadata.namespace}/${labels[LABEL_SERVICE_NAME]}`;
}

/** The slices `manager` keeps for the service `name` (kube's lister with the two labels as selector). */
export function managedSlices(slices: SharedInformer, manager: string, namespace: string, name: string): EndpointSlice[] {
  return (slices.list(namespace) as EndpointSlice[]).filter((s) =>
    s.metadata.labels?.[LABEL_SERVICE_NAME] === name && s.metadata.labels?.[LABEL_MANAGED_BY] === manager);
}
