// The leader election record as a Lease holds it (client-go resourcelock:
// LeaderElectionRecord ⇄ LeaseSpec). Times are metav1.MicroTime: RFC 3339
// with six fractional digits.
import { isObject, type ApiObject } from '../../registry/object.js';
import { microTime } from '../../api/meta/time.js';

export interface LeaderElectionRecord {
  /** '' once released. */
  readonly holderIdentity: string;
  readonly leaseDurationSeconds: number;
  /** Milliseconds since the epoch. */
  readonly acquireTime: number;
  readonly renewTime: number;
  readonly leaderTransitions: number;
}

/** metav1.MicroTime's text (microseconds from a millisecond clock). */
export { microTime };

const parseTime = (v: unknown): number => {
  if (typeof v !== 'string') return 0;
  const t = Date.parse(v);
  return Number.isNaN(t) ? 0 : t;
};

const int = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** The Lease's spec as a record (absent fields: zero values, as client-go reads them). */
export function recordFromLease(lease: ApiObject): LeaderElectionRecord {
  const spec = isObject(lease.spec) ? lease.spec : {};
  return {
    holderIdentity: typeof spec.holderIdentity === 'string' ? spec.holderIdentity : '',
    leaseDurationSeconds: int(spec.leaseDurationSeconds),
    acquireTime: parseTime(spec.acquireTime),
    renewTime: parseTime(spec.renewTime),
    leaderTransitions: int(spec.leaseTransitions),
  };
}

/** The record as a LeaseSpec (client-go writes every field, holderIdentity '' included). */
export function leaseSpec(r: LeaderElectionRecord): Record<string, unknown> {
  return {
    holderIdentity: r.holderIdentity,
    leaseDurationSeconds: r.leaseDurationSeconds,
    acquireTime: microTime(r.acquireTime),
    renewTime: microTime(r.renewTime),
    leaseTransitions: r.leaderTransitions,
  };
}

/** The record's identity for "has it changed since I looked" (client-go compares the raw JSON). */
export function rawRecord(r: LeaderElectionRecord): string {
  return JSON.stringify(leaseSpec(r));
}
