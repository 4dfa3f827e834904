// The rollout arithmetic of kube's deployment/util: maxSurge and
// maxUnavailable resolved against the desired replicas (percentages: surge
// rounded up, unavailability down; both 0 → 1 unavailable), how far the new
// ReplicaSet may grow, proportional scaling of several active ReplicaSets,
// and the orders ReplicaSets are visited in. Pure functions over objects.
import type { ApiObject } from '../../registry/object.js';
import { DESIRED_REPLICAS, MAX_REPLICAS, int32Annotation, revisionOf } from './annotations.js';

export type IntOrString = number | string;

interface DeploymentSpec {
  replicas?: number;
  strategy?: { type?: string; rollingUpdate?: { maxSurge?: IntOrString; maxUnavailable?: IntOrString } };
}

const dspec = (d: ApiObject) => (d.spec ?? {}) as DeploymentSpec;
export const desiredReplicas = (d: ApiObject): number => dspec(d).replicas ?? 1;
export const isRollingUpdate = (d: ApiObject): boolean => dspec(d).strategy?.type === 'RollingUpdate';

/** A ReplicaSet's spec.replicas, status.replicas, availableReplicas, readyReplicas (0 for none). */
export const specReplicas = (rs: ApiObject | undefined): number => ((rs?.spec ?? {}) as { replicas?: number }).replicas ?? 0;
const rsStatus = (rs: ApiObject) => (rs.status ?? {}) as { replicas?: number; availableReplicas?: number; readyReplicas?: number };
export const statusReplicas = (rs: ApiObject | undefined): number => (rs ? rsStatus(rs).replicas ?? 0 : 0);
export const availableReplicas = (rs: ApiObject | undefined): number => (rs ? rsStatus(rs).availableReplicas ?? 0 : 0);
export const readyReplicas = (rs: ApiObject | undefined): number => (rs ? rsStatus(rs).readyReplicas ?? 0 : 0);

const sum = (rss: readonly (ApiObject | undefined)[], f: (rs: ApiObject) => number) => rss.reduce((n, rs) => n + (rs ? f(rs) : 0), 0);
export const totalSpecReplicas = (rss: readonly (ApiObject | undefined)[]) => sum(rss, specReplicas);
export const totalStatusReplicas = (rss: readonly (ApiObject | undefined)[]) => sum(rss, statusReplicas);
export const totalAvailable = (rss: readonly (ApiObject | undefined)[]) => sum(rss, availableReplicas);
/** Available pods, each ReplicaSet counted at most up to its replicas (pods beyond them are on their way out). */
export const totalAvailableWithinSpec = (rss: readonly (ApiObject | undefined)[]) => sum(rss, (rs) => Math.min(specReplicas(rs), availableReplicas(rs)));
export const totalReady = (rss: readonly (ApiObject | undefined)[]) => sum(rss, readyReplicas);

/** An IntOrString against a total (kube's GetScaledValueFromIntOrPercent). */
export function scaledValue(v: IntOrString | undefined, total: number, roundUp: boolean): number {
  if (v === undefined) return 0;
  if (typeof v === 'number') return v;
  const m = /^(-?\d+)%$/.exec(v);
  if (!m) throw new Error(`invalid value for IntOrString: invalid type: string is not a percentage`);
  const scaled = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(scaled) : Math.floor(scaled);
}

/** kube's ResolveFenceposts. */
export function resolveFenceposts(surge: IntOrString | undefined, unavailable: IntOrString | undefined, desired: number): { surge: number; unavailable: number } {
  const s = scaledValue(surge, desired, true);
  const u = scaledValue(unavailable, desired, false);
  return s === 0 && u === 0 ? { surge: 0, unavailable: 1 } : { surge: s, unavailable: u };
}

export function maxSurge(d: ApiObject): number {
  if (!isRollingUpdate(d)) return 0;
  const ru = dspec(d).strategy?.rollingUpdate ?? {};
  return resolveFenceposts(ru.maxSurge, ru.maxUnavailable, desiredReplicas(d)).surge;
}

export function maxUnavailable(d: ApiObject): number {
  const desired = desiredReplicas(d);
  if (!isRollingUpdate(d) || desired === 0) return 0;
  const ru = dspec(d).strategy?.rollingUpdate ?? {};
  return Math.min(resolveFenceposts(ru.maxSurge, ru.maxUnavailable, desired).unavailable, desired);
}

/** How many replicas the new ReplicaSet should have now (kube's NewRSNewReplicas). */
export function newRSNewReplicas(d: ApiObject, allRSs: readonly (ApiObject | undefined)[], newRS: ApiObject): number {
  const desired = desiredReplicas(d);
  if (!isRollingUpdate(d)) return desired;
  const ru = dspec(d).strategy?.rollingUpdate ?? {};
  const surge = scaledValue(ru.maxSurge, desired, true);
  const current = totalSpecReplicas(allRSs);
  const maxTotal = desired + surge;
  if (current >= maxTotal) return specReplicas(newRS);
  const up = Math.min(maxTotal - current, desired - specReplicas(newRS));
  return specReplicas(newRS) + up;
}

const created = (rs: ApiObject) => (rs.metadata.creationTimestamp ? Date.parse(rs.metadata.creationTimestamp) : 0);
const byName = (a: ApiObject, b: ApiObject) => (a.metadata.name! < b.metadata.name! ? -1 : a.metadata.name! > b.metadata.name! ? 1 : 0);

/** Oldest first, then by name (kube's ReplicaSetsByCreationTimestamp). */
export const byCreation = (a: ApiObject, b: ApiObject): number => created(a) - created(b) || byName(a, b);
/** Largest first, then oldest (ReplicaSetsBySizeOlder). */
export const bySizeOlder = (a: ApiObject, b: ApiObject): number => specReplicas(b) - specReplicas(a) || byCreation(a, b);
/** Largest first, then newest (ReplicaSetsBySizeNewer). */
export const bySizeNewer = (a: ApiObject, b: ApiObject): number => specReplicas(b) - specReplicas(a) || byCreation(b, a);
/** Lowest revision first, then oldest (ReplicaSetsByRevision). */
export const byRevision = (a: ApiObject, b: ApiObject): number => revisionOf(a) - revisionOf(b) || byCreation(a, b);

/** ReplicaSets with replicas (kube's FilterActiveReplicaSets). */
export const activeReplicaSets = (rss: readonly (ApiObject | undefined)[]): ApiObject[] => rss.filter((rs): rs is ApiObject => !!rs && specReplicas(rs) > 0);

/** The only active ReplicaSet, or the newest when none is active (kube's FindActiveOrLatest). */
export function findActiveOrLatest(newRS: ApiObject | undefined, oldRSs: readonly ApiObject[]): ApiObject | undefined {
  if (!newRS && oldRSs.length === 0) return undefined;
  const olds = [...oldRSs].sort((a, b) => byCreation(b, a));
  const active = activeReplicaSets([...olds, newRS]);
  if (active.length === 0) return newRS ?? olds[0];
  return active.length === 1 ? active[0] : undefined;
}

/** The new ReplicaSet has every replica of the Deployment, all available (kube's IsSaturated). */
export function isSaturated(d: ApiObject, rs: ApiObject | undefined): boolean {
  if (!rs) return false;
  const desired = int32Annotation(rs, DESIRED_REPLICAS);
  if (desired === undefined) return false;
  const n = desiredReplicas(d);
  return specReplicas(rs) === n && desired === n && availableReplicas(rs) === n;
}

/** Go's math.Round to int32 (half away from zero). */
const roundHalfAway = (x: number) => Math.sign(x) * Math.round(Math.abs(x));

/** The replicas a ReplicaSet gains (or loses) when the Deployment is resized mid-rollout (kube's GetProportion). */
export function proportion(rs: ApiObject, d: ApiObject, toAdd: number, added: number, deploymentStatusReplicas: number): number {
  if (specReplicas(rs) === 0 || toAdd === 0 || toAdd === added) return 0;
  const fraction = replicaSetFraction(rs, d, deploymentStatusReplicas);
  const allowed = toAdd - added;
  return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
}

function replicaSetFraction(rs: ApiObject, d: ApiObject, deploymentStatusReplicas: number): number {
  if (desiredReplicas(d) === 0) return -specReplicas(rs);
  const deploymentReplicas = desiredReplicas(d) + maxSurge(d);
  const annotated = int32Annotation(rs, MAX_REPLICAS) ?? deploymentStatusReplicas;
  if (annotated === 0) return 0;
  return roundHalfAway((specReplicas(rs) * deploymentReplicas) / annotated) - specReplicas(rs);
}
