// TaintToleration: a node's NoSchedule and NoExecute taints must be tolerated
// (filter); nodes with fewer untolerated PreferNoSchedule taints score higher
// (score: their count, normalized reversed).
import type { Plugin } from '../framework.js';
import { defaultNormalizeScore, unresolvable } from '../framework.js';
import { firstUntolerated, taintsOf, tolerates, tolerationsOf } from '../pods.js';

export function untoleratedTaintReason(key: string, value: string | undefined): string {
  return `node(s) had untolerated taint {${key}: ${value ?? ''}}`;
}

export function taintToleration(): Plugin {
  return {
    name: 'TaintToleration',
    filter(_state, pod, node) {
      const taints = taintsOf(node.node);
      if (taints.length === 0) return undefined;
      const taint = firstUntolerated(taints, tolerationsOf(pod), (t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute');
      return taint ? unresolvable(untoleratedTaintReason(taint.key, taint.value)) : undefined;
    },
    score(_state, pod, node) {
      const taints = taintsOf(node.node);
      if (taints.length === 0) return 0;
      const tolerations = tolerationsOf(pod).filter((t) => !t.effect || t.effect === 'PreferNoSchedule');
      let n = 0;
      for (const taint of taints) {
        if (taint.effect === 'PreferNoSchedule' && !tolerations.some((t) => tolerates(t, taint))) n++;
      }
      return n;
    },
    normalizeScore(_state, _pod, scores) {
      defaultNormalizeScore(scores, true);
    },
  };
}
