// TaintNodesByCondition (mutating, default on): a new Node gets the not-ready
// NoSchedule taint, so nothing is scheduled onto it before the node lifecycle
// controller sees it ready and removes the taint. The taint key is this
// repo's spelling (node.svc.io/not-ready); a node that already carries the
// kubernetes.io spelling is not tainted twice.
import { TAINT_NODE_NOT_READY } from '../../api/core/v1/defaults-pod.js';
import type { AdmissionPlugin } from '../../registry/admission.js';
import { isObject } from '../../registry/object.js';
import { isCoreWrite, listOf } from './common.js';

const NOT_READY_KEYS = [TAINT_NODE_NOT_READY, 'node.kubernetes.io/not-ready'];

export function taintNodesByCondition(): AdmissionPlugin {
  return {
    name: 'TaintNodesByCondition',
    phase: 'mutating',
    admit(a) {
      if (!isCoreWrite(a, 'nodes', ['CREATE'])) return;
      const node = a.object!;
      const spec = isObject(node.spec) ? node.spec : (node.spec = {});
      const taints = listOf(spec, 'taints');
      if (taints.some((t) => NOT_READY_KEYS.includes(t.key as string) && t.effect === 'NoSchedule')) return;
      spec.taints = [...(Array.isArray(spec.taints) ? spec.taints : []), { key: TAINT_NODE_NOT_READY, effect: 'NoSchedule' }];
    },
  };
}
