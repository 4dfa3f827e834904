// The deployment controller's writes (kube's sync.go and rolling.go helpers
// that call the API): the Deployment's status with its revision annotation,
// a ReplicaSet's size and replica annotations (with the ScalingReplicaSet
// Event), finding or creating the new ReplicaSet with its revision
// (`<deployment>-<pod-template-hash>`, collisions counted), and deleting old
// ReplicaSets beyond revisionHistoryLimit. All as deployment-controller.
import type { ApiObject } from '../../registry/object.js';
import { deepEqual } from '../../registry/object.js';
import type { ControllerClient } from '../client.js';
import type { EventRecorder } from '../events.js';
import { isNamespaceTerminating, isReason } from '../informer.js';
import { controllerOf, controllerRef } from '../replicaset/pods.js';
import { computeHash } from './hash.js';
import { REVISION, maxRevision, replicasAnnotationsNeedUpdate, setNewReplicaSetAnnotations, setReplicasAnnotations } from './annotations.js';
import { Message, PROGRESSING, Reason, getCondition, newCondition, setCondition } from './conditions.js';
import { byCreation, byRevision, desiredReplicas, maxSurge, newRSNewReplicas, specReplicas, statusReplicas } from './replicas.js';
import type { Scaler, ScalingOperation } from './rolling.js';
import { compactStatus, hasProgressDeadline, statusOf, type DeploymentStatus } from './status.js';
import { POD_TEMPLATE_HASH, equalIgnoreHash } from './templates.js';

export const DEPLOYMENTS = { group: 'apps', version: 'v1', resource: 'deployments' };
export const REPLICASETS = { group: 'apps', version: 'v1', resource: 'replicasets' };

interface DeploymentSpec {
  selector?: { matchLabels?: Record<string, string>; matchExpressions?: unknown[] };
  template?: { metadata?: { labels?: Record<string, string> }; [k: string]: unknown };
  minReadySeconds?: number;
  revisionHistoryLimit?: number;
}

const dspec = (d: ApiObject) => (d.spec ?? {}) as DeploymentSpec;
const rsTemplate = (rs: ApiObject) => ((rs.spec ?? {}) as { template?: unknown }).template;

export class DeploymentWrites {
  constructor(private readonly client: ControllerClient, private readonly recorder: EventRecorder, private readonly now: () => number) {}

  event(d: ApiObject, type: 'Normal' | 'Warning', reason: string, message: string): Promise<void> {
    return this.recorder.event(d, type, reason, message);
  }

  /** Writes the Deployment's status (and its revision annotation, which kube writes through /status too). */
  async status(d: ApiObject, status: DeploymentStatus): Promise<ApiObject> {
    const revision = d.metadata.annotations?.[REVISION];
    const written = await this.client.update({ ...DEPLOYMENTS, subresource: 'status' }, d.metadata.namespace!, d.metadata.name!, (latest) => {
      const meta = revision === undefined ? latest.metadata : { ...latest.metadata, annotations: { ...(latest.metadata.annotations ?? {}), [REVISION]: revision } };
      return { ...latest, metadata: meta, status: compactStatus(status) };
    });
    return structuredClone(written);
  }

  scaler(d: ApiObject): Scaler {
    return {
      scale: async (rs, replicas, operation: ScalingOperation) => {
        const desired = desiredReplicas(d);
        const max = desired + maxSurge(d);
        const resize = specReplicas(rs) !== replicas;
        if (!resize && !replicasAnnotationsNeedUpdate(rs, desired, max)) return { scaled: false, rs };
        const from = specReplicas(rs);
        const written = await this.client.update(REPLICASETS, rs.metadata.namespace!, rs.metadata.name!, (latest) => {
          const next = structuredClone(latest);
          (next.spec as { replicas: number }).replicas = replicas;
          setReplicasAnnotations(next, desired, max);
          return next;
        });
        if (resize) void this.recorder.event(d, 'Normal', 'ScalingReplicaSet', `Scaled ${operation} replica set ${rs.metadata.name} to ${replicas} from ${from}`);
        return { scaled: resize, rs: structuredClone(written) };
      },
    };
  }

  /**
   * The new ReplicaSet (the one whose template is the Deployment's) and the
   * old ones, with revisions brought up to date (kube's
   * getAllReplicaSetsAndSyncRevision); with `create`, a missing new one is
   * created. May write the Deployment's status: `d` is updated in place.
   */
  async replicaSetsAndRevision(d: ApiObject, rsList: readonly ApiObject[], create: boolean): Promise<{ newRS: ApiObject | undefined; oldRSs: ApiObject[] }> {
    const template = dspec(d).template;
    const existing = [...rsList].sort(byCreation).find((rs) => equalIgnoreHash(rsTemplate(rs), template));
    const oldRSs = rsList.filter((rs) => rs !== existing);
    const newRevision = String(maxRevision(oldRSs) + 1);
    if (existing) return { newRS: await this.syncExistingNewRS(d, existing, newRevision), oldRSs };
    if (!create) return { newRS: undefined, oldRSs };
    return { newRS: await this.createNewRS(d, oldRSs, newRevision), oldRSs };
  }

  private async syncExistingNewRS(d: ApiObject, existing: ApiObject, newRevision: string): Promise<ApiObject> {
    const rs = structuredClone(existing);
    const desired = desiredReplicas(d);
    const annotationsChanged = setNewReplicaSetAnnotations(rs, { deployment: d, revision: newRevision, exists: true, desired, max: desired + maxSurge(d) });
    const minReady = dspec(d).minReadySeconds ?? 0;
    const rsSpec = rs.spec as { minReadySeconds?: number };
    if (annotationsChanged || (rsSpec.minReadySeconds ?? 0) !== minReady) {
      const written = await this.client.update(REPLICASETS, rs.metadata.namespace!, rs.metadata.name!, (latest) => ({
        ...latest, metadata: { ...latest.metadata, annotations: rs.metadata.annotations ?? {} }, spec: { ...(latest.spec as object), minReadySeconds: minReady },
      }));
      return structuredClone(written);
    }
    let needsUpdate = this.setRevision(d, rs.metadata.annotations?.[REVISION] ?? '');
    const status = statusOf(d);
    if (hasProgressDeadline(d) && !getCondition(status.conditions, PROGRESSING)) {
      status.conditions = setCondition(status.conditions, newCondition(PROGRESSING, 'True', Reason.FoundNewRS, Message.found(rs.metadata.name!), this.now()));
      d.status = status;
      needsUpdate = true;
    }
    if (needsUpdate) Object.assign(d, await this.status(d, statusOf(d)));
    return rs;
  }

  private setRevision(d: ApiObject, revision: string): boolean {
    if (d.metadata.annotations?.[REVISION] === revision) return false;
    d.metadata.annotations = { ...(d.metadata.annotations ?? {}), [REVISION]: revision };
    return true;
  }

  private async createNewRS(d: ApiObject, oldRSs: readonly ApiObject[], newRevision: string): Promise<ApiObject> {
    const ns = d.metadata.namespace!;
    const spec = dspec(d);
    const hash = computeHash(spec.template, statusOf(d).collisionCount);
    const template = structuredClone(spec.template ?? {});
    template.metadata = { ...(template.metadata ?? {}), labels: { ...(template.metadata?.labels ?? {}), [POD_TEMPLATE_HASH]: hash } };
    const selector = structuredClone(spec.selector!);
    selector.matchLabels = { ...(selector.matchLabels ?? {}), [POD_TEMPLATE_HASH]: hash };
    const name = `${d.metadata.name}-${hash}`;
    const rs: ApiObject = {
      apiVersion: 'apps/v1', kind: 'ReplicaSet',
      metadata: { name, namespace: ns, ownerReferences: [controllerRef(d, 'apps/v1', 'Deployment')], labels: { ...template.metadata.labels } },
      spec: { replicas: 0, minReadySeconds: spec.minReadySeconds ?? 0, selector, template },
    };
    const replicas = newRSNewReplicas(d, [...oldRSs, rs], rs);
    (rs.spec as { replicas: number }).replicas = replicas;
    const desired = desiredReplicas(d);
    setNewReplicaSetAnnotations(rs, { deployment: d, revision: newRevision, exists: false, desired, max: desired + maxSurge(d) });
    let created: ApiObject;
    let alreadyExists = false;
    try {
      created = structuredClone(await this.client.create(REPLICASETS, ns, rs));
    } catch (err) {
      if (isReason(err, 'AlreadyExists')) {
        const found = await this.client.get(REPLICASETS, ns, name);
        if (controllerOf(found)?.uid !== d.metadata.uid || !equalIgnoreHash(rsTemplate(found), spec.template)) {
          // a hash collision: the next sync hashes with a higher collision count
          const status = statusOf(d);
          Object.assign(d, await this.status(d, { ...status, collisionCount: (status.collisionCount ?? 0) + 1 }));
          throw err;
        }
        created = structuredClone(found);
        alreadyExists = true;
      } else {
        if (isNamespaceTerminating(err)) throw err;
        const msg = Message.failedCreate(name, (err as Error).message);
        if (hasProgressDeadline(d)) {
          const status = statusOf(d);
          const conditions = setCondition(status.conditions, newCondition(PROGRESSING, 'False', Reason.FailedRSCreate, msg, this.now()));
          if (!deepEqual(conditions, status.conditions ?? [])) await this.status(d, { ...status, conditions });
        }
        void this.recorder.event(d, 'Warning', Reason.FailedRSCreate, msg);
        throw err;
      }
    }
    if (!alreadyExists && replicas > 0) void this.recorder.event(d, 'Normal', 'ScalingReplicaSet', `Scaled up replica set ${name} to ${replicas}`);
    let needsUpdate = this.setRevision(d, newRevision);
    if (!alreadyExists && hasProgressDeadline(d)) {
      const status = statusOf(d);
      d.status = { ...status, conditions: setCondition(status.conditions, newCondition(PROGRESSING, 'True', Reason.NewReplicaSet, Message.created(name), this.now())) };
      needsUpdate = true;
    }
    if (needsUpdate) Object.assign(d, await this.status(d, statusOf(d)));
    return created;
  }

  /** Deletes old ReplicaSets beyond revisionHistoryLimit, lowest revision first, if scaled to 0 and settled (kube's cleanupDeployment). */
  async cleanup(d: ApiObject, oldRSs: readonly ApiObject[]): Promise<void> {
    const limit = dspec(d).revisionHistoryLimit;
    if (limit === undefined || limit === null) return;
    const cleanable = oldRSs.filter((rs) => !rs.metadata.deletionTimestamp).sort(byRevision);
    const diff = cleanable.length - limit;
    for (let i = 0; i < diff; i++) {
      const rs = cleanable[i]!;
      const observed = ((rs.status ?? {}) as { observedGeneration?: number }).observedGeneration ?? 0;
      if (statusReplicas(rs) !== 0 || specReplicas(rs) !== 0 || (rs.metadata.generation ?? 0) > observed) continue;
      try {
        await this.client.delete(REPLICASETS, rs.metadata.namespace!, rs.metadata.name!);
      } catch (err) {
        if (!isReason(err, 'NotFound')) throw err;
      }
    }
  }
}
