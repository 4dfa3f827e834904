// Shared meta/v1 pieces, written once with the DSL: ObjectMeta, ListMeta,
// LabelSelector, OwnerReference, ManagedFieldsEntry, Condition, DeleteOptions,
// runtime's RawExtension, and the TypeMeta fields.
// Field names, types, required lists, list/map types and patch strategies follow
// the official v1.26.1 / v1.28.0 OpenAPI documents (parity.test.ts checks them);
// the intended differences are listed there with their reasons.
// Protobuf numbers are those of apimachinery's meta/v1 generated.proto.
import { bool, freeform, int64, list, mapOf, microTime, obj, quantity, ref, S, str, time, intOrString, type Field } from './dsl.js';

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';

export const Time = time().desc('An RFC 3339 timestamp, serialized with second precision.');
export const MicroTime = microTime().desc('An RFC 3339 timestamp with microsecond precision.');
export const Quantity = quantity().desc('A fixed-point number with an optional SI or binary suffix, such as "500m" or "2Gi".');
export const IntOrString = intOrString().desc('A value that is either an int32 or a string.');

/** The TypeMeta fields every object and list carries. */
export const typeMeta = {
  apiVersion: str().desc('The versioned schema of this representation of an object.'),
  kind: str().desc('The REST resource this object represents, in CamelCase.'),
};

export const OwnerReference = obj({
  apiVersion: str().required().proto(5, { keepZero: true }).desc('API version of the owner.'),
  kind: str().required().proto(1, { keepZero: true }).desc('Kind of the owner.'),
  name: str().required().proto(3, { keepZero: true }).desc('Name of the owner.'),
  uid: str().required().proto(4, { keepZero: true }).desc('UID of the owner.'),
  controller: bool().proto(6, { keepZero: true }).desc('Whether the owner is the managing controller.'),
  blockOwnerDeletion: bool().proto(7, { keepZero: true }).desc('Whether foreground deletion of the owner waits for this object to go.'),
})
  .atomic()
  .id(`${META}.OwnerReference`)
  .desc('Identifies an owning object in the same namespace, or a cluster-scoped one.');

export const FieldsV1 = freeform().id(`${META}.FieldsV1`).desc('A set of field paths in the trie format of structured-merge-diff.');

export const ManagedFieldsEntry = obj({
  manager: str().proto(1).desc('The workflow managing these fields.'),
  operation: str().proto(2).desc('The operation that recorded this entry: Apply or Update.'),
  apiVersion: str().proto(3).desc('The version of the resource the field set applies to.'),
  time: ref(Time).proto(4).desc('When the entry was last changed.'),
  fieldsType: str().proto(6).desc('The format of the field set; only "FieldsV1".'),
  fieldsV1: ref(FieldsV1).proto(7).desc('The managed field set.'),
  subresource: str().proto(8).desc('The subresource used for the update, empty for the main resource.'),
})
  .id(`${META}.ManagedFieldsEntry`)
  .desc('The fields one manager owns, in one API version of the resource.');

export const ObjectMeta = obj({
  name: str().proto(1).desc('The unique name within a namespace.'),
  generateName: str().proto(2).desc('A prefix from which the server generates a unique name when name is empty.'),
  namespace: str().proto(3).desc('The namespace the object belongs to; empty for cluster-scoped objects.'),
  selfLink: str().proto(4).desc('Deprecated and always empty.'),
  uid: str().proto(5).desc('The unique identifier of this object, set by the server.'),
  resourceVersion: str().proto(6).desc('An opaque version of the object, used for optimistic concurrency and watches.'),
  generation: int64().proto(7).desc('A sequence number of changes to the desired state, set by the server.'),
  creationTimestamp: ref(Time).proto(8).desc('When the object was created, set by the server.'),
  deletionTimestamp: ref(Time).proto(9).desc('When the object will be deleted, set by the server when deletion is requested.'),
  deletionGracePeriodSeconds: int64().proto(10, { keepZero: true }).desc('The grace period granted for deletion, set with deletionTimestamp.'),
  labels: mapOf(str()).proto(11).desc('Key/value pairs that selectors match.'),
  annotations: mapOf(str()).proto(12).desc('Key/value pairs for tools and extensions.'),
  ownerReferences: list(OwnerReference).patch('merge', 'uid').proto(13).desc('The objects this object depends on.'),
  finalizers: list(str()).set().patch('merge').proto(14).desc('Conditions that must be cleared before the object is removed.'),
  managedFields: list(ManagedFieldsEntry).proto(17).desc('Which manager owns which fields (server-side apply).'),
})
  .id(`${META}.ObjectMeta`)
  .desc('Metadata every persisted object has.');

export const ListMeta = obj({
  selfLink: str().proto(1).desc('Deprecated and always empty.'),
  resourceVersion: str().proto(2).desc('The version of the list, for a following watch.'),
  continue: str().proto(3).desc('A token to fetch the next chunk of the list.'),
  remainingItemCount: int64().proto(4).desc('How many items remain after this chunk, when known.'),
})
  .id(`${META}.ListMeta`)
  .desc('Metadata of lists and other synthetic responses.');

export const LabelSelectorRequirement = obj({
  key: str().required().proto(1, { keepZero: true }).desc('The label key the requirement applies to.'),
  operator: str().required().proto(2, { keepZero: true }).desc('In, NotIn, Exists or DoesNotExist.'),
  values: list(str()).proto(3).desc('The values for In and NotIn; empty for Exists and DoesNotExist.'),
})
  .id(`${META}.LabelSelectorRequirement`)
  .desc('One requirement of a label selector: a key, an operator and values.');

export const LabelSelector = obj({
  matchLabels: mapOf(str()).proto(1).desc('Labels that must all match exactly.'),
  matchExpressions: list(LabelSelectorRequirement).proto(2).desc('Requirements that must all hold.'),
})
  .atomic()
  .id(`${META}.LabelSelector`)
  .desc('A label query; an empty selector matches everything, a null one nothing.');

export const Condition = obj({
  type: str().required().proto(1, { always: true }).desc('The condition type, in CamelCase or prefixed with a domain.'),
  status: str().required().proto(2, { always: true }).desc('True, False or Unknown.'),
  observedGeneration: int64().proto(3).desc('The metadata.generation the condition was computed for.'),
  lastTransitionTime: ref(Time).required().proto(4, { always: true }).desc('When the status last changed.'),
  reason: str().required().proto(5, { always: true }).desc('A CamelCase, machine-readable cause of the last change.'),
  message: str().required().proto(6, { always: true }).desc('A human-readable account of the last change; may be empty.'),
})
  .id(`${META}.Condition`)
  .desc('One observed aspect of an object\'s state, in the standard shape.');

export const Preconditions = obj({
  uid: str().proto(1, { keepZero: true }).desc('The UID the object must have.'),
  resourceVersion: str().proto(2, { keepZero: true }).desc('The resourceVersion the object must have.'),
})
  .id(`${META}.Preconditions`)
  .desc('What must hold of an object for an operation on it to go ahead.');

export const DeleteOptions = obj({
  ...typeMeta,
  gracePeriodSeconds: int64().proto(1, { keepZero: true }).desc('Seconds to wait before deleting; 0 deletes at once, unset uses the kind\'s default.'),
  preconditions: ref(Preconditions).proto(2).desc('What must hold of the object for the deletion to go ahead.'),
  orphanDependents: bool().proto(3, { keepZero: true }).desc('Deprecated in favour of propagationPolicy: whether to orphan dependents.'),
  propagationPolicy: str().proto(4, { keepZero: true }).desc('Orphan, Background or Foreground garbage collection of dependents.'),
  dryRun: list(str()).proto(5).desc('"All" to go through every stage without persisting anything.'),
})
  .id(`${META}.DeleteOptions`)
  .desc('Options of a delete request.');

/** runtime.RawExtension: an embedded value kept as it was written (ControllerRevision data, watch events). */
export const RawExtension = freeform()
  .id('io.k8s.apimachinery.pkg.runtime.RawExtension')
  .desc('An embedded value of any shape, kept as written.');

/** A top-level kind: TypeMeta, `metadata` (ObjectMeta) and the given fields. */
export function kind(fields: { [name: string]: Field }, opts: { required?: string[] } = {}): S {
  return obj({ ...typeMeta, metadata: ref(ObjectMeta).proto(1), ...fields }, opts);
}

/** The List kind of an item kind: TypeMeta, `metadata` (ListMeta) and `items`. */
export function listKind(item: S): S {
  return obj({ ...typeMeta, metadata: ref(ListMeta).proto(1), items: list(item).required().proto(2) });
}

/**
 * Every shared type (a builder with an id) the given modules export, as written
 * at its definition rather than at a use that overrides a marker: what
 * OpenAPI publishing (toOpenAPI's `refs`) and parity take for the type.
 */
export function definitionsOf(...modules: object[]): S[] {
  return modules.flatMap((m) => Object.values(m).filter((x): x is S => x instanceof S && x.schema.id !== undefined));
}
