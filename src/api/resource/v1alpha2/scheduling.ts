// resource/v1alpha2 PodSchedulingContext (the scheduler and drivers agreeing
// on a node for a pod's claims) and ResourceClass (a kind of resource and the
// driver that allocates it).
// Protobuf numbers are those of the v1.27 Go types (generated.proto).
import { kind, list, obj, ref, str } from '../../../schema/index.js';
import { NodeSelector } from '../../core/v1/index.js';

const PKG = 'io.k8s.api.resource.v1alpha2';

export const PodSchedulingContextSpec = obj({
  selectedNode: str().proto(1).desc('The node the scheduler has chosen; drivers allocate for it.'),
  potentialNodes: list(str()).proto(2).set().desc('Nodes the pod might go to, for drivers to check; at most 128.'),
})
  .id(`${PKG}.PodSchedulingContextSpec`)
  .desc('The scheduler\'s side of the negotiation.');

export const ResourceClaimSchedulingStatus = obj({
  name: str().proto(1).desc('The name of the claim in the pod\'s resourceClaims.'),
  unsuitableNodes: list(str()).proto(2).set().desc('Potential nodes the claim cannot be allocated on; at most 128.'),
})
  .id(`${PKG}.ResourceClaimSchedulingStatus`)
  .desc('A driver\'s answer about one claim.');

export const PodSchedulingContextStatus = obj({
  resourceClaims: list(ResourceClaimSchedulingStatus).proto(1).map('name').desc('The answers of the drivers, one per claim.'),
})
  .id(`${PKG}.PodSchedulingContextStatus`)
  .desc('The drivers\' side of the negotiation.');

export const PodSchedulingContext = kind(
  {
    spec: ref(PodSchedulingContextSpec).proto(2).desc('Written by the scheduler.'),
    status: ref(PodSchedulingContextStatus).proto(3).desc('Written by the drivers.'),
  },
  { required: ['spec'] },
)
  .id(`${PKG}.PodSchedulingContext`)
  .desc('Where a pod with resource claims may run, worked out by the scheduler and the drivers; named like the pod.');

export const ResourceClassParametersReference = obj({
  apiGroup: str().proto(1).desc('The API group of the parameters object; the core group when empty.'),
  kind: str().proto(2, { keepZero: true }).required().desc('The kind of the parameters object.'),
  name: str().proto(3, { keepZero: true }).required().desc('The name of the parameters object.'),
  namespace: str().proto(4).desc('The namespace of a namespaced parameters object.'),
})
  .id(`${PKG}.ResourceClassParametersReference`)
  .desc('An object holding driver-specific parameters of a class.');

export const ResourceClass = kind(
  {
    driverName: str().proto(2, { keepZero: true }).required().desc('The driver that allocates claims of this class.'),
    parametersRef: ref(ResourceClassParametersReference).proto(3).desc('Driver-specific parameters of the class.'),
    suitableNodes: ref(NodeSelector).proto(4).desc('The nodes claims of this class may be allocated for; every node when unset.'),
  },
  { required: ['driverName'] },
)
  .id(`${PKG}.ResourceClass`)
  .desc('A kind of resource and the driver that allocates it.');
