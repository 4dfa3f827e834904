// What one sync of a claim or a volume should do (kube's pv_controller.go
// syncClaim / syncUnboundClaim / syncBoundClaim / syncVolume), decided from
// the objects alone; binder.ts carries it out. Claim and volume phases:
//
//   claim:  Pending ──bind──► Bound ──volume gone / volumeName cleared / misbound──► Lost
//   volume: Pending/Available ──bind──► Bound ──claim gone──► Released ──► reclaim:
//             Retain: stays Released · Delete: deleted (a provisioned volume: by its provisioner)
//             Recycle: Failed ("No recycler plugin found for the volume!")
//           a Bound volume whose controller-made binding the claim left goes back to Available.
import type { ApiObject } from '../../registry/object.js';
import { ANN_BIND_COMPLETED, ANN_BOUND_BY_CONTROLLER, ANN_PROVISIONED_BY, ANN_SELECTED_NODE, NOT_SUPPORTED_PROVISIONER, hasAnnotation, annotation } from './annotations.js';
import { claimClass, claimHasClass, claimRefOf, claimVolumeName, findMatchingVolume, specOf, volumeModeMismatch, volumePhase, volumeSatisfyClaimError } from './match.js';

export interface BinderEvent {
  readonly type: 'Normal' | 'Warning';
  readonly reason: string;
  readonly message: string;
}

export const MSG_NO_CLASS = 'no persistent volumes available for this claim and no storage class is set';
export const MSG_WAIT_FOR_CONSUMER = 'waiting for first consumer to be created before binding';
export const MSG_CLAIM_LOST_REFERENCE = 'Bound claim has lost reference to PersistentVolume. Data on the volume is lost!';
export const MSG_CLAIM_LOST_VOLUME = 'Bound claim has lost its PersistentVolume. Data on the volume is lost!';
export const MSG_CLAIM_MISBOUND = 'Two claims are bound to the same volume, this one is bound incorrectly';
export const MSG_NO_RECYCLER = 'No recycler plugin found for the volume!';
export const MSG_VOLUME_MODE_MISMATCH = 'Cannot bind PersistentVolume to requested PersistentVolumeClaim due to incompatible volumeMode.';

export const externalProvisioningMessage = (provisioner: string): string =>
  `waiting for a volume to be created, either by external provisioner ${JSON.stringify(provisioner)} or manually created by system administrator`;

export type ClaimAction =
  /** bind(): the volume's claimRef, its phase, the claim's volumeName and annotations, the claim's status — whichever differ. */
  | { readonly kind: 'bind'; readonly volume: ApiObject }
  /** Status Pending (access modes and capacity cleared), with an event. */
  | { readonly kind: 'pending'; readonly event?: BinderEvent }
  /** Dynamic provisioning by an external provisioner: the claim's storage-provisioner annotations, an event; no status write. */
  | { readonly kind: 'provision'; readonly provisioner: string; readonly event: BinderEvent }
  /** Provisioning cannot start (no such class, an in-tree provisioner svc does not have). */
  | { readonly kind: 'provisionFailed'; readonly event: BinderEvent }
  /** RetroactiveDefaultStorageClass: a claim without a class gets the default one; the next sync goes on. */
  | { readonly kind: 'assignClass'; readonly className: string }
  /** Status Lost (once, with its event). */
  | { readonly kind: 'lost'; readonly event: BinderEvent }
  /** Nothing to write; the message says why the sync failed (it is retried). */
  | { readonly kind: 'error'; readonly message: string };

export interface ClaimWorld {
  volume(name: string): ApiObject | undefined;
  volumes(): readonly ApiObject[];
  storageClass(name: string): ApiObject | undefined;
  /** The default StorageClass, when RetroactiveDefaultStorageClass is on (undefined otherwise). */
  defaultClass?(): ApiObject | undefined;
}

const warn = (reason: string, message: string): BinderEvent => ({ type: 'Warning', reason, message });
const normal = (reason: string, message: string): BinderEvent => ({ type: 'Normal', reason, message });

/** IsDelayBindingMode: the claim's class (found) binds WaitForFirstConsumer. */
export function isDelayBinding(claim: ApiObject, world: Pick<ClaimWorld, 'storageClass'>): boolean {
  const name = claimClass(claim);
  return name !== '' && world.storageClass(name)?.volumeBindingMode === 'WaitForFirstConsumer';
}

export function planClaim(claim: ApiObject, world: ClaimWorld): ClaimAction {
  return hasAnnotation(claim, ANN_BIND_COMPLETED) ? planBoundClaim(claim, world) : planUnboundClaim(claim, world);
}

function planProvision(claim: ApiObject, world: ClaimWorld): ClaimAction {
  const name = claimClass(claim);
  const cls = world.storageClass(name);
  if (!cls) return { kind: 'provisionFailed', event: warn('ProvisioningFailed', `storageclass.storage.k8s.io ${JSON.stringify(name)} not found`) };
  const provisioner = typeof cls.provisioner === 'string' ? cls.provisioner : '';
  // svc has no in-tree volume plugins: every kubernetes.io/ provisioner is one it cannot find
  if (provisioner.startsWith('kubernetes.io/')) return { kind: 'provisionFailed', event: warn('ProvisioningFailed', `no volume plugin matched name: ${provisioner}`) };
  return { kind: 'provision', provisioner, event: normal('ExternalProvisioning', externalProvisioningMessage(provisioner)) };
}

function planUnboundClaim(claim: ApiObject, world: ClaimWorld): ClaimAction {
  const volumeName = claimVolumeName(claim);
  if (volumeName === '') {
    if (!claimHasClass(claim)) {
      const def = world.defaultClass?.();
      if (def) return { kind: 'assignClass', className: def.metadata.name! };
    }
    const delay = isDelayBinding(claim, world);
    const volume = findMatchingVolume(claim, world.volumes(), { delayBinding: delay });
    if (volume) return { kind: 'bind', volume };
    if (delay && !hasAnnotation(claim, ANN_SELECTED_NODE)) return { kind: 'pending', event: normal('WaitForFirstConsumer', MSG_WAIT_FOR_CONSUMER) };
    if (claimClass(claim) !== '') return planProvision(claim, world);
    return { kind: 'pending', event: normal('FailedBinding', MSG_NO_CLASS) };
  }
  const volume = world.volume(volumeName);
  if (!volume) return { kind: 'pending' }; // the volume it asks for may yet be created
  const ref = claimRefOf(volume);
  if (!ref) {
    const why = volumeSatisfyClaimError(volume, claim);
    return why ? { kind: 'pending', event: warn('VolumeMismatch', `Cannot bind to requested volume ${JSON.stringify(volumeName)}: ${why}`) } : { kind: 'bind', volume };
  }
  if (ref.name === claim.metadata.name && (ref.namespace ?? '') === (claim.metadata.namespace ?? '') && (!ref.uid || ref.uid === claim.metadata.uid)) return { kind: 'bind', volume };
  // the volume is someone else's: a claim the user pointed at it waits; one the controller pointed there is an error
  if (!hasAnnotation(claim, ANN_BOUND_BY_CONTROLLER)) return { kind: 'pending' };
  return { kind: 'error', message: `invalid binding of claim ${JSON.stringify(`${claim.metadata.namespace}/${claim.metadata.name}`)} to volume ${JSON.stringify(volumeName)}: volume already claimed by ${JSON.stringify(`${ref.namespace}/${ref.name}`)}` };
}

function planBoundClaim(claim: ApiObject, world: ClaimWorld): ClaimAction {
  const volumeName = claimVolumeName(claim);
  if (volumeName === '') return { kind: 'lost', event: warn('ClaimLost', MSG_CLAIM_LOST_REFERENCE) };
  const volume = world.volume(volumeName);
  if (!volume) return { kind: 'lost', event: warn('ClaimLost', MSG_CLAIM_LOST_VOLUME) };
  const ref = claimRefOf(volume);
  if (!ref || ref.uid === claim.metadata.uid) return { kind: 'bind', volume };
  return { kind: 'lost', event: warn('ClaimMisbound', MSG_CLAIM_MISBOUND) };
}

export type VolumeAction =
  /** Phase (and message) written when it differs; the event only then. */
  | { readonly kind: 'phase'; readonly phase: 'Available' | 'Bound' | 'Pending'; readonly event?: BinderEvent; readonly claimEvent?: BinderEvent }
  /** The claim is gone: Released, then the reclaim policy. */
  | { readonly kind: 'release'; readonly reclaim: Reclaim }
  /** The controller-made binding is dropped: claimRef and bound-by-controller removed, Available. */
  | { readonly kind: 'unbind' }
  /** The claim's own sync finishes the binding. */
  | { readonly kind: 'syncClaim' }
  | { readonly kind: 'none' };

export type Reclaim =
  | { readonly kind: 'retain' }
  /** Deleted by the binder (svc has no volume plugins: the API object goes, the storage is the admin's). */
  | { readonly kind: 'delete' }
  /** A provisioned volume: its provisioner deletes it. */
  | { readonly kind: 'external'; readonly provisioner: string }
  | { readonly kind: 'fail'; readonly event: BinderEvent };

export function reclaimOf(volume: ApiObject): Reclaim {
  const policy = specOf(volume).persistentVolumeReclaimPolicy ?? 'Retain';
  if (policy === 'Recycle') return { kind: 'fail', event: warn('VolumeFailedRecycle', MSG_NO_RECYCLER) };
  if (policy !== 'Delete') return { kind: 'retain' };
  const by = annotation(volume, ANN_PROVISIONED_BY);
  if (by !== undefined && !by.startsWith('kubernetes.io/') && by !== NOT_SUPPORTED_PROVISIONER) return { kind: 'external', provisioner: by };
  return { kind: 'delete' };
}

/**
 * One volume's sync. `claim` is the claim its claimRef names as the API has
 * it (undefined when there is none, or its uid differs: a new claim of the
 * old name).
 */
export function planVolume(volume: ApiObject, claim: ApiObject | undefined): VolumeAction {
  const ref = claimRefOf(volume);
  if (!ref || !ref.uid) return { kind: 'phase', phase: 'Available' };
  const mine = claim && claim.metadata.uid === ref.uid ? claim : undefined;
  if (!mine) return { kind: 'release', reclaim: reclaimOf(volume) };
  const volumeName = claimVolumeName(mine);
  if (volumeName === '') {
    if (volumeModeMismatch(mine, volume)) {
      const event = warn('VolumeMismatch', MSG_VOLUME_MODE_MISMATCH);
      return { kind: 'phase', phase: 'Pending', event, claimEvent: event };
    }
    return { kind: 'syncClaim' };
  }
  if (volumeName === volume.metadata.name) return { kind: 'phase', phase: 'Bound' };
  // the claim went to another volume
  const reclaim = reclaimOf(volume);
  if (hasAnnotation(volume, ANN_PROVISIONED_BY) && reclaim.kind !== 'retain' && specOf(volume).persistentVolumeReclaimPolicy === 'Delete') return { kind: 'release', reclaim };
  if (hasAnnotation(volume, ANN_BOUND_BY_CONTROLLER)) return { kind: 'unbind' };
  return { kind: 'none' };
}

/** Whether a released volume still needs its Released phase written (Released and Failed stay). */
export function needsReleasedPhase(volume: ApiObject): boolean {
  const p = volumePhase(volume);
  return p !== 'Released' && p !== 'Failed';
}
