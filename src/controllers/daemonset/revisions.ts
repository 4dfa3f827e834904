// A DaemonSet's ControllerRevisions (kube's daemon/update.go history part):
// each revision stores the DaemonSet's pod template as the strategic merge
// patch that restores it — `{"spec":{"template":{…,"$patch":"replace"}}}`,
// keys sorted as Go marshals a map, so `kubectl rollout undo` (which compares
// these bytes and applies them) works on them — with the revision number and
// the label `controller-revision-hash`, owned by the DaemonSet.
//
//   construct: claim the namespace's revisions (adopt / release), label any
//     without a hash with their name, split into the current one (same
//     template) and old ones; none current → snapshot a new one named
//     `<ds>-<hash>` with revision max(old)+1; several → keep the highest,
//     relabel pods to its hash, delete the rest; a current one with a lower
//     number than an old one is renumbered (a rollback).
//   snapshot: a name taken by another template is a hash collision →
//     status.collisionCount + 1 and the sync is retried.
//   cleanup: old revisions beyond revisionHistoryLimit go, lowest first,
//     unless a pod still carries their hash.
import type { ApiObject } from '../../registry/object.js';
import { isObject } from '../../registry/object.js';
import { selectorMatches } from '../../api/meta/checks.js';
import type { ControllerClient, Target } from '../client.js';
import type { SharedInformer } from '../shared.js';
import { isReason } from '../informer.js';
import { computeHash } from '../deployment/hash.js';
import { claimObjects } from '../replicaset/claim.js';
import { controllerRevisionName, CONTROLLER_REVISIONS, History, maxRevision, rawData, revisionData, revisionNumber, sortControllerRevisions } from '../history/index.js';
import { controllerRef } from '../replicaset/pods.js';
import { REVISION_HASH_LABEL } from './podtemplate.js';

export const DAEMONSETS = { group: 'apps', version: 'v1', resource: 'daemonsets' };
export const PODS = { group: '', version: 'v1', resource: 'pods' };

type Obj = Record<string, unknown>;

/**
 * kube's getPatch: the patch that restores the DaemonSet's template, its keys
 * in Go's order (rawData writes Go's json.Marshal of maps; parsing it keeps
 * that order), so the bytes the server serves are the ones kubectl compares.
 */
export function templatePatch(ds: ApiObject): Obj {
  const spec = isObject(ds.spec) ? ds.spec : {};
  const template = isObject(spec.template) ? spec.template : {};
  return JSON.parse(rawData({ spec: { template: { ...template, $patch: 'replace' } } })) as Obj;
}

/** kube's Match: the revision stores the DaemonSet's current template (byte-equal data). */
export function revisionMatches(ds: ApiObject, rev: ApiObject): boolean {
  return rawData(templatePatch(ds)) === rawData(revisionData(rev));
}
const collisionCountOf = (ds: ApiObject): number | undefined => ((ds.status ?? {}) as { collisionCount?: number }).collisionCount;

/** kube's controller.ComputeHash of the template with the collision count. */
export function templateHash(ds: ApiObject): string {
  const spec = isObject(ds.spec) ? ds.spec : {};
  return computeHash(spec.template ?? {}, collisionCountOf(ds));
}

/**
 * Of the candidates (pods or revisions in the DaemonSet's namespace), those
 * the DaemonSet controls, after adopting the orphans its selector matches and
 * releasing those it no longer does (kube's ClaimPods /
 * ClaimControllerRevisions; the writes are patches).
 */
export async function claimForDaemonSet(client: ControllerClient, ds: ApiObject, target: Target, candidates: readonly ApiObject[]): Promise<ApiObject[]> {
  const ns = ds.metadata.namespace!;
  const selector = ((ds.spec ?? {}) as { selector?: unknown }).selector;
  const { claimed, errors } = await claimObjects(candidates, {
    owner: ds, ownerRef: controllerRef(ds, 'apps/v1', 'DaemonSet'), resource: { group: target.group, resource: target.resource },
    matches: (o) => selector !== undefined && selectorMatches(selector, o.metadata.labels ?? {}),
    getOwner: () => client.get(DAEMONSETS, ns, ds.metadata.name!),
    write: async (o, mutate) => void await client.update(target, ns, o.metadata.name!, mutate, { verb: 'patch' }),
  });
  if (errors.length > 0) throw errors[0];
  return claimed;
}

export interface DaemonRevisions {
  readonly current: ApiObject;
  readonly old: ApiObject[];
}

export class DaemonHistory {
  private readonly history: History;

  constructor(private readonly client: ControllerClient, private readonly revisions: SharedInformer) {
    this.history = new History(client, revisions);
  }

  /** kube's constructHistory. */
  async construct(ds: ApiObject, claimedPods: () => Promise<readonly ApiObject[]>): Promise<DaemonRevisions> {
    const ns = ds.metadata.namespace!;
    const currents: ApiObject[] = [];
    const old: ApiObject[] = [];
    for (let rev of await this.controlled(ds)) {
      if (rev.metadata.labels?.[REVISION_HASH_LABEL] === undefined) {
        rev = await this.client.update(CONTROLLER_REVISIONS, ns, rev.metadata.name!, (latest) => ({
          ...latest, metadata: { ...latest.metadata, labels: { ...(latest.metadata.labels ?? {}), [REVISION_HASH_LABEL]: latest.metadata.name! } },
        }));
      }
      (revisionMatches(ds, rev) ? currents : old).push(rev);
    }
    const next = maxRevision(old) + 1;
    if (currents.length === 0) return { current: await this.snapshot(ds, next), old };
    const current = await this.dedup(ds, currents, claimedPods);
    if (revisionNumber(current) < next) {
      return { current: await this.history.updateRevision(current, next), old };
    }
    return { current, old };
  }

  /** kube's cleanupHistory. */
  async cleanup(ds: ApiObject, old: readonly ApiObject[], pods: readonly ApiObject[]): Promise<void> {
    const limit = Number(((ds.spec ?? {}) as { revisionHistoryLimit?: number }).revisionHistoryLimit ?? 10);
    let toKill = old.length - limit;
    if (toKill <= 0) return;
    const live = new Set(pods.map((p) => p.metadata.labels?.[REVISION_HASH_LABEL]).filter((h) => h));
    for (const rev of sortControllerRevisions(old)) {
      if (toKill <= 0) break;
      if (live.has(rev.metadata.labels?.[REVISION_HASH_LABEL])) continue;
      try {
        await this.history.delete(rev);
      } catch (err) {
        if (!isReason(err, 'NotFound')) throw err;
      }
      toKill--;
    }
  }

  /** The revisions the DaemonSet controls, adopting orphans its selector matches and releasing those it no longer does. */
  private controlled(ds: ApiObject): Promise<ApiObject[]> {
    return claimForDaemonSet(this.client, ds, CONTROLLER_REVISIONS, this.revisions.list(ds.metadata.namespace!));
  }

  /** kube's dedupCurHistories: the highest-numbered of several current revisions stays. */
  private async dedup(ds: ApiObject, currents: readonly ApiObject[], claimedPods: () => Promise<readonly ApiObject[]>): Promise<ApiObject> {
    if (currents.length === 1) return currents[0]!;
    let keep = currents[0]!;
    for (const c of currents) if (revisionNumber(c) >= revisionNumber(keep)) keep = c;
    const hash = keep.metadata.labels?.[REVISION_HASH_LABEL] ?? '';
    const ns = ds.metadata.namespace!;
    for (const pod of await claimedPods()) {
      if (pod.metadata.labels?.[REVISION_HASH_LABEL] === hash) continue;
      await this.client.update(PODS, ns, pod.metadata.name!, (latest) => ({
        ...latest, metadata: { ...latest.metadata, labels: { ...(latest.metadata.labels ?? {}), [REVISION_HASH_LABEL]: hash } },
      }), { verb: 'patch' });
    }
    for (const c of currents) {
      if (c.metadata.name === keep.metadata.name) continue;
      try {
        await this.history.delete(c);
      } catch (err) {
        if (!isReason(err, 'NotFound')) throw err;
      }
    }
    return keep;
  }

  /** kube's snapshot: a new revision of the current template. */
  private async snapshot(ds: ApiObject, revision: number): Promise<ApiObject> {
    const ns = ds.metadata.namespace!;
    const hash = templateHash(ds);
    const name = controllerRevisionName(ds.metadata.name!, hash);
    const spec = isObject(ds.spec) ? ds.spec : {};
    const templateMeta = isObject(spec.template) && isObject(spec.template.metadata) ? spec.template.metadata : {};
    const templateLabels = (isObject(templateMeta.labels) ? templateMeta.labels : {}) as Record<string, string>;
    const rev = {
      apiVersion: 'apps/v1', kind: 'ControllerRevision',
      metadata: {
        name, namespace: ns, labels: { ...templateLabels, [REVISION_HASH_LABEL]: hash },
        ...(ds.metadata.annotations ? { annotations: { ...ds.metadata.annotations } } : {}),
        ownerReferences: [controllerRef(ds, 'apps/v1', 'DaemonSet')],
      },
      data: templatePatch(ds), revision,
    } as ApiObject;
    try {
      return await this.client.create(CONTROLLER_REVISIONS, ns, rev);
    } catch (err) {
      if (!isReason(err, 'AlreadyExists')) throw err;
      const existing = await this.client.get(CONTROLLER_REVISIONS, ns, name);
      if (revisionMatches(ds, existing)) return existing;
      // a hash collision: hash again with a higher collision count on the next sync
      const seen = collisionCountOf(ds);
      await this.client.update({ ...DAEMONSETS, subresource: 'status' }, ns, ds.metadata.name!, (latest) => {
        const current = collisionCountOf(latest);
        if (current !== seen) {
          throw new Error(`found a stale collision count (${seen ?? 'nil'}, expected ${current ?? 'nil'}) of DaemonSet "${ds.metadata.name}" while processing; will retry until it is updated`);
        }
        return { ...latest, status: { ...(latest.status ?? {}), collisionCount: (current ?? 0) + 1 } };
      });
      throw err;
    }
  }
}
