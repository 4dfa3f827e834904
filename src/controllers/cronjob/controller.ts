// The CronJob controller (kube-controller-manager v1.27's cronjob v2
// controller, pkg/controller/cronjob/cronjob_controllerv2.go), writing as the
// cronjob-controller service account. One sync of a CronJob:
//
//   its Jobs (controller reference) → status.active trimmed of finished and
//   missing Jobs (SawCompletedJob, MissingJob), lastSuccessfulTime; finished
//   Jobs past successful/failedJobsHistoryLimit deleted (SuccessfulDelete)
//     │ deleting, bad timeZone (UnknownTimeZone), suspended,
//     │ bad schedule (UnparseableSchedule/InvalidSchedule) ─► stop here
//     ▼
//   the start owed now (times.ts; TooManyMissedTimes past 100 missed)
//     │ none ─► wait for the next one     too late (startingDeadlineSeconds)
//     │                                     ─► MissSchedule, wait
//     ▼
//   already made (status.active or lastScheduleTime) ─► wait
//   Forbid and a Job active ─► JobAlreadyActive, wait
//   Replace ─► the active Jobs deleted first
//   Job `<cronjob>-<scheduled minutes since the epoch>` created from
//   jobTemplate (SuccessfulCreate "Created job …"), added to status.active,
//   lastScheduleTime set; wait for the next start.
//
// Waits are on the controller's clock (a fake one in tests) and end 100 ms
// after the start is due, as kube's.
import type { ApiObject } from '../../registry/object.js';
import { deepEqual } from '../../registry/object.js';
import type { Controller, ControllerContext } from '../context.js';
import type { ControllerClient } from '../client.js';
import type { EventRecorder } from '../events.js';
import { isNamespaceTerminating, isReason } from '../informer.js';
import type { SharedInformer } from '../shared.js';
import { realClock, timestamp, type Clock } from '../job/clock.js';
import { KeyedLoop, keyOf, LastWritten } from '../job/loop.js';
import { finishedCondition } from '../job/conditions.js';
import { controllerOf, controllerRef } from '../job/pods.js';
import { nextTime, parseSchedule, ScheduleError, type Schedule } from './schedule.js';
import { mostRecentScheduleTime, TOO_MANY_MISSED } from './times.js';
import { knownZone, rfc3339In } from './zone.js';

export const CRONJOB_CONTROLLER = 'cronjob-controller';
export const SCHEDULED_TIMESTAMP = 'batch.kubernetes.io/cronjob-scheduled-timestamp';
const CRONJOBS = { group: 'batch', version: 'v1', resource: 'cronjobs' } as const;
const CRONJOB_STATUS = { ...CRONJOBS, subresource: 'status' } as const;
const JOBS = { group: 'batch', version: 'v1', resource: 'jobs' } as const;
const NEXT_SCHEDULE_DELTA_MS = 100;

export interface CronJobControllerOptions {
  readonly clock?: Clock;
  readonly retryMs?: number;
}

interface CronJobSpec {
  schedule?: string;
  timeZone?: string | null;
  startingDeadlineSeconds?: number | null;
  concurrencyPolicy?: string;
  suspend?: boolean;
  successfulJobsHistoryLimit?: number | null;
  failedJobsHistoryLimit?: number | null;
  jobTemplate?: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: unknown };
}

interface JobRef { apiVersion?: string; kind?: string; namespace?: string; name?: string; uid?: string; resourceVersion?: string }

interface CronJobStatus {
  active?: JobRef[];
  lastScheduleTime?: string;
  lastSuccessfulTime?: string;
}

type Event = [type: 'Normal' | 'Warning', reason: string, message: string];


/** The name of the Job for a start: `<cronjob>-<minutes since the epoch>` (kube's getJobName). */
export const jobName = (cronJob: string, scheduled: number): string => `${cronJob}-${Math.floor(scheduled / 60_000)}`;

/** Go's time.RFC1123Z of an instant in UTC ("Mon, 02 Jan 2006 15:04:05 +0000"). */
export function rfc1123z(ms: number): string {
  return new Date(ms).toUTCString().replace('GMT', '+0000');
}

/** kube's byJobStartTime: started Jobs by start time (then name), unstarted ones last. */
function byStartTime(a: ApiObject, b: ApiObject): number {
  const sa = ((a.status ?? {}) as { startTime?: string }).startTime;
  const sb = ((b.status ?? {}) as { startTime?: string }).startTime;
  if (!sb) return sa ? -1 : 0;
  if (!sa) return 1;
  if (sa === sb) return a.metadata.name! < b.metadata.name! ? -1 : a.metadata.name! > b.metadata.name! ? 1 : 0;
  return Date.parse(sa) - Date.parse(sb);
}

/** The Job a start makes (kube's getJobFromTemplate2). */
export function jobFromTemplate(cj: ApiObject, scheduled: number, zone: string | undefined): ApiObject {
  const spec = (cj.spec ?? {}) as CronJobSpec;
  const meta = spec.jobTemplate?.metadata ?? {};
  return {
    apiVersion: 'batch/v1', kind: 'Job',
    metadata: {
      name: jobName(cj.metadata.name!, scheduled),
      namespace: cj.metadata.namespace!,
      ...(meta.labels ? { labels: { ...meta.labels } } : {}),
      annotations: { ...(meta.annotations ?? {}), [SCHEDULED_TIMESTAMP]: rfc3339In(scheduled, zone) },
      ownerReferences: [controllerRef(cj, 'batch/v1', 'CronJob')],
    },
    spec: structuredClone(spec.jobTemplate?.spec ?? {}) as Record<string, unknown>,
  };
}

const refTo = (job: ApiObject): JobRef => ({
  kind: 'Job', namespace: job.metadata.namespace!, name: job.metadata.name!, uid: job.metadata.uid!, apiVersion: 'batch/v1', resourceVersion: job.metadata.resourceVersion!,
});

export class CronJobController implements Controller {
  private readonly clock: Clock;
  private readonly client: ControllerClient;
  private readonly recorder: EventRecorder;
  private readonly loop: KeyedLoop;
  private readonly cronJobs: SharedInformer;
  private readonly jobs: SharedInformer;
  private readonly written = new LastWritten();

  constructor(ctx: ControllerContext, opts: CronJobControllerOptions = {}) {
    this.clock = opts.clock ?? realClock;
    this.client = ctx.client(CRONJOB_CONTROLLER);
    this.recorder = ctx.recorder(CRONJOB_CONTROLLER, CRONJOB_CONTROLLER);
    this.cronJobs = ctx.informers.informer(CRONJOBS.group, CRONJOBS.resource);
    this.jobs = ctx.informers.informer(JOBS.group, JOBS.resource);
    this.loop = new KeyedLoop({
      label: 'cronjob controller', client: this.client, target: CRONJOBS, clock: this.clock, ...(opts.retryMs ? { retryMs: opts.retryMs } : {}),
      sync: (key) => this.sync(key), run: () => this.run(),
    });
  }

  start(): Promise<void> {
    return this.loop.start();
  }

  stop(): void {
    this.loop.stop();
  }

  private enqueue(key: string | undefined): void {
    this.loop.add(key);
  }

  private async run(): Promise<void> {
    this.cronJobs.addHandler({
      onAdd: (cj) => this.enqueue(keyOf(cj)),
      onUpdate: (old, cj) => {
        const changed = !deepEqual(old.spec, cj.spec);
        this.enqueue(keyOf(cj));
        if (changed) this.loop.forget(keyOf(cj)); // a new schedule: the wait is worked out again
      },
      onDelete: (cj) => {
        this.written.delete(keyOf(cj));
        this.loop.forget(keyOf(cj));
      },
    });
    const owner = (job: ApiObject) => {
      const ref = controllerOf(job);
      return ref?.kind === 'CronJob' ? `${job.metadata.namespace}/${ref.name}` : undefined;
    };
    this.jobs.addHandler({
      onAdd: (j) => this.enqueue(owner(j)),
      onUpdate: (old, j) => {
        if (owner(old) !== owner(j)) this.enqueue(owner(old));
        this.enqueue(owner(j));
      },
      onDelete: (j) => this.enqueue(owner(j)),
    });
    await Promise.all([this.cronJobs.start(), this.jobs.start()]);
  }

  private current(key: string): ApiObject | undefined {
    const [ns, name] = key.split('/') as [string, string];
    return this.written.newest(key, this.cronJobs.get(ns, name));
  }

  private async sync(key: string): Promise<boolean> {
    const cj = this.current(key);
    if (!cj) return true;
    const jobs = this.jobs.list(cj.metadata.namespace!).filter((j) => controllerOf(j)?.uid === cj.metadata.uid);
    const status = structuredClone((cj.status ?? {}) as CronJobStatus);
    const events: Event[] = [];
    let error: unknown;
    let wait: number | undefined;
    try {
      await this.cleanupFinished(cj, status, jobs, events);
      wait = await this.syncCronJob(cj, status, jobs, events);
    } catch (err) {
      error = err;
    }
    if (!deepEqual(normalized(cj.status as CronJobStatus ?? {}), normalized(status))) {
      const uid = cj.metadata.uid;
      try {
        const written = await this.client.update(CRONJOB_STATUS, cj.metadata.namespace!, cj.metadata.name!, (cur) =>
          cur.metadata.uid !== uid ? cur : { ...cur, status: status as unknown as Record<string, unknown> });
        this.written.set(key, written);
      } catch (err) {
        if (!isReason(err, 'NotFound')) error ??= err;
      }
    }
    for (const [type, reason, message] of events) void this.recorder.event(cj, type, reason, message);
    if (wait !== undefined) this.loop.after(key, wait);
    if (error) throw error;
    return true;
  }

  /** Finished Jobs beyond the history limits deleted, oldest first (kube's cleanupFinishedJobs). */
  private async cleanupFinished(cj: ApiObject, status: CronJobStatus, jobs: readonly ApiObject[], events: Event[]): Promise<void> {
    const spec = (cj.spec ?? {}) as CronJobSpec;
    const byType = (type: string) => jobs.filter((j) => finishedCondition(j)?.type === type);
    for (const [limit, list] of [[spec.successfulJobsHistoryLimit, byType('Complete')], [spec.failedJobsHistoryLimit, byType('Failed')]] as const) {
      if (typeof limit !== 'number' || list.length <= limit) continue;
      const oldest = [...list].sort(byStartTime).slice(0, list.length - limit);
      for (const job of oldest) await this.deleteJob(cj, status, job, events);
    }
  }

  private async deleteJob(cj: ApiObject, status: CronJobStatus, job: ApiObject, events: Event[]): Promise<boolean> {
    try {
      await this.client.delete(JOBS, job.metadata.namespace!, job.metadata.name!, { propagationPolicy: 'Background' });
    } catch (err) {
      if (!isReason(err, 'NotFound')) {
        events.push(['Warning', 'FailedDelete', `Deleted job: ${(err as Error).message}`]);
        return false;
      }
    }
    status.active = (status.active ?? []).filter((r) => r.uid !== job.metadata.uid);
    events.push(['Normal', 'SuccessfulDelete', `Deleted job ${job.metadata.name}`]);
    return true;
  }

  /** kube's syncCronJob: the status brought up to date and the start owed made; how long until the next sync (ms). */
  private async syncCronJob(cj: ApiObject, status: CronJobStatus, jobs: readonly ApiObject[], events: Event[]): Promise<number | undefined> {
    const spec = (cj.spec ?? {}) as CronJobSpec;
    const now = this.clock.now();
    const uids = new Set<string>();
    for (const j of jobs) {
      uids.add(j.metadata.uid!);
      const inActive = (status.active ?? []).some((r) => r.uid === j.metadata.uid);
      const finished = finishedCondition(j);
      if (!inActive && !finished) {
        events.push(['Warning', 'UnexpectedJob', `Saw a job that the controller did not create or forgot: ${j.metadata.name}`]);
      } else if (inActive && finished) {
        status.active = (status.active ?? []).filter((r) => r.uid !== j.metadata.uid);
        events.push(['Normal', 'SawCompletedJob', `Saw completed job: ${j.metadata.name}, status: ${finished.type}`]);
      } else if (finished) {
        const completed = ((j.status ?? {}) as { completionTime?: string }).completionTime;
        if (completed && (!status.lastSuccessfulTime || Date.parse(completed) > Date.parse(status.lastSuccessfulTime))) status.lastSuccessfulTime = completed;
      }
    }
    for (const r of [...(status.active ?? [])]) {
      if (uids.has(r.uid ?? '')) continue;
      events.push(['Normal', 'MissingJob', `Active job went missing: ${r.name}`]);
      status.active = (status.active ?? []).filter((x) => x !== r);
    }
    if (cj.metadata.deletionTimestamp) return undefined;
    const zone = typeof spec.timeZone === 'string' ? spec.timeZone : undefined;
    if (zone !== undefined && !knownZone(zone)) {
      events.push(['Warning', 'UnknownTimeZone', `invalid timeZone: ${JSON.stringify(zone)}: unknown time zone ${zone}`]);
      return undefined;
    }
    if (spec.suspend === true) return undefined;
    const scheduleText = spec.schedule ?? '';
    if (/(^|\s)(CRON_)?TZ=/.test(scheduleText)) {
      events.push(['Warning', 'UnsupportedSchedule', `CRON_TZ or TZ used in schedule ${JSON.stringify(scheduleText)} is not officially supported, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details`]);
    }
    let sched: Schedule;
    try {
      sched = parseSchedule(scheduleText);
    } catch (err) {
      if (!(err instanceof ScheduleError)) throw err;
      events.push(['Warning', 'UnparseableSchedule', `unparseable schedule: ${JSON.stringify(scheduleText)} : ${err.message}`]);
      return undefined;
    }
    const until = () => {
      const next = nextTime(sched, now, zone);
      return next === undefined ? undefined : next - now + NEXT_SCHEDULE_DELTA_MS;
    };
    const lastScheduled = status.lastScheduleTime ? Date.parse(status.lastScheduleTime) : undefined;
    const recent = mostRecentScheduleTime({
      created: Date.parse(cj.metadata.creationTimestamp ?? '') || now,
      ...(lastScheduled !== undefined ? { lastScheduleTime: lastScheduled } : {}),
      ...(typeof spec.startingDeadlineSeconds === 'number' ? { startingDeadlineSeconds: spec.startingDeadlineSeconds } : {}),
    }, sched, now, zone);
    if (recent.kind === 'invalid') {
      events.push(['Warning', 'InvalidSchedule', `invalid schedule: ${scheduleText} : ${recent.message}`]);
      return undefined;
    }
    if (recent.kind === 'none') return until();
    if (recent.missed > TOO_MANY_MISSED) {
      events.push(['Warning', 'TooManyMissedTimes', 'too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew']);
    }
    const scheduled = recent.time;
    if (typeof spec.startingDeadlineSeconds === 'number' && scheduled + spec.startingDeadlineSeconds * 1000 < now) {
      events.push(['Warning', 'MissSchedule', `Missed scheduled time to start a job: ${rfc1123z(scheduled)}`]);
      return until();
    }
    const name = jobName(cj.metadata.name!, scheduled);
    if ((status.active ?? []).some((r) => r.name === name) || lastScheduled === scheduled) return until();
    if (spec.concurrencyPolicy === 'Forbid' && (status.active ?? []).length > 0) {
      events.push(['Normal', 'JobAlreadyActive', 'Not starting job because prior execution is running and concurrency policy is Forbid']);
      return until();
    }
    if (spec.concurrencyPolicy === 'Replace') {
      for (const r of [...(status.active ?? [])]) {
        let job: ApiObject;
        try {
          job = await this.client.get(JOBS, r.namespace ?? cj.metadata.namespace!, r.name ?? '');
        } catch (err) {
          events.push(['Warning', 'FailedGet', `Get job: ${(err as Error).message}`]);
          throw err;
        }
        if (!(await this.deleteJob(cj, status, job, events))) throw new Error(`could not replace job ${job.metadata.namespace}/${job.metadata.name}`);
      }
    }
    let created: ApiObject;
    try {
      created = await this.client.create(JOBS, cj.metadata.namespace!, jobFromTemplate(cj, scheduled, zone));
    } catch (err) {
      if (isNamespaceTerminating(err)) return undefined;
      if (isReason(err, 'AlreadyExists')) throw err; // made by someone else: they update the status
      events.push(['Warning', 'FailedCreate', `Error creating job: ${(err as Error).message}`]);
      throw err;
    }
    events.push(['Normal', 'SuccessfulCreate', `Created job ${created.metadata.name}`]);
    status.active = [...(status.active ?? []), refTo(created)];
    status.lastScheduleTime = timestamp(scheduled);
    return until();
  }
}

/** A status without the empty values the wire drops. */
function normalized(s: CronJobStatus): CronJobStatus {
  return {
    ...(s.active && s.active.length > 0 ? { active: s.active } : {}),
    ...(s.lastScheduleTime ? { lastScheduleTime: s.lastScheduleTime } : {}),
    ...(s.lastSuccessfulTime ? { lastSuccessfulTime: s.lastSuccessfulTime } : {}),
  };
}

/** kube's `cronjob` controller, not yet started (the manager calls start()). */
export function startCronJobController(ctx: ControllerContext, opts?: CronJobControllerOptions): Controller {
  return new CronJobController(ctx, opts);
}
