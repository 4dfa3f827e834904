// persistentVolumeClaimRetentionPolicy (StatefulSetAutoDeletePVC, beta and on
// in v1.27) as kube keeps it: not a finalizer but owner references on the
// claims, which the garbage collector follows.
//
//   whenScaled \ whenDeleted   Retain                    Delete
//   Retain                     no set ref, no pod ref    set ref, no pod ref
//   Delete                     no set ref;               in range: set ref, no pod ref;
//                              pod ref iff scaled down   scaled down: pod ref, no set ref
//
// The references are plain (not controller) references, as kube's setOwnerRef.
import type { ApiObject, OwnerReference } from '../../registry/object.js';
import { specOf } from './identity.js';

export interface RetentionPolicy {
  readonly whenDeleted: string;
  readonly whenScaled: string;
}

export function retentionPolicy(set: ApiObject): RetentionPolicy {
  const p = specOf(set).persistentVolumeClaimRetentionPolicy;
  return { whenDeleted: p?.whenDeleted ?? 'Retain', whenScaled: p?.whenScaled ?? 'Retain' };
}

const hasRef = (target: ApiObject, owner: ApiObject) => (target.metadata.ownerReferences ?? []).some((r) => r.uid === owner.metadata.uid);

/** What the policy wants of the claim: whether it should reference the set and the pod. */
export function wantedRefs(set: ApiObject, scaledDown: boolean): { set: boolean; pod: boolean } | undefined {
  const { whenDeleted, whenScaled } = retentionPolicy(set);
  const del = (v: string) => v === 'Delete';
  if ((whenDeleted !== 'Retain' && !del(whenDeleted)) || (whenScaled !== 'Retain' && !del(whenScaled))) return undefined;
  if (!del(whenScaled)) return { set: del(whenDeleted), pod: false };
  if (!del(whenDeleted)) return { set: false, pod: scaledDown };
  return { set: !scaledDown, pod: scaledDown };
}

/** kube's claimOwnerMatchesSetAndPod. */
export function claimOwnerMatches(claim: ApiObject, set: ApiObject, pod: ApiObject, scaledDown: boolean): boolean {
  const want = wantedRefs(set, scaledDown);
  if (!want) return false;
  return hasRef(claim, set) === want.set && hasRef(claim, pod) === want.pod;
}

function ownerRef(owner: ApiObject, apiVersion: string, kind: string): OwnerReference {
  return { apiVersion, kind, name: owner.metadata.name!, uid: owner.metadata.uid! };
}

/** The claim's references changed as the policy wants (kube's updateClaimOwnerRefForSetAndPod), or undefined when nothing changes. */
export function claimWithPolicyRefs(claim: ApiObject, set: ApiObject, pod: ApiObject, scaledDown: boolean): ApiObject | undefined {
  const want = wantedRefs(set, scaledDown);
  if (!want) return undefined;
  let refs = [...(claim.metadata.ownerReferences ?? [])];
  let changed = false;
  const apply = (owner: ApiObject, wanted: boolean, apiVersion: string, kind: string) => {
    const has = refs.some((r) => r.uid === owner.metadata.uid);
    if (wanted && !has) {
      refs.push(ownerRef(owner, apiVersion, kind));
      changed = true;
    } else if (!wanted && has) {
      refs = refs.filter((r) => r.uid !== owner.metadata.uid);
      changed = true;
    }
  };
  apply(set, want.set, 'apps/v1', 'StatefulSet');
  apply(pod, want.pod, 'v1', 'Pod');
  if (!changed) return undefined;
  const metadata = { ...claim.metadata };
  if (refs.length > 0) metadata.ownerReferences = refs;
  else delete metadata.ownerReferences;
  return { ...claim, metadata };
}

/** A reference by the pod's name with another UID: the claim still belongs to a pod deleted on scale-down (kube's hasStaleOwnerRef). */
export function hasStaleOwnerRef(claim: ApiObject, pod: ApiObject): boolean {
  return (claim.metadata.ownerReferences ?? []).some((r) => r.name === pod.metadata.name && r.uid !== pod.metadata.uid);
}
