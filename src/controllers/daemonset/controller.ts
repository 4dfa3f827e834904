// The daemon-set controller (kube's pkg/controller/daemon): one pod of each
// DaemonSet on every node that should run it.
//
//   informer events (DaemonSets, pods, nodes, ControllerRevisions)
//        ──► queue of DaemonSet keys ──► sync(key)
//   sync: empty selector → SelectingAll, stop; being deleted → stop
//         history: current revision (its hash labels new pods), old ones
//         expectations unmet → status only (observedGeneration kept)
//         manage: per node (placement.ts × nodepods.ts) create / delete;
//                 unbound pods aimed at vanished nodes deleted
//         expectations met and RollingUpdate → rolling.ts step
//         cleanup of old revisions; status (status.ts)
//
// Pods are created from the template with the daemon tolerations, the
// revision-hash and template-generation labels and a node-name affinity,
// then bound by the scheduler; creations go in slow-start batches of at most
// 250 a sync. Writes are made as the service account daemon-set-controller,
// Events as component daemonset-controller (SuccessfulCreate, FailedCreate,
// SuccessfulDelete, FailedDelete, FailedDaemonPod, SucceededDaemonPod,
// SelectingAll).
import type { ApiObject, OwnerReference } from '../../registry/object.js';
import { deepEqual, isObject } from '../../registry/object.js';
import type { Controller, ControllerContext } from '../context.js';
import { StartWhenAuthorized, type ControllerClient } from '../client.js';
import type { EventRecorder } from '../events.js';
import type { SharedInformer } from '../shared.js';
import { WorkQueue } from '../workqueue.js';
import { selectorMatches } from '../../api/meta/checks.js';
import { objectKey as keyOf, ObjectQueue, ownersSelecting, queueOwnersOfUpdate, resolveControllerRef } from '../owners.js';
import { Expectations } from '../replicaset/expectations.js';
import { controllerOf, isPodReady, nodeNameOf } from '../replicaset/pods.js';
import { Backoff } from './backoff.js';
import { nodeShouldRunDaemonPod, type Placement } from './placement.js';
import { podsShouldBeOnNode } from './nodepods.js';
import { REVISION_HASH_LABEL, targetNodeName, templateGenerationOf } from './podtemplate.js';
import { allowsSurge, rollingUpdateStep } from './rolling.js';
import { daemonCounts, statusUpToDate } from './status.js';
import { claimForDaemonSet, DAEMONSETS, DaemonHistory, PODS } from './revisions.js';
import { DaemonPodControl } from './podcontrol.js';

/** kube's BurstReplicas for DaemonSets. */
export const BURST_REPLICAS = 250;
const SERVICE_ACCOUNT = 'daemon-set-controller';
const COMPONENT = 'daemonset-controller';
const BACKOFF_GC_MS = 60_000;

export interface DaemonSetControllerOptions {
  /** Delay before a failed sync is retried (default 1 s). */
  readonly retryMs?: number;
  readonly burstReplicas?: number;
  /** Workers (kube's --concurrent-daemonset-syncs, default 2). */
  readonly workers?: number;
  readonly now?: () => number;
  /** The failed-pod back-off (tests shorten it). */
  readonly backoff?: Backoff;
}

interface DaemonSpec {
  selector?: unknown;
  minReadySeconds?: number;
  template?: Record<string, unknown>;
  updateStrategy?: { type?: string };
}

const splitKey = (key: string) => {
  const i = key.indexOf('/');
  return [key.slice(0, i), key.slice(i + 1)] as const;
};
const specOf = (ds: ApiObject) => (ds.spec ?? {}) as DaemonSpec;

/** The node without what changes on every heartbeat; conditions compared by which are True (kube's shouldIgnoreNodeUpdate). */
function nodeUpdateIgnorable(old: ApiObject, cur: ApiObject): boolean {
  const trueConditions = (n: ApiObject) => {
    const conds = isObject(n.status) && Array.isArray(n.status.conditions) ? n.status.conditions : [];
    return conds.filter((c) => isObject(c) && c.status === 'True').map((c) => String((c as { type: unknown }).type)).sort();
  };
  if (!deepEqual(trueConditions(old), trueConditions(cur))) return false;
  const strip = (n: ApiObject) => {
    const { resourceVersion: _rv, managedFields: _mf, ...meta } = n.metadata;
    const { conditions: _c, ...status } = (isObject(n.status) ? n.status : {}) as Record<string, unknown>;
    return { ...n, metadata: meta, status };
  };
  return deepEqual(strip(old), strip(cur));
}

export class DaemonSetController implements Controller {
  private readonly client: ControllerClient;
  private readonly recorder: EventRecorder;
  private readonly daemonSets: SharedInformer;
  private readonly pods: SharedInformer;
  private readonly nodes: SharedInformer;
  private readonly revisions: SharedInformer;
  private readonly history: DaemonHistory;
  private readonly queue: WorkQueue<string>;
  private readonly expectations: Expectations;
  private readonly backoff: Backoff;
  private readonly starter: StartWhenAuthorized;
  private readonly work: ObjectQueue;
  private readonly removers: (() => void)[] = [];
  private gcTimer: NodeJS.Timeout | undefined;
  private readonly now: () => number;
  private readonly podControl: DaemonPodControl;

  constructor(ctx: ControllerContext, opts: DaemonSetControllerOptions = {}) {
    this.now = opts.now ?? Date.now;
    this.backoff = opts.backoff ?? new Backoff();
    this.client = ctx.client(SERVICE_ACCOUNT);
    this.recorder = ctx.recorder(SERVICE_ACCOUNT, COMPONENT);
    this.expectations = new Expectations(this.now);
    this.daemonSets = ctx.informers.informer('apps', 'daemonsets');
    this.pods = ctx.informers.informer('', 'pods');
    this.nodes = ctx.informers.informer('', 'nodes');
    this.revisions = ctx.informers.informer('apps', 'controllerrevisions');
    this.history = new DaemonHistory(this.client, this.revisions);
    this.podControl = new DaemonPodControl(this.client, this.recorder, this.expectations, opts.burstReplicas ?? BURST_REPLICAS);
    this.queue = new WorkQueue((key) => this.sync(key), {
      retryMs: opts.retryMs ?? 1000,
      workers: opts.workers ?? ctx.concurrency('daemonset', 2),
      onError: (key, err) => console.error(`${COMPONENT}: sync of ${key} failed; will retry: ${(err as Error).message}`),
    });
    this.work = new ObjectQueue(this.queue);
    this.starter = new StartWhenAuthorized(this.client, DAEMONSETS, COMPONENT, () => this.run());
  }

  start(): Promise<void> {
    return this.starter.start();
  }

  stop(): void {
    this.starter.stop();
    this.queue.stop();
    for (const remove of this.removers.splice(0)) remove();
    this.work.stop();
    clearInterval(this.gcTimer);
  }

  private async run(): Promise<void> {
    this.removers.push(
      this.daemonSets.addHandler({
        onAdd: (ds) => this.work.add(ds),
        onUpdate: (old, ds) => {
          if (old.metadata.uid !== ds.metadata.uid) this.daemonSetDeleted(old);
          this.work.add(ds);
        },
        onDelete: (ds) => this.daemonSetDeleted(ds),
      }),
      this.revisions.addHandler({
        onAdd: (r) => this.revisionAdded(r),
        onUpdate: (old, r) => this.revisionUpdated(old, r),
        onDelete: (r) => this.revisionDeleted(r),
      }),
      this.pods.addHandler({
        onAdd: (p) => this.podAdded(p),
        onUpdate: (old, p) => this.podUpdated(old, p),
        onDelete: (p) => this.podDeleted(p),
      }),
      this.nodes.addHandler({
        onAdd: (n) => this.nodeAdded(n),
        onUpdate: (old, n) => this.nodeUpdated(old, n),
      }),
    );
    const informers = [this.daemonSets, this.revisions, this.pods, this.nodes];
    await Promise.all(informers.map((i) => i.start()));
    await Promise.all(informers.map((i) => i.waitForSync()));
    this.work.open();
    this.gcTimer = setInterval(() => this.backoff.gc(this.now()), BACKOFF_GC_MS).unref();
    for (const ds of this.daemonSets.list()) this.work.add(ds);
  }

  // ---- events → queue ----

  private daemonSetDeleted(ds: ApiObject): void {
    this.expectations.delete(keyOf(ds));
    this.work.add(ds);
  }

  /** The DaemonSet a controller reference names, if it is still the same object (kube's resolveControllerRef). */
  private resolve(namespace: string, ref: OwnerReference | undefined): ApiObject | undefined {
    return resolveControllerRef(this.daemonSets, namespace, ref, 'DaemonSet');
  }

  /** The DaemonSets whose selector matches the labels (kube's GetPodDaemonSets / GetHistoryDaemonSets). */
  private selecting(obj: ApiObject): ApiObject[] {
    return ownersSelecting(this.daemonSets, obj, (ds) => specOf(ds).selector);
  }

  private revisionAdded(r: ApiObject): void {
    if (r.metadata.deletionTimestamp) return this.revisionDeleted(r);
    if (controllerOf(r)) return; // an owned revision: its DaemonSet made it
    for (const ds of this.selecting(r)) this.work.add(ds);
  }

  private revisionUpdated(old: ApiObject, r: ApiObject): void {
    if (old.metadata.resourceVersion === r.metadata.resourceVersion) return;
    this.ownedUpdated(old, r);
  }

  /**
   * An update of a pod or revision (kube's updatePod / updateHistory): the
   * former controller is synced when the reference changed; an owned object
   * syncs its DaemonSet (returned), an orphan whose labels or reference
   * changed every DaemonSet selecting it.
   */
  private ownedUpdated(old: ApiObject, obj: ApiObject): ApiObject | undefined {
    return queueOwnersOfUpdate(this.work, old, obj, { resolve: (ns, ref) => this.resolve(ns, ref), selecting: (o) => this.selecting(o) });
  }

  private revisionDeleted(r: ApiObject): void {
    const ds = this.resolve(r.metadata.namespace ?? '', controllerOf(r));
    if (ds) this.work.add(ds);
  }

  private podAdded(pod: ApiObject): void {
    if (pod.metadata.deletionTimestamp) return this.podDeleted(pod);
    const ref = controllerOf(pod);
    if (ref) {
      const ds = this.resolve(pod.metadata.namespace ?? '', ref);
      if (!ds) return;
      this.expectations.creationObserved(keyOf(ds));
      return this.work.add(ds);
    }
    for (const ds of this.selecting(pod)) this.work.add(ds);
  }

  private podUpdated(old: ApiObject, pod: ApiObject): void {
    if (old.metadata.resourceVersion === pod.metadata.resourceVersion) return;
    if (pod.metadata.deletionTimestamp) return this.podDeleted(pod);
    const ds = this.ownedUpdated(old, pod);
    const minReady = ds ? specOf(ds).minReadySeconds ?? 0 : 0;
    // Ready now: available after minReadySeconds (a second more against clock skew)
    if (ds && minReady > 0 && !isPodReady(old) && isPodReady(pod)) this.work.addAfter(ds, minReady * 1000 + 1000);
  }

  private podDeleted(pod: ApiObject): void {
    const ds = this.resolve(pod.metadata.namespace ?? '', controllerOf(pod));
    if (!ds) return;
    this.expectations.deletionObserved(keyOf(ds), keyOf(pod));
    this.work.add(ds);
  }

  private nodeAdded(node: ApiObject): void {
    for (const ds of this.daemonSets.list()) if (nodeShouldRunDaemonPod(node, ds).shouldRun) this.work.add(ds);
  }

  private nodeUpdated(old: ApiObject, node: ApiObject): void {
    if (nodeUpdateIgnorable(old, node)) return;
    for (const ds of this.daemonSets.list()) {
      const a = nodeShouldRunDaemonPod(old, ds);
      const b = nodeShouldRunDaemonPod(node, ds);
      if (a.shouldRun !== b.shouldRun || a.shouldContinueRunning !== b.shouldContinueRunning) this.work.add(ds);
    }
  }

  // ---- sync ----

  private async sync(key: string): Promise<boolean> {
    const [namespace, name] = splitKey(key);
    const ds = this.daemonSets.get(namespace, name);
    if (!ds) {
      this.expectations.delete(key);
      return true;
    }
    const nodes = this.nodes.list();
    const selector = specOf(ds).selector;
    if (isObject(selector) && deepEqual(selector, {})) {
      void this.recorder.event(ds, 'Warning', 'SelectingAll', 'This daemon set is selecting all pods. A non-empty selector is required.');
      return true;
    }
    // being deleted: its history may be gone already, so no status either
    if (ds.metadata.deletionTimestamp) return true;
    let history;
    try {
      history = await this.history.construct(ds, () => this.claimPods(ds));
    } catch (err) {
      throw new Error(`failed to construct revisions of DaemonSet: ${(err as Error).message}`);
    }
    const hash = history.current.metadata.labels?.[REVISION_HASH_LABEL] ?? '';
    if (!this.expectations.satisfied(key)) {
      await this.updateStatus(ds, nodes, hash, false);
      return true;
    }
    let failure: unknown;
    try {
      await this.manage(ds, nodes, hash, key);
      if (this.expectations.satisfied(key) && specOf(ds).updateStrategy?.type === 'RollingUpdate') await this.rollingUpdate(ds, nodes, hash, key);
      try {
        await this.history.cleanup(ds, history.old, await this.claimPods(ds));
      } catch (err) {
        throw new Error(`failed to clean up revisions of DaemonSet: ${(err as Error).message}`);
      }
    } catch (err) {
      failure = err;
    }
    try {
      await this.updateStatus(ds, nodes, hash, true);
    } catch (err) {
      if (failure === undefined) throw err;
      console.error(`${COMPONENT}: failed to update status of ${key}: ${(err as Error).message}`);
    }
    if (failure !== undefined) throw failure;
    return true;
  }

  /** The DaemonSet's pods, adopting and releasing by selector (kube's getDaemonPods). */
  private claimPods(ds: ApiObject): Promise<ApiObject[]> {
    return claimForDaemonSet(this.client, ds, PODS, this.pods.list(ds.metadata.namespace!));
  }

  /** The claimed pods by target node (kube's getNodesToDaemonPods); pods with no target are left out. */
  private async podsByNode(ds: ApiObject): Promise<Map<string, ApiObject[]>> {
    const byNode = new Map<string, ApiObject[]>();
    for (const pod of await this.claimPods(ds)) {
      const node = targetNodeName(pod);
      if (node === undefined) continue;
      const list = byNode.get(node);
      if (list) list.push(pod);
      else byNode.set(node, [pod]);
    }
    return byNode;
  }

  private placements(ds: ApiObject, nodes: readonly ApiObject[]): Map<string, Placement> {
    return new Map(nodes.map((n) => [n.metadata.name!, nodeShouldRunDaemonPod(n, ds)]));
  }

  /** kube's manage: per node, the pods to create and delete; then unbound pods aimed at nodes that are gone. */
  private async manage(ds: ApiObject, nodes: readonly ApiObject[], hash: string, key: string): Promise<void> {
    const byNode = await this.podsByNode(ds);
    const placements = this.placements(ds, nodes);
    const observed = ((ds.status ?? {}) as { observedGeneration?: number }).observedGeneration ?? 0;
    const now = this.now();
    const create: string[] = [];
    const remove: string[] = [];
    for (const [nodeName, placement] of placements) {
      const d = podsShouldBeOnNode({
        nodeName, placement, pods: byNode.get(nodeName), hash, surge: allowsSurge(ds), minReadySeconds: specOf(ds).minReadySeconds ?? 0,
        now, backoff: this.backoff, backoffKey: `${ds.metadata.uid}/${observed}/${nodeName}`,
      });
      if (d.create) create.push(nodeName);
      remove.push(...d.deletePods);
      for (const e of d.events) void this.recorder.event(ds, e.type, e.reason, e.message);
      if (d.retryAfterMs !== undefined) this.work.addAfter(ds, d.retryAfterMs);
    }
    for (const [nodeName, pods] of byNode) {
      if (placements.has(nodeName)) continue;
      for (const p of pods) if (nodeNameOf(p) === '') remove.push(p.metadata.name!);
    }
    await this.podControl.syncNodes(ds, remove, create, hash, key);
  }

  private async rollingUpdate(ds: ApiObject, nodes: readonly ApiObject[], hash: string, key: string): Promise<void> {
    const placements = this.placements(ds, nodes);
    const shouldRun = new Map([...placements].map(([n, p]) => [n, p.shouldRun]));
    let step;
    try {
      step = rollingUpdateStep({ ds, shouldRun, podsByNode: await this.podsByNode(ds), hash, generation: templateGenerationOf(ds), now: this.now() });
    } catch (err) {
      throw new Error(`couldn't get unavailable numbers: ${(err as Error).message}`);
    }
    await this.podControl.syncNodes(ds, step.deletePods, step.createOnNodes, hash, key);
  }

  /** kube's updateDaemonSetStatus: the counts written when they changed (observedGeneration only after a full sync). */
  private async updateStatus(ds: ApiObject, nodes: readonly ApiObject[], hash: string, observeGeneration: boolean): Promise<void> {
    const placements = this.placements(ds, nodes);
    const minReadySeconds = specOf(ds).minReadySeconds ?? 0;
    const counts = daemonCounts({
      shouldRun: new Map([...placements].map(([n, p]) => [n, p.shouldRun])), podsByNode: await this.podsByNode(ds),
      hash, generation: templateGenerationOf(ds), minReadySeconds, now: this.now(),
    });
    if (!statusUpToDate(ds, counts)) {
      try {
        await this.client.update({ ...DAEMONSETS, subresource: 'status' }, ds.metadata.namespace!, ds.metadata.name!, (latest) => {
          if (latest.metadata.uid !== ds.metadata.uid) throw new Error(`DaemonSet ${keyOf(ds)} was replaced`);
          const status: Record<string, unknown> = { ...((latest.status ?? {}) as Record<string, unknown>), ...counts };
          if (observeGeneration) status.observedGeneration = ds.metadata.generation ?? 0;
          return { ...latest, status };
        });
      } catch (err) {
        throw new Error(`error storing status for daemon set ${keyOf(ds)}: ${(err as Error).message}`);
      }
    }
    if (minReadySeconds > 0 && counts.numberReady !== counts.numberAvailable) this.work.addAfter(ds, minReadySeconds * 1000);
  }
}

