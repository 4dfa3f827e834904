// autoscaling/v1: the CPU-only HorizontalPodAutoscaler, and Scale, the body
// of every `scale` subresource whatever the parent's group.
import { int32, int64, kind, obj, ref, str, Time, type S } from '../../../schema/index.js';

const PKG = 'io.k8s.api.autoscaling.v1';

export const CrossVersionObjectReference = obj({
  kind: str().required().proto(1, { keepZero: true }).desc('The kind of the target.'),
  name: str().required().proto(2, { keepZero: true }).desc('The name of the target.'),
  apiVersion: str().proto(3).desc('The API version of the target.'),
})
  .atomic()
  .id(`${PKG}.CrossVersionObjectReference`)
  .desc('Identifies an object in the same namespace, in any API version.');

export const HorizontalPodAutoscalerSpec = obj({
  scaleTargetRef: ref(CrossVersionObjectReference).required().proto(1).desc('The object whose scale subresource is set.'),
  minReplicas: int32().proto(2, { keepZero: true }).desc('The fewest replicas to scale down to; 1 when unset.'),
  maxReplicas: int32().required().proto(3, { keepZero: true }).desc('The most replicas to scale up to.'),
  targetCPUUtilizationPercentage: int32().proto(4, { keepZero: true }).desc('The average CPU use to aim for, as a percentage of the pods\' requests.'),
})
  .id(`${PKG}.HorizontalPodAutoscalerSpec`)
  .desc('The target and limits of an autoscaler.');

export const HorizontalPodAutoscalerStatus = obj({
  observedGeneration: int64().proto(1, { keepZero: true }).desc('The generation the autoscaler last acted on.'),
  lastScaleTime: ref(Time).proto(2).desc('When the autoscaler last changed the replica count.'),
  currentReplicas: int32().required().proto(3, { always: true }).desc('The replica count the autoscaler last saw.'),
  desiredReplicas: int32().required().proto(4, { always: true }).desc('The replica count the autoscaler last asked for.'),
  currentCPUUtilizationPercentage: int32().proto(5, { keepZero: true }).desc('The average CPU use, as a percentage of the pods\' requests.'),
})
  .id(`${PKG}.HorizontalPodAutoscalerStatus`)
  .desc('The observed state of an autoscaler.');

export const HorizontalPodAutoscaler = kind({
  spec: ref(HorizontalPodAutoscalerSpec).proto(2).desc('The target and limits of the autoscaler.'),
  status: ref(HorizontalPodAutoscalerStatus).proto(3).desc('The observed state of the autoscaler.'),
})
  .id(`${PKG}.HorizontalPodAutoscaler`)
  .desc('Scales a workload by its average CPU use.');

export const ScaleSpec = obj({
  replicas: int32().proto(1).desc('The desired number of replicas.'),
})
  .id(`${PKG}.ScaleSpec`)
  .desc('The desired scale of an object.');

export const ScaleStatus = obj({
  replicas: int32().required().proto(1, { always: true }).desc('The number of replicas observed.'),
  selector: str().proto(2).desc('The label selector of the counted pods, in query-parameter form.'),
})
  .id(`${PKG}.ScaleStatus`)
  .desc('The observed scale of an object.');

export const Scale = kind({
  spec: ref(ScaleSpec).proto(2).desc('The desired scale.'),
  status: ref(ScaleStatus).proto(3).desc('The observed scale; read-only.'),
})
  .id(`${PKG}.Scale`)
  .desc('The scale of an object, read and written through its scale subresource.');

export const kinds: Readonly<Record<string, S>> = { HorizontalPodAutoscaler, Scale };
