// The collector's workers (kube's GarbageCollector): nodes the graph queues
// are looked at through the API — every call as the generic-garbage-collector
// service account — and deleted, unblocked, finalized or orphaned.
//
// attemptToDelete(node):
//   virtual and gone from the graph or observed meanwhile → nothing to do
//   being deleted (not foreground)                      → wait for its delete event
//   GET: 404 or another uid                            → virtual delete event (graph)
//   deleting its dependents (foreground)                → none blocking: remove `foregroundDeletion`;
//                                                         else queue the blocking dependents
//   owners classified (isDangling: absent-owner cache, else a GET of the owner):
//     some solid                    → remove the dangling and waiting references
//     some waiting, has dependents  → delete in Foreground (unblocking references first on a cycle)
//     none solid                    → delete (Orphan / Foreground when the object already has that
//                                     finalizer, else Background), uid + resourceVersion preconditions
//   still virtual                                       → looked at again later
// attemptToOrphan(owner): the owner's reference removed from each dependent, then `orphan`.
import type { ApiObject, OwnerReference } from '../../registry/object.js';
import { deepEqual } from '../../registry/object.js';
import { newConflict } from '../../api/meta/index.js';
import type { ControllerClient } from '../client.js';
import type { EventRecorder } from '../events.js';
import { isReason } from '../informer.js';
import { DependencyGraph, FOREGROUND, ORPHAN, type GraphNode, type GraphSink } from './graph.js';
import { ownerIdentity, type ObjectIdentity } from './identity.js';
import type { ResourceMapper, ResourceMapping } from './mapper.js';
import { NodeQueue } from './queue.js';

export interface CollectorOptions {
  /**
   * Concurrent workers per queue (kube's --concurrent-gc-syncs, whose default is 20). Ours is 50:
   * in process, a worker's wait is mostly the storage's group commit, so more workers make bigger
   * batches (3,000 pods: ~5–8 s with 20 on a loaded 2-core machine, ~2–4 s with 50).
   */
  readonly workers?: number;
  /** Delay before a node is looked at again (an error, a virtual node not yet observed). */
  readonly retryMs?: number;
}

/** The apiVersion/kind of a reference is not served (kube's restMappingError): retried. */
export class RestMappingError extends Error {
  constructor(readonly apiVersion: string, readonly kind: string) {
    super(`unable to get REST mapping for ${apiVersion}/${kind}.`);
  }
}

/** A cluster-scoped object names a namespaced owner: never resolvable, not retried. */
export class NamespacedOwnerOfClusterScopedError extends Error {
  constructor() {
    super('cluster-scoped objects cannot refer to namespaced owners');
  }
}

type Outcome = 'done' | 'forget';
type Policy = 'Foreground' | 'Background' | 'Orphan';

export class GarbageCollector implements GraphSink {
  readonly graph: DependencyGraph;
  private readonly deleteQueue: NodeQueue;
  private readonly orphanQueue: NodeQueue;
  /** Nodes waiting for a kind to be served, looked at again when the served resources change. */
  private readonly unmapped = new Map<string, GraphNode>();
  private running = false;
  private readonly workers: number;
  /** Nodes queued before the workers run (kube's workers start once the monitors synced). */
  private readonly early: { queue: 'delete' | 'orphan'; node: GraphNode }[] = [];

  constructor(
    private readonly client: ControllerClient, private readonly mapper: ResourceMapper,
    private readonly recorder: EventRecorder, opts: CollectorOptions = {},
  ) {
    this.graph = new DependencyGraph(this);
    const workers = (this.workers = opts.workers ?? 50);
    const retryMs = opts.retryMs ?? 1000;
    this.deleteQueue = new NodeQueue(workers, (n) => this.attemptToDeleteWorker(n), retryMs, 'attemptToDelete');
    this.orphanQueue = new NodeQueue(workers, (n) => this.attemptToOrphanWorker(n), retryMs, 'attemptToOrphan');
  }

  /** The workers start: what was queued meanwhile goes first. */
  run(): void {
    this.running = true;
    for (const { queue, node } of this.early.splice(0)) (queue === 'delete' ? this.deleteQueue : this.orphanQueue).add(node);
  }

  stop(): void {
    this.running = false;
    this.deleteQueue.stop();
    this.orphanQueue.stop();
  }

  /** The served resources changed: nodes that named an unserved kind are looked at again. */
  resourcesChanged(): void {
    const nodes = [...this.unmapped.values()];
    this.unmapped.clear();
    for (const n of nodes) this.attemptToDelete(n);
  }

  // --- GraphSink -------------------------------------------------------------

  attemptToDelete(n: GraphNode): void {
    if (this.running) this.deleteQueue.add(n);
    else this.early.push({ queue: 'delete', node: n });
  }

  attemptToOrphan(n: GraphNode): void {
    if (this.running) this.orphanQueue.add(n);
    else this.early.push({ queue: 'orphan', node: n });
  }

  invalidNamespace(dependent: ObjectIdentity, message: string): void {
    void this.recorder.event({
      apiVersion: dependent.apiVersion, kind: dependent.kind, name: dependent.name, uid: dependent.uid,
      ...(dependent.namespace ? { namespace: dependent.namespace } : {}),
    }, 'Warning', 'OwnerRefInvalidNamespace', message);
  }

  // --- attemptToDelete ---------------------------------------------------------

  /** One look at a node; true when nothing is left to do for it now (kube's forgetItem), false to retry after an error. */
  async attemptToDeleteWorker(n: GraphNode): Promise<boolean> {
    const current = this.graph.get(n.identity.uid);
    if (n.virtual && (!current || current !== n || !current.virtual)) return this.forget(n);
    try {
      const outcome = await this.attemptToDeleteItem(n);
      this.unmapped.delete(n.identity.uid);
      if (outcome === 'forget') return this.forget(n);
    } catch (err) {
      if (err instanceof NamespacedOwnerOfClusterScopedError) return this.forget(n);
      if (err instanceof RestMappingError) {
        // Looked at again when the served resources change, and (less and less often) meanwhile.
        if (!this.unmapped.has(n.identity.uid)) console.error(`garbage collector: ${n.identity.kind} ${n.identity.namespace}/${n.identity.name}: ${err.message}`);
        this.unmapped.set(n.identity.uid, n);
        this.deleteQueue.addLater(n);
        return true;
      }
      throw err;
    }
    // A virtual node the API has: looked at again until an informer observes it (or the API says it is gone).
    if (n.virtual) this.deleteQueue.addLater(n);
    else this.deleteQueue.forget(n);
    return true;
  }

  private forget(n: GraphNode): true {
    this.deleteQueue.forget(n);
    return true;
  }

  private async attemptToDeleteItem(item: GraphNode): Promise<Outcome> {
    if (item.beingDeleted && !item.deletingDependents) return 'done';
    const latest = await this.getObject(item.identity);
    if (!latest || latest.metadata.uid !== item.identity.uid) return this.virtualDelete(item.identity);
    if (item.deletingDependents) {
      await this.processDeletingDependents(item);
      return 'done';
    }
    const refs = latest.metadata.ownerReferences ?? [];
    if (refs.length === 0) return 'done';
    const { solid, dangling, waiting } = await this.classifyReferences(item, refs);
    if (solid.length > 0) {
      if (dangling.length === 0 && waiting.length === 0) return 'done';
      // Waiting references go too, or their owners would wait for this object forever.
      const gone = new Set([...dangling, ...waiting].map((r) => r.uid));
      await this.rewriteOwnerReferences(item, (rs) => rs.filter((r) => !gone.has(r.uid)));
      return 'done';
    }
    let policy: Policy;
    if (waiting.length > 0 && item.dependents.size > 0) {
      if ([...item.dependents].some((d) => d.deletingDependents)) {
        // An owner and a dependent both delete in foreground: a possible cycle; this object blocks no one.
        await this.rewriteOwnerReferences(item, (rs) => rs.map((r) => (r.blockOwnerDeletion === true ? { ...r, blockOwnerDeletion: false } : r)));
      }
      policy = 'Foreground';
    } else {
      const finalizers = latest.metadata.finalizers ?? [];
      policy = finalizers.includes(ORPHAN) ? 'Orphan' : finalizers.includes(FOREGROUND) ? 'Foreground' : 'Background';
    }
    try {
      await this.deleteObject(item.identity, latest, policy);
    } catch (err) {
      if (isReason(err, 'NotFound')) return this.virtualDelete(item.identity);
      throw err;
    }
    return 'done';
  }

  /** The API says the node's object is not there: the graph hears it as a delete. */
  private virtualDelete(identity: ObjectIdentity): Outcome {
    this.graph.process({
      type: 'delete', virtual: true, apiVersion: identity.apiVersion, kind: identity.kind,
      meta: { name: identity.name, namespace: identity.namespace, uid: identity.uid },
    });
    return 'forget';
  }

  private async processDeletingDependents(item: GraphNode): Promise<void> {
    const blocking = item.blockingDependents();
    if (blocking.length === 0) {
      await this.removeFinalizer(item, FOREGROUND);
      return;
    }
    for (const dep of blocking) if (!dep.deletingDependents) this.attemptToDelete(dep);
  }

  private async classifyReferences(item: GraphNode, refs: readonly OwnerReference[]) {
    const solid: OwnerReference[] = [];
    const dangling: OwnerReference[] = [];
    const waiting: OwnerReference[] = [];
    for (const ref of refs) {
      const { isDangling, owner } = await this.isDangling(ref, item);
      if (isDangling) dangling.push(ref);
      else if (owner?.metadata.deletionTimestamp && (owner.metadata.finalizers ?? []).includes(FOREGROUND)) waiting.push(ref);
      else solid.push(ref);
    }
    return { solid, dangling, waiting };
  }

  /** Is the owner a reference names gone (absent, or another uid under its name)? */
  private async isDangling(ref: OwnerReference, item: GraphNode): Promise<{ isDangling: boolean; owner?: ApiObject }> {
    const absent = this.graph.absent;
    const clusterKey = ownerIdentity(ref, '');
    if (absent.has(clusterKey)) return { isDangling: true };
    const namespacedKey = ownerIdentity(ref, item.identity.namespace);
    if (absent.has(namespacedKey)) return { isDangling: true };
    const m = this.mapping(ref.apiVersion, ref.kind);
    if (m.namespaced && item.identity.namespace === '') throw new NamespacedOwnerOfClusterScopedError();
    const key = m.namespaced ? namespacedKey : clusterKey;
    let owner: ApiObject;
    try {
      owner = await this.client.get(m.target, m.namespaced ? item.identity.namespace : '', ref.name);
    } catch (err) {
      if (!isReason(err, 'NotFound')) throw err;
      absent.add(key);
      return { isDangling: true };
    }
    if (owner.metadata.uid !== ref.uid) {
      absent.add(key);
      return { isDangling: true };
    }
    return { isDangling: false, owner };
  }

  // --- attemptToOrphan ---------------------------------------------------------

  /** Orphans the owner's dependents, then removes its `orphan` finalizer; throws (to be retried) when a dependent could not be updated. */
  async attemptToOrphanWorker(owner: GraphNode): Promise<boolean> {
    const failures: string[] = [];
    // kube updates every dependent at once; here at most `workers` at a time (thousands of updates in
    // flight together cost more in memory than they win in batching)
    const pending = [...owner.dependents];
    await Promise.all(Array.from({ length: Math.min(this.workers, pending.length) }, async () => {
      for (let dep = pending.pop(); dep; dep = pending.pop()) {
        try {
          await this.rewriteOwnerReferences(dep, (rs) => rs.filter((r) => r.uid !== owner.identity.uid));
        } catch (err) {
          if (!isReason(err, 'NotFound')) failures.push(`orphaning ${dep.identity.kind} ${dep.identity.namespace}/${dep.identity.name} failed, ${(err as Error).message}`);
        }
      }
    }));
    if (failures.length > 0) throw new Error(`failed to orphan dependents of owner ${owner.identity.kind} ${owner.identity.namespace}/${owner.identity.name}, got errors: ${failures.join(', ')}`);
    await this.removeFinalizer(owner, ORPHAN);
    return true;
  }

  // --- API calls -------------------------------------------------------------

  private mapping(apiVersion: string, kind: string): ResourceMapping {
    const m = this.mapper.kindFor(apiVersion, kind);
    if (!m) throw new RestMappingError(apiVersion, kind);
    return m;
  }

  /** The namespace a node's object is addressed in; a namespaced kind without one can only be a cluster-scoped object's owner. */
  private namespaceOf(m: ResourceMapping, identity: ObjectIdentity): string {
    if (!m.namespaced) return '';
    if (identity.namespace === '') throw new NamespacedOwnerOfClusterScopedError();
    return identity.namespace;
  }

  /** The object as the API has it now; undefined when not found. */
  private async getObject(identity: ObjectIdentity): Promise<ApiObject | undefined> {
    const m = this.mapping(identity.apiVersion, identity.kind);
    try {
      return await this.client.get(m.target, this.namespaceOf(m, identity), identity.name);
    } catch (err) {
      if (isReason(err, 'NotFound')) return undefined;
      throw err;
    }
  }

  /**
   * A delete with the uid and resourceVersion the decision was made on. On a conflict whose
   * object still has the same owner references (an unrelated change), deleted again with the
   * uid alone, so frequent updates don't starve the collector (as kube's deleteObject).
   */
  private async deleteObject(identity: ObjectIdentity, seen: ApiObject, policy: Policy): Promise<void> {
    const m = this.mapping(identity.apiVersion, identity.kind);
    const ns = this.namespaceOf(m, identity);
    const rv = seen.metadata.resourceVersion;
    try {
      await this.client.delete(m.target, ns, identity.name, { propagationPolicy: policy, preconditions: { uid: identity.uid, ...(rv ? { resourceVersion: rv } : {}) } });
      return;
    } catch (err) {
      if (!isReason(err, 'Conflict') || !rv) throw err;
      let live: ApiObject;
      try {
        live = await this.client.get(m.target, ns, identity.name);
      } catch (e) {
        if (isReason(e, 'NotFound')) return;
        throw err;
      }
      const sameOwners = deepEqual(live.metadata.ownerReferences ?? [], seen.metadata.ownerReferences ?? []);
      if (live.metadata.uid !== identity.uid || live.metadata.resourceVersion === rv || !sameOwners) throw err;
    }
    await this.client.delete(m.target, ns, identity.name, { propagationPolicy: policy, preconditions: { uid: identity.uid } });
  }

  /** Rewrites the object's ownerReferences, if it is still the node's object (kube patches with the uid as precondition). */
  private async rewriteOwnerReferences(n: GraphNode, rewrite: (refs: readonly OwnerReference[]) => OwnerReference[]): Promise<void> {
    const m = this.mapping(n.identity.apiVersion, n.identity.kind);
    await this.client.update(m.target, this.namespaceOf(m, n.identity), n.identity.name, (cur) => {
      if (cur.metadata.uid !== n.identity.uid) {
        throw newConflict({ group: m.target.group, resource: m.target.resource }, n.identity.name, `Precondition failed: UID in precondition: ${n.identity.uid}, UID in object meta: ${cur.metadata.uid}`);
      }
      const refs = rewrite(cur.metadata.ownerReferences ?? []);
      if (refs.length > 0) cur.metadata.ownerReferences = refs;
      else delete cur.metadata.ownerReferences;
      return cur;
    });
  }

  /** Removes a finalizer from the node's object (gone, or another object by now: nothing to do). */
  private async removeFinalizer(n: GraphNode, finalizer: string): Promise<void> {
    const m = this.mapping(n.identity.apiVersion, n.identity.kind);
    try {
      await this.client.update(m.target, this.namespaceOf(m, n.identity), n.identity.name, (cur) => {
        if (cur.metadata.uid !== n.identity.uid) return cur;
        const finalizers = (cur.metadata.finalizers ?? []).filter((f) => f !== finalizer);
        if (finalizers.length > 0) cur.metadata.finalizers = finalizers;
        else delete cur.metadata.finalizers;
        return cur;
      });
    } catch (err) {
      if (!isReason(err, 'NotFound')) throw err;
    }
  }
}

