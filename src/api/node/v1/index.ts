// node/v1: RuntimeClass, a container runtime configuration pods can ask for,
// with its pod overhead and scheduling constraints.
import { kind, list, mapOf, obj, Quantity, ref, str, type S } from '../../../schema/index.js';
import { Toleration } from '../../core/v1/index.js';

const PKG = 'io.k8s.api.node.v1';

export const Overhead = obj({
  podFixed: mapOf(ref(Quantity)).proto(1).desc('Resources a pod of this class uses beyond its containers.'),
})
  .id(`${PKG}.Overhead`)
  .desc('The resource overhead of running a pod with a RuntimeClass.');

export const Scheduling = obj({
  nodeSelector: mapOf(str()).proto(1).atomic().desc('Labels nodes must have to run pods of this class; merged into the pod\'s own.'),
  tolerations: list(Toleration).proto(2).atomic().desc('Tolerations added to pods of this class.'),
})
  .id(`${PKG}.Scheduling`)
  .desc('Where pods of a RuntimeClass may be scheduled.');

export const RuntimeClass = kind(
  {
    handler: str().proto(2, { keepZero: true }).desc('The CRI handler that runs pods of this class, a DNS label; immutable.'),
    overhead: ref(Overhead).proto(3).desc('Resources added to each pod of this class.'),
    scheduling: ref(Scheduling).proto(4).desc('Nodes that support this class; every node when unset.'),
  },
  { required: ['handler'] },
)
  .id(`${PKG}.RuntimeClass`)
  .desc('A container runtime configuration that pods select by name.');

export const kinds: Readonly<Record<string, S>> = { RuntimeClass };
