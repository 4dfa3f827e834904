// The meta/v1 types the published operations answer or take besides the
// kinds themselves: Status (errors and delete results), WatchEvent (watch
// streams), Patch (PATCH bodies) and APIResourceList (discovery). Written with the schema DSL like every
// other type; only OpenAPI publishing uses them.
import { bool, freeform, int32, list, obj, ref, str } from '../schema/dsl.js';
import { ListMeta, RawExtension, typeMeta } from '../schema/common.js';

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';

export const StatusCause = obj({
  reason: str().desc('A machine-readable description of the cause, such as FieldValueInvalid.'),
  message: str().desc('A human-readable description of the cause.'),
  field: str().desc('The field that caused the error, as a JSON path such as "spec.containers[0].name".'),
})
  .id(`${META}.StatusCause`)
  .desc('One reason an operation failed.');

export const StatusDetails = obj({
  name: str().desc('The name of the object the status is about.'),
  group: str().desc('The API group of the object the status is about.'),
  kind: str().desc('The kind (or resource) of the object the status is about.'),
  uid: str().desc('The UID of the object the status is about.'),
  causes: list(ref(StatusCause)).atomic().desc('The individual causes of the failure.'),
  retryAfterSeconds: int32().desc('How many seconds a client should wait before retrying.'),
})
  .id(`${META}.StatusDetails`)
  .desc('Extra, reason-specific details of a Status.');

export const Status = obj({
  ...typeMeta,
  metadata: ref(ListMeta).desc('Standard list metadata.'),
  status: str().desc('Success or Failure.'),
  message: str().desc('A human-readable description of the outcome.'),
  reason: str().desc('A machine-readable reason for a failure, such as NotFound or Conflict.'),
  details: ref(StatusDetails).desc('Reason-specific details; their shape depends on the reason.'),
  code: int32().desc('The HTTP status code of the response.'),
})
  .id(`${META}.Status`)
  .desc('The outcome of an operation that does not return an object, and every error.');

export const WatchEvent = obj({
  type: str().required().desc('ADDED, MODIFIED, DELETED, BOOKMARK or ERROR.'),
  object: ref(RawExtension).required().desc('The object the event is about; a Status for ERROR events.'),
})
  .id(`${META}.WatchEvent`)
  .desc('One change delivered by a watch.');

export const Patch = freeform()
  .id(`${META}.Patch`)
  .desc('The body of a PATCH request: a JSON patch, a merge patch, a strategic merge patch or an apply configuration.');

export const APIResource = obj({
  name: str().required().desc('The plural name of the resource, or resource/subresource.'),
  singularName: str().required().desc('The singular name of the resource.'),
  namespaced: bool().required().desc('Whether the resource lives in namespaces.'),
  group: str().desc('The group of the resource\'s kind, when it differs from the list\'s (subresources).'),
  version: str().desc('The version of the resource\'s kind, when it differs from the list\'s (subresources).'),
  kind: str().required().desc('The kind of the resource\'s objects.'),
  verbs: list(str()).required().desc('The verbs the resource supports.'),
  shortNames: list(str()).desc('Short aliases of the resource (kubectl get po).'),
  categories: list(str()).desc('Groupings the resource belongs to, such as "all".'),
  storageVersionHash: str().desc('A hash of the version objects are stored in; it changes when that version does.'),
})
  .id(`${META}.APIResource`)
  .desc('One resource of a group-version, as discovery lists it.');

export const APIResourceList = obj({
  ...typeMeta,
  groupVersion: str().required().desc('The group-version the resources belong to.'),
  resources: list(ref(APIResource)).required().desc('The resources of the group-version.'),
})
  .id(`${META}.APIResourceList`)
  .desc('The resources a group-version serves (discovery).');
