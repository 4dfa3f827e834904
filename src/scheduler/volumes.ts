// What the volume plugins read: a pod's PersistentVolumeClaims (its
// persistentVolumeClaim volumes and generic ephemeral volumes, named
// <pod>-<volume>), and the claims, volumes and storage classes from the
// informers' listers.
import type { ApiObject } from '../registry/object.js';
import { isObject } from '../registry/object.js';
import { spec, type Obj } from './pods.js';
import type { VolumeWriter } from './volumebinder.js';
import { claimClass } from '../controllers/volume/match.js';

export interface VolumeListers {
  claim(namespace: string, name: string): ApiObject | undefined;
  volume(name: string): ApiObject | undefined;
  storageClass(name: string): ApiObject | undefined;
}

/** The volume plugins' handle: the listers, all volumes, and (in a running scheduler) the binder's writes. */
export interface VolumeHandle extends VolumeListers {
  volumes(): readonly ApiObject[];
  readonly writer?: VolumeWriter;
  /** True once the scheduler stopped: PreBind stops waiting. */
  readonly stopped?: () => boolean;
}

export const NO_VOLUMES: VolumeListers = { claim: () => undefined, volume: () => undefined, storageClass: () => undefined };

export function podVolumes(pod: ApiObject): Obj[] {
  const v = spec(pod).volumes;
  return Array.isArray(v) ? v.filter(isObject) : [];
}

/** The claim names the pod's volumes use, in order. */
export function podClaimNames(pod: ApiObject): string[] {
  const out: string[] = [];
  for (const v of podVolumes(pod)) {
    if (isObject(v.persistentVolumeClaim) && typeof v.persistentVolumeClaim.claimName === 'string') out.push(v.persistentVolumeClaim.claimName);
    else if (isObject(v.ephemeral)) out.push(`${pod.metadata.name}-${String(v.name)}`);
  }
  return out;
}

export function claimSpec(claim: ApiObject): Obj {
  return isObject(claim.spec) ? claim.spec : {};
}

/** The claim's class as kube reads it (the beta annotation first). */
export const claimClassName = claimClass;

export function accessModes(claim: ApiObject): string[] {
  const m = claimSpec(claim).accessModes;
  return Array.isArray(m) ? m.map(String) : [];
}
