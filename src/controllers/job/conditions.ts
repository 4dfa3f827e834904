// Job conditions as kube's job controller writes them: a new condition has
// both probe and transition times; setting one replaces the condition of its
// type, keeping the transition time when the status did not change.
import type { ApiObject } from '../../registry/object.js';
import { timestamp } from './clock.js';

export interface JobCondition {
  type: string;
  status: string;
  lastProbeTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export function newCondition(type: string, reason: string, message: string, now: number, status = 'True'): JobCondition {
  const t = timestamp(now);
  return { type, status, lastProbeTime: t, lastTransitionTime: t, ...(reason ? { reason } : {}), ...(message ? { message } : {}) };
}

export const findCondition = (conditions: readonly JobCondition[], type: string): JobCondition | undefined => conditions.find((c) => c.type === type);

export function setCondition(conditions: JobCondition[], c: JobCondition): void {
  const i = conditions.findIndex((x) => x.type === c.type);
  if (i < 0) conditions.push(c);
  else conditions[i] = conditions[i]!.status === c.status ? { ...c, lastTransitionTime: conditions[i]!.lastTransitionTime ?? c.lastTransitionTime } : c;
}

/** The Complete or Failed condition that is True, if any (kube's IsJobFinished). */
export function finishedCondition(job: ApiObject): JobCondition | undefined {
  const conditions = ((job.status ?? {}) as { conditions?: JobCondition[] }).conditions ?? [];
  return conditions.find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
}

export const isFinished = (job: ApiObject): boolean => finishedCondition(job) !== undefined;
