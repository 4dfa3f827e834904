// DaemonSet: one copy of a pod on every node (or every node its template
// selects).
import { int32, int64, IntOrString, kind, LabelSelector, list, obj, ref } from '../../../schema/index.js';
import { PodTemplateSpec } from '../../core/v1/index.js';
import { APPS, updateStrategy, workloadCondition } from './shared.js';

export const RollingUpdateDaemonSet = obj({
  maxUnavailable: ref(IntOrString).proto(1).desc('How many nodes, or what percentage, may lack an available pod during an update; 1 when unset.'),
  maxSurge: ref(IntOrString).proto(2).desc('How many nodes, or what percentage, may run an old and a new pod at once during an update; 0 when unset.'),
})
  .id(`${APPS}.RollingUpdateDaemonSet`)
  .desc('The limits of a rolling update of a DaemonSet.');

export const DaemonSetUpdateStrategy = updateStrategy('DaemonSetUpdateStrategy', {
  rolling: RollingUpdateDaemonSet,
  types: 'RollingUpdate (the default) or OnDelete.',
  desc: 'How a DaemonSet replaces its pods when the template changes.',
});

export const DaemonSetSpec = obj({
  selector: ref(LabelSelector).required().proto(1).desc('Which pods belong to the DaemonSet; must match the template\'s labels.'),
  template: ref(PodTemplateSpec).required().proto(2).desc('The pod to run on each selected node.'),
  updateStrategy: ref(DaemonSetUpdateStrategy).proto(3).desc('How pods are replaced when the template changes.'),
  minReadySeconds: int32().proto(4).desc('Seconds a new pod must stay ready before it counts as available.'),
  revisionHistoryLimit: int32().proto(6, { keepZero: true }).desc('How many old revisions to keep; 10 when unset.'),
})
  .id(`${APPS}.DaemonSetSpec`)
  .desc('The desired state of a DaemonSet.');

export const DaemonSetCondition = workloadCondition('DaemonSet');

export const DaemonSetStatus = obj({
  currentNumberScheduled: int32().required().proto(1, { always: true }).desc('Nodes running the pod that should run it.'),
  numberMisscheduled: int32().required().proto(2, { always: true }).desc('Nodes running the pod that should not.'),
  desiredNumberScheduled: int32().required().proto(3, { always: true }).desc('Nodes that should run the pod.'),
  numberReady: int32().required().proto(4, { always: true }).desc('Nodes that should run the pod and have a ready one.'),
  observedGeneration: int64().proto(5).desc('The generation the controller last acted on.'),
  updatedNumberScheduled: int32().proto(6).desc('Nodes running a pod made from the current template.'),
  numberAvailable: int32().proto(7).desc('Nodes that should run the pod and have one ready for at least minReadySeconds.'),
  numberUnavailable: int32().proto(8).desc('Nodes that should run the pod and have none available.'),
  collisionCount: int32().proto(9, { keepZero: true }).desc('Hash collisions met when naming the newest ControllerRevision.'),
  conditions: list(DaemonSetCondition).patch('merge', 'type').proto(10).desc('The observed conditions of the DaemonSet.'),
})
  .id(`${APPS}.DaemonSetStatus`)
  .desc('The observed state of a DaemonSet.');

export const DaemonSet = kind({
  spec: ref(DaemonSetSpec).proto(2).desc('The desired state of the DaemonSet.'),
  status: ref(DaemonSetStatus).proto(3).desc('The observed state of the DaemonSet.'),
})
  .id(`${APPS}.DaemonSet`)
  .desc('Runs a copy of a pod on every selected node.');
