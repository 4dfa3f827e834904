// The namespace controller (kube's pkg/controller/namespace, v1.27), as
// service account namespace-controller: when a namespace is terminating
// (deletionTimestamp set) and still carries the `kubernetes` finalizer in
// spec.finalizers, delete everything inside it — a deletecollection per
// namespaced resource that allows one, else a delete per object, with
// background propagation — then count what is left. While objects remain
// (finalizers, grace periods) the namespace's status conditions say what
// (kube's five: NamespaceDeletionDiscoveryFailure, …GroupVersionParsingFailure,
// …ContentFailure, NamespaceContentRemaining, NamespaceFinalizersRemaining,
// with kube's reasons and messages) and the namespace is tried again after
// `retryMs`; once nothing is left the `kubernetes` finalizer is removed
// through namespaces/finalize and the namespace goes away.
import { isObject, nowTimestamp, type ApiObject } from '../registry/object.js';
import { NAMESPACE_FINALIZER } from '../registry/strategies/namespaces.js';
import type { ServedResource } from '../registry/registry.js';
import type { Controller, ControllerContext } from './context.js';
import type { ControllerClient, Target } from './client.js';
import type { SharedInformer } from './shared.js';
import { isReason } from './informer.js';
import { WorkQueue } from './workqueue.js';

export const NAMESPACE_CONTROLLER = 'namespace-controller';
const NAMESPACES: Target = { group: '', version: 'v1', resource: 'namespaces' };

export interface NamespaceControllerOptions {
  readonly retryMs?: number;
  /** Namespaces cleaned at once (--concurrent-namespace-syncs). */
  readonly workers?: number;
}

type Condition = { type: string; status: 'True' | 'False'; reason: string; message: string; lastTransitionTime?: string };

/** kube's condition types in its order, each with its reason and message when all is well. */
const OK: readonly (readonly [type: string, reason: string, message: string])[] = [
  ['NamespaceDeletionDiscoveryFailure', 'ResourcesDiscovered', 'All resources successfully discovered'],
  ['NamespaceDeletionGroupVersionParsingFailure', 'ParsedGroupVersions', 'All legacy kube types successfully parsed'],
  ['NamespaceDeletionContentFailure', 'ContentDeleted', 'All content successfully deleted, may be waiting on finalization'],
  ['NamespaceContentRemaining', 'ContentRemoved', 'All content successfully removed'],
  ['NamespaceFinalizersRemaining', 'ContentRemoved', 'All content successfully removed'],
];

/** What is left in a namespace after a pass. */
export interface Remaining {
  /** `<resource>.<group>` → objects left. */
  readonly resources: Map<string, number>;
  /** finalizer → objects carrying it. */
  readonly finalizers: Map<string, number>;
  /** Messages of failed deletions, one per resource. */
  readonly failures: string[];
}

/** The failing conditions for what a pass left (kube's ProcessContentTotals and delete-content errors). */
export function failingConditions(left: Remaining): Condition[] {
  const out: Condition[] = [];
  if (left.failures.length > 0) {
    const msgs = [...left.failures].sort();
    out.push({ type: 'NamespaceDeletionContentFailure', status: 'True', reason: 'ContentDeletionFailed', message: `Failed to delete all resource types, ${msgs.length} remaining: ${msgs.join(', ')}` });
  }
  const listed = (m: Map<string, number>, f: (k: string, n: number) => string) => [...m].filter(([, n]) => n > 0).map(([k, n]) => f(k, n)).sort().join(', ');
  if (left.resources.size > 0) {
    out.push({ type: 'NamespaceContentRemaining', status: 'True', reason: 'SomeResourcesRemain', message: `Some resources are remaining: ${listed(left.resources, (k, n) => `${k} has ${n} resource instances`)}` });
  }
  if (left.finalizers.size > 0) {
    out.push({ type: 'NamespaceFinalizersRemaining', status: 'True', reason: 'SomeFinalizerRemain', message: `Some finalizers are remaining: ${listed(left.finalizers, (k, n) => `${k} in ${n} resource instances`)}` });
  }
  return out;
}

/**
 * The namespace's conditions with kube's five set from `failing` (the others
 * as all is well); a condition's lastTransitionTime moves only when its status
 * does. Undefined when nothing changes.
 */
export function updatedConditions(current: readonly Condition[], failing: readonly Condition[], now: string): Condition[] | undefined {
  const next = current.map((c) => ({ ...c }));
  let changed = false;
  for (const [type, reason, message] of OK) {
    const want = failing.find((c) => c.type === type) ?? { type, status: 'False' as const, reason, message };
    const old = next.find((c) => c.type === type);
    if (!old) {
      next.push({ ...want, lastTransitionTime: now });
      changed = true;
    } else if (old.status !== want.status || old.reason !== want.reason || old.message !== want.message) {
      if (old.status !== want.status) old.lastTransitionTime = now;
      Object.assign(old, { status: want.status, reason: want.reason, message: want.message });
      changed = true;
    }
  }
  return changed ? next : undefined;
}

export class NamespaceController implements Controller {
  private readonly queue: WorkQueue<string>;
  private readonly client: ControllerClient;
  private readonly namespaces: SharedInformer;
  private removeHandler: (() => void) | undefined;

  constructor(private readonly ctx: ControllerContext, opts: NamespaceControllerOptions = {}) {
    this.client = ctx.client(NAMESPACE_CONTROLLER);
    this.namespaces = ctx.informers.informer('', 'namespaces');
    this.queue = new WorkQueue((name) => this.sync(name), {
      retryMs: opts.retryMs ?? 2000, workers: opts.workers,
      onError: (name, err) => console.error(`namespace controller: cleaning namespace ${name} failed; will retry`, err),
    });
  }

  async start(): Promise<void> {
    await this.namespaces.start();
    const consider = (ns: ApiObject) => ns.metadata.deletionTimestamp && this.queue.add(ns.metadata.name!, ns.metadata.name!);
    this.removeHandler = this.namespaces.addHandler({ onAdd: consider, onUpdate: (_, ns) => consider(ns) });
  }

  stop(): void {
    this.queue.stop();
    this.removeHandler?.();
  }

  /** Every namespaced resource with a store of its own that may be deleted, once (custom resources included). */
  private deletable(): ServedResource[] {
    const seen = new Map<string, ServedResource>();
    for (const r of this.ctx.registry.resources()) {
      if (!r.namespaced || r.virtual || r.sharesStorageWith || !r.verbs.includes('delete')) continue;
      if (!seen.has(`${r.group}/${r.resource}`)) seen.set(`${r.group}/${r.resource}`, r);
    }
    return [...seen.values()];
  }

  /** One pass over a terminating namespace; true when nothing is left to do. */
  private async sync(name: string): Promise<boolean> {
    let ns: ApiObject;
    try {
      ns = await this.client.get(NAMESPACES, '', name);
    } catch (err) {
      if (isReason(err, 'NotFound')) return true;
      throw err;
    }
    const spec = isObject(ns.spec) ? ns.spec : {};
    if (!ns.metadata.deletionTimestamp || !(Array.isArray(spec.finalizers) && spec.finalizers.includes(NAMESPACE_FINALIZER))) return true;
    const left = await this.deleteContent(name);
    await this.writeConditions(name, failingConditions(left));
    if (left.failures.length > 0) throw new Error(left.failures.join('; '));
    if (left.resources.size > 0) return false;
    try {
      await this.client.update({ ...NAMESPACES, subresource: 'finalize' }, '', name, (cur) => {
        const s = isObject(cur.spec) ? cur.spec : {};
        const finalizers = Array.isArray(s.finalizers) ? (s.finalizers as string[]) : [];
        return { ...cur, spec: { ...s, finalizers: finalizers.filter((f) => f !== NAMESPACE_FINALIZER) } };
      });
    } catch (err) {
      if (!isReason(err, 'NotFound')) throw err;
    }
    return true;
  }

  /** Deletes the namespace's content and counts what remains. */
  private async deleteContent(namespace: string): Promise<Remaining> {
    const left: Remaining = { resources: new Map(), finalizers: new Map(), failures: [] };
    for (const r of this.deletable()) {
      const t: Target = { group: r.group, version: r.version, resource: r.resource };
      try {
        if (r.verbs.includes('deletecollection')) {
          await this.client.deleteCollection(t, namespace, { propagationPolicy: 'Background' });
        } else {
          for (const o of await this.client.list(t, namespace)) {
            try {
              await this.client.delete(t, namespace, o.metadata.name!, { propagationPolicy: 'Background' });
            } catch (err) {
              if (!isReason(err, 'NotFound')) throw err;
            }
          }
        }
        const remaining = await this.client.list(t, namespace);
        if (remaining.length === 0) continue;
        left.resources.set(`${r.resource}.${r.group}`, remaining.length);
        for (const o of remaining) {
          for (const f of o.metadata.finalizers ?? []) left.finalizers.set(f, (left.finalizers.get(f) ?? 0) + 1);
        }
      } catch (err) {
        left.failures.push(`${r.resource}.${r.group}: ${(err as Error).message}`);
      }
    }
    return left;
  }

  private async writeConditions(name: string, failing: Condition[]): Promise<void> {
    const ns = this.namespaces.get('', name);
    const current = ns && isObject(ns.status) && Array.isArray(ns.status.conditions) ? (ns.status.conditions as Condition[]) : [];
    if (!updatedConditions(current, failing, nowTimestamp())) return;
    try {
      await this.client.update({ ...NAMESPACES, subresource: 'status' }, '', name, (cur) => {
        const status = isObject(cur.status) ? cur.status : {};
        const conditions = updatedConditions(Array.isArray(status.conditions) ? (status.conditions as Condition[]) : [], failing, nowTimestamp());
        return conditions ? { ...cur, status: { ...status, conditions } } : cur;
      });
    } catch (err) {
      if (!isReason(err, 'NotFound')) throw err;
    }
  }
}
