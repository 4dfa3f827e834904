// networking/v1 IngressClass: which controller implements a class of Ingress,
// with an optional reference to its configuration.
import { kind, obj, ref, str } from '../../../schema/index.js';

const PKG = 'io.k8s.api.networking.v1';

export const IngressClassParametersReference = obj({
  apiGroup: str().proto(1, { keepZero: true }).desc('The API group of the referenced object; the core group when empty.'),
  kind: str().required().proto(2, { keepZero: true }).desc('The kind of the referenced object.'),
  name: str().required().proto(3, { keepZero: true }).desc('The name of the referenced object.'),
  scope: str().proto(4, { keepZero: true }).desc('Cluster (the default) or Namespace.'),
  namespace: str().proto(5, { keepZero: true }).desc('The namespace of the object; set exactly when scope is Namespace.'),
})
  .id(`${PKG}.IngressClassParametersReference`)
  .desc('A cluster-scoped or namespaced object that configures an ingress controller.');

export const IngressClassSpec = obj({
  controller: str().proto(1).desc('The domain-prefixed name of the controller, such as "example.com/ingress"; immutable.'),
  parameters: ref(IngressClassParametersReference).proto(2).desc('Extra configuration for the controller.'),
})
  .id(`${PKG}.IngressClassSpec`)
  .desc('The controller of an IngressClass and its parameters.');

export const IngressClass = kind({
  spec: ref(IngressClassSpec).proto(2).desc('The controller and its parameters.'),
})
  .id(`${PKG}.IngressClass`)
  .desc('A class of Ingress and the controller that implements it.');
