// The pod garbage collector (kube's pkg/controller/podgc, v1.27), every
// `periodMs` (kube's gcCheckPeriod, 20 s):
//   - terminated pods (Succeeded, Failed) past --terminated-pod-gc-threshold
//     (12,500; 0 turns it off) are deleted, the oldest first;
//   - orphaned pods — bound to a node that no longer exists, confirmed by a
//     live read after a quarantine of `quarantineMs` (40 s) — are marked
//     Failed with the DisruptionTarget condition (DeletionByPodGC, "PodGC:
//     node no longer exists", kube's PodDisruptionConditions) and deleted at
//     once;
//   - terminating pods never scheduled are deleted at once.
// Acts as service account pod-garbage-collector (delete pods, patch
// pods/status, as kube's role allows).
import type { ApiObject } from '../../registry/object.js';
import { isObject, nowTimestamp } from '../../registry/object.js';
import type { Controller, ControllerContext } from '../context.js';
import type { ControllerClient, Target } from '../client.js';
import type { SharedInformer } from '../shared.js';
import { isReason } from '../informer.js';

export const POD_GC = 'pod-garbage-collector';
const PODS: Target = { group: '', version: 'v1', resource: 'pods' };
const POD_STATUS: Target = { ...PODS, subresource: 'status' };
const NODES: Target = { group: '', version: 'v1', resource: 'nodes' };

export interface PodGCOptions {
  /** --terminated-pod-gc-threshold (default 12,500; 0 keeps every terminated pod). */
  readonly terminatedThreshold?: number;
  readonly periodMs?: number;
  readonly quarantineMs?: number;
  readonly now?: () => number;
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (isObject(v) ? v : {});
const phaseOf = (p: ApiObject) => obj(p.status).phase;
const isTerminated = (p: ApiObject) => phaseOf(p) === 'Succeeded' || phaseOf(p) === 'Failed';

export class PodGC implements Controller {
  private readonly client: ControllerClient;
  private readonly pods: SharedInformer;
  private readonly nodes: SharedInformer;
  private readonly threshold: number;
  private readonly periodMs: number;
  private readonly quarantineMs: number;
  private readonly now: () => number;
  /** Nodes seen missing, by name, since when. */
  private readonly missingSince = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(ctx: ControllerContext, opts: PodGCOptions = {}) {
    this.client = ctx.client(POD_GC);
    this.pods = ctx.informers.informer('', 'pods');
    this.nodes = ctx.informers.informer('', 'nodes');
    this.threshold = opts.terminatedThreshold ?? 12_500;
    this.periodMs = opts.periodMs ?? 20_000;
    this.quarantineMs = opts.quarantineMs ?? 40_000;
    this.now = opts.now ?? Date.now;
  }

  async start(): Promise<void> {
    await Promise.all([this.pods.start(), this.nodes.start()]);
    this.timer = setInterval(() => void this.gc(), this.periodMs);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
  }

  /** One pass (also for tests); passes never overlap. */
  gc(): Promise<void> {
    this.running ??= this.pass().catch((err) => console.error('pod garbage collector: pass failed', err)).finally(() => (this.running = undefined));
    return this.running;
  }

  private async pass(): Promise<void> {
    const pods = this.pods.list();
    if (this.threshold > 0) await this.terminated(pods);
    await this.orphaned(pods);
    await this.unscheduledTerminating(pods);
  }

  private async terminated(pods: ApiObject[]): Promise<void> {
    const done = pods.filter((p) => isTerminated(p) && !p.metadata.deletionTimestamp);
    const excess = done.length - this.threshold;
    if (excess <= 0) return;
    done.sort((a, b) => (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? '') || (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
    for (const p of done.slice(0, excess)) {
      if (this.stopped) return;
      await this.forceDelete(p);
    }
  }

  private async orphaned(pods: ApiObject[]): Promise<void> {
    const now = this.now();
    const known = new Set(this.nodes.list().map((n) => n.metadata.name!));
    const bound = new Set<string>();
    for (const p of pods) {
      const node = obj(p.spec).nodeName;
      if (typeof node === 'string' && node && !known.has(node)) bound.add(node);
    }
    for (const name of [...this.missingSince.keys()]) if (!bound.has(name)) this.missingSince.delete(name);
    for (const name of bound) if (!this.missingSince.has(name)) this.missingSince.set(name, now);
    for (const [name, since] of this.missingSince) {
      if (this.stopped || now - since < this.quarantineMs) continue;
      // the informer may lag: ask the server before deleting anything
      try {
        await this.client.get(NODES, '', name);
        this.missingSince.delete(name);
        continue;
      } catch (err) {
        if (!isReason(err, 'NotFound')) throw err;
      }
      for (const p of pods) {
        if (obj(p.spec).nodeName !== name) continue;
        await this.markFailed(p, 'PodGC: node no longer exists');
        await this.forceDelete(p);
      }
      this.missingSince.delete(name);
    }
  }

  private async unscheduledTerminating(pods: ApiObject[]): Promise<void> {
    for (const p of pods) {
      if (this.stopped) return;
      if (p.metadata.deletionTimestamp && !obj(p.spec).nodeName) await this.forceDelete(p);
    }
  }

  /** Phase Failed with the DisruptionTarget condition, unless the pod already finished. */
  private async markFailed(pod: ApiObject, message: string): Promise<void> {
    if (isTerminated(pod)) return;
    try {
      await this.client.update(POD_STATUS, pod.metadata.namespace!, pod.metadata.name!, (cur) => {
        const status = obj(cur.status);
        if (status.phase === 'Succeeded' || status.phase === 'Failed') return cur;
        const conditions = (Array.isArray(status.conditions) ? status.conditions : []).filter((c) => obj(c).type !== 'DisruptionTarget');
        conditions.push({ type: 'DisruptionTarget', status: 'True', reason: 'DeletionByPodGC', message, lastTransitionTime: nowTimestamp(this.now()) });
        return { ...cur, status: { ...status, phase: 'Failed', conditions } };
      }, { verb: 'patch' });
    } catch (err) {
      if (!isReason(err, 'NotFound')) throw err;
    }
  }

  private async forceDelete(pod: ApiObject): Promise<void> {
    try {
      await this.client.delete(PODS, pod.metadata.namespace!, pod.metadata.name!, { gracePeriodSeconds: 0, preconditions: { uid: pod.metadata.uid! } });
    } catch (err) {
      if (!isReason(err, 'NotFound') && !isReason(err, 'Conflict')) throw err;
    }
  }
}

export const startPodGC = (ctx: ControllerContext, opts?: PodGCOptions): Controller => new PodGC(ctx, opts);
