// ControllerRef adoption and release (kube's controller_ref_manager.go
// ClaimObject): of the candidates in the owner's namespace,
//   owned by another controller          → ignored
//   owned by us, matching                → claimed
//   owned by us, no longer matching      → released (our reference removed),
//                                          unless we or it are being deleted
//   orphan, matching, neither deleted    → adopted (our reference added as
//                                          controller, blockOwnerDeletion), once
//                                          a fresh read showed the owner is
//                                          still there and not being deleted
// Adoption and release are writes computed from the latest object with its UID
// as precondition (kube's patches carry metadata.uid), so a replaced object is
// not touched; a candidate gone meanwhile is simply not claimed.
import type { ApiObject, OwnerReference } from '../../registry/object.js';
import { newConflict, type QualifiedResource } from '../../api/meta/index.js';
import { isReason } from '../informer.js';
import { controllerOf } from './pods.js';

export interface ClaimOptions {
  readonly owner: ApiObject;
  readonly ownerRef: OwnerReference;
  /** The candidates' resource (for error messages). */
  readonly resource: QualifiedResource;
  readonly matches: (o: ApiObject) => boolean;
  /** Reads the owner fresh (not from a cache); kube's RecheckDeletionTimestamp. */
  readonly getOwner: () => Promise<ApiObject>;
  /** Writes `mutate(latest)` for the candidate (an update or patch of it). */
  readonly write: (o: ApiObject, mutate: (latest: ApiObject) => ApiObject) => Promise<void>;
}

export interface ClaimResult {
  readonly claimed: ApiObject[];
  readonly errors: unknown[];
}

/** The latest object must be the one we decided about (kube's UID precondition in the patch). */
function sameObject(resource: QualifiedResource, decided: ApiObject, latest: ApiObject): void {
  if (latest.metadata.uid !== decided.metadata.uid) {
    throw newConflict(resource, decided.metadata.name!, `Precondition failed: UID in precondition: ${decided.metadata.uid}, UID in object meta: ${latest.metadata.uid}`);
  }
}

export async function claimObjects(candidates: readonly ApiObject[], o: ClaimOptions): Promise<ClaimResult> {
  const claimed: ApiObject[] = [];
  const errors: unknown[] = [];
  const uid = o.owner.metadata.uid;
  const ownerDeleting = !!o.owner.metadata.deletionTimestamp;
  let adoptable: Promise<void> | undefined;
  const canAdopt = () => (adoptable ??= o.getOwner().then((fresh) => {
    const kind = o.ownerRef.kind;
    if (fresh.metadata.uid !== uid) throw new Error(`original ${kind} ${o.owner.metadata.namespace}/${o.owner.metadata.name} is gone: got uid ${fresh.metadata.uid}, wanted ${uid}`);
    if (fresh.metadata.deletionTimestamp) throw new Error(`${kind} ${o.owner.metadata.namespace}/${o.owner.metadata.name} has just been deleted at ${fresh.metadata.deletionTimestamp}`);
  }));

  for (const obj of candidates) {
    const ref = controllerOf(obj);
    try {
      if (ref) {
        if (ref.uid !== uid) continue;
        if (o.matches(obj)) {
          claimed.push(obj);
          continue;
        }
        if (ownerDeleting || obj.metadata.deletionTimestamp) continue;
        await o.write(obj, (latest) => {
          sameObject(o.resource, obj, latest);
          const refs = (latest.metadata.ownerReferences ?? []).filter((r) => r.uid !== uid);
          const meta = { ...latest.metadata };
          if (refs.length > 0) meta.ownerReferences = refs;
          else delete meta.ownerReferences;
          return { ...latest, metadata: meta };
        });
        continue;
      }
      if (ownerDeleting || !o.matches(obj) || obj.metadata.deletionTimestamp) continue;
      if (obj.metadata.namespace !== o.owner.metadata.namespace) continue;
      await canAdopt();
      await o.write(obj, (latest) => {
        sameObject(o.resource, obj, latest);
        if (controllerOf(latest)) throw newConflict(o.resource, obj.metadata.name!, 'the object has been modified; please apply your changes to the latest version and try again');
        const refs = (latest.metadata.ownerReferences ?? []).filter((r) => r.uid !== uid);
        return { ...latest, metadata: { ...latest.metadata, ownerReferences: [...refs, { ...o.ownerRef }] } };
      });
      claimed.push(obj);
    } catch (err) {
      if (isReason(err, 'NotFound')) continue; // gone: nothing to claim or release
      errors.push(err);
    }
  }
  return { claimed, errors };
}
