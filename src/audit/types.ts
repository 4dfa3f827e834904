// The audit API's shapes (kube's pkg/apis/audit/v1): levels, stages, the
// Policy a --audit-policy-file holds, and one audit Event as it is written
// (audit.k8s.io/v1 Event, field order as kube's JSON).
export const LEVELS = ['None', 'Metadata', 'Request', 'RequestResponse'] as const;
export type Level = (typeof LEVELS)[number];
export const STAGES = ['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'] as const;
export type Stage = (typeof STAGES)[number];

/** Level ordering as kube's Level.Less / GreaterOrEqual. */
export function levelAtLeast(l: Level, min: Level): boolean {
  return LEVELS.indexOf(l) >= LEVELS.indexOf(min);
}

export interface GroupResources {
  readonly group?: string;
  readonly resources?: readonly string[];
  readonly resourceNames?: readonly string[];
}

export interface PolicyRule {
  readonly level: Level;
  readonly users?: readonly string[];
  readonly userGroups?: readonly string[];
  readonly verbs?: readonly string[];
  readonly resources?: readonly GroupResources[];
  readonly namespaces?: readonly string[];
  readonly nonResourceURLs?: readonly string[];
  readonly omitStages?: readonly Stage[];
  readonly omitManagedFields?: boolean;
}

export interface Policy {
  readonly rules: readonly PolicyRule[];
  readonly omitStages?: readonly Stage[];
  readonly omitManagedFields?: boolean;
}

/** What the policy decided for one request (kube's RequestAuditConfig). */
export interface RequestAuditConfig {
  readonly level: Level;
  readonly omitStages: readonly Stage[];
  readonly omitManagedFields: boolean;
}

export interface EventUser {
  readonly username?: string;
  readonly uid?: string;
  readonly groups?: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

export interface ObjectReference {
  resource?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiGroup?: string;
  apiVersion?: string;
  resourceVersion?: string;
  subresource?: string;
}

/** metav1.Status as the event keeps it (kube copies status, message, reason, details, code). */
export interface ResponseStatus {
  readonly status?: string;
  readonly message?: string;
  readonly reason?: string;
  readonly details?: unknown;
  readonly code?: number;
}

/**
 * One event as handed to the backends: a snapshot of the request's audit
 * record at one stage, never changed afterwards (backends may keep it).
 * Times are epoch microseconds; requestObject/responseObject are JSON text.
 */
export interface AuditEvent {
  readonly level: Level;
  readonly auditID: string;
  readonly stage: Stage;
  readonly requestURI: string;
  readonly verb: string;
  readonly user: EventUser;
  readonly impersonatedUser?: EventUser | undefined;
  readonly sourceIPs: readonly string[];
  readonly userAgent: string;
  readonly objectRef?: Readonly<ObjectReference> | undefined;
  readonly responseStatus?: ResponseStatus | undefined;
  readonly requestObject?: string | undefined;
  readonly responseObject?: string | undefined;
  readonly requestReceivedTimestamp: number;
  readonly stageTimestamp: number;
  readonly annotations?: Readonly<Record<string, string>> | undefined;
  /**
   * Encoded pieces shared by the events of one request (encode.ts fills it):
   * what does not change between stages is encoded once per request.
   */
  readonly cache?: EventCache | undefined;
}

export interface EventCache {
  /** `"auditID":…` … through `"user":{…}` after the stage (everything from requestURI on, with the level and ID before). */
  id?: string;
  mid?: string;
  tail?: string;
  ref?: Readonly<ObjectReference>;
  refJSON?: string;
  /** `,"requestReceivedTimestamp":"…","stageTimestamp":"` (the received time does not change within a request). */
  received?: string;
}
