// Claims and volumes as the binder and the scheduler compare them (kube's
// component-helpers/storage/volume and the persistentvolume util's
// FindMatchingVolume): sizes, classes, access modes, volume modes, selectors,
// node affinity, and which volume a claim should get — the smallest
// available one that fits, among the volumes with the fewest access modes
// covering the claim's; a volume pre-bound to the claim (spec.claimRef) wins.
import type { ApiObject } from '../../registry/object.js';
import { isObject } from '../../registry/object.js';
import { quantityOf } from '../../api/meta/quantity.js';
import { selectorMatches } from '../../api/meta/checks.js';
import { nodeSelectorMatches } from '../../scheduler/nodeselector.js';
import { ANN_BETA_STORAGE_CLASS } from './annotations.js';

type Obj = Record<string, unknown>;

export interface ClaimReference {
  readonly kind?: string;
  readonly apiVersion?: string;
  readonly namespace?: string;
  readonly name?: string;
  readonly uid?: string;
  readonly resourceVersion?: string;
}

export const specOf = (o: ApiObject): Obj => (isObject(o.spec) ? o.spec : {});
export const statusOf = (o: ApiObject): Obj => (isObject(o.status) ? o.status : {});

export function claimRefOf(pv: ApiObject): ClaimReference | undefined {
  const ref = specOf(pv).claimRef;
  return isObject(ref) ? (ref as ClaimReference) : undefined;
}

export function volumePhase(pv: ApiObject): string {
  return String(statusOf(pv).phase ?? '');
}

export function claimPhase(claim: ApiObject): string {
  return String(statusOf(claim).phase ?? '');
}

export function claimVolumeName(claim: ApiObject): string {
  const v = specOf(claim).volumeName;
  return typeof v === 'string' ? v : '';
}

/** A claim's or volume's class: the beta annotation wins over spec.storageClassName (GetPersistentVolume(Claim)Class). */
function classOf(o: ApiObject): string {
  const legacy = o.metadata.annotations?.[ANN_BETA_STORAGE_CLASS];
  if (legacy !== undefined) return legacy;
  const s = specOf(o).storageClassName;
  return typeof s === 'string' ? s : '';
}

export const claimClass = classOf;
export const volumeClass = classOf;

/** Whether the claim names a class at all (nil, not "": the default class may be assigned later). */
export function claimHasClass(claim: ApiObject): boolean {
  return claim.metadata.annotations?.[ANN_BETA_STORAGE_CLASS] !== undefined || typeof specOf(claim).storageClassName === 'string';
}

/** Bytes as Quantity.Value() rounds (up); 0 for none. */
export function bytes(q: unknown): bigint {
  const v = quantityOf(q);
  if (!v) return 0n;
  const whole = v.nanos / 1_000_000_000n;
  return v.nanos % 1_000_000_000n > 0n ? whole + 1n : whole;
}

export function requestedStorage(claim: ApiObject): bigint {
  const res = specOf(claim).resources;
  const req = isObject(res) && isObject(res.requests) ? res.requests.storage : undefined;
  return bytes(req);
}

export function volumeCapacity(pv: ApiObject): bigint {
  const cap = specOf(pv).capacity;
  return bytes(isObject(cap) ? cap.storage : undefined);
}

export function accessModesOf(o: ApiObject): string[] {
  const m = specOf(o).accessModes;
  return Array.isArray(m) ? m.map(String) : [];
}

const volumeModeOf = (o: ApiObject): string => (typeof specOf(o).volumeMode === 'string' ? String(specOf(o).volumeMode) : 'Filesystem');

/** CheckVolumeModeMismatches: unset means Filesystem on both sides. */
export function volumeModeMismatch(claim: ApiObject, pv: ApiObject): boolean {
  return volumeModeOf(claim) !== volumeModeOf(pv);
}

/** CheckAccessModes: the volume offers every mode the claim asks for. */
export function accessModesSatisfied(claim: ApiObject, pv: ApiObject): boolean {
  const have = new Set(accessModesOf(pv));
  return accessModesOf(claim).every((m) => have.has(m));
}

/** CheckNodeAffinity: a volume without required node affinity fits every node. */
export function volumeFitsNode(pv: ApiObject, node: ApiObject): boolean {
  const na = specOf(pv).nodeAffinity;
  const required = isObject(na) ? na.required : undefined;
  return !isObject(required) || nodeSelectorMatches(required, node);
}

/** IsVolumeBoundToClaim: spec.claimRef names the claim (and its uid, once set). */
export function isVolumeBoundToClaim(pv: ApiObject, claim: ApiObject): boolean {
  const ref = claimRefOf(pv);
  if (!ref) return false;
  if (ref.name !== claim.metadata.name || (ref.namespace ?? '') !== (claim.metadata.namespace ?? '')) return false;
  return !ref.uid || ref.uid === claim.metadata.uid;
}

/** checkVolumeSatisfyClaim: why the volume a claim asks for (spec.volumeName) cannot take it, in kube's words. */
export function volumeSatisfyClaimError(pv: ApiObject, claim: ApiObject): string | undefined {
  if (pv.metadata.deletionTimestamp) return `the volume is marked for deletion ${JSON.stringify(pv.metadata.name)}`;
  if (volumeCapacity(pv) < requestedStorage(claim)) return 'requested PV is too small';
  if (volumeClass(pv) !== claimClass(claim)) return 'storageClassName does not match';
  if (volumeModeMismatch(claim, pv)) return 'incompatible volumeMode';
  if (!accessModesSatisfied(claim, pv)) return 'incompatible accessMode';
  return undefined;
}

export interface MatchOptions {
  /** The scheduler's path: the node the pod goes to (node affinity and access modes are checked). */
  readonly node?: ApiObject;
  /** The claim's class binds WaitForFirstConsumer: without a node only a volume pre-bound to it matches. */
  readonly delayBinding: boolean;
  /** Volumes already chosen for the pod's other claims. */
  readonly exclude?: ReadonlySet<string>;
}

/** FindMatchingVolume over one set of volumes. */
function matchAmong(claim: ApiObject, volumes: readonly ApiObject[], o: MatchOptions): ApiObject | undefined {
  const requested = requestedStorage(claim);
  const cls = claimClass(claim);
  const selector = specOf(claim).selector;
  let best: ApiObject | undefined;
  let bestSize = 0n;
  for (const pv of volumes) {
    if (o.exclude?.has(pv.metadata.name!)) continue;
    const size = volumeCapacity(pv);
    if (size < requested) continue;
    if (volumeModeMismatch(claim, pv)) continue;
    if (pv.metadata.deletionTimestamp) continue;
    const affinityOk = o.node === undefined || volumeFitsNode(pv, o.node);
    if (isVolumeBoundToClaim(pv, claim)) return affinityOk ? pv : undefined;
    if (o.node === undefined && o.delayBinding) continue;
    if (volumePhase(pv) !== 'Available' || claimRefOf(pv)) continue;
    if (isObject(selector) && !selectorMatches(selector, pv.metadata.labels ?? {})) continue;
    if (volumeClass(pv) !== cls) continue;
    if (!affinityOk) continue;
    if (o.node !== undefined && !accessModesSatisfied(claim, pv)) continue;
    if (!best || bestSize > size) {
      best = pv;
      bestSize = size;
    }
  }
  return best;
}

/**
 * The volume a claim should bind to (the binder's pvIndex.findByClaim): the
 * volumes are grouped by their access modes; groups covering the claim's
 * modes are tried fewest modes first, and the first match wins.
 */
export function findMatchingVolume(claim: ApiObject, volumes: readonly ApiObject[], o: MatchOptions): ApiObject | undefined {
  const wanted = accessModesOf(claim);
  const groups = new Map<string, ApiObject[]>();
  for (const pv of volumes) {
    const modes = [...new Set(accessModesOf(pv))].sort();
    if (!wanted.every((m) => modes.includes(m))) continue;
    const key = modes.join(',');
    const g = groups.get(key);
    if (g) g.push(pv);
    else groups.set(key, [pv]);
  }
  const ordered = [...groups.entries()].sort((a, b) => a[0].split(',').length - b[0].split(',').length || (a[0] < b[0] ? -1 : 1));
  for (const [, group] of ordered) {
    const found = matchAmong(claim, group, o);
    if (found) return found;
  }
  return undefined;
}

/** A claim reference as the binder writes it into spec.claimRef (kube's GetReference). */
export function claimReference(claim: ApiObject): Record<string, string> {
  return {
    kind: 'PersistentVolumeClaim', namespace: claim.metadata.namespace ?? '', name: claim.metadata.name!, uid: claim.metadata.uid ?? '',
    apiVersion: 'v1', resourceVersion: claim.metadata.resourceVersion ?? '',
  };
}
