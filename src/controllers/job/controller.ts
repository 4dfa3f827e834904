// The Job controller (kube-controller-manager v1.27's pkg/controller/job),
// writing as the job-controller service account. One sync of a Job:
//
//   pods owned by the Job (controller reference, from the pod informer)
//     │ finished ones still carrying the job-tracking finalizer are counted:
//     │ status.uncountedTerminatedPods (or completedIndexes) written first,
//     │ then the finalizers removed, then the counts moved to succeeded/failed
//     ▼
//   failed? FailJob rule (podFailurePolicy) ─┐
//           failed > backoffLimit ───────────┼─► active pods deleted, condition
//           past activeDeadlineSeconds ──────┘   Failed (reason), Warning event
//   suspended? active pods deleted, condition Suspended
//   otherwise: wanted = min(parallelism, completions − succeeded); extra pods
//     deleted, missing ones created (after the failure backoff; Indexed: the
//     lowest missing indexes); all succeeded and none active ─► Complete
//
// Writes the informers have not shown yet are expected (expectations.ts), so a
// stale cache never creates a pod twice. Not done: adopting orphaned pods that
// match the selector (a pod belongs to the Job its controller reference
// names), batching creates in slow-start groups (they are made one by one),
// the Job's own finalizers and metrics.
import type { ApiObject } from '../../registry/object.js';
import { deepEqual } from '../../registry/object.js';
import type { Controller, ControllerContext } from '../context.js';
import type { ControllerClient } from '../client.js';
import type { EventRecorder } from '../events.js';
import { isNamespaceTerminating, isReason } from '../informer.js';
import type { SharedInformer } from '../shared.js';
import { nextBackoffRecord, NO_FAILURES, remainingBackoff, type BackoffRecord } from './backoff.js';
import { realClock, timestamp, type Clock } from './clock.js';
import { Expectations } from './expectations.js';
import { matchPodFailurePolicy } from './failurepolicy.js';
import { FinalizerRemover } from './finalizers.js';
import { completionIndex, formatIndexes, parseIndexes, pendingIndexes } from './indexes.js';
import { asMarkedByPodGC, controllerOf, hasTrackingFinalizer, isActive, isFailed, isReady, isSucceeded, JOB_TRACKING_FINALIZER, pastBackoffLimitOnFailure, podFromTemplate } from './pods.js';
import { KeyedLoop, keyOf, LastWritten } from './loop.js';
import { findCondition, isFinished, newCondition, setCondition, type JobCondition } from './conditions.js';

export const JOB_CONTROLLER = 'job-controller';
export const JOBS = { group: 'batch', version: 'v1', resource: 'jobs' } as const;
const JOB_STATUS = { ...JOBS, subresource: 'status' } as const;
const PODS = { group: '', version: 'v1', resource: 'pods' } as const;

export interface JobControllerOptions {
  readonly clock?: Clock;
  /** The first delay before pods are made again after a failure (kube: 10 s), doubling per failure. */
  readonly backoffBaseMs?: number;
  /** The longest such delay (kube: 6 min). */
  readonly backoffMaxMs?: number;
  /** Retry delay of a failed sync. */
  readonly retryMs?: number;
}

interface JobSpec {
  parallelism?: number;
  completions?: number | null;
  activeDeadlineSeconds?: number | null;
  backoffLimit?: number;
  completionMode?: string;
  suspend?: boolean;
  podFailurePolicy?: unknown;
  template?: { spec?: { restartPolicy?: string } };
}

interface JobStatus {
  conditions?: JobCondition[];
  startTime?: string;
  completionTime?: string;
  active?: number;
  ready?: number;
  succeeded?: number;
  failed?: number;
  completedIndexes?: string;
  uncountedTerminatedPods?: { succeeded?: string[]; failed?: string[] };
}


/** The key of the Job a pod belongs to (its controller reference), if any. */
function jobKeyOf(pod: ApiObject): string | undefined {
  const ref = controllerOf(pod);
  return ref && ref.kind === 'Job' && ref.apiVersion.startsWith('batch/') ? `${pod.metadata.namespace ?? ''}/${ref.name}` : undefined;
}

/** Active pods ranked for deletion first (kube's ActivePods order, simplified): unscheduled, pending, not ready, newest. */
function deletionOrder(a: ApiObject, b: ApiObject): number {
  const node = (p: ApiObject) => (((p.spec ?? {}) as { nodeName?: string }).nodeName ? 1 : 0);
  const phase = (p: ApiObject) => ({ Pending: 0, Unknown: 1, Running: 2 } as Record<string, number>)[((p.status ?? {}) as { phase?: string }).phase ?? 'Pending'] ?? 0;
  const ready = (p: ApiObject) => (isReady(p) ? 1 : 0);
  const created = (p: ApiObject) => Date.parse(p.metadata.creationTimestamp ?? '') || 0;
  return node(a) - node(b) || phase(a) - phase(b) || ready(a) - ready(b) || created(b) - created(a);
}

/** A status without the zero values the wire drops (so a written status compares equal to the one read back). */
function normalized(s: JobStatus): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s)) {
    if (v === undefined || v === '' || (v === 0 && k !== 'ready') || (Array.isArray(v) && v.length === 0)) continue;
    out[k] = v;
  }
  const u = s.uncountedTerminatedPods ?? {};
  out.uncountedTerminatedPods = { succeeded: [...(u.succeeded ?? [])].sort(), failed: [...(u.failed ?? [])].sort() };
  return out;
}

export class JobController implements Controller {
  private readonly clock: Clock;
  private readonly backoffBaseMs: number;
  private readonly backoffMaxMs: number;
  private readonly client: ControllerClient;
  private readonly recorder: EventRecorder;
  private readonly finalizers: FinalizerRemover;
  private readonly loop: KeyedLoop;
  private readonly jobs: SharedInformer;
  private readonly pods: SharedInformer;
  /** Jobs as this controller last wrote them (newer than the informer's for a moment). */
  private readonly written = new LastWritten();
  private readonly expectations = new Expectations();
  private readonly backoff = new Map<string, BackoffRecord>();
  /** Pods whose finalizer this controller removed, until the informer shows it gone. */
  private readonly finalizerRemoved = new Set<string>();

  constructor(private readonly ctx: ControllerContext, opts: JobControllerOptions = {}) {
    this.clock = opts.clock ?? realClock;
    this.backoffBaseMs = opts.backoffBaseMs ?? 10_000;
    this.backoffMaxMs = opts.backoffMaxMs ?? 360_000;
    this.client = ctx.client(JOB_CONTROLLER);
    this.recorder = ctx.recorder(JOB_CONTROLLER, JOB_CONTROLLER);
    this.finalizers = new FinalizerRemover(ctx, JOB_CONTROLLER);
    this.jobs = ctx.informers.informer(JOBS.group, JOBS.resource);
    this.pods = ctx.informers.informer(PODS.group, PODS.resource);
    this.loop = new KeyedLoop({
      label: 'job controller', client: this.client, target: JOBS, clock: this.clock, ...(opts.retryMs ? { retryMs: opts.retryMs } : {}),
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
    this.jobs.addHandler({
      onAdd: (j) => this.enqueue(keyOf(j)),
      onUpdate: (_, j) => this.enqueue(keyOf(j)),
      onDelete: (j) => {
        this.written.delete(keyOf(j));
        this.enqueue(keyOf(j));
      },
    });
    this.pods.addHandler({
      onAdd: (p) => {
        const key = jobKeyOf(p);
        if (key) this.expectations.created(key);
        this.enqueue(key);
      },
      onUpdate: (old, p) => {
        const key = jobKeyOf(p);
        if (key && p.metadata.deletionTimestamp) this.expectations.deleted(key, p.metadata.uid!);
        if (!hasTrackingFinalizer(p)) this.finalizerRemoved.delete(p.metadata.uid!);
        const oldKey = jobKeyOf(old);
        if (oldKey !== key) this.enqueue(oldKey);
        this.enqueue(key);
      },
      onDelete: (p) => {
        const key = jobKeyOf(p);
        if (key) this.expectations.deleted(key, p.metadata.uid!);
        this.finalizerRemoved.delete(p.metadata.uid!);
        this.enqueue(key);
      },
    });
    await Promise.all([this.jobs.start(), this.pods.start()]);
  }

  /** The newest of the informer's Job and the one this controller last wrote. */
  private currentJob(key: string): ApiObject | undefined {
    const [ns, name] = key.split('/') as [string, string];
    return this.written.newest(key, this.jobs.get(ns, name));
  }

  private async sync(key: string): Promise<boolean> {
    const job = this.currentJob(key);
    const [ns, name] = key.split('/') as [string, string];
    // pods naming a Job of this name that is gone (or another Job now): their finalizers go
    const orphans = this.pods.list(ns).filter((p) => {
      const ref = controllerOf(p);
      return ref?.kind === 'Job' && ref.name === name && ref.uid !== job?.metadata.uid && hasTrackingFinalizer(p);
    });
    await this.removeFinalizers(orphans);
    if (!job) {
      this.written.delete(key);
      this.expectations.forget(key);
      this.backoff.delete(key);
      this.loop.forget(key);
      return true;
    }
    if (!this.expectations.satisfied(key)) return true; // the informer's events requeue the Job
    const pods = this.pods.list(ns).filter((p) => controllerOf(p)?.uid === job.metadata.uid);
    if (job.metadata.deletionTimestamp || isFinished(job)) {
      await this.removeFinalizers(pods.filter((p) => hasTrackingFinalizer(p) && !this.finalizerRemoved.has(p.metadata.uid!)));
      return true;
    }
    return this.syncActive(key, job, pods);
  }

  private async syncActive(key: string, job: ApiObject, pods: ApiObject[]): Promise<boolean> {
    const spec = (job.spec ?? {}) as JobSpec;
    const prev = (job.status ?? {}) as JobStatus;
    const now = this.clock.now();
    const indexed = spec.completionMode === 'Indexed';
    const completions = typeof spec.completions === 'number' ? spec.completions : undefined;
    const parallelism = spec.parallelism ?? 1;
    const backoffLimit = spec.backoffLimit ?? 6;
    const suspended = spec.suspend === true;
    const policy = this.ctx.gates.enabled('JobPodFailurePolicy') && spec.podFailurePolicy ? spec.podFailurePolicy : undefined;
    const conditions = [...(prev.conditions ?? [])];
    const uncounted = { succeeded: new Set(prev.uncountedTerminatedPods?.succeeded ?? []), failed: new Set(prev.uncountedTerminatedPods?.failed ?? []) };
    const succeededIndexes = new Set(indexed ? parseIndexes(prev.completedIndexes, completions ?? 0) : []);
    const events: [type: 'Normal' | 'Warning', reason: string, message: string][] = [];

    // 1. finished pods still holding the finalizer: counted (not yet written)
    const finishing: ApiObject[] = [];
    const newSucceeded: ApiObject[] = [];
    const newFailed: ApiObject[] = [];
    const inRange = (p: ApiObject) => {
      const ix = completionIndex(p);
      return ix !== undefined && ix < (completions ?? 0);
    };
    for (const pod of pods) {
      const uid = pod.metadata.uid!;
      if (!hasTrackingFinalizer(pod) || this.finalizerRemoved.has(uid)) continue;
      if (isSucceeded(pod)) {
        finishing.push(pod);
        if (uncounted.failed.has(uid)) continue;
        if (indexed) {
          const ix = completionIndex(pod);
          if (ix !== undefined && inRange(pod) && !succeededIndexes.has(ix)) {
            succeededIndexes.add(ix);
            newSucceeded.push(pod);
          }
        } else if (!uncounted.succeeded.has(uid)) {
          uncounted.succeeded.add(uid);
          newSucceeded.push(pod);
        }
      } else if (isFailed(pod, Boolean(policy))) {
        finishing.push(pod);
        if (uncounted.failed.has(uid) || (indexed && !inRange(pod))) continue;
        if (matchPodFailurePolicy(policy, asMarkedByPodGC(pod)).countFailed) {
          uncounted.failed.add(uid);
          newFailed.push(pod);
        }
      }
    }
    const backoffRecord = nextBackoffRecord(this.backoff.get(key) ?? NO_FAILURES, newSucceeded, newFailed, now);

    // 2. failed, suspended, or pods to manage
    let startTime = prev.startTime ?? (suspended ? undefined : timestamp(now));
    const failedCount = (prev.failed ?? 0) + uncounted.failed.size;
    let finished: JobCondition | undefined;
    if (policy) {
      const target = findCondition(conditions, 'FailureTarget');
      if (target?.status === 'True') finished = newCondition('Failed', target.reason ?? '', target.message ?? '', now);
      else {
        const message = pods.filter((p) => isFailed(p, true)).map((p) => matchPodFailurePolicy(policy, asMarkedByPodGC(p))).find((m) => m.action === 'FailJob')?.message;
        if (message !== undefined) {
          setCondition(conditions, newCondition('FailureTarget', 'PodFailurePolicy', message, now));
          finished = newCondition('Failed', 'PodFailurePolicy', message, now);
        }
      }
    }
    const deadline = typeof spec.activeDeadlineSeconds === 'number' && startTime && !suspended ? Date.parse(startTime) + spec.activeDeadlineSeconds * 1000 : undefined;
    if (!finished) {
      if (failedCount > backoffLimit || pastBackoffLimitOnFailure(spec.template?.spec?.restartPolicy, pods, backoffLimit)) {
        finished = newCondition('Failed', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit', now);
      } else if (deadline !== undefined && now >= deadline) {
        finished = newCondition('Failed', 'DeadlineExceeded', 'Job was active longer than specified deadline', now);
      } else if (deadline !== undefined) this.loop.after(key, deadline - now);
    }

    let active = pods.filter(isActive);
    const errors: unknown[] = [];
    if (finished) {
      await this.deletePods(key, job, active, errors);
      active = [];
    } else if (suspended) {
      await this.deletePods(key, job, active, errors);
      active = [];
      const cur = findCondition(conditions, 'Suspended');
      if (cur?.status !== 'True') {
        setCondition(conditions, newCondition('Suspended', 'JobSuspended', 'Job suspended', now));
        events.push(['Normal', 'Suspended', 'Job suspended']);
      }
    } else {
      const cur = findCondition(conditions, 'Suspended');
      if (cur?.status === 'True') {
        setCondition(conditions, newCondition('Suspended', 'JobResumed', 'Job resumed', now, 'False'));
        startTime = timestamp(now); // the deadline counts from the resumption
        events.push(['Normal', 'Resumed', 'Job resumed']);
      }
      const succeeded = indexed ? succeededIndexes.size : (prev.succeeded ?? 0) + uncounted.succeeded.size;
      active = await this.manage({ key, job, active, succeeded, succeededIndexes, completions, parallelism, indexed, backoffRecord, now, errors });
      const complete = completions === undefined ? succeeded > 0 && active.length === 0 : succeeded >= completions && active.length === 0;
      if (complete) finished = newCondition('Complete', '', '', now);
    }

    // 3. a finished Job's remaining pods count as failed; their finalizers go too
    if (finished) {
      for (const pod of pods) {
        const uid = pod.metadata.uid!;
        if (!hasTrackingFinalizer(pod) || this.finalizerRemoved.has(uid) || finishing.includes(pod)) continue;
        finishing.push(pod);
        if (!isSucceeded(pod) && !uncounted.failed.has(uid) && !uncounted.succeeded.has(uid) && (!indexed || inRange(pod))) uncounted.failed.add(uid);
      }
    }

    // 4. counts written before the finalizers go, then moved into the counters
    const statusWith = (extra: Partial<JobStatus>): JobStatus => {
      const s: JobStatus = {
        ...prev, conditions, active: active.length, ready: active.filter(isReady).length,
        ...(startTime ? { startTime } : {}),
        ...(indexed ? { completedIndexes: formatIndexes(succeededIndexes), succeeded: succeededIndexes.size } : {}),
        ...extra,
      };
      if (!startTime) delete s.startTime;
      if (s.conditions?.length === 0) delete s.conditions;
      return s;
    };
    const uncountedOf = () => ({
      ...(uncounted.succeeded.size ? { succeeded: [...uncounted.succeeded] } : {}),
      ...(uncounted.failed.size ? { failed: [...uncounted.failed] } : {}),
    });
    let current = job;
    if (finishing.length > 0) {
      current = await this.writeStatus(key, current, statusWith({ uncountedTerminatedPods: uncountedOf() }));
      await this.removeFinalizers(finishing, errors);
    }
    const present = new Map(pods.map((p) => [p.metadata.uid!, p]));
    const released = (uid: string) => {
      const p = present.get(uid);
      return !p || !hasTrackingFinalizer(p) || this.finalizerRemoved.has(uid);
    };
    let succeeded = prev.succeeded ?? 0;
    let failed = prev.failed ?? 0;
    for (const uid of [...uncounted.succeeded]) if (released(uid)) (succeeded++, uncounted.succeeded.delete(uid));
    for (const uid of [...uncounted.failed]) if (released(uid)) (failed++, uncounted.failed.delete(uid));
    const settled = uncounted.succeeded.size === 0 && uncounted.failed.size === 0;
    let final: JobCondition | undefined;
    if (finished && settled) {
      final = finished;
      setCondition(conditions, finished);
    }
    const next = statusWith({
      ...(indexed ? {} : { succeeded }), failed, uncountedTerminatedPods: uncountedOf(),
      ...(final?.type === 'Complete' ? { completionTime: timestamp(now) } : {}),
    });
    await this.writeStatus(key, current, next);
    this.backoff.set(key, backoffRecord);
    if (final?.type === 'Complete') events.push(['Normal', 'Completed', 'Job completed']);
    else if (final) events.push(['Warning', final.reason ?? '', final.message ?? '']);
    for (const [type, reason, message] of events) void this.recorder.event(job, type, reason, message);
    if (errors.length > 0) throw errors[0];
    return !finished || settled;
  }

  /** Deletes extra active pods and creates missing ones; the active pods after. */
  private async manage(c: {
    key: string; job: ApiObject; active: ApiObject[]; succeeded: number; succeededIndexes: Set<number>; completions: number | undefined;
    parallelism: number; indexed: boolean; backoffRecord: BackoffRecord; now: number; errors: unknown[];
  }): Promise<ApiObject[]> {
    const { key, job, completions, parallelism, indexed } = c;
    let wanted: number;
    if (completions === undefined) wanted = c.succeeded > 0 ? c.active.length : parallelism;
    else wanted = Math.max(0, Math.min(completions - c.succeeded, parallelism));
    const ranked = [...c.active].sort(deletionOrder).reverse(); // the pods to keep first
    const keep: ApiObject[] = [];
    const remove: ApiObject[] = [];
    const seen = new Set<number>();
    for (const p of ranked) {
      const ix = completionIndex(p);
      const bad = indexed && (ix === undefined || ix >= (completions ?? 0) || c.succeededIndexes.has(ix) || seen.has(ix));
      if (bad) remove.push(p);
      else {
        if (ix !== undefined) seen.add(ix);
        keep.push(p);
      }
    }
    while (keep.length > wanted) remove.push(keep.pop()!);
    await this.deletePods(key, job, remove, c.errors);
    const missing = wanted - keep.length;
    if (missing <= 0) return keep;
    const wait = remainingBackoff(c.backoffRecord, c.now, this.backoffBaseMs, this.backoffMaxMs);
    if (wait > 0) {
      this.loop.after(key, wait);
      return keep;
    }
    const indexes = indexed
      ? pendingIndexes(keep.map((p) => completionIndex(p)!), c.succeededIndexes, missing, completions ?? 0)
      : Array.from({ length: missing }, () => undefined);
    for (const ix of indexes) {
      const pod = await this.createPod(key, job, ix, c.errors);
      if (!pod) break;
      keep.push(pod);
    }
    return keep;
  }

  private async createPod(key: string, job: ApiObject, index: number | undefined, errors: unknown[]): Promise<ApiObject | undefined> {
    this.expectations.expectCreates(key, 1);
    try {
      const pod = await this.client.create(PODS, job.metadata.namespace!, podFromTemplate(job, index));
      void this.recorder.event(job, 'Normal', 'SuccessfulCreate', `Created pod: ${pod.metadata.name}`);
      return pod;
    } catch (err) {
      this.expectations.created(key);
      if (isNamespaceTerminating(err)) return undefined;
      void this.recorder.event(job, 'Warning', 'FailedCreate', `Error creating: ${(err as Error).message}`);
      errors.push(err);
      return undefined;
    }
  }

  private async deletePods(key: string, job: ApiObject, pods: readonly ApiObject[], errors: unknown[]): Promise<void> {
    for (const pod of pods) {
      this.expectations.expectDelete(key, pod.metadata.uid!);
      try {
        await this.client.delete(PODS, pod.metadata.namespace!, pod.metadata.name!, { preconditions: { uid: pod.metadata.uid! } });
        void this.recorder.event(job, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`);
      } catch (err) {
        this.expectations.deleted(key, pod.metadata.uid!);
        if (isReason(err, 'NotFound') || isReason(err, 'Conflict')) continue;
        void this.recorder.event(job, 'Warning', 'FailedDelete', `Error deleting: ${(err as Error).message}`);
        errors.push(err);
      }
    }
  }

  private async removeFinalizers(pods: readonly ApiObject[], errors?: unknown[]): Promise<void> {
    for (const pod of pods) {
      try {
        await this.finalizers.remove(pod, JOB_TRACKING_FINALIZER);
        this.finalizerRemoved.add(pod.metadata.uid!);
      } catch (err) {
        if (isReason(err, 'NotFound')) {
          this.finalizerRemoved.add(pod.metadata.uid!);
          continue;
        }
        if (errors) errors.push(err);
        else throw err;
      }
    }
  }

  /** Writes the status when it changed; the Job as written (or as it was). */
  private async writeStatus(key: string, job: ApiObject, status: JobStatus): Promise<ApiObject> {
    if (deepEqual(normalized((job.status ?? {}) as JobStatus), normalized(status))) return job;
    const uid = job.metadata.uid;
    const written = await this.client.update(JOB_STATUS, job.metadata.namespace!, job.metadata.name!, (cur) =>
      cur.metadata.uid !== uid ? cur : { ...cur, status: status as unknown as Record<string, unknown> });
    this.written.set(key, written);
    return written;
  }
}

/** kube's `job` controller, not yet started (the manager calls start()). */
export function startJobController(ctx: ControllerContext, opts?: JobControllerOptions): Controller {
  return new JobController(ctx, opts);
}
