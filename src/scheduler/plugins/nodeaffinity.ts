// NodeAffinity: spec.nodeSelector and the required node affinity must match
// (filter); the weights of the preferred terms a node matches add up to its
// score, normalized so the best node has 100.
import type { Plugin } from '../framework.js';
import { defaultNormalizeScore, unresolvable } from '../framework.js';
import { isObject } from '../../registry/object.js';
import { nodeAffinityOf, podMatchesNodeSelectorAndAffinity, termMatches } from '../nodeselector.js';

export const ERR_NODE_AFFINITY = "node(s) didn't match Pod's node affinity/selector";

export function nodeAffinity(): Plugin {
  return {
    name: 'NodeAffinity',
    filter(_state, pod, node) {
      return podMatchesNodeSelectorAndAffinity(pod, node.node) ? undefined : unresolvable(ERR_NODE_AFFINITY);
    },
    score(_state, pod, node) {
      const preferred = nodeAffinityOf(pod).preferredDuringSchedulingIgnoredDuringExecution;
      let total = 0;
      for (const p of Array.isArray(preferred) ? preferred.filter(isObject) : []) {
        const weight = typeof p.weight === 'number' ? p.weight : 0;
        if (weight !== 0 && termMatches(p.preference, node.node)) total += weight;
      }
      return total;
    },
    normalizeScore(_state, _pod, scores) {
      defaultNormalizeScore(scores, false);
    },
  };
}
