// StatefulSet: pods with stable names, ordinals and storage, created and
// updated in order.
import { int32, int64, IntOrString, kind, LabelSelector, list, obj, ref, str } from '../../../schema/index.js';
import { PersistentVolumeClaim, PodTemplateSpec } from '../../core/v1/index.js';
import { APPS, updateStrategy, workloadCondition } from './shared.js';

export const RollingUpdateStatefulSetStrategy = obj({
  partition: int32().proto(1, { keepZero: true }).desc('Only pods with an ordinal at or above this are updated; 0 when unset.'),
  maxUnavailable: ref(IntOrString).proto(2).desc('How many pods, or what percentage, may be unavailable during an update (alpha, MaxUnavailableStatefulSet).'),
})
  .id(`${APPS}.RollingUpdateStatefulSetStrategy`)
  .desc('The limits of a rolling update of a StatefulSet.');

export const StatefulSetUpdateStrategy = updateStrategy('StatefulSetUpdateStrategy', {
  rolling: RollingUpdateStatefulSetStrategy,
  types: 'RollingUpdate (the default) or OnDelete.',
  desc: 'How a StatefulSet replaces its pods when the template changes.',
});

export const StatefulSetPersistentVolumeClaimRetentionPolicy = obj({
  whenDeleted: str().proto(1).desc('Retain (the default) or Delete the claims when the StatefulSet is deleted.'),
  whenScaled: str().proto(2).desc('Retain (the default) or Delete the claims of pods removed by a scale-down.'),
})
  .id(`${APPS}.StatefulSetPersistentVolumeClaimRetentionPolicy`)
  .desc('What happens to the claims made from volumeClaimTemplates.');

export const StatefulSetOrdinals = obj({
  start: int32().proto(1, { keepZero: true }).desc('The ordinal of the first replica; 0 when unset.'),
})
  .id(`${APPS}.StatefulSetOrdinals`)
  .desc('How a StatefulSet numbers its replicas.');

export const StatefulSetSpec = obj({
  replicas: int32().proto(1, { keepZero: true }).desc('How many pods to run; 1 when unset.'),
  selector: ref(LabelSelector).required().proto(2).desc('Which pods belong to the set; must match the template\'s labels.'),
  template: ref(PodTemplateSpec).required().proto(3).desc('The pods to create, each named <set>-<ordinal>.'),
  volumeClaimTemplates: list(PersistentVolumeClaim).proto(4).desc('Claims made for each pod, matched to its volume mounts by name.'),
  serviceName: str().required().proto(5, { keepZero: true }).desc('The headless Service that gives the pods their network identity.'),
  podManagementPolicy: str().proto(6).desc('OrderedReady (the default) or Parallel pod creation and deletion.'),
  updateStrategy: ref(StatefulSetUpdateStrategy).proto(7).desc('How pods are replaced when the template changes.'),
  revisionHistoryLimit: int32().proto(8, { keepZero: true }).desc('How many old revisions to keep; 10 when unset.'),
  minReadySeconds: int32().proto(9).desc('Seconds a new pod must stay ready before it counts as available.'),
  persistentVolumeClaimRetentionPolicy: ref(StatefulSetPersistentVolumeClaimRetentionPolicy).proto(10).desc('What happens to the claims on deletion and scale-down.'),
  ordinals: ref(StatefulSetOrdinals).proto(11).desc('How replicas are numbered.'),
})
  .id(`${APPS}.StatefulSetSpec`)
  .desc('The desired state of a StatefulSet.');

export const StatefulSetCondition = workloadCondition('StatefulSet');

export const StatefulSetStatus = obj({
  observedGeneration: int64().proto(1).desc('The generation the controller last acted on.'),
  replicas: int32().required().proto(2, { always: true }).desc('Pods the controller has created.'),
  readyReplicas: int32().proto(3).desc('Pods that are ready.'),
  currentReplicas: int32().proto(4).desc('Pods made from currentRevision.'),
  updatedReplicas: int32().proto(5).desc('Pods made from updateRevision.'),
  currentRevision: str().proto(6).desc('The revision of the pods below currentReplicas.'),
  updateRevision: str().proto(7).desc('The revision pods are being updated to.'),
  collisionCount: int32().proto(9, { keepZero: true }).desc('Hash collisions met when naming the newest ControllerRevision.'),
  conditions: list(StatefulSetCondition).patch('merge', 'type').proto(10).desc('The observed conditions of the StatefulSet.'),
  availableReplicas: int32().proto(11, { always: true }).desc('Pods ready for at least minReadySeconds.'),
})
  .id(`${APPS}.StatefulSetStatus`)
  .desc('The observed state of a StatefulSet.');

export const StatefulSet = kind({
  spec: ref(StatefulSetSpec).proto(2).desc('The desired state of the StatefulSet.'),
  status: ref(StatefulSetStatus).proto(3).desc('The observed state of the StatefulSet.'),
})
  .id(`${APPS}.StatefulSet`)
  .desc('Pods with stable identities and storage, managed in order.');
