// What an Event says it is about: a core/v1 ObjectReference to the object
// (client-go's reference.GetReference), and the core/v1 Event shape the
// record-style recorder writes.
import type { ApiObject } from '../../registry/object.js';

export type EventType = 'Normal' | 'Warning';

export interface InvolvedObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
  readonly uid?: string;
  readonly resourceVersion?: string;
  readonly fieldPath?: string;
}

/** The reference an Event keeps of its object. */
export function referenceTo(obj: ApiObject, fieldPath?: string): InvolvedObject {
  return {
    apiVersion: obj.apiVersion ?? '', kind: obj.kind ?? '',
    ...(obj.metadata.namespace ? { namespace: obj.metadata.namespace } : {}),
    name: obj.metadata.name!, ...(obj.metadata.uid ? { uid: obj.metadata.uid } : {}),
    ...(obj.metadata.resourceVersion ? { resourceVersion: obj.metadata.resourceVersion } : {}),
    ...(fieldPath ? { fieldPath } : {}),
  };
}

/** An object or a reference to one, as recorders take them. */
export function asReference(obj: ApiObject | InvolvedObject): InvolvedObject {
  return 'metadata' in obj ? referenceTo(obj as ApiObject) : (obj as InvolvedObject);
}

/** The namespace an Event about `ref` lives in: the object's, or 'default' for a cluster-scoped one. */
export const eventNamespace = (ref: InvolvedObject): string => ref.namespace || 'default';

/** A core/v1 Event as client-go's tools/record builds it. */
export interface CoreEvent {
  readonly metadata: { readonly name: string; readonly namespace: string; readonly resourceVersion?: string };
  readonly involvedObject: InvolvedObject;
  readonly reason: string;
  readonly message: string;
  readonly source: { readonly component: string; readonly host?: string };
  readonly firstTimestamp: string;
  readonly lastTimestamp: string;
  readonly count: number;
  readonly type: EventType;
  /** Unset on the events the aggregator makes, as in client-go. */
  readonly reportingComponent?: string;
  readonly reportingInstance?: string;
}
