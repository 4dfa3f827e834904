// NodePorts: the pod's host ports must be free on the node.
import type { Plugin } from '../framework.js';
import { unschedulable } from '../framework.js';
import { hostPorts } from '../pods.js';

export const ERR_NODE_PORTS = "node(s) didn't have free ports for the requested pod ports";

export function nodePorts(): Plugin {
  return {
    name: 'NodePorts',
    filter(_state, pod, node) {
      return hostPorts(pod).some((p) => node.portInUse(p)) ? unschedulable(ERR_NODE_PORTS) : undefined;
    },
  };
}
