// What a write carries into the generic store besides the object: the
// request's dry-run flag, user and options, warnings and audit annotations
// for the response, the managedFields bookkeeping, and the conversion lens of
// a version converted by a webhook.
import type { LatencyTrackers } from '../metrics/latencytrackers.js';
import type { UserInfo } from '../authn/user.js';
import type { ResourceRequestInfo } from '../endpoints/requestinfo.js';
import type { ApiObject } from './object.js';

export interface WriteContext {
  readonly dryRun: boolean;
  readonly user?: UserInfo;
  /** The API request that writes (absent for the server's own writes); write hooks read it. */
  readonly requestInfo?: ResourceRequestInfo;
  /** Adds a warning to the response (admission plugins' warnings); absent for the server's own writes. */
  readonly warn?: (text: string) => void;
  /** Records an audit annotation on the request (admission plugins', webhooks'); absent for the server's own writes. */
  readonly annotate?: (key: string, value: string) => void;
  /** managedFields bookkeeping, applied to what the request produced before the strategy runs. */
  readonly track?: TrackFields;
  /** The request's CreateOptions/UpdateOptions/PatchOptions/DeleteOptions as admission webhooks see them. */
  readonly options?: Readonly<Record<string, unknown>>;
  /** A write in a version that converts to the stored one asynchronously (see WriteLens). */
  readonly lens?: WriteLens;
  /** Where admission webhooks' time is noted (the request; metrics/latencytrackers.ts). */
  readonly latency?: LatencyTrackers;
  /**
   * The input is the request's own (decoded from its body, referenced by nothing
   * else, not frozen): a create changes it, or what `track` made of it, instead
   * of a deep copy.
   */
  readonly ownsInput?: boolean;
}

/**
 * A write in a version whose conversion to and from the storage version is
 * asynchronous (a custom resource whose definition converts with a webhook):
 * as kube's store works in the request's version, the object read is
 * converted to it before the write is computed, validated and admitted, and
 * the result converted back to be stored; what the store answers is the
 * stored object converted once more (kube decodes the stored bytes).
 */
export interface WriteLens {
  /** The request's apiVersion. */
  readonly apiVersion: string;
  toRequest(obj: ApiObject): Promise<ApiObject>;
  toStorage(obj: ApiObject): Promise<ApiObject>;
}

/**
 * The managedFields bookkeeping of a write (src/endpoints/fieldmanager.ts):
 * given the live object (undefined on create) and the object the request
 * produced, the object to persist. Runs on every attempt, before the strategy.
 */
export type TrackFields = (live: ApiObject | undefined, next: ApiObject) => ApiObject;

export interface UpdateContext extends WriteContext {
  readonly subresource?: string;
}

export interface DeleteOptions extends WriteContext {
  readonly preconditions?: { readonly uid?: string; readonly resourceVersion?: string };
  readonly gracePeriodSeconds?: number;
  readonly propagationPolicy?: string;
}
