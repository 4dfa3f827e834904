// node/v1: RuntimeClass, a container runtime configuration pods can ask for,
// with its pod overhead and scheduling constraints.
import { int64, kind, list, mapOf, obj, Quantity, ref, str, type S } from '../../../schema/index.js';

const PKG = 'io.k8s.api.node.v1';

// TODO(core): use src/api/core/v1 once it lands.
export const Toleration = obj({
  key: str().desc('The taint key tolerated; every key when empty (with operator Exists).'),
  operator: str().desc('Equal (the default) or Exists.'),
  value: str().desc('The taint value to match with Equal.'),
  effect: str().desc('NoSchedule, PreferNoSchedule or NoExecute; every effect when empty.'),
  tolerationSeconds: int64().desc('How long a NoExecute taint is tolerated before eviction; forever when unset.'),
})
  .id('io.k8s.api.core.v1.Toleration')
  .desc('Lets a pod be placed on, or stay on, nodes with a matching taint.');

export const Overhead = obj({
  podFixed: mapOf(ref(Quantity)).desc('Resources a pod of this class uses beyond its containers.'),
})
  .id(`${PKG}.Overhead`)
  .desc('The resource overhead of running a pod with a RuntimeClass.');

export const Scheduling = obj({
  nodeSelector: mapOf(str()).atomic().desc('Labels nodes must have to run pods of this class; merged into the pod\'s own.'),
  tolerations: list(Toleration).atomic().desc('Tolerations added to pods of this class.'),
})
  .id(`${PKG}.Scheduling`)
  .desc('Where pods of a RuntimeClass may be scheduled.');

export const RuntimeClass = kind(
  {
    handler: str().desc('The CRI handler that runs pods of this class, a DNS label; immutable.'),
    overhead: ref(Overhead).desc('Resources added to each pod of this class.'),
    scheduling: ref(Scheduling).desc('Nodes that support this class; every node when unset.'),
  },
  { required: ['handler'] },
)
  .id(`${PKG}.RuntimeClass`)
  .desc('A container runtime configuration that pods select by name.');

export const kinds: Readonly<Record<string, S>> = { RuntimeClass };
