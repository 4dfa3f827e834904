// What a delete does to an object, decided without touching storage (kube's
// rest.BeforeDelete and the registry store's finalizer handling): the
// options are checked, then the stored object is either left as it is,
// marked as terminating (deletionTimestamp, grace period, finalizers) — and
// possibly deleted right after, when nothing holds it — or deleted now. The
// store (store.ts) runs the plan against storage and reads again on a
// conflict.
import { type ApiObject, clone, nowTimestamp } from './object.js';
import type { Strategy } from './strategy.js';
import type { DeleteOptions } from './writecontext.js';
import * as errs from './errors.js';

export type DeletionPlan =
  /** Nothing to write: the object is already terminating and this delete changes nothing. */
  | { readonly kind: 'unchanged' }
  /** Write `object` (terminating); `immediate`: then delete it at once (a zero grace period, nothing holding it). */
  | { readonly kind: 'mark'; readonly object: ApiObject; readonly immediate: boolean }
  /** Delete the stored object now. */
  | { readonly kind: 'remove' };

const POLICIES = ['Foreground', 'Background', 'Orphan'];

/** Refuses options no delete accepts (checked once, before anything is read). */
export function checkDeleteOptions(opts: DeleteOptions): void {
  const policy = opts.propagationPolicy;
  if (policy !== undefined && !POLICIES.includes(policy)) {
    throw errs.invalid({ group: 'meta.svc.io', kind: 'DeleteOptions' }, '', [errs.unsupported('propagationPolicy', policy, [...POLICIES, 'nil'])]);
  }
}

/** The delete's preconditions against the stored object; kube names the kind, not the resource, in these conflicts. */
export function checkPreconditions(old: ApiObject, opts: DeleteOptions, group: string, kind: string): void {
  const p = opts.preconditions;
  if (!p) return;
  const name = old.metadata.name!;
  const byKind = { group, resource: kind };
  if (p.uid !== undefined && p.uid !== old.metadata.uid) {
    throw errs.conflict(byKind, name, `the UID in the precondition (${p.uid}) does not match the UID in record (${old.metadata.uid}). The object might have been deleted and then recreated`);
  }
  if (p.resourceVersion !== undefined && p.resourceVersion !== old.metadata.resourceVersion) {
    throw errs.conflict(byKind, name, `the ResourceVersion in the precondition (${p.resourceVersion}) does not match the ResourceVersion in record (${old.metadata.resourceVersion}). The object might have been modified`);
  }
}

/** What deleting `old` (the stored object, not modified) does under `strategy`, at `now` (ms). */
export function planDeletion(old: ApiObject, strategy: Strategy, opts: DeleteOptions, now: number): DeletionPlan {
  const policy = opts.propagationPolicy;
  const obj = clone(old);
  const meta = obj.metadata;
  const finalizers = new Set(meta.finalizers ?? []);
  if (!meta.deletionTimestamp) {
    if (policy === 'Orphan') finalizers.add('orphan');
    if (policy === 'Foreground') finalizers.add('foregroundDeletion');
    for (const f of strategy.deletionFinalizers ?? []) finalizers.add(f);
  }
  const pending = finalizers.size > 0 || strategy.pendingFinalizers(obj).length > 0;
  const current = meta.deletionGracePeriodSeconds ?? 0;
  if (meta.deletionTimestamp && strategy.gracefulDeletion && current > 0) {
    // A terminating object's grace period may only be shortened; its deletionTimestamp moves by
    // as much. Shortened to 0 with no finalizer, it goes at once.
    const requested = opts.gracePeriodSeconds;
    if (requested === undefined || requested >= current) return { kind: 'unchanged' };
    const grace = Math.max(0, requested);
    meta.deletionTimestamp = nowTimestamp(Date.parse(meta.deletionTimestamp) - (current - grace) * 1000);
    meta.deletionGracePeriodSeconds = grace;
    return { kind: 'mark', object: obj, immediate: !pending && grace === 0 };
  }
  const grace = strategy.gracePeriod(obj, opts.gracePeriodSeconds);
  if (meta.deletionTimestamp && pending) return { kind: 'unchanged' }; // further deletes change nothing
  const marksFirst = strategy.deletionMarksFirst && !meta.deletionTimestamp;
  if (!(pending || grace > 0 || marksFirst || (strategy.gracefulDeletion && !meta.deletionTimestamp))) return { kind: 'remove' };
  if (finalizers.size > 0) meta.finalizers = [...finalizers];
  meta.deletionTimestamp = nowTimestamp(now + grace * 1000);
  if (strategy.deletionMarksFirst || strategy.marksDeletionOnly) delete meta.deletionGracePeriodSeconds;
  else meta.deletionGracePeriodSeconds = grace;
  if (meta.generation !== undefined && meta.generation > 0 && !strategy.marksDeletionOnly) meta.generation += 1;
  strategy.onDeletionStarted(obj);
  return { kind: 'mark', object: obj, immediate: !pending && grace === 0 && !marksFirst };
}
