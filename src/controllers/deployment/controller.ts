// The deployment controller (kube's pkg/controller/deployment):
//
//   Deployments, ReplicaSets, pods (informers) ──► queue of Deployment keys
//   sync(key):
//     claim ReplicaSets by selector (adopt / release)
//     being deleted         ──► status only
//     Progressing paused/resumed conditions
//     paused, or resized    ──► scale (proportionally), status
//     Recreate              ──► old to 0, wait for old pods, new to replicas
//     RollingUpdate         ──► new up within maxSurge, old down within maxUnavailable
//     complete              ──► old ReplicaSets beyond revisionHistoryLimit deleted
//     status + Progressing/Available conditions; a stuck rollout is looked
//     at again when its progress deadline passes
//
// The new ReplicaSet is `<deployment>-<pod-template-hash>`, the hash label on
// its selector and template; revisions and replica annotations as kube's.
// Writes as deployment-controller; Events as kube's (ScalingReplicaSet…).
import type { ApiObject } from '../../registry/object.js';
import { deepEqual } from '../../registry/object.js';
import type { Controller, ControllerContext } from '../context.js';
import { StartWhenAuthorized, type ControllerClient } from '../client.js';
import type { SharedInformer } from '../shared.js';
import { WorkQueue } from '../workqueue.js';
import { selectorMatches } from '../../api/meta/checks.js';
import { isEmptySelector, ObjectQueue, ownersSelecting, resolveControllerRef } from '../owners.js';
import { claimObjects } from '../replicaset/claim.js';
import { controllerOf, controllerRef } from '../replicaset/pods.js';
import { int32Annotation, DESIRED_REPLICAS } from './annotations.js';
import { Message, PROGRESSING, Reason, getCondition, newCondition, setCondition } from './conditions.js';
import { activeReplicaSets, desiredReplicas, statusReplicas } from './replicas.js';
import { reconcileNewReplicaSet, reconcileOldReplicaSets, scaleDeployment, scaleTo } from './rolling.js';
import { calculateStatus, compactStatus, deploymentComplete, hasProgressDeadline, recheckAfterMs, rolloutStatus, statusOf } from './status.js';
import { DEPLOYMENTS, DeploymentWrites, REPLICASETS } from './writes.js';

export { equalIgnoreHash, POD_TEMPLATE_HASH } from './templates.js';
export { DEPLOYMENTS, REPLICASETS } from './writes.js';
const SERVICE_ACCOUNT = 'deployment-controller';

export interface DeploymentControllerOptions {
  readonly retryMs?: number;
  readonly now?: () => number;
}

interface DeploymentSpec {
  replicas?: number;
  selector?: { matchLabels?: Record<string, string>; matchExpressions?: unknown[] };
  template?: { metadata?: { labels?: Record<string, string> }; [k: string]: unknown };
  strategy?: { type?: string };
  minReadySeconds?: number;
  revisionHistoryLimit?: number;
  paused?: boolean;
}

const dspec = (d: ApiObject) => (d.spec ?? {}) as DeploymentSpec;

export class DeploymentController implements Controller {
  private readonly client: ControllerClient;
  private readonly writes: DeploymentWrites;
  private readonly deployments: SharedInformer;
  private readonly replicaSets: SharedInformer;
  private readonly pods: SharedInformer;
  private readonly queue: WorkQueue<string>;
  private readonly starter: StartWhenAuthorized;
  private readonly work: ObjectQueue;
  private readonly now: () => number;

  constructor(ctx: ControllerContext, opts: DeploymentControllerOptions = {}) {
    this.now = opts.now ?? Date.now;
    this.client = ctx.client(SERVICE_ACCOUNT);
    this.writes = new DeploymentWrites(this.client, ctx.recorder(SERVICE_ACCOUNT, 'deployment-controller'), this.now);
    this.deployments = ctx.informers.informer('apps', 'deployments');
    this.replicaSets = ctx.informers.informer('apps', 'replicasets');
    this.pods = ctx.informers.informer('', 'pods');
    this.queue = new WorkQueue((key) => this.sync(key), {
      retryMs: opts.retryMs ?? 1000,
      onError: (key, err) => console.error(`deployment-controller: sync of ${key} failed; will retry: ${(err as Error).message}`),
    });
    this.work = new ObjectQueue(this.queue);
    this.starter = new StartWhenAuthorized(this.client, DEPLOYMENTS, 'deployment-controller', () => this.run());
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
    this.deployments.addHandler({ onAdd: (d) => this.work.add(d), onUpdate: (_o, d) => this.work.add(d), onDelete: (d) => this.work.add(d) });
    this.replicaSets.addHandler({
      onAdd: (rs) => this.replicaSetChanged(undefined, rs),
      onUpdate: (old, rs) => this.replicaSetChanged(old, rs),
      onDelete: (rs) => {
        const d = this.ownerOf(rs);
        if (d) this.work.add(d);
      },
    });
    this.pods.addHandler({ onDelete: (pod) => this.podDeleted(pod) });
    await Promise.all([this.deployments.start(), this.replicaSets.start(), this.pods.start()]);
    await Promise.all([this.deployments.waitForSync(), this.replicaSets.waitForSync(), this.pods.waitForSync()]);
    this.work.open();
    for (const d of this.deployments.list()) this.work.add(d);
  }

  /** The Deployment a ReplicaSet's controller reference names, if it is still that object. */
  private ownerOf(rs: ApiObject, ref = controllerOf(rs)): ApiObject | undefined {
    return resolveControllerRef(this.deployments, rs.metadata.namespace ?? '', ref, 'Deployment');
  }

  /** Deployments whose selector matches an orphan ReplicaSet (kube's getDeploymentsForReplicaSet). */
  private selecting(rs: ApiObject): ApiObject[] {
    return ownersSelecting(this.deployments, rs, (d) => dspec(d).selector);
  }

  private replicaSetChanged(old: ApiObject | undefined, rs: ApiObject): void {
    if (old && old.metadata.resourceVersion === rs.metadata.resourceVersion) return;
    const oldRef = old ? controllerOf(old) : undefined;
    const ref = controllerOf(rs);
    const refChanged = !deepEqual(oldRef ?? null, ref ?? null);
    if (old && refChanged && oldRef) {
      const prior = this.ownerOf(old, oldRef);
      if (prior) this.work.add(prior);
    }
    if (ref) {
      const d = this.ownerOf(rs, ref);
      if (d) this.work.add(d);
      return;
    }
    const labelsChanged = !old || !deepEqual(old.metadata.labels ?? {}, rs.metadata.labels ?? {});
    if (rs.metadata.deletionTimestamp && !old) return;
    if (labelsChanged || refChanged) for (const d of this.selecting(rs)) this.work.add(d);
  }

  /** A Recreate rollout waits for the old pods to go: a pod deletion may unblock it. */
  private podDeleted(pod: ApiObject): void {
    const rsRef = controllerOf(pod);
    if (!rsRef || rsRef.kind !== 'ReplicaSet') return;
    const rs = this.replicaSets.get(pod.metadata.namespace ?? '', rsRef.name);
    const d = rs && rs.metadata.uid === rsRef.uid ? this.ownerOf(rs) : undefined;
    if (d && dspec(d).strategy?.type === 'Recreate') this.work.add(d);
  }

  private async sync(key: string): Promise<boolean> {
    const i = key.indexOf('/');
    const cached = this.deployments.get(key.slice(0, i), key.slice(i + 1));
    if (!cached) return true;
    let d = structuredClone(cached);
    const selector = dspec(d).selector;
    if (selector === undefined || isEmptySelector(selector)) {
      void this.writes.event(d, 'Warning', 'SelectingAll', 'This deployment is selecting all pods. A non-empty selector is required.');
      if ((statusOf(d).observedGeneration ?? 0) < (d.metadata.generation ?? 0)) {
        await this.writes.status(d, { ...statusOf(d), observedGeneration: d.metadata.generation ?? 0 });
      }
      return true;
    }
    const rsList = await this.claimReplicaSets(d);
    if (d.metadata.deletionTimestamp) {
      const { newRS, oldRSs } = await this.writes.replicaSetsAndRevision(d, rsList, false);
      await this.syncStatus(d, [...oldRSs, newRS], newRS);
      return true;
    }
    d = await this.checkPausedConditions(d);
    if (dspec(d).paused || (await this.isScalingEvent(d, rsList))) {
      await this.syncScale(d, rsList);
      return true;
    }
    if (dspec(d).strategy?.type === 'Recreate') await this.rolloutRecreate(d, rsList);
    else await this.rolloutRolling(d, rsList);
    return true;
  }

  /** The namespace's ReplicaSets this Deployment owns, adopting and releasing as its selector says (kube's getReplicaSetsForDeployment). */
  private async claimReplicaSets(d: ApiObject): Promise<ApiObject[]> {
    const ns = d.metadata.namespace!;
    const selector = dspec(d).selector!;
    const { claimed, errors } = await claimObjects(this.replicaSets.list(ns), {
      owner: d, ownerRef: controllerRef(d, 'apps/v1', 'Deployment'), resource: { group: 'apps', resource: 'replicasets' },
      matches: (rs) => selectorMatches(selector, rs.metadata.labels ?? {}),
      getOwner: () => this.client.get(DEPLOYMENTS, ns, d.metadata.name!),
      write: async (rs, mutate) => void await this.client.update(REPLICASETS, ns, rs.metadata.name!, mutate),
    });
    if (errors.length > 0) throw errors[0];
    return claimed.map((rs) => structuredClone(rs));
  }

  private async checkPausedConditions(d: ApiObject): Promise<ApiObject> {
    if (!hasProgressDeadline(d)) return d;
    const conditions = statusOf(d).conditions;
    const cond = getCondition(conditions, PROGRESSING);
    if (cond?.reason === Reason.TimedOut) return d;
    const pausedCond = cond?.reason === Reason.Paused;
    const paused = !!dspec(d).paused;
    if (paused && !pausedCond) {
      return this.writes.status(d, { ...statusOf(d), conditions: setCondition(conditions, newCondition(PROGRESSING, 'Unknown', Reason.Paused, Message.paused, this.now())) });
    }
    if (!paused && pausedCond) {
      return this.writes.status(d, { ...statusOf(d), conditions: setCondition(conditions, newCondition(PROGRESSING, 'Unknown', Reason.Resumed, Message.resumed, this.now())) });
    }
    return d;
  }

  /** An active ReplicaSet was sized for another replica count (kube's isScalingEvent). */
  private async isScalingEvent(d: ApiObject, rsList: readonly ApiObject[]): Promise<boolean> {
    const { newRS, oldRSs } = await this.writes.replicaSetsAndRevision(d, rsList, false);
    return activeReplicaSets([...oldRSs, newRS]).some((rs) => {
      const desired = int32Annotation(rs, DESIRED_REPLICAS);
      return desired !== undefined && desired !== desiredReplicas(d);
    });
  }

  /** kube's sync: scale, (paused) clean up, status. */
  private async syncScale(d: ApiObject, rsList: readonly ApiObject[]): Promise<void> {
    const { newRS, oldRSs } = await this.writes.replicaSetsAndRevision(d, rsList, false);
    await scaleDeployment(this.writes.scaler(d), d, newRS, oldRSs, statusOf(d).replicas ?? 0);
    if (dspec(d).paused) await this.writes.cleanup(d, oldRSs);
    await this.syncStatus(d, [...oldRSs, newRS], newRS);
  }

  private async rolloutRolling(d: ApiObject, rsList: readonly ApiObject[]): Promise<void> {
    const { newRS, oldRSs } = await this.writes.replicaSetsAndRevision(d, rsList, true);
    const all = [...oldRSs, newRS!];
    const s = this.writes.scaler(d);
    if (await reconcileNewReplicaSet(s, d, all, newRS!)) return this.syncRolloutStatus(d, all, newRS);
    if (await reconcileOldReplicaSets(s, d, all, activeReplicaSets(oldRSs), newRS!)) return this.syncRolloutStatus(d, all, newRS);
    if (deploymentComplete(d, statusOf(d))) await this.writes.cleanup(d, oldRSs);
    return this.syncRolloutStatus(d, all, newRS);
  }

  private async rolloutRecreate(d: ApiObject, rsList: readonly ApiObject[]): Promise<void> {
    let { newRS, oldRSs } = await this.writes.replicaSetsAndRevision(d, rsList, false);
    let all = [...oldRSs, newRS];
    const s = this.writes.scaler(d);
    let scaledDown = false;
    for (const rs of activeReplicaSets(oldRSs)) if ((await scaleTo(s, rs, 0)).scaled) scaledDown = true;
    if (scaledDown) return this.syncRolloutStatus(d, all, newRS);
    if (this.oldPodsRunning(newRS, oldRSs)) return this.syncRolloutStatus(d, all, newRS);
    if (!newRS) {
      ({ newRS, oldRSs } = await this.writes.replicaSetsAndRevision(d, rsList, true));
      all = [...oldRSs, newRS];
    }
    await scaleTo(s, newRS!, desiredReplicas(d));
    if (deploymentComplete(d, statusOf(d))) await this.writes.cleanup(d, oldRSs);
    return this.syncRolloutStatus(d, all, newRS);
  }

  /** Old ReplicaSets still report pods, or pods of theirs are not finished (kube's oldPodsRunning). */
  private oldPodsRunning(newRS: ApiObject | undefined, oldRSs: readonly ApiObject[]): boolean {
    if (oldRSs.reduce((n, rs) => n + statusReplicas(rs), 0) > 0) return true;
    const oldUids = new Set(oldRSs.map((rs) => rs.metadata.uid));
    const ns = (newRS ?? oldRSs[0])?.metadata.namespace;
    if (ns === undefined) return false;
    return this.pods.list(ns).some((p) => {
      const ref = controllerOf(p);
      if (!ref || !oldUids.has(ref.uid) || ref.uid === newRS?.metadata.uid) return false;
      const phase = ((p.status ?? {}) as { phase?: string }).phase;
      return phase !== 'Failed' && phase !== 'Succeeded';
    });
  }

  /** kube's syncDeploymentStatus: counts and Available. */
  private async syncStatus(d: ApiObject, allRSs: readonly (ApiObject | undefined)[], newRS: ApiObject | undefined): Promise<void> {
    const next = calculateStatus(d, allRSs, newRS, this.now());
    if (deepEqual(compactStatus(statusOf(d)), compactStatus(next))) return;
    await this.writes.status(d, next);
  }

  /** kube's syncRolloutStatus: counts, Available, Progressing, ReplicaFailure; a stuck rollout looked at again at its deadline. */
  private async syncRolloutStatus(d: ApiObject, allRSs: readonly (ApiObject | undefined)[], newRS: ApiObject | undefined): Promise<void> {
    const now = this.now();
    const next = rolloutStatus(d, allRSs, newRS, now);
    if (deepEqual(compactStatus(statusOf(d)), compactStatus(next))) {
      const after = recheckAfterMs(d, next, now);
      if (after !== undefined) this.work.addAfter(d, after);
      return;
    }
    await this.writes.status(d, next);
  }
}
