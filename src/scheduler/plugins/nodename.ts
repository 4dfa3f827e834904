// NodeName: a pod naming its node (spec.nodeName) fits only that node.
import type { Plugin } from '../framework.js';
import { unresolvable } from '../framework.js';
import { nodeName } from '../pods.js';

export const ERR_NODE_NAME = "node(s) didn't match the requested node name";

export function nodeNamePlugin(): Plugin {
  return {
    name: 'NodeName',
    filter(_state, pod, node) {
      const want = nodeName(pod);
      return want === '' || want === node.name ? undefined : unresolvable(ERR_NODE_NAME);
    },
  };
}
