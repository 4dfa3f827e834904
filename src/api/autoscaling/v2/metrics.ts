// autoscaling/v2 metrics: what an autoscaler measures (MetricSpec, one of
// five sources) and what it last read (MetricStatus, one of five matching
// statuses). Sources carry a MetricTarget, statuses a MetricValueStatus.
import { int32, LabelSelector, obj, Quantity, ref, str, type Field, type S } from '../../../schema/index.js';

export const PKG = 'io.k8s.api.autoscaling.v2';

export const CrossVersionObjectReference = obj({
  kind: str().required().proto(1, { keepZero: true }).desc('The kind of the object.'),
  name: str().required().proto(2, { keepZero: true }).desc('The name of the object.'),
  apiVersion: str().proto(3).desc('The API version of the object.'),
})
  .id(`${PKG}.CrossVersionObjectReference`)
  .desc('Identifies an object in the same namespace, in any API version.');

export const MetricIdentifier = obj({
  name: str().required().proto(1, { keepZero: true }).desc('The name of the metric.'),
  selector: ref(LabelSelector).proto(2).desc('Narrows the metric to the series with these labels.'),
})
  .id(`${PKG}.MetricIdentifier`)
  .desc('A metric, by name and optional label selector.');

export const MetricTarget = obj({
  type: str().required().proto(1, { keepZero: true }).desc('Utilization, Value or AverageValue: which of the other fields applies.'),
  value: ref(Quantity).proto(2).desc('The value to aim for.'),
  averageValue: ref(Quantity).proto(3).desc('The per-pod average to aim for.'),
  averageUtilization: int32().proto(4, { keepZero: true }).desc('The per-pod average to aim for, as a percentage of the pods\' requests.'),
})
  .id(`${PKG}.MetricTarget`)
  .desc('The value of a metric an autoscaler aims for.');

export const MetricValueStatus = obj({
  value: ref(Quantity).proto(1).desc('The value read.'),
  averageValue: ref(Quantity).proto(2).desc('The per-pod average read.'),
  averageUtilization: int32().proto(3, { keepZero: true }).desc('The per-pod average read, as a percentage of the pods\' requests.'),
})
  .id(`${PKG}.MetricValueStatus`)
  .desc('The value of a metric an autoscaler last read.');

/** A source (with `target`) or status (with `current`) type, its fields numbered as generated.proto numbers them. */
function metricPart(name: string, desc: string, fields: { [name: string]: Field }): S {
  return obj(fields).id(`${PKG}.${name}`).desc(desc);
}

const target = (n: number) => ref(MetricTarget).required().proto(n).desc('The value to aim for.');
const current = (n: number) => ref(MetricValueStatus).required().proto(n).desc('The value last read.');
const metric = (n: number) => ref(MetricIdentifier).required().proto(n).desc('The metric, by name and selector.');
const resourceName = () => str().required().proto(1, { keepZero: true }).desc('The resource, such as cpu or memory.');
const containerName = () => str().required().proto(3, { keepZero: true }).desc('The container, in each pod of the target, whose use counts.');
const described = (n: number) => ref(CrossVersionObjectReference).required().proto(n).desc('The object the metric describes.');

export const ResourceMetricSource = metricPart('ResourceMetricSource', 'A resource use of the target\'s pods, such as CPU, averaged over them.', { name: resourceName(), target: target(2) });
export const ContainerResourceMetricSource = metricPart('ContainerResourceMetricSource', 'A resource use of one container in each of the target\'s pods, averaged over them.', {
  name: resourceName(), target: target(2), container: containerName(),
});
export const PodsMetricSource = metricPart('PodsMetricSource', 'A metric of each of the target\'s pods, averaged over them.', { metric: metric(1), target: target(2) });
export const ObjectMetricSource = metricPart('ObjectMetricSource', 'A metric of one Kubernetes object, such as an Ingress.', {
  describedObject: described(1), target: target(2), metric: metric(3),
});
export const ExternalMetricSource = metricPart('ExternalMetricSource', 'A metric not tied to any Kubernetes object, such as a queue length.', { metric: metric(1), target: target(2) });

export const ResourceMetricStatus = metricPart('ResourceMetricStatus', 'The last read resource use of the target\'s pods.', { name: resourceName(), current: current(2) });
export const ContainerResourceMetricStatus = metricPart('ContainerResourceMetricStatus', 'The last read resource use of one container in each of the target\'s pods.', {
  name: resourceName(), current: current(2), container: containerName(),
});
export const PodsMetricStatus = metricPart('PodsMetricStatus', 'The last read metric of the target\'s pods.', { metric: metric(1), current: current(2) });
export const ObjectMetricStatus = metricPart('ObjectMetricStatus', 'The last read metric of one Kubernetes object.', {
  metric: metric(1), current: current(2), describedObject: described(3),
});
export const ExternalMetricStatus = metricPart('ExternalMetricStatus', 'The last read metric not tied to any Kubernetes object.', { metric: metric(1), current: current(2) });

/** MetricSpec or MetricStatus: a `type` naming which one of the five metric parts is set. */
function metricUnion(name: string, desc: string, parts: { object: S; pods: S; resource: S; containerResource: S; external: S }): S {
  return obj({
    type: str().required().proto(1, { keepZero: true }).desc('ContainerResource, External, Object, Pods or Resource: which of the other fields applies.'),
    object: ref(parts.object).proto(2).desc('A metric of one Kubernetes object.'),
    pods: ref(parts.pods).proto(3).desc('A metric of each pod, averaged.'),
    resource: ref(parts.resource).proto(4).desc('A resource use of each pod, averaged.'),
    containerResource: ref(parts.containerResource).proto(7).desc('A resource use of one container in each pod, averaged.'),
    external: ref(parts.external).proto(5).desc('A metric from outside the cluster.'),
  })
    .id(`${PKG}.${name}`)
    .desc(desc);
}

export const MetricSpec = metricUnion('MetricSpec', 'One metric to scale on.', {
  object: ObjectMetricSource, pods: PodsMetricSource, resource: ResourceMetricSource, containerResource: ContainerResourceMetricSource, external: ExternalMetricSource,
});

export const MetricStatus = metricUnion('MetricStatus', 'The last read value of one metric.', {
  object: ObjectMetricStatus, pods: PodsMetricStatus, resource: ResourceMetricStatus, containerResource: ContainerResourceMetricStatus, external: ExternalMetricStatus,
});
