// Core v1 types an EndpointSlice refers to (events/v1 uses them too).
// TODO(core): use src/api/core/v1 once it lands.
import { obj, str } from '../../../schema/index.js';

export const ObjectReference = obj({
  kind: str().desc('The kind of the object.'),
  namespace: str().desc('The namespace of the object.'),
  name: str().desc('The name of the object.'),
  uid: str().desc('The uid of the object.'),
  apiVersion: str().desc('The API version of the object.'),
  resourceVersion: str().desc('The resourceVersion the reference was made at.'),
  fieldPath: str().desc('A path to a part of the object, such as a container.'),
})
  .atomic()
  .id('io.k8s.api.core.v1.ObjectReference')
  .desc('A reference to an object, or to a part of it.');
