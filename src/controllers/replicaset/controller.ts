// The replica-set controller (kube's pkg/controller/replicaset), for
// ReplicaSets and ReplicationControllers alike:
//
//   informer events (owners, pods) ──► queue of owner keys ──► sync(key)
//     pod seen created / deleted ──► expectations lowered
//   sync: claim the namespace's active pods (adopt / release)
//         ── expectations met? ──► create (slow start, ≤ 500 a sync) or
//            delete (ranked) the difference, expectations raised
//         ──► status (replicas, labelled, ready, available, ReplicaFailure)
//
// Pods are written as the controller's service account; Events as kube's
// (SuccessfulCreate, FailedCreate, SuccessfulDelete, FailedDelete).
import type { ApiObject } from '../../registry/object.js';
import type { Controller, ControllerContext } from '../context.js';
import { StartWhenAuthorized, type ControllerClient } from '../client.js';
import type { EventRecorder } from '../events.js';
import type { SharedInformer } from '../shared.js';
import { WorkQueue } from '../workqueue.js';
import { isNamespaceTerminating, isReason } from '../informer.js';
import { selectorMatches } from '../../api/meta/checks.js';
import { objectKey as keyOf, ObjectQueue, ownersSelecting, queueOwnersOfUpdate, resolveControllerRef } from '../owners.js';
import { deepEqual } from '../../registry/object.js';
import { Expectations } from './expectations.js';
import { slowStartBatch } from './slowstart.js';
import { podsToDelete } from './ranking.js';
import { calculateStatus, statusOf, type ManageResult, type ReplicaStatus } from './status.js';
import { claimObjects } from './claim.js';
import { controllerOf, controllerRef, isPodActive, isPodReady, podFromTemplate } from './pods.js';
import type { ReplicaKind } from './kinds.js';

export const PODS = { group: '', version: 'v1', resource: 'pods' };
/** kube's BurstReplicas: at most this many creations or deletions per sync. */
export const BURST_REPLICAS = 500;

export interface ReplicaSetControllerOptions {
  /** Delay before a failed sync is retried (default 1 s). */
  readonly retryMs?: number;
  readonly burstReplicas?: number;
  readonly now?: () => number;
}

const splitKey = (key: string) => {
  const i = key.indexOf('/');
  return [key.slice(0, i), key.slice(i + 1)] as const;
};
const specOf = (o: ApiObject) => (o.spec ?? {}) as { replicas?: number; minReadySeconds?: number; template?: Record<string, unknown> };
const templateLabels = (o: ApiObject) => ((specOf(o).template?.metadata ?? {}) as { labels?: Record<string, string> }).labels;

export class ReplicaSetController implements Controller {
  private readonly client: ControllerClient;
  private readonly recorder: EventRecorder;
  private readonly owners: SharedInformer;
  private readonly pods: SharedInformer;
  private readonly queue: WorkQueue<string>;
  private readonly expectations: Expectations;
  private readonly starter: StartWhenAuthorized;
  private readonly work: ObjectQueue;
  private readonly now: () => number;
  private readonly burst: number;

  constructor(ctx: ControllerContext, private readonly kind: ReplicaKind, opts: ReplicaSetControllerOptions = {}) {
    this.now = opts.now ?? Date.now;
    this.burst = opts.burstReplicas ?? BURST_REPLICAS;
    this.client = ctx.client(kind.serviceAccount);
    this.recorder = ctx.recorder(kind.serviceAccount, kind.component);
    this.expectations = new Expectations(this.now);
    this.owners = ctx.informers.informer(kind.target.group, kind.target.resource);
    this.pods = ctx.informers.informer('', 'pods');
    this.queue = new WorkQueue((key) => this.sync(key), {
      retryMs: opts.retryMs ?? 1000,
      onError: (key, err) => console.error(`${kind.component}: sync of ${key} failed; will retry: ${(err as Error).message}`),
    });
    this.work = new ObjectQueue(this.queue);
    this.starter = new StartWhenAuthorized(this.client, kind.target, kind.component, () => this.run());
  }

  start(): Promise<void> {
    return this.starter.start();
  }

  stop(): void {
    this.starter.stop();
    this.queue.stop();
    this.work.stop();
  }

  private async run(): Promise<void> {
    this.owners.addHandler({
      onAdd: (o) => this.work.add(o),
      onUpdate: (_old, o) => this.work.add(o),
      onDelete: (o) => {
        this.expectations.delete(keyOf(o));
        this.work.add(o);
      },
    });
    this.pods.addHandler({
      onAdd: (p) => this.podAdded(p),
      onUpdate: (old, p) => this.podUpdated(old, p),
      onDelete: (p) => this.podDeleted(p),
    });
    await Promise.all([this.owners.start(), this.pods.start()]);
    await Promise.all([this.owners.waitForSync(), this.pods.waitForSync()]);
    this.work.open();
    for (const o of this.owners.list()) this.work.add(o);
  }

  /** The owner a pod's controller reference names, if it is ours and still the same object. */
  private ownerOf(pod: ApiObject, ref = controllerOf(pod)): ApiObject | undefined {
    return resolveControllerRef(this.owners, pod.metadata.namespace ?? '', ref, this.kind.kind);
  }

  /** The owners whose selector matches an orphan pod (kube's getPodReplicaSets). */
  private ownersSelecting(pod: ApiObject): ApiObject[] {
    return ownersSelecting(this.owners, pod, (o) => this.kind.selector(o));
  }

  private podAdded(pod: ApiObject): void {
    if (pod.metadata.deletionTimestamp) return this.podDeleted(pod);
    if (controllerOf(pod)) {
      const owner = this.ownerOf(pod);
      if (!owner) return;
      this.expectations.creationObserved(keyOf(owner));
      return this.work.add(owner);
    }
    for (const o of this.ownersSelecting(pod)) this.work.add(o);
  }

  private podUpdated(old: ApiObject, pod: ApiObject): void {
    if (old.metadata.resourceVersion === pod.metadata.resourceVersion) return;
    const labelsChanged = !deepEqual(old.metadata.labels ?? {}, pod.metadata.labels ?? {});
    if (pod.metadata.deletionTimestamp) {
      this.podDeleted(pod);
      if (labelsChanged) this.podDeleted(old);
      return;
    }
    const owner = queueOwnersOfUpdate(this.work, old, pod, { resolve: (ns, ref) => resolveControllerRef(this.owners, ns, ref, this.kind.kind), selecting: (p) => this.ownersSelecting(p) });
    if (!owner) return;
    const minReady = specOf(owner).minReadySeconds ?? 0;
    if (!isPodReady(old) && isPodReady(pod) && minReady > 0) this.work.addAfter(owner, minReady * 1000 + 1000);
  }

  private podDeleted(pod: ApiObject): void {
    const owner = this.ownerOf(pod);
    if (!owner) return;
    this.expectations.deletionObserved(keyOf(owner), keyOf(pod));
    this.work.add(owner);
  }

  private async sync(key: string): Promise<boolean> {
    const [namespace, name] = splitKey(key);
    const rs = this.owners.get(namespace, name);
    if (!rs) {
      this.expectations.delete(key);
      return true;
    }
    const needsSync = this.expectations.satisfied(key);
    const selector = this.kind.selector(rs);
    const ref = controllerRef(rs, this.kind.apiVersion, this.kind.kind);
    const { claimed, errors } = await claimObjects(this.pods.list(namespace).filter(isPodActive), {
      owner: rs, ownerRef: ref, resource: { group: '', resource: 'pods' },
      matches: (p) => selector !== undefined && selectorMatches(selector, p.metadata.labels ?? {}),
      getOwner: () => this.client.get(this.kind.target, namespace, name),
      // pods are adopted and released by patch in kube (the bootstrap roles grant patch on pods, not update)
      write: async (p, mutate) => void await this.client.update(PODS, namespace, p.metadata.name!, mutate, { verb: 'patch' }),
    });
    if (errors.length > 0) throw errors[0];
    let manage: ManageResult = { failed: false };
    if (needsSync && !rs.metadata.deletionTimestamp) manage = await this.manageReplicas(rs, claimed, key);
    const minReady = specOf(rs).minReadySeconds ?? 0;
    const status = calculateStatus(rs, claimed, templateLabels(rs), minReady, manage, this.now());
    await this.writeStatus(rs, status);
    const replicas = specOf(rs).replicas ?? 1;
    if (!manage.failed && minReady > 0 && status.readyReplicas === replicas && status.availableReplicas !== replicas) {
      this.work.addAfter(rs, minReady * 1000);
    }
    if (manage.failed) throw new Error(manage.message);
    return true;
  }

  private async writeStatus(rs: ApiObject, status: ReplicaStatus): Promise<void> {
    const generation = rs.metadata.generation ?? 0;
    const current = statusOf(rs);
    status.observedGeneration = generation;
    if (deepEqual(current, status)) return;
    await this.client.update({ ...this.kind.target, subresource: 'status' }, rs.metadata.namespace!, rs.metadata.name!, (latest) => ({ ...latest, status }));
  }

  /** Creates or deletes the difference between the pods claimed and spec.replicas (kube's manageReplicas). */
  private async manageReplicas(rs: ApiObject, pods: readonly ApiObject[], key: string): Promise<ManageResult> {
    const diff = pods.length - (specOf(rs).replicas ?? 1);
    if (diff < 0) {
      const n = Math.min(-diff, this.burst);
      this.expectations.expectCreations(key, n);
      const { successes, error } = await slowStartBatch(n, 1, () => this.createPod(rs));
      for (let i = successes; i < n; i++) this.expectations.creationSkipped(key);
      return error === undefined ? { failed: false } : { failed: true, creating: true, message: (error as Error).message };
    }
    if (diff > 0) {
      const n = Math.min(diff, this.burst);
      const victims = podsToDelete(pods, this.relatedPods(rs), n, this.now());
      this.expectations.expectDeletions(key, victims.map(keyOf));
      const results = await Promise.all(victims.map(async (p) => {
        try {
          await this.deletePod(rs, p);
          return undefined;
        } catch (err) {
          this.expectations.deletionObserved(key, keyOf(p));
          return isReason(err, 'NotFound') ? undefined : err;
        }
      }));
      const error = results.find((e) => e !== undefined);
      return error === undefined ? { failed: false } : { failed: true, creating: false, message: (error as Error).message };
    }
    return { failed: false };
  }

  private async createPod(rs: ApiObject): Promise<void> {
    const template = specOf(rs).template;
    if (!template) throw new Error('pod template is empty');
    const pod = podFromTemplate(template, rs.metadata.namespace!, rs.metadata.name!, controllerRef(rs, this.kind.apiVersion, this.kind.kind));
    try {
      const created = await this.client.create(PODS, rs.metadata.namespace!, pod);
      void this.recorder.event(rs, 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata.name}`);
    } catch (err) {
      if (isNamespaceTerminating(err)) return; // the namespace goes away: nothing to report
      void this.recorder.event(rs, 'Warning', 'FailedCreate', `Error creating: ${(err as Error).message}`);
      throw err;
    }
  }

  private async deletePod(rs: ApiObject, pod: ApiObject): Promise<void> {
    try {
      await this.client.delete(PODS, pod.metadata.namespace!, pod.metadata.name!);
    } catch (err) {
      if (!isReason(err, 'NotFound')) void this.recorder.event(rs, 'Warning', 'FailedDelete', `Error deleting: ${(err as Error).message}`);
      throw err;
    }
    void this.recorder.event(rs, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`);
  }

  /**
   * The pods of the owner's family (kube's getIndirectlyRelatedPods): those of
   * every object of this kind with the same controller (a Deployment's
   * ReplicaSets), or of the owner alone when it has no controller.
   */
  private relatedPods(rs: ApiObject): ApiObject[] {
    const parent = controllerOf(rs);
    const family = parent
      ? this.owners.list(rs.metadata.namespace ?? '').filter((o) => controllerOf(o)?.uid === parent.uid)
      : [rs];
    const uids = new Set(family.map((o) => o.metadata.uid));
    return this.pods.list(rs.metadata.namespace ?? '').filter((p) => uids.has(controllerOf(p)?.uid));
  }
}
