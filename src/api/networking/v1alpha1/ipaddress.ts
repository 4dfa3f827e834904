// networking/v1alpha1 IPAddress: one allocated IP (the object's name), and
// the object it is allocated to (new alpha in v1.27, off by default).
// Protobuf numbers are those of the v1.27 Go types (generated.proto).
import { kind, obj, ref, str } from '../../../schema/index.js';

const PKG = 'io.k8s.api.networking.v1alpha1';

export const ParentReference = obj({
  group: str().proto(1).desc('The API group of the object.'),
  resource: str().proto(2).desc('The resource of the object.'),
  namespace: str().proto(3).desc('The namespace of the object, if namespaced.'),
  name: str().proto(4).desc('The name of the object.'),
  uid: str().proto(5).desc('The uid of the object.'),
})
  .id(`${PKG}.ParentReference`)
  .desc('The object an IP address is allocated to.');

export const IPAddressSpec = obj({
  parentRef: ref(ParentReference).proto(1).desc('The object the address belongs to; immutable.'),
})
  .id(`${PKG}.IPAddressSpec`)
  .desc('What an IP address is allocated to.');

export const IPAddress = kind({
  spec: ref(IPAddressSpec).proto(2).desc('What the address is allocated to.'),
})
  .id(`${PKG}.IPAddress`)
  .desc('An allocated IP address, named by the address in canonical form.');
