// networking/v1alpha1 IPAddress: one allocated IP (the object's name), and
// the object it is allocated to (new alpha in v1.27, off by default).
// Protobuf numbers are left out in this version: not checked against its generated.proto.
import { kind, obj, ref, str } from '../../../schema/index.js';

const PKG = 'io.k8s.api.networking.v1alpha1';

export const ParentReference = obj({
  group: str().desc('The API group of the object.'),
  resource: str().desc('The resource of the object.'),
  namespace: str().desc('The namespace of the object, if namespaced.'),
  name: str().desc('The name of the object.'),
  uid: str().desc('The uid of the object.'),
})
  .id(`${PKG}.ParentReference`)
  .desc('The object an IP address is allocated to.');

export const IPAddressSpec = obj({
  parentRef: ref(ParentReference).desc('The object the address belongs to; immutable.'),
})
  .id(`${PKG}.IPAddressSpec`)
  .desc('What an IP address is allocated to.');

export const IPAddress = kind({
  spec: ref(IPAddressSpec).desc('What the address is allocated to.'),
})
  .id(`${PKG}.IPAddress`)
  .desc('An allocated IP address, named by the address in canonical form.');
