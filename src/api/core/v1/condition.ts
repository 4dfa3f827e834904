// The classic condition shape that core/v1 and the workload groups give each
// kind its own named copy of (PodCondition, DeploymentCondition, …), older
// than meta/v1 Condition: a type and a True/False/Unknown status (protobuf
// 1 and 2), when the status last changed, why, and a message, those three
// numbered from `transition`. `extra` adds or renumbers fields (a pod's
// lastProbeTime, a node's lastHeartbeatTime).
import { obj, ref, str, type Field, type S } from '../../../schema/dsl.js';
import { Time } from '../../../schema/common.js';

export interface ConditionShape {
  /** The component id, e.g. io.k8s.api.core.v1.PodCondition. */
  id: string;
  /** Whose condition it is, for the description: "a pod", "a Deployment". */
  of: string;
  /** The type field's description, naming the usual types. */
  type?: string;
  /** The protobuf number of lastTransitionTime; reason and message take the next two. Default 3. */
  transition?: number;
  extra?: { [name: string]: Field };
}

export function classicCondition(shape: ConditionShape): S {
  const t = shape.transition ?? 3;
  return obj({
    type: str().required().proto(1, { always: true }).desc(shape.type ?? 'The condition type.'),
    status: str().required().proto(2, { always: true }).desc('Whether the condition holds: True, False or Unknown.'),
    lastTransitionTime: ref(Time).proto(t, { always: true }).desc('When the status last changed.'),
    reason: str().proto(t + 1).desc('A CamelCase word for why the status last changed.'),
    message: str().proto(t + 2).desc('A human-readable account of the last change.'),
    ...shape.extra,
  })
    .id(shape.id)
    .desc(`One observed aspect of the state of ${shape.of}.`);
}

/** lastProbeTime, protobuf 3, of the conditions that record when they were last checked. */
export const lastProbeTime: { [name: string]: Field } = { lastProbeTime: ref(Time).proto(3, { always: true }).desc('When the condition was last checked.') };
