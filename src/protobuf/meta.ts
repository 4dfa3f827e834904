// The meta/v1 messages that have no schema elsewhere: Status (errors and
// delete results), WatchEvent, PartialObjectMetadata and its list. Written
// with the DSL so the codec reads them like any kind; numbers from
// apimachinery's meta/v1 generated.proto.
import { int32, list, obj, ref, str, toSchema } from '../schema/dsl.js';
import { ListMeta, ObjectMeta, RawExtension } from '../schema/common.js';
import type { Schema } from '../schema/model.js';

const StatusCause = obj({
  reason: str().proto(1),
  message: str().proto(2),
  field: str().proto(3),
});

const StatusDetails = obj({
  name: str().proto(1),
  group: str().proto(2),
  kind: str().proto(3),
  uid: str().proto(6),
  causes: list(StatusCause).proto(4),
  retryAfterSeconds: int32().proto(5),
});

export const Status: Schema = toSchema(
  obj({
    metadata: ref(ListMeta).proto(1),
    status: str().proto(2),
    message: str().proto(3),
    reason: str().proto(4),
    details: StatusDetails.proto(5),
    code: int32().proto(6),
  }),
);

/** A watch event; `object` is a RawExtension whose raw bytes hold the enveloped object. */
export const WatchEvent: Schema = toSchema(
  obj({
    type: str().proto(1, { keepZero: true }),
    object: ref(RawExtension).proto(2),
  }),
);

export const PartialObjectMetadata: Schema = toSchema(obj({ metadata: ref(ObjectMeta).proto(1) }));
export const PartialObjectMetadataList: Schema = toSchema(obj({ metadata: ref(ListMeta).proto(1), items: list(PartialObjectMetadata).proto(2) }));

