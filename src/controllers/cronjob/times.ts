// Which start a CronJob owes now (kube v1.27's nextScheduleTime /
// mostRecentScheduleTime): the latest schedule time after the last one made
// (or the CronJob's creation, or now − startingDeadlineSeconds, whichever is
// latest) that is not after now. More than 100 missed starts are "too many":
// kube then warns; the latest is still the one started.
import { nextTime, type Schedule } from './schedule.js';

export const TOO_MANY_MISSED = 100;

export type MostRecent =
  | { readonly kind: 'none' }
  | { readonly kind: 'due'; readonly time: number; readonly missed: number }
  | { readonly kind: 'invalid'; readonly message: string };

export interface ScheduleState {
  /** ms since the epoch. */
  readonly created: number;
  readonly lastScheduleTime?: number;
  readonly startingDeadlineSeconds?: number;
}

export function earliestTime(cj: ScheduleState, now: number): number {
  let earliest = cj.lastScheduleTime ?? cj.created;
  if (cj.startingDeadlineSeconds !== undefined) {
    const deadline = now - cj.startingDeadlineSeconds * 1000;
    if (deadline > earliest) earliest = deadline;
  }
  return earliest;
}

export function mostRecentScheduleTime(cj: ScheduleState, sched: Schedule, now: number, zone?: string): MostRecent {
  const earliest = earliestTime(cj, now);
  const t1 = nextTime(sched, earliest, zone);
  if (t1 !== undefined && now < t1) return { kind: 'none' };
  const t2 = t1 === undefined ? undefined : nextTime(sched, t1, zone);
  if (t1 === undefined || t2 === undefined || t2 - t1 < 1000) {
    if (t1 !== undefined && t2 === undefined) return { kind: 'due', time: t1, missed: 1 };
    return { kind: 'invalid', message: 'time difference between two schedules is less than 1 second' };
  }
  if (now < t2) return { kind: 'due', time: t1, missed: 1 };
  // walk the starts (schedules need not be regular), jumping when there are too many
  let last = t2;
  let missed = 2;
  for (let t = nextTime(sched, t2, zone); t !== undefined && t <= now; t = nextTime(sched, t, zone)) {
    last = t;
    missed++;
    if (missed > TOO_MANY_MISSED) {
      const jumped = latestBefore(sched, now, zone, t2 - t1);
      if (jumped !== undefined) last = Math.max(last, jumped);
      missed = Math.max(missed, TOO_MANY_MISSED + 1);
      break;
    }
  }
  return { kind: 'due', time: last, missed };
}

/** The latest start at or before `now`, looked for from a little before it. */
function latestBefore(sched: Schedule, now: number, zone: string | undefined, period: number): number | undefined {
  for (let back = Math.max(period, 60_000) * 2; back < 400 * 86_400_000; back *= 2) {
    let last: number | undefined;
    for (let t = nextTime(sched, now - back, zone); t !== undefined && t <= now; t = nextTime(sched, t, zone)) last = t;
    if (last !== undefined) return last;
  }
  return undefined;
}
