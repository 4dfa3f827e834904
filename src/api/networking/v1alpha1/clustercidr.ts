// networking/v1alpha1 ClusterCIDR: ranges the node IPAM controller carves
// pod CIDRs from, for the nodes a selector picks (alpha, off by default).
// Protobuf numbers are those of the v1.27 Go types (generated.proto).
import { int32, kind, obj, ref, str } from '../../../schema/index.js';
import { NodeSelector } from '../../core/v1/index.js';

const PKG = 'io.k8s.api.networking.v1alpha1';

export const ClusterCIDRSpec = obj({
  nodeSelector: ref(NodeSelector).proto(1).desc('The nodes the ranges are for; every node when unset. Immutable.'),
  perNodeHostBits: int32().proto(2, { keepZero: true }).required().desc('The host bits of each node\'s pod CIDR (8 gives a /24 for IPv4); immutable.'),
  ipv4: str().proto(3, { keepZero: true }).desc('An IPv4 range to allocate from, in CIDR notation; immutable.'),
  ipv6: str().proto(4, { keepZero: true }).desc('An IPv6 range to allocate from, in CIDR notation; immutable.'),
})
  .id(`${PKG}.ClusterCIDRSpec`)
  .desc('The ranges of a ClusterCIDR and the nodes they serve.');

export const ClusterCIDR = kind({
  spec: ref(ClusterCIDRSpec).proto(2).desc('The ranges and the nodes they serve.'),
})
  .id(`${PKG}.ClusterCIDR`)
  .desc('Pod CIDR ranges for a set of nodes.');
