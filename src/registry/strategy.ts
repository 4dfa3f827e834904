// A strategy is the short per-resource part of the generic store: scope,
// naming, what a create and an update may change, validation, and deletion
// behaviour. Stages run in a fixed order (see store.ts):
//   create: prepareForCreate → validate → (admission) → storage
//   update: prepareForUpdate → validateUpdate → (admission) → storage
// prepare* may mutate the object; validate* must not.
import type { FieldError } from '../api/meta/index.js';
import type { ApiObject } from './object.js';
import type { UserInfo } from '../authn/user.js';

/** Messages about a name or generateName prefix; `obj` for kinds whose name rule reads the object (ClusterTrustBundle). */
export type NameValidator = (name: string, prefix: boolean, obj?: ApiObject) => string[];

export interface Strategy {
  readonly namespaced: boolean;
  /** PUT on a missing object creates it. */
  readonly allowCreateOnUpdate: boolean;
  /** metadata.generation starts at 1 and grows when anything but metadata and status changes. */
  readonly tracksGeneration: boolean;
  /** The resource has a status subresource: the main resource ignores status, /status ignores the rest. */
  readonly hasStatus: boolean;
  /** DELETE answers with the deleted object rather than a Success Status. */
  readonly returnDeletedObject: boolean;
  /** metadata fields a /status write cannot change (they keep the live values), beyond those no update changes. */
  readonly statusKeepsMetadata?: readonly string[];
  /**
   * Subresources besides /status that write status (CertificateSigningRequest
   * /approval): the store leaves the status sent to prepareForUpdate, which
   * keeps what that subresource may change.
   */
  readonly statusWriters?: readonly string[];
  readonly validateName: NameValidator;
  /** `user`: who creates the object (absent for the server's own writes). */
  prepareForCreate(obj: ApiObject, user?: UserInfo): void;
  prepareForUpdate(obj: ApiObject, old: ApiObject, subresource: string | undefined): void;
  /**
   * `version`: the API version the request was made in, when the store knows it (custom resources
   * validate in it); `group`: the group the request named, as spelled (a resource stored for two
   * groups — Events — validates as the request's group's kind).
   */
  validate(obj: ApiObject, version?: string, group?: string): FieldError[];
  /** `subresource`: the one the update came through, undefined for the main resource. */
  validateUpdate(obj: ApiObject, old: ApiObject, subresource?: string, version?: string, group?: string): FieldError[];
  /**
   * Graceful deletion (pods): even an immediate delete first records
   * deletionTimestamp with the grace period, and answers with that object.
   */
  readonly gracefulDeletion: boolean;
  /** Seconds of graceful deletion for this object (pods), or 0 to delete at once. */
  gracePeriod(obj: ApiObject, requested: number | undefined): number;
  /**
   * Namespaces: the first delete only marks the object (deletionTimestamp, no
   * deletionGracePeriodSeconds) even when nothing holds it; a later delete or
   * the controller finishes it.
   */
  readonly deletionMarksFirst: boolean;
  /** Finalizers a delete adds when deletion starts (CustomResourceDefinitions: the cleanup of their custom resources). */
  readonly deletionFinalizers?: readonly string[];
  /**
   * Starting deletion only sets deletionTimestamp and the finalizers: no generation bump and no
   * deletionGracePeriodSeconds (CustomResourceDefinitions: kube's own delete).
   */
  readonly marksDeletionOnly?: boolean;
  /** Called when deletion starts (deletionTimestamp set) so a kind can reflect it (namespaces: Terminating). */
  onDeletionStarted(obj: ApiObject): void;
  /** Finalizers that keep an object besides metadata.finalizers (namespaces: spec.finalizers). */
  pendingFinalizers(obj: ApiObject): readonly string[];
}

/** Defaults every strategy starts from; kinds override what differs. */
export function baseStrategy(overrides: Partial<Strategy> & Pick<Strategy, 'namespaced' | 'validateName'>): Strategy {
  return {
    allowCreateOnUpdate: false,
    tracksGeneration: false,
    hasStatus: false,
    returnDeletedObject: false,
    gracefulDeletion: false,
    deletionMarksFirst: false,
    prepareForCreate: () => undefined,
    prepareForUpdate: () => undefined,
    validate: () => [],
    validateUpdate: () => [],
    gracePeriod: () => 0,
    onDeletionStarted: () => undefined,
    pendingFinalizers: (obj) => obj.metadata.finalizers ?? [],
    ...overrides,
  };
}
