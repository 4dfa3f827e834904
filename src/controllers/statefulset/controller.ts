// The StatefulSet controller (kube's pkg/controller/statefulset,
// `statefulset`), as statefulset-controller:
//
//   informer events (sets, pods) ──► queue of set keys ──► sync(key)
//   sync: adopt orphan ControllerRevisions ─► claim member pods (ControllerRef,
//         selector and `<set>-<n>` name) ─► revisions: current (status) and
//         update (the template now; created, or an older equal one renumbered
//         on rollback) ─► one pass of control.ts ─► status ─► history beyond
//         revisionHistoryLimit deleted (revisions in use by pods are kept)
import type { ApiObject, OwnerReference } from '../../registry/object.js';
import type { Controller, ControllerContext } from '../context.js';
import { StartWhenAuthorized, type ControllerClient } from '../client.js';
import type { SharedInformer } from '../shared.js';
import { WorkQueue } from '../workqueue.js';
import { isReason } from '../informer.js';
import { selectorMatches } from '../../api/meta/checks.js';
import { objectKey as keyOf, ObjectQueue, ownersSelecting, queueOwnersOfUpdate, resolveControllerRef } from '../owners.js';
import { isPodReady } from '../../api/core/v1/podutil.js';
import { claimObjects } from '../replicaset/claim.js';
import { controllerOf, controllerRef } from '../replicaset/pods.js';
import {
  History, equalRevision, findEqualRevisions, maxRevision, revisionNumber, sortControllerRevisions,
} from '../history/index.js';
import { updateStatefulSet } from './control.js';
import { isMemberOf, podRevision, replicasOf, specOf, statusOf, type SetStatus } from './identity.js';
import { ApiStatefulPodControl, PODS } from './podcontrol.js';
import { applyRevision, newRevision } from './revisions.js';
import { completeRollingUpdate, inconsistentStatus } from './status.js';

export const STATEFULSETS = { group: 'apps', version: 'v1', resource: 'statefulsets' };
export const SERVICE_ACCOUNT = 'statefulset-controller';
export const COMPONENT = 'statefulset-controller';

export interface StatefulSetControllerOptions {
  /** Delay before a failed sync is retried (default 1 s). */
  readonly retryMs?: number;
  readonly now?: () => number;
}

const splitKey = (key: string) => {
  const i = key.indexOf('/');
  return [key.slice(0, i), key.slice(i + 1)] as const;
};
const refTo = (set: ApiObject): OwnerReference => controllerRef(set, 'apps/v1', 'StatefulSet');

export class StatefulSetController implements Controller {
  private readonly client: ControllerClient;
  private readonly sets: SharedInformer;
  private readonly pods: SharedInformer;
  private readonly claims: SharedInformer;
  private readonly revisions: SharedInformer;
  private readonly history: History;
  private readonly podControl: ApiStatefulPodControl;
  private readonly queue: WorkQueue<string>;
  private readonly starter: StartWhenAuthorized;
  private readonly work: ObjectQueue;
  private readonly now: () => number;
  private readonly gates: { readonly startOrdinal: boolean; readonly autoDeletePVC: boolean; readonly maxUnavailable: boolean };

  constructor(ctx: ControllerContext, opts: StatefulSetControllerOptions = {}) {
    this.now = opts.now ?? Date.now;
    this.gates = {
      startOrdinal: ctx.gates.enabled('StatefulSetStartOrdinal'), autoDeletePVC: ctx.gates.enabled('StatefulSetAutoDeletePVC'),
      maxUnavailable: ctx.gates.enabled('MaxUnavailableStatefulSet'),
    };
    this.client = ctx.client(SERVICE_ACCOUNT);
    this.sets = ctx.informers.informer('apps', 'statefulsets');
    this.pods = ctx.informers.informer('', 'pods');
    this.claims = ctx.informers.informer('', 'persistentvolumeclaims');
    this.revisions = ctx.informers.informer('apps', 'controllerrevisions');
    this.history = new History(this.client, this.revisions);
    this.podControl = new ApiStatefulPodControl({
      client: this.client, recorder: ctx.recorder(SERVICE_ACCOUNT, COMPONENT), claims: this.claims, startOrdinalGate: this.gates.startOrdinal,
    });
    this.queue = new WorkQueue((key) => this.sync(key), {
      retryMs: opts.retryMs ?? 1000, workers: ctx.concurrency('statefulset', 5),
      onError: (key, err) => console.error(`${COMPONENT}: sync of ${key} failed; will retry: ${(err as Error).message}`),
    });
    this.work = new ObjectQueue(this.queue);
    this.starter = new StartWhenAuthorized(this.client, STATEFULSETS, COMPONENT, () => this.run());
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
    this.sets.addHandler({ onAdd: (s) => this.work.add(s), onUpdate: (_o, s) => this.work.add(s), onDelete: (s) => this.work.add(s) });
    this.pods.addHandler({ onAdd: (p) => this.podAdded(p), onUpdate: (o, p) => this.podUpdated(o, p), onDelete: (p) => this.podDeleted(p) });
    const all = [this.sets, this.pods, this.claims, this.revisions];
    await Promise.all(all.map((i) => i.start()));
    await Promise.all(all.map((i) => i.waitForSync()));
    this.work.open();
    for (const s of this.sets.list()) this.work.add(s);
  }

  private setOf(pod: ApiObject, ref = controllerOf(pod)): ApiObject | undefined {
    return resolveControllerRef(this.sets, pod.metadata.namespace ?? '', ref, 'StatefulSet');
  }

  /** Sets whose (non-empty) selector matches an orphan pod (kube's getStatefulSetsForPod). */
  private setsSelecting(pod: ApiObject): ApiObject[] {
    return ownersSelecting(this.sets, pod, (s) => specOf(s).selector);
  }

  private podAdded(pod: ApiObject): void {
    if (pod.metadata.deletionTimestamp) return this.podDeleted(pod);
    if (controllerOf(pod)) {
      const s = this.setOf(pod);
      if (s) this.work.add(s);
      return;
    }
    for (const s of this.setsSelecting(pod)) this.work.add(s);
  }

  private podUpdated(old: ApiObject, pod: ApiObject): void {
    if (old.metadata.resourceVersion === pod.metadata.resourceVersion) return;
    const s = queueOwnersOfUpdate(this.work, old, pod, { resolve: (ns, ref) => resolveControllerRef(this.sets, ns, ref, 'StatefulSet'), selecting: (p) => this.setsSelecting(p) });
    if (!s) return;
    const minReady = specOf(s).minReadySeconds ?? 0;
    if (!isPodReady(old) && isPodReady(pod) && minReady > 0) this.work.addAfter(s, minReady * 1000);
  }

  private podDeleted(pod: ApiObject): void {
    const s = this.setOf(pod);
    if (s) this.work.add(s);
  }

  private async sync(key: string): Promise<boolean> {
    const [namespace, name] = splitKey(key);
    const set = this.sets.get(namespace, name);
    if (!set) return true;
    const selector = specOf(set).selector;
    if (!selector) return true;
    await this.adoptOrphanRevisions(set);
    const { claimed, errors } = await claimObjects(this.pods.list(namespace), {
      owner: set, ownerRef: refTo(set), resource: { group: '', resource: 'pods' },
      matches: (p) => selectorMatches(selector, p.metadata.labels ?? {}) && isMemberOf(set, p),
      getOwner: () => this.client.get(STATEFULSETS, namespace, name),
      write: async (p, mutate) => void await this.client.update(PODS, namespace, p.metadata.name!, mutate, { verb: 'patch' }),
    });
    if (errors.length > 0) throw errors[0];
    let status: SetStatus | undefined;
    try {
      status = await this.updateSet(set, claimed);
    } catch (err) {
      // our informer has not seen a pod we created yet: the next event syncs again
      if (isReason(err, 'AlreadyExists')) return false;
      throw err;
    }
    const minReady = specOf(set).minReadySeconds ?? 0;
    if (minReady > 0 && status && status.availableReplicas !== replicasOf(set)) this.work.addAfter(set, minReady * 1000);
    return true;
  }

  private async adoptOrphanRevisions(set: ApiObject): Promise<void> {
    const orphans = this.history.list(set, specOf(set).selector).filter((r) => !controllerOf(r));
    if (orphans.length === 0) return;
    const fresh = await this.client.get(STATEFULSETS, set.metadata.namespace!, set.metadata.name!);
    if (fresh.metadata.uid !== set.metadata.uid) {
      throw new Error(`can't adopt ControllerRevisions: original StatefulSet ${set.metadata.namespace}/${set.metadata.name} is gone: got uid ${fresh.metadata.uid}, wanted ${set.metadata.uid}`);
    }
    if (fresh.metadata.deletionTimestamp) {
      throw new Error(`can't adopt ControllerRevisions: StatefulSet ${set.metadata.namespace}/${set.metadata.name} has just been deleted at ${fresh.metadata.deletionTimestamp}`);
    }
    for (const r of orphans) await this.history.adopt(set, refTo(set), r);
  }

  /** kube's UpdateStatefulSet: revisions, one pass, status, then history truncated (also after a failed pass). */
  private async updateSet(set: ApiObject, pods: ApiObject[]): Promise<SetStatus | undefined> {
    const revisions = sortControllerRevisions(this.history.list(set, specOf(set).selector));
    const { current, update, collisionCount } = await this.setRevisions(set, revisions);
    let failure: unknown;
    let status: SetStatus | undefined;
    try {
      const result = await updateStatefulSet(this.podControl, {
        set, currentSet: applyRevision(set, current), updateSet: applyRevision(set, update),
        currentRevision: current.metadata.name!, updateRevision: update.metadata.name!, collisionCount,
        pods, ref: refTo(set), now: this.now(), gates: this.gates,
      });
      status = result.status;
      failure = result.error;
      await this.writeStatus(set, status);
    } catch (err) {
      failure ??= err;
    }
    await this.truncateHistory(set, pods, revisions, current, update);
    if (failure !== undefined) throw failure;
    return status;
  }

  /** kube's getStatefulSetRevisions. */
  private async setRevisions(set: ApiObject, revisions: ApiObject[]): Promise<{ current: ApiObject; update: ApiObject; collisionCount: number }> {
    let collisionCount = statusOf(set).collisionCount ?? 0;
    const candidate = newRevision(set, refTo(set), maxRevision(revisions) + 1, collisionCount);
    const equal = findEqualRevisions(revisions, candidate);
    let update: ApiObject;
    const last = revisions[revisions.length - 1];
    if (equal.length > 0 && equalRevision(last, equal[equal.length - 1])) {
      update = last!;
    } else if (equal.length > 0) {
      update = await this.history.updateRevision(equal[equal.length - 1]!, revisionNumber(candidate));
    } else {
      const created = await this.history.create(set, candidate, collisionCount);
      update = created.revision;
      collisionCount = created.collisionCount;
    }
    const current = revisions.find((r) => r.metadata.name === statusOf(set).currentRevision) ?? update;
    return { current, update, collisionCount };
  }

  private async writeStatus(set: ApiObject, status: SetStatus): Promise<void> {
    completeRollingUpdate(set, status);
    if (!inconsistentStatus(set, status)) return;
    const body: Record<string, unknown> = { ...status };
    for (const k of Object.keys(body)) if (body[k] === undefined || body[k] === '') delete body[k];
    await this.client.update({ ...STATEFULSETS, subresource: 'status' }, set.metadata.namespace!, set.metadata.name!, (latest) => ({ ...latest, status: body }));
  }

  /** kube's truncateHistory: revisions not current, not the update one and not used by a pod, oldest first, beyond revisionHistoryLimit. */
  private async truncateHistory(set: ApiObject, pods: ApiObject[], revisions: ApiObject[], current: ApiObject, update: ApiObject): Promise<void> {
    const live = new Set([current.metadata.name, update.metadata.name, ...pods.map(podRevision)]);
    const history = revisions.filter((r) => !live.has(r.metadata.name));
    const limit = specOf(set).revisionHistoryLimit ?? 10;
    for (const r of history.slice(0, Math.max(0, history.length - limit))) {
      try {
        await this.history.delete(r);
      } catch (err) {
        if (!isReason(err, 'NotFound')) throw err;
      }
    }
  }
}
