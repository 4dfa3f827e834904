// autoscaling/v2 HorizontalPodAutoscaler: scales a workload on any number of
// metrics, within per-direction rate limits (behavior).
import { int32, int64, kind, list, obj, ref, str, Time } from '../../../schema/index.js';
import { classicCondition } from '../../core/v1/index.js';
import { CrossVersionObjectReference, MetricSpec, MetricStatus, PKG } from './metrics.js';

export const HPAScalingPolicy = obj({
  type: str().required().proto(1, { keepZero: true }).desc('Pods or Percent: how value is counted.'),
  value: int32().required().proto(2, { keepZero: true }).desc('How much the replica count may change within the period; more than zero.'),
  periodSeconds: int32().required().proto(3, { keepZero: true }).desc('The length of the period, in seconds, up to 1800.'),
})
  .id(`${PKG}.HPAScalingPolicy`)
  .desc('A limit on how much the replica count may change within a period.');

export const HPAScalingRules = obj({
  stabilizationWindowSeconds: int32().proto(3, { keepZero: true }).desc('Seconds of past recommendations to consider before scaling, up to 3600.'),
  selectPolicy: str().proto(1, { keepZero: true }).desc('Max (the default), Min or Disabled: which policy wins.'),
  policies: list(HPAScalingPolicy).atomic().proto(2).desc('The limits that may apply.'),
})
  .id(`${PKG}.HPAScalingRules`)
  .desc('How fast an autoscaler may scale in one direction.');

export const HorizontalPodAutoscalerBehavior = obj({
  scaleUp: ref(HPAScalingRules).proto(1).desc('The limits on scaling up.'),
  scaleDown: ref(HPAScalingRules).proto(2).desc('The limits on scaling down.'),
})
  .id(`${PKG}.HorizontalPodAutoscalerBehavior`)
  .desc('The limits on scaling up and down.');

export const HorizontalPodAutoscalerSpec = obj({
  scaleTargetRef: ref(CrossVersionObjectReference).required().proto(1).desc('The object whose scale subresource is set.'),
  minReplicas: int32().proto(2, { keepZero: true }).desc('The fewest replicas to scale down to; 1 when unset.'),
  maxReplicas: int32().required().proto(3, { keepZero: true }).desc('The most replicas to scale up to.'),
  metrics: list(MetricSpec).atomic().proto(4).desc('The metrics to scale on; the largest resulting count wins; 80% average CPU when unset.'),
  behavior: ref(HorizontalPodAutoscalerBehavior).proto(5).desc('The limits on scaling up and down.'),
})
  .id(`${PKG}.HorizontalPodAutoscalerSpec`)
  .desc('The target, limits and metrics of an autoscaler.');

export const HorizontalPodAutoscalerCondition = classicCondition({
  id: `${PKG}.HorizontalPodAutoscalerCondition`, of: 'an autoscaler', type: 'The condition type, such as AbleToScale.',
});

export const HorizontalPodAutoscalerStatus = obj({
  observedGeneration: int64().proto(1, { keepZero: true }).desc('The generation the autoscaler last acted on.'),
  lastScaleTime: ref(Time).proto(2).desc('When the autoscaler last changed the replica count.'),
  currentReplicas: int32().proto(3).desc('The replica count the autoscaler last saw.'),
  desiredReplicas: int32().required().proto(4, { always: true }).desc('The replica count the autoscaler last asked for.'),
  currentMetrics: list(MetricStatus).atomic().proto(5, { always: true }).desc('The metrics as last read.'),
  conditions: list(HorizontalPodAutoscalerCondition).map('type').patch('merge', 'type').proto(6).desc('The observed conditions of the autoscaler.'),
})
  .id(`${PKG}.HorizontalPodAutoscalerStatus`)
  .desc('The observed state of an autoscaler.');

export const HorizontalPodAutoscaler = kind({
  spec: ref(HorizontalPodAutoscalerSpec).proto(2).desc('The target, limits and metrics of the autoscaler.'),
  status: ref(HorizontalPodAutoscalerStatus).proto(3).desc('The observed state of the autoscaler.'),
})
  .id(`${PKG}.HorizontalPodAutoscaler`)
  .desc('Scales a workload on metrics such as CPU use, within rate limits.');
