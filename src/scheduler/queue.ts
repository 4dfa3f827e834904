// The scheduling queue (kube's PriorityQueue):
//
//   add ──► activeQ ──pop──► scheduling cycle ──fails──► unschedulable
//             ▲  ▲                                 │  (a cluster event
//             │  └──── backoff expired ── backoffQ ◄┘   came during the
//             │                               ▲          cycle)
//             └── cluster event / 5 min ─── unschedulable
//
// activeQ pops the highest priority first, then the longest waiting
// (PrioritySort). A pod that failed waits out its backoff — 1 s doubled per
// attempt up to 10 s — before it is active again. Cluster events (a node
// added or changed, an assigned pod gone) move unschedulable pods back; a pod
// unschedulable for 5 minutes is retried anyway.
import type { ApiObject } from '../registry/object.js';
import { deepEqual } from '../registry/object.js';
import { podKey, priorityOf } from './pods.js';
import { KeyedHeap } from './heap.js';

export interface QueuedPod {
  pod: ApiObject;
  readonly key: string;
  /** When it entered its current queue (ms). */
  timestamp: number;
  /** Scheduling attempts so far. */
  attempts: number;
  /** The plugins that refused it in its last cycle (empty after an error). */
  unschedulablePlugins: ReadonlySet<string>;
  /** When it last became active, in the queue's order (ties of priority and timestamp pop first-in, first-out). */
  activeSeq?: number;
}

/** PrioritySort: higher priority first, then the earlier timestamp, then the earlier arrival. */
function activeLess(a: QueuedPod, b: QueuedPod): boolean {
  const pa = priorityOf(a.pod);
  const pb = priorityOf(b.pod);
  if (pa !== pb) return pa > pb;
  if (a.timestamp !== b.timestamp) return a.timestamp < b.timestamp;
  return (a.activeSeq ?? 0) < (b.activeSeq ?? 0);
}

export interface QueueOptions {
  readonly initialBackoffMs?: number;
  readonly maxBackoffMs?: number;
  readonly maxUnschedulableMs?: number;
  readonly now?: () => number;
}

/** Where a pod is (for tests and for the scheduler's bookkeeping). */
export type QueueName = 'active' | 'backoff' | 'unschedulable' | 'inFlight';

export class SchedulingQueue {
  private readonly active = new KeyedHeap<QueuedPod>(activeLess);
  private activeSeq = 0;
  private readonly backoff = new Map<string, QueuedPod>();
  private readonly unschedulable = new Map<string, QueuedPod>();
  /** Popped pods whose cycle has not finished, with their latest object. */
  private readonly inFlight = new Map<string, QueuedPod>();
  private waiters: ((qp: QueuedPod | undefined) => void)[] = [];
  private closed = false;
  private cycle = 0;
  private moveRequestCycle = -1;
  readonly initialBackoffMs: number;
  readonly maxBackoffMs: number;
  readonly maxUnschedulableMs: number;
  private readonly now: () => number;

  constructor(opts: QueueOptions = {}) {
    this.initialBackoffMs = opts.initialBackoffMs ?? 1000;
    this.maxBackoffMs = opts.maxBackoffMs ?? 10_000;
    this.maxUnschedulableMs = opts.maxUnschedulableMs ?? 5 * 60_000;
    this.now = opts.now ?? Date.now;
  }

  /** The current scheduling cycle (one per pop). */
  get schedulingCycle(): number {
    return this.cycle;
  }

  where(key: string): QueueName | undefined {
    if (this.active.has(key)) return 'active';
    if (this.backoff.has(key)) return 'backoff';
    if (this.unschedulable.has(key)) return 'unschedulable';
    if (this.inFlight.has(key)) return 'inFlight';
    return undefined;
  }

  /** A new pending pod. */
  add(pod: ApiObject): void {
    const key = podKey(pod);
    if (this.where(key)) return this.update(pod, pod);
    this.toActive({ pod, key, timestamp: this.now(), attempts: 0, unschedulablePlugins: new Set() });
  }

  /** A pending pod changed: kept where it is, or made active again when more than its status changed. */
  update(old: ApiObject, pod: ApiObject): void {
    const key = podKey(pod);
    const active = this.active.get(key);
    if (active) {
      active.pod = pod;
      this.active.set(key, active); // re-placed, should its priority have changed
      return;
    }
    for (const q of [this.backoff, this.inFlight]) {
      const qp = q.get(key);
      if (qp) {
        qp.pod = pod;
        return;
      }
    }
    const qp = this.unschedulable.get(key);
    if (!qp) return this.add(pod);
    qp.pod = pod;
    if (!isPodUpdated(old, pod)) return;
    this.unschedulable.delete(key);
    if (this.backingOff(qp)) this.backoff.set(key, qp);
    else this.toActive(qp);
  }

  delete(key: string): void {
    this.active.delete(key);
    this.backoff.delete(key);
    this.unschedulable.delete(key);
    this.inFlight.delete(key);
  }

  /** The next pod to schedule (waits for one); undefined once closed. */
  pop(): Promise<QueuedPod | undefined> {
    const qp = this.takeActive();
    if (qp || this.closed) return Promise.resolve(qp);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** The latest object of a popped pod (undefined when it was deleted meanwhile). */
  current(key: string): ApiObject | undefined {
    return this.inFlight.get(key)?.pod;
  }

  /**
   * The cycle that popped `qp` (at `cycle`) found no node: unschedulable, or
   * straight to backoff when a cluster event came while it was scheduled.
   */
  addUnschedulable(qp: QueuedPod, cycle: number, plugins: ReadonlySet<string> = new Set()): void {
    if (!this.inFlight.has(qp.key)) return; // deleted meanwhile
    const latest = this.inFlight.get(qp.key)!;
    this.inFlight.delete(qp.key);
    latest.timestamp = this.now();
    latest.unschedulablePlugins = plugins;
    if (this.moveRequestCycle >= cycle) this.backoff.set(qp.key, latest);
    else this.unschedulable.set(qp.key, latest);
  }

  /** The cycle finished with the pod placed (or dropped). */
  done(key: string): void {
    this.inFlight.delete(key);
  }

  /**
   * A cluster event that may make unschedulable pods schedulable: those
   * refused by one of `plugins` (all when undefined; a pod that met an error
   * always) move.
   */
  moveAllToActiveOrBackoff(plugins?: ReadonlySet<string>): void {
    for (const [key, qp] of this.unschedulable) {
      if (plugins && qp.unschedulablePlugins.size > 0 && ![...qp.unschedulablePlugins].some((p) => plugins.has(p))) continue;
      this.unschedulable.delete(key);
      if (this.backingOff(qp)) this.backoff.set(key, qp);
      else this.toActive(qp);
    }
    this.moveRequestCycle = this.cycle;
  }

  /** Backoffs that expired go active (kube runs this every second). */
  flushBackoffCompleted(): void {
    for (const [key, qp] of this.backoff) {
      if (this.backingOff(qp)) continue;
      this.backoff.delete(key);
      this.toActive(qp);
    }
  }

  /** Pods unschedulable for too long are tried again (kube runs this every 30 s). */
  flushUnschedulableLeftover(): void {
    const now = this.now();
    for (const [key, qp] of this.unschedulable) {
      if (now - qp.timestamp < this.maxUnschedulableMs) continue;
      this.unschedulable.delete(key);
      if (this.backingOff(qp)) this.backoff.set(key, qp);
      else this.toActive(qp);
    }
  }

  /** kube's calculateBackoffDuration: initial × 2^(attempts−1), at most the maximum. */
  backoffDuration(attempts: number): number {
    let d = this.initialBackoffMs;
    for (let i = 1; i < attempts; i++) {
      if (d > this.maxBackoffMs - d) return this.maxBackoffMs;
      d += d;
    }
    return d;
  }

  close(): void {
    this.closed = true;
    for (const w of this.waiters.splice(0)) w(undefined);
  }

  private backingOff(qp: QueuedPod): boolean {
    return qp.attempts > 0 && this.now() < qp.timestamp + this.backoffDuration(qp.attempts);
  }

  private toActive(qp: QueuedPod): void {
    qp.activeSeq = this.activeSeq++;
    this.active.set(qp.key, qp);
    const w = this.waiters.shift();
    if (w) w(this.takeActive());
  }

  /** Highest priority, then earliest timestamp (a heap, as kube's activeQ). */
  private takeActive(): QueuedPod | undefined {
    const best = this.active.pop();
    if (!best) return undefined;
    best.attempts++;
    this.cycle++;
    this.inFlight.set(best.key, best);
    return best;
  }
}

/** kube's isPodUpdated: more changed than the status, resourceVersion, generation, managedFields and finalizers. */
export function isPodUpdated(old: ApiObject, pod: ApiObject): boolean {
  const strip = (p: ApiObject) => {
    const { resourceVersion: _rv, generation: _g, managedFields: _mf, finalizers: _f, ...meta } = p.metadata;
    return { metadata: meta, spec: p.spec };
  };
  return !deepEqual(strip(old), strip(pod));
}
