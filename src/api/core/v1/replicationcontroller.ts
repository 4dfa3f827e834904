// ReplicationController: keeps a number of pods from a template running.
import { int32, int64, list, mapOf, obj, ref, str } from '../../../schema/dsl.js';
import { kind } from '../../../schema/common.js';
import { PodTemplateSpec } from './pod.js';
import { classicCondition } from './condition.js';
import { core } from './names.js';

export const ReplicationControllerSpec = obj({
  replicas: int32().proto(1, { keepZero: true }).desc('The number of pods to keep running; 1 by default.'),
  minReadySeconds: int32().proto(4).desc('Seconds a new pod must be ready before it counts as available.'),
  selector: mapOf(str()).atomic().proto(2).desc("Labels of the pods to count; the template's labels when empty."),
  template: ref(PodTemplateSpec).proto(3).desc('The pods to create.'),
})
  .id(core('ReplicationControllerSpec'))
  .desc('The desired state of a replication controller.');

export const ReplicationControllerCondition = classicCondition({ id: core('ReplicationControllerCondition'), of: 'a replication controller' });

export const ReplicationControllerStatus = obj({
  replicas: int32().required().proto(1, { always: true }).desc('The number of pods seen.'),
  fullyLabeledReplicas: int32().proto(2).desc("Pods whose labels match the template's."),
  readyReplicas: int32().proto(4).desc('Pods that are ready.'),
  availableReplicas: int32().proto(5).desc('Pods ready for at least minReadySeconds.'),
  observedGeneration: int64().proto(3).desc('The generation the controller last acted on.'),
  conditions: list(ref(ReplicationControllerCondition)).patch('merge', 'type').proto(6).desc('The observed conditions of the controller.'),
})
  .id(core('ReplicationControllerStatus'))
  .desc('The observed state of a replication controller.');

export const ReplicationController = kind({
  spec: ref(ReplicationControllerSpec).proto(2).desc('The desired state of the controller.'),
  status: ref(ReplicationControllerStatus).proto(3).desc('The observed state of the controller.'),
})
  .id(core('ReplicationController'))
  .desc('Keeps a number of pod replicas running.');
