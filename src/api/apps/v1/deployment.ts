// Deployment and ReplicaSet: a ReplicaSet keeps a number of identical pods
// running; a Deployment rolls a template out through ReplicaSets.
import { bool, int32, int64, IntOrString, kind, LabelSelector, list, obj, ref, Time } from '../../../schema/index.js';
import { PodTemplateSpec } from '../../core/v1/index.js';
import { APPS, updateStrategy, workloadCondition } from './shared.js';

export const ReplicaSetSpec = obj({
  replicas: int32().proto(1, { keepZero: true }).desc('How many pods to keep running; 1 when unset.'),
  minReadySeconds: int32().proto(4).desc('Seconds a new pod must stay ready before it counts as available.'),
  selector: ref(LabelSelector).required().proto(2).desc('Which pods count towards the replicas; must match the template\'s labels.'),
  template: ref(PodTemplateSpec).proto(3).desc('The pods to create when too few run.'),
})
  .id(`${APPS}.ReplicaSetSpec`)
  .desc('The desired state of a ReplicaSet.');

export const ReplicaSetCondition = workloadCondition('ReplicaSet');

export const ReplicaSetStatus = obj({
  replicas: int32().required().proto(1, { always: true }).desc('How many non-terminating pods were seen.'),
  fullyLabeledReplicas: int32().proto(2).desc('Pods carrying all the template\'s labels.'),
  readyReplicas: int32().proto(4).desc('Pods that are ready.'),
  availableReplicas: int32().proto(5).desc('Pods ready for at least minReadySeconds.'),
  observedGeneration: int64().proto(3).desc('The generation the controller last acted on.'),
  conditions: list(ReplicaSetCondition).patch('merge', 'type').proto(6).desc('The observed conditions of the ReplicaSet.'),
})
  .id(`${APPS}.ReplicaSetStatus`)
  .desc('The observed state of a ReplicaSet.');

export const ReplicaSet = kind({
  spec: ref(ReplicaSetSpec).proto(2).desc('The desired state of the ReplicaSet.'),
  status: ref(ReplicaSetStatus).proto(3).desc('The observed state of the ReplicaSet.'),
})
  .id(`${APPS}.ReplicaSet`)
  .desc('Keeps a number of identical pods running.');

export const RollingUpdateDeployment = obj({
  maxUnavailable: ref(IntOrString).proto(1).desc('How many pods, or what percentage, may be unavailable during a rollout; 25% when unset.'),
  maxSurge: ref(IntOrString).proto(2).desc('How many pods, or what percentage, may run above the desired count during a rollout; 25% when unset.'),
})
  .id(`${APPS}.RollingUpdateDeployment`)
  .desc('The limits of a rolling update of a Deployment.');

export const DeploymentStrategy = updateStrategy('DeploymentStrategy', {
  rolling: RollingUpdateDeployment,
  types: 'Recreate or RollingUpdate (the default).',
  desc: 'How a Deployment replaces old pods with new ones.',
});

export const DeploymentSpec = obj({
  replicas: int32().proto(1, { keepZero: true }).desc('How many pods to run; 1 when unset.'),
  selector: ref(LabelSelector).required().proto(2).desc('Which pods and ReplicaSets belong to the Deployment; must match the template\'s labels.'),
  template: ref(PodTemplateSpec).required().proto(3).desc('The pods to create.'),
  strategy: ref(DeploymentStrategy).patch('retainKeys').proto(4).desc('How to replace old pods with new ones.'),
  minReadySeconds: int32().proto(5).desc('Seconds a new pod must stay ready before it counts as available.'),
  revisionHistoryLimit: int32().proto(6, { keepZero: true }).desc('How many old ReplicaSets to keep for rollbacks; 10 when unset.'),
  paused: bool().proto(7).desc('Whether the rollout is paused.'),
  progressDeadlineSeconds: int32().proto(9, { keepZero: true }).desc('Seconds a rollout may go without progress before it is reported as failed; 600 when unset.'),
})
  .id(`${APPS}.DeploymentSpec`)
  .desc('The desired state of a Deployment.');

export const DeploymentCondition = workloadCondition('Deployment', {
  lastUpdateTime: ref(Time).proto(6, { always: true }).desc('When the condition was last updated.'),
  lastTransitionTime: ref(Time).proto(7, { always: true }).desc('When the status last changed.'),
});

export const DeploymentStatus = obj({
  observedGeneration: int64().proto(1).desc('The generation the controller last acted on.'),
  replicas: int32().proto(2).desc('Non-terminating pods the Deployment selects.'),
  updatedReplicas: int32().proto(3).desc('Of those, the pods made from the current template.'),
  readyReplicas: int32().proto(7).desc('Of those, the pods that are ready.'),
  availableReplicas: int32().proto(4).desc('Of those, the pods ready for at least minReadySeconds.'),
  unavailableReplicas: int32().proto(5).desc('Pods still missing for the Deployment to be fully available.'),
  conditions: list(DeploymentCondition).patch('merge', 'type').proto(6).desc('The observed conditions of the Deployment.'),
  collisionCount: int32().proto(8, { keepZero: true }).desc('Hash collisions met when naming the newest ReplicaSet.'),
})
  .id(`${APPS}.DeploymentStatus`)
  .desc('The observed state of a Deployment.');

export const Deployment = kind({
  spec: ref(DeploymentSpec).proto(2).desc('The desired state of the Deployment.'),
  status: ref(DeploymentStatus).proto(3).desc('The observed state of the Deployment.'),
})
  .id(`${APPS}.Deployment`)
  .desc('Rolls out a pod template declaratively, through ReplicaSets.');
