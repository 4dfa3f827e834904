// The pod workers (kube's podWorkers): one serial lane per pod UID, so a
// pod's syncs never overlap, and the three stages of a pod's life —
//
//   syncing ──(terminal phase, deleted, or removed from its source)──▶
//   terminating (containers stopped with the grace period) ──▶
//   terminated (volumes, cgroups and the pod's folders cleaned) ──▶ forgotten
//
// A terminated pod's lane stays (updates to it are ignored: a Succeeded pod
// is never started again) until the pod leaves its sources (`forget`).
// Updates that arrive while a sync runs are coalesced: the lane runs once
// more with the newest pod. A lane with nothing to do resyncs after the
// interval the syncer asks for (back-off, probes) or `resyncMs`.
import type { ApiObject } from '../../registry/object.js';

export type WorkType = 'sync' | 'kill';

export interface PodWork {
  readonly pod: ApiObject;
  readonly type: WorkType;
  /** A shorter grace period than the pod's (kube's gracePeriodOverride). */
  readonly gracePeriodSeconds?: number;
}

export interface SyncOutcome {
  /** The pod reached a terminal phase: stop it for good. */
  readonly terminal?: boolean;
  /** Run again after this long (a back-off ending, a container to start). */
  readonly requeueMs?: number;
}

/** What the workers drive: the agent's pod lifecycle. */
export interface PodSyncer {
  syncPod(pod: ApiObject): Promise<SyncOutcome>;
  /** Stop every container of the pod (preStop hooks, the grace period). */
  syncTerminatingPod(pod: ApiObject, gracePeriodSeconds: number | undefined): Promise<void>;
  /** Clean up after the containers stopped (volumes, cgroup, folders); report the final status. */
  syncTerminatedPod(pod: ApiObject): Promise<void>;
}

export type Stage = 'syncing' | 'terminating' | 'terminated';

interface Lane {
  stage: Stage;
  pod: ApiObject;
  pending: PodWork | undefined;
  running: boolean;
  timer: NodeJS.Timeout | undefined;
  /** The grace period the kill asked for. */
  grace: number | undefined;
  /** The pod left its sources: the lane goes once terminated. */
  forgotten: boolean;
}

export interface WorkerOptions {
  readonly resyncMs: number;
  /** Errors of a sync (logged by the agent; the lane retries after `errorBackoffMs`). */
  readonly onError?: (pod: ApiObject, err: unknown) => void;
  readonly errorBackoffMs?: number;
}

export class PodWorkers {
  private readonly lanes = new Map<string, Lane>();
  private stopped = false;
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly syncer: PodSyncer, private readonly opts: WorkerOptions) {}

  /** A pod added or changed, or a kill; the lane runs as soon as it is free. */
  update(work: PodWork): void {
    if (this.stopped) return;
    const uid = work.pod.metadata.uid ?? '';
    let lane = this.lanes.get(uid);
    if (!lane) {
      if (work.type === 'kill' && !work.pod.metadata.uid) return;
      lane = { stage: 'syncing', pod: work.pod, pending: undefined, running: false, timer: undefined, grace: undefined, forgotten: false };
      this.lanes.set(uid, lane);
    }
    if (lane.stage === 'terminated') return;
    const prev = lane.pending;
    // a kill is never replaced by a sync; the shorter grace period wins
    if (prev?.type === 'kill' && work.type === 'sync') lane.pending = { ...prev, pod: work.pod };
    else if (prev?.type === 'kill' && work.type === 'kill') lane.pending = { ...work, gracePeriodSeconds: minGrace(prev.gracePeriodSeconds, work.gracePeriodSeconds) };
    else lane.pending = work;
    this.kick(uid, lane);
  }

  /**
   * A change of the pod's status only (kube's reconcile): the lane keeps the
   * newest object, for the next sync's status, without a sync of its own.
   */
  reconcile(pod: ApiObject): void {
    const lane = this.lanes.get(pod.metadata.uid ?? '');
    if (!lane || lane.stage === 'terminated') return;
    lane.pod = pod;
    if (lane.pending) lane.pending = { ...lane.pending, pod };
  }

  /** Runs a pod's lane again (PLEG saw its containers change, a probe result, a timer). */
  resync(uid: string): void {
    const lane = this.lanes.get(uid);
    if (!lane || lane.stage === 'terminated') return;
    if (!lane.pending) lane.pending = { pod: lane.pod, type: 'sync' };
    this.kick(uid, lane);
  }

  /** The pod left its sources: its lane goes once it is terminated; otherwise it is killed first. */
  forget(pod: ApiObject): void {
    const uid = pod.metadata.uid ?? '';
    const lane = this.lanes.get(uid);
    if (!lane) return;
    lane.forgotten = true;
    if (lane.stage === 'terminated' && !lane.running) {
      clearTimeout(lane.timer);
      this.lanes.delete(uid);
      return;
    }
    this.update({ pod, type: 'kill' });
  }

  stageOf(uid: string): Stage | undefined {
    return this.lanes.get(uid)?.stage;
  }

  /** The UIDs with a lane (known pods, not yet forgotten). */
  uids(): string[] {
    return [...this.lanes.keys()];
  }

  /** Resolves when no lane is running or has work pending (tests). */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  stop(): void {
    this.stopped = true;
    for (const lane of this.lanes.values()) clearTimeout(lane.timer);
  }

  private isIdle(): boolean {
    for (const lane of this.lanes.values()) if (lane.running || lane.pending) return false;
    return true;
  }

  private kick(uid: string, lane: Lane): void {
    if (lane.running || this.stopped) return;
    clearTimeout(lane.timer);
    lane.timer = undefined;
    lane.running = true;
    void this.runLane(uid, lane);
  }

  private async runLane(uid: string, lane: Lane): Promise<void> {
    while (lane.pending && !this.stopped) {
      const work = lane.pending;
      lane.pending = undefined;
      lane.pod = work.pod;
      let requeueMs: number | undefined;
      try {
        requeueMs = await this.step(lane, work);
      } catch (err) {
        this.opts.onError?.(lane.pod, err);
        requeueMs = this.opts.errorBackoffMs ?? 1000;
      }
      if (lane.stage === 'terminated') {
        lane.pending = undefined;
        if (lane.forgotten) this.lanes.delete(uid);
        break;
      }
      if (!lane.pending && requeueMs !== undefined && !this.stopped) {
        lane.timer = setTimeout(() => this.resync(uid), requeueMs);
        lane.timer.unref();
      }
    }
    lane.running = false;
    if (this.isIdle()) for (const w of this.idleWaiters.splice(0)) w();
  }

  /** One step of the lane's state machine; the delay before the next resync. */
  private async step(lane: Lane, work: PodWork): Promise<number | undefined> {
    if (work.type === 'kill' && lane.stage === 'syncing') {
      lane.stage = 'terminating';
      lane.grace = work.gracePeriodSeconds;
    } else if (work.type === 'kill' && lane.stage === 'terminating') {
      lane.grace = minGrace(lane.grace, work.gracePeriodSeconds);
    }
    if (lane.stage === 'syncing') {
      const out = await this.syncer.syncPod(lane.pod);
      if (!out.terminal) return out.requeueMs ?? this.opts.resyncMs;
      lane.stage = 'terminating';
    }
    if (lane.stage === 'terminating') {
      await this.syncer.syncTerminatingPod(lane.pod, lane.grace);
      lane.stage = 'terminated';
      await this.syncer.syncTerminatedPod(lane.pod);
      return undefined;
    }
    return undefined;
  }
}

const minGrace = (a: number | undefined, b: number | undefined): number | undefined =>
  a === undefined ? b : b === undefined ? a : Math.min(a, b);
