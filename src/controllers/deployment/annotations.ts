// The annotations the deployment controller keeps on its ReplicaSets and on
// the Deployment (kube's deployment/util, kubernetes.io spelling: kubectl
// rollout history/undo and describe read them): the revision, the revisions a
// rolled-back-to ReplicaSet had before (revision-history, at most 2000
// characters), and desired/max replicas used for proportional scaling.
import type { ApiObject } from '../../registry/object.js';

export const REVISION = 'deployment.kubernetes.io/revision';
export const REVISION_HISTORY = 'deployment.kubernetes.io/revision-history';
export const DESIRED_REPLICAS = 'deployment.kubernetes.io/desired-replicas';
export const MAX_REPLICAS = 'deployment.kubernetes.io/max-replicas';
export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
/** kube's MaxRevHistoryLengthInChars. */
export const MAX_REVISION_HISTORY_CHARS = 2000;

/** Deployment annotations not copied to its ReplicaSets (kube's annotationsToSkip). */
const SKIPPED = new Set([LAST_APPLIED, REVISION, REVISION_HISTORY, DESIRED_REPLICAS, MAX_REPLICAS, 'deprecated.deployment.rollback.to']);

/** A decimal int64 as Go's ParseInt reads it, or undefined. */
function parseInt64(v: string | undefined): number | undefined {
  if (v === undefined || !/^[+-]?\d+$/.test(v)) return undefined;
  return Number(v);
}

/** The revision of a ReplicaSet (0 when missing or unreadable). */
export function revisionOf(rs: ApiObject): number {
  return parseInt64(rs.metadata.annotations?.[REVISION]) ?? 0;
}

export function maxRevision(rss: readonly ApiObject[]): number {
  return rss.reduce((m, rs) => Math.max(m, revisionOf(rs)), 0);
}

/** An int32 annotation, when present and readable. */
export function int32Annotation(obj: ApiObject, key: string): number | undefined {
  const n = parseInt64(obj.metadata.annotations?.[key]);
  return n !== undefined && n >= -2147483648 && n <= 2147483647 ? n : undefined;
}

const annotationsOf = (obj: ApiObject): Record<string, string> => (obj.metadata.annotations ??= {});

/** Copies the Deployment's own annotations onto the ReplicaSet (mutates rs); whether any changed. */
export function copyDeploymentAnnotations(d: ApiObject, rs: ApiObject): boolean {
  let changed = false;
  for (const [k, v] of Object.entries(d.metadata.annotations ?? {})) {
    if (SKIPPED.has(k) || rs.metadata.annotations?.[k] === v) continue;
    annotationsOf(rs)[k] = v;
    changed = true;
  }
  return changed;
}

/** Sets desired-replicas and max-replicas (mutates rs); whether they changed. */
export function setReplicasAnnotations(rs: ApiObject, desired: number, max: number): boolean {
  const a = annotationsOf(rs);
  let changed = false;
  for (const [k, v] of [[DESIRED_REPLICAS, String(desired)], [MAX_REPLICAS, String(max)]] as const) {
    if (a[k] !== v) {
      a[k] = v;
      changed = true;
    }
  }
  return changed;
}

export function replicasAnnotationsNeedUpdate(rs: ApiObject, desired: number, max: number): boolean {
  const a = rs.metadata.annotations ?? {};
  return a[DESIRED_REPLICAS] !== String(desired) || a[MAX_REPLICAS] !== String(max);
}

/**
 * The annotations of the new ReplicaSet (kube's SetNewReplicaSetAnnotations;
 * mutates rs): the Deployment's own, the new revision when higher — an
 * existing ReplicaSet that gets a higher revision is a rollback to it, and
 * its former revision joins revision-history — and, for a ReplicaSet about
 * to be created, desired/max replicas. Whether anything changed.
 */
export function setNewReplicaSetAnnotations(rs: ApiObject, opts: { deployment: ApiObject; revision: string; exists: boolean; desired: number; max: number }): boolean {
  let changed = copyDeploymentAnnotations(opts.deployment, rs);
  const a = annotationsOf(rs);
  const had = Object.prototype.hasOwnProperty.call(a, REVISION);
  const oldRevision = a[REVISION] ?? '';
  const oldNumber = oldRevision === '' ? 0 : parseInt64(oldRevision);
  if (oldNumber === undefined) return false; // kube: an unreadable revision is left alone
  const newNumber = parseInt64(opts.revision) ?? 0;
  if (oldNumber < newNumber) {
    a[REVISION] = opts.revision;
    changed = true;
  }
  if (had && oldNumber < newNumber) {
    const history = a[REVISION_HISTORY] ?? '';
    const revisions = history.split(',');
    if (revisions[0] === '') {
      a[REVISION_HISTORY] = oldRevision;
    } else {
      let total = history.length + oldRevision.length + 1;
      let start = 0;
      while (total > MAX_REVISION_HISTORY_CHARS && start < revisions.length) {
        total -= revisions[start]!.length + 1;
        start++;
      }
      if (total <= MAX_REVISION_HISTORY_CHARS) a[REVISION_HISTORY] = [...revisions.slice(start), oldRevision].join(',');
    }
  }
  if (!opts.exists && setReplicasAnnotations(rs, opts.desired, opts.max)) changed = true;
  return changed;
}
