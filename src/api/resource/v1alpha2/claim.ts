// resource/v1alpha2 ResourceClaim and ResourceClaimTemplate: a request for a
// resource of some class, its allocation and who it is reserved for.
// Protobuf numbers are those of the v1.27 Go types (generated.proto).
import { bool, kind, list, obj, ObjectMeta, ref, str } from '../../../schema/index.js';
import { NodeSelector } from '../../core/v1/index.js';

const PKG = 'io.k8s.api.resource.v1alpha2';

export const ResourceClaimParametersReference = obj({
  apiGroup: str().proto(1).desc('The API group of the parameters object; the core group when empty.'),
  kind: str().proto(2, { keepZero: true }).required().desc('The kind of the parameters object.'),
  name: str().proto(3, { keepZero: true }).required().desc('The name of the parameters object, in the claim\'s namespace.'),
})
  .id(`${PKG}.ResourceClaimParametersReference`)
  .desc('An object holding driver-specific parameters of a claim.');

export const ResourceClaimSpec = obj({
  resourceClassName: str().proto(1, { keepZero: true }).required().desc('The ResourceClass to allocate from.'),
  parametersRef: ref(ResourceClaimParametersReference).proto(2).desc('Driver-specific parameters of the claim.'),
  allocationMode: str().proto(3).desc('WaitForFirstConsumer (the default) or Immediate: when the resource is allocated.'),
})
  .id(`${PKG}.ResourceClaimSpec`)
  .desc('What a claim asks for.');

export const ResourceHandle = obj({
  driverName: str().proto(1).desc('The driver whose kubelet plugin handles this data.'),
  data: str().proto(2).desc('Opaque data for the kubelet plugin, at most 16 KiB.'),
})
  .id(`${PKG}.ResourceHandle`)
  .desc('Data the driver passes to a kubelet plugin for an allocation.');

export const AllocationResult = obj({
  resourceHandles: list(ResourceHandle).proto(1).atomic().desc('Data for the kubelet plugins, at most 32 entries.'),
  availableOnNodes: ref(NodeSelector).proto(2).desc('The nodes the allocated resource is reachable from; every node when unset.'),
  shareable: bool().proto(3).desc('Whether several consumers may use the resource at once.'),
})
  .id(`${PKG}.AllocationResult`)
  .desc('How a claim was satisfied.');

export const ResourceClaimConsumerReference = obj({
  apiGroup: str().proto(1).desc('The API group of the consumer; the core group when empty.'),
  resource: str().proto(3, { always: true }).required().desc('The resource of the consumer, such as "pods".'),
  name: str().proto(4, { always: true }).required().desc('The name of the consumer.'),
  uid: str().proto(5, { always: true }).required().desc('The uid of the consumer.'),
})
  .id(`${PKG}.ResourceClaimConsumerReference`)
  .desc('An object in the claim\'s namespace that uses the claim.');

export const ResourceClaimStatus = obj({
  driverName: str().proto(1).desc('The driver that handles the claim, copied from the class.'),
  allocation: ref(AllocationResult).proto(2).desc('The allocation, once made.'),
  reservedFor: list(ResourceClaimConsumerReference).proto(3).map('uid').desc('The consumers the claim is reserved for, at most 32.'),
  deallocationRequested: bool().proto(4).desc('Whether the driver is asked to free the allocation.'),
})
  .id(`${PKG}.ResourceClaimStatus`)
  .desc('The allocation state of a claim.');

export const ResourceClaim = kind(
  {
    spec: ref(ResourceClaimSpec).proto(2).desc('What is asked for; immutable.'),
    status: ref(ResourceClaimStatus).proto(3).desc('The allocation state, written by the driver and scheduler.'),
  },
  { required: ['spec'] },
)
  .id(`${PKG}.ResourceClaim`)
  .desc('A request for a resource that pods can use.');

export const ResourceClaimTemplateSpec = obj(
  {
    metadata: ref(ObjectMeta).proto(1).desc('Labels and annotations copied to claims made from the template.'),
    spec: ref(ResourceClaimSpec).proto(2).desc('The spec of claims made from the template.'),
  },
  { required: ['spec'] },
)
  .id(`${PKG}.ResourceClaimTemplateSpec`)
  .desc('What claims made from a template look like.');

export const ResourceClaimTemplate = kind(
  { spec: ref(ResourceClaimTemplateSpec).proto(2).desc('The claims to make; immutable.') },
  { required: ['spec'] },
)
  .id(`${PKG}.ResourceClaimTemplate`)
  .desc('A template from which a claim is made for each pod that names it.');
