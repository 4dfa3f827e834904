// The annotations and phases the PersistentVolume binder, the scheduler's
// volume binder and provisioners share (kube's
// pkg/controller/volume/persistentvolume/util and
// component-helpers/storage/volume). Values are kube's ("yes").
import type { ApiObject } from '../../registry/object.js';

/** On a claim: the binder finished binding it (its sync is a bound claim's from then on). */
export const ANN_BIND_COMPLETED = 'pv.kubernetes.io/bind-completed';
/** On a claim or a volume: the binder, not the user, set the binding half. */
export const ANN_BOUND_BY_CONTROLLER = 'pv.kubernetes.io/bound-by-controller';
/** On a volume: the provisioner that made it. */
export const ANN_PROVISIONED_BY = 'pv.kubernetes.io/provisioned-by';
/** On a claim: the provisioner expected to make its volume (the binder sets it). */
export const ANN_STORAGE_PROVISIONER = 'volume.kubernetes.io/storage-provisioner';
export const ANN_BETA_STORAGE_PROVISIONER = 'volume.beta.kubernetes.io/storage-provisioner';
/** On a claim of a WaitForFirstConsumer class: the node the scheduler chose for its pod. */
export const ANN_SELECTED_NODE = 'volume.kubernetes.io/selected-node';
/** The legacy spelling of a claim's or volume's class. */
export const ANN_BETA_STORAGE_CLASS = 'volume.beta.kubernetes.io/storage-class';
/** The class annotation marking the cluster's default StorageClass. */
export const ANN_DEFAULT_CLASS = 'storageclass.kubernetes.io/is-default-class';
export const ANN_BETA_DEFAULT_CLASS = 'storageclass.beta.kubernetes.io/is-default-class';
/** kube's provisioner name for classes of pre-made local volumes: nothing provisions them. */
export const NOT_SUPPORTED_PROVISIONER = 'kubernetes.io/no-provisioner';

export const YES = 'yes';

export type ClaimPhase = 'Pending' | 'Bound' | 'Lost';
export type VolumePhase = 'Pending' | 'Available' | 'Bound' | 'Released' | 'Failed';

export function hasAnnotation(obj: ApiObject, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj.metadata.annotations ?? {}, key);
}

export function annotation(obj: ApiObject, key: string): string | undefined {
  return obj.metadata.annotations?.[key];
}

/** A copy of the object with the annotation set (the object itself is left alone). */
export function withAnnotation(obj: ApiObject, key: string, value: string): ApiObject {
  return { ...obj, metadata: { ...obj.metadata, annotations: { ...(obj.metadata.annotations ?? {}), [key]: value } } };
}

/** Whether a StorageClass is marked default (either spelling, "true"). */
export function isDefaultClass(cls: ApiObject): boolean {
  return annotation(cls, ANN_DEFAULT_CLASS) === 'true' || annotation(cls, ANN_BETA_DEFAULT_CLASS) === 'true';
}
