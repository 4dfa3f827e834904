// When a finished Job may be deleted (kube's ttlafterfinished helpers): its
// Complete or Failed condition's lastTransitionTime plus
// spec.ttlSecondsAfterFinished.
import type { ApiObject } from '../../registry/object.js';
import { finishedCondition } from '../job/conditions.js';

export type Expiry =
  | { readonly kind: 'keep' }
  | { readonly kind: 'expired' }
  | { readonly kind: 'wait'; readonly ms: number; readonly finishedInFuture: boolean };

/** Whether the Job has a TTL and has finished (kube's needsCleanup). */
export function needsCleanup(job: ApiObject): boolean {
  const ttl = ((job.spec ?? {}) as { ttlSecondsAfterFinished?: number | null }).ttlSecondsAfterFinished;
  return typeof ttl === 'number' && finishedCondition(job) !== undefined;
}

export function expiry(job: ApiObject, now: number): Expiry {
  if (!needsCleanup(job)) return { kind: 'keep' };
  const ttl = (job.spec as { ttlSecondsAfterFinished: number }).ttlSecondsAfterFinished;
  const finishedAt = Date.parse(finishedCondition(job)!.lastTransitionTime ?? '');
  if (Number.isNaN(finishedAt)) return { kind: 'keep' }; // kube: "unable to find the time when the Job … finished"
  const left = finishedAt + ttl * 1000 - now;
  return left <= 0 ? { kind: 'expired' } : { kind: 'wait', ms: left, finishedInFuture: finishedAt > now };
}
