// NodeUnschedulable: a cordoned node (spec.unschedulable) takes only pods
// tolerating the node.kubernetes.io/unschedulable:NoSchedule taint.
import type { Plugin } from '../framework.js';
import { unresolvable } from '../framework.js';
import { spec, tolerates, tolerationsOf } from '../pods.js';

export const ERR_UNSCHEDULABLE = 'node(s) were unschedulable';
const UNSCHEDULABLE_TAINT = { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' };

export function nodeUnschedulable(): Plugin {
  return {
    name: 'NodeUnschedulable',
    filter(_state, pod, node) {
      if (spec(node.node).unschedulable !== true) return undefined;
      if (tolerationsOf(pod).some((t) => tolerates(t, UNSCHEDULABLE_TAINT))) return undefined;
      return unresolvable(ERR_UNSCHEDULABLE);
    },
  };
}
