// The delay before a Job makes pods again after failures (kube v1.27's
// backoff_utils.go): failures since the last success, the time of the last of
// them; the delay doubles from the base per failure after the first, up to the
// cap, and counts from the last failure.
import type { ApiObject } from '../../registry/object.js';

export interface BackoffRecord {
  readonly failuresAfterLastSuccess: number;
  /** ms since the epoch. */
  readonly lastFailureTime?: number;
}

export const NO_FAILURES: BackoffRecord = { failuresAfterLastSuccess: 0 };

/** When a pod finished: its containers' latest finishedAt, else its deletion time, else `now`. */
export function finishedTime(pod: ApiObject, now: number): number {
  const status = (pod.status ?? {}) as { containerStatuses?: { state?: { terminated?: { finishedAt?: string } | null } }[] };
  let latest: number | undefined;
  for (const cs of status.containerStatuses ?? []) {
    const t = Date.parse(cs.state?.terminated?.finishedAt ?? '');
    if (!Number.isNaN(t) && (latest === undefined || t > latest)) latest = t;
  }
  if (latest !== undefined) return latest;
  const deleted = Date.parse(pod.metadata.deletionTimestamp ?? '');
  return Number.isNaN(deleted) ? now : deleted;
}

/** The record after newly finished pods (newBackoffRecord). */
export function nextBackoffRecord(prev: BackoffRecord, succeeded: readonly ApiObject[], failed: readonly ApiObject[], now: number): BackoffRecord {
  const failTimes = failed.map((p) => finishedTime(p, now)).sort((a, b) => a - b);
  if (succeeded.length === 0) {
    if (failTimes.length === 0) return prev;
    return { failuresAfterLastSuccess: prev.failuresAfterLastSuccess + failTimes.length, lastFailureTime: failTimes[failTimes.length - 1]! };
  }
  const lastSuccess = Math.max(...succeeded.map((p) => finishedTime(p, now)));
  const after = failTimes.filter((t) => t > lastSuccess);
  if (after.length === 0) return NO_FAILURES;
  return { failuresAfterLastSuccess: after.length, lastFailureTime: after[after.length - 1]! };
}

/** How long to wait before making pods (0: at once). */
export function remainingBackoff(r: BackoffRecord, now: number, baseMs: number, maxMs: number): number {
  if (r.failuresAfterLastSuccess === 0 || r.lastFailureTime === undefined) return 0;
  let delay = baseMs;
  for (let i = 1; i < r.failuresAfterLastSuccess; i++) {
    delay *= 2;
    if (delay >= maxMs) {
      delay = maxMs;
      break;
    }
  }
  const elapsed = now - r.lastFailureTime;
  return delay < elapsed ? 0 : delay - elapsed;
}
