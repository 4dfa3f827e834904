// References and selectors shared across core/v1 and other groups: object
// references (plain, local, typed, secret) and the selectors that pick one
// field, resource or key of another object. Most are atomic for server-side
// apply: a reference is replaced as a whole, never merged field by field.
// Selectors of a ConfigMap or Secret key embed LocalObjectReference in Go, so
// their `name` has no protobuf number of its own.
import { bool, obj, ref, str } from '../../../schema/dsl.js';
import { Quantity } from '../../../schema/common.js';
import { core } from './names.js';

export const ObjectReference = obj({
  kind: str().proto(1).desc('The kind of the object.'),
  namespace: str().proto(2).desc('The namespace of the object.'),
  name: str().proto(3).desc('The name of the object.'),
  uid: str().proto(4).desc('The UID of the object.'),
  apiVersion: str().proto(5).desc('The API version of the object.'),
  resourceVersion: str().proto(6).desc('A specific resourceVersion of the object, if any.'),
  fieldPath: str().proto(7).desc('A part of the object, such as spec.containers{name}.'),
})
  .atomic()
  .id(core('ObjectReference'))
  .desc('Identifies an object, or a part of one.');

export const LocalObjectReference = obj({
  name: str().proto(1).desc('The name of the object.'),
})
  .atomic()
  .id(core('LocalObjectReference'))
  .desc('Names an object in the same namespace.');

const typedFields = {
  apiGroup: str().proto(1, { keepZero: true }).desc('The API group of the object; the core group when empty.'),
  kind: str().required().proto(2, { keepZero: true }).desc('The kind of the object.'),
  name: str().required().proto(3, { keepZero: true }).desc('The name of the object.'),
};

export const TypedLocalObjectReference = obj(typedFields)
  .atomic()
  .id(core('TypedLocalObjectReference'))
  .desc('Names an object of a given kind in the same namespace.');

export const TypedObjectReference = obj({
  ...typedFields,
  namespace: str().proto(4, { keepZero: true }).desc('The namespace of the object; needs a ReferenceGrant there when set.'),
})
  .id(core('TypedObjectReference'))
  .desc('Names an object of a given kind, possibly in another namespace.');

export const SecretReference = obj({
  name: str().proto(1).desc('The name of the Secret.'),
  namespace: str().proto(2).desc('The namespace of the Secret.'),
})
  .atomic()
  .id(core('SecretReference'))
  .desc('Names a Secret in any namespace.');

export const ObjectFieldSelector = obj({
  apiVersion: str().proto(1).desc('The API version the field path is written for; "v1" by default.'),
  fieldPath: str().required().proto(2, { keepZero: true }).desc('The path of the field.'),
})
  .atomic()
  .id(core('ObjectFieldSelector'))
  .desc('Selects a field of an object.');

export const ResourceFieldSelector = obj({
  containerName: str().proto(1).desc('The container; needed in volumes.'),
  resource: str().required().proto(2, { keepZero: true }).desc('The resource, such as limits.cpu.'),
  divisor: ref(Quantity).proto(3).desc('The unit to express the value in; "1" by default.'),
})
  .atomic()
  .id(core('ResourceFieldSelector'))
  .desc('Selects a container resource and its unit.');

export const ConfigMapKeySelector = obj({
  name: str().proto(1, { in: 1 }).desc('The name of the ConfigMap.'),
  key: str().required().proto(2, { keepZero: true }).desc('The key to select.'),
  optional: bool().proto(3, { keepZero: true }).desc('Whether the ConfigMap or the key may be absent.'),
})
  .atomic()
  .id(core('ConfigMapKeySelector'))
  .desc('One key of a ConfigMap.');

export const SecretKeySelector = obj({
  name: str().proto(1, { in: 1 }).desc('The name of the Secret.'),
  key: str().required().proto(2, { keepZero: true }).desc('The key to select.'),
  optional: bool().proto(3, { keepZero: true }).desc('Whether the Secret or the key may be absent.'),
})
  .atomic()
  .id(core('SecretKeySelector'))
  .desc('One key of a Secret.');
