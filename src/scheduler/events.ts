// Which cluster events may make an unschedulable pod schedulable (kube's
// eventhandlers: a node added, a node whose scheduling properties changed, an
// assigned pod gone or changed, a claim, volume or storage class added or
// changed), and which plugins' refusals each can undo.
import type { ApiObject } from '../registry/object.js';
import { deepEqual, isObject } from '../registry/object.js';
import { spec, taintsOf } from './pods.js';

export type ClusterEvent = 'NodeAdd' | 'NodeChange' | 'AssignedPodAdd' | 'AssignedPodUpdate' | 'AssignedPodDelete' | 'VolumeChange';

/** The plugins whose refusals an event may undo; undefined: all. */
export const EVENT_PLUGINS: Readonly<Record<ClusterEvent, ReadonlySet<string> | undefined>> = {
  NodeAdd: undefined,
  NodeChange: undefined,
  AssignedPodAdd: new Set(['PodTopologySpread', 'InterPodAffinity']),
  AssignedPodUpdate: new Set(['PodTopologySpread', 'InterPodAffinity']),
  AssignedPodDelete: new Set(['NodeResourcesFit', 'NodePorts', 'PodTopologySpread', 'InterPodAffinity', 'VolumeRestrictions', 'NodeVolumeLimits', 'DefaultPreemption']),
  VolumeChange: new Set(['VolumeBinding', 'VolumeZone', 'VolumeRestrictions', 'NodeVolumeLimits']),
};

function conditionStatuses(node: ApiObject): Record<string, unknown> {
  const status = isObject(node.status) ? node.status : {};
  const out: Record<string, unknown> = {};
  for (const c of Array.isArray(status.conditions) ? status.conditions.filter(isObject) : []) out[String(c.type)] = c.status;
  return out;
}

/** kube's nodeSchedulingPropertiesChange: a heartbeat alone changes nothing the scheduler reads. */
export function nodeSchedulingPropertiesChanged(old: ApiObject, node: ApiObject): boolean {
  const alloc = (n: ApiObject) => (isObject(n.status) ? n.status.allocatable : undefined);
  return spec(old).unschedulable !== spec(node).unschedulable
    || !deepEqual(alloc(old), alloc(node))
    || !deepEqual(old.metadata.labels ?? {}, node.metadata.labels ?? {})
    || !deepEqual(taintsOf(old), taintsOf(node))
    || !deepEqual(conditionStatuses(old), conditionStatuses(node));
}
