// The disruption controller (kube's pkg/controller/disruption, v1.27): the
// status of every PodDisruptionBudget — the pods its selector picks in its
// namespace, how many are healthy (Ready, not terminating, not just evicted),
// how many must be (minAvailable, or the expected count less maxUnavailable;
// percentages of the expected count, which is the sum of the scales of the
// pods' controllers), how many disruptions that allows, the DisruptionAllowed
// condition — which the eviction subresource (src/registry/eviction.ts)
// spends. Evicted pods recorded in status.disruptedPods are forgotten once
// they are gone or after two minutes (kube's DeletionTimeout). Acts as
// service account disruption-controller; Events NoPods, NoControllers,
// CalculateExpectedPodCountFailed as kube.
import type { ApiObject } from '../../registry/object.js';
import { isObject, nowTimestamp } from '../../registry/object.js';
import { selectorIsEmpty, selectorMatches } from '../../api/meta/checks.js';
import { withDisruptionAllowed } from '../../registry/eviction.js';
import { isPodReady } from '../../api/core/v1/podutil.js';
import type { Controller, ControllerContext } from '../context.js';
import type { ControllerClient, Target } from '../client.js';
import type { EventRecorder } from '../events.js';
import type { SharedInformer } from '../shared.js';
import { WorkQueue } from '../workqueue.js';
import { isReason } from '../informer.js';

export const DISRUPTION_CONTROLLER = 'disruption-controller';
const PDB_STATUS: Target = { group: 'policy', version: 'v1', resource: 'poddisruptionbudgets', subresource: 'status' };
/** How long an eviction's entry in disruptedPods is trusted (kube's DeletionTimeout). */
export const DELETION_TIMEOUT_MS = 2 * 60 * 1000;

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (isObject(v) ? v : {});

/** The scale of the pods' controllers, by kind (kube's finders: RC, Deployment through its ReplicaSet, ReplicaSet, StatefulSet). */
const SCALE_SOURCES: Record<string, { group: string; resource: string }> = {
  ReplicationController: { group: '', resource: 'replicationcontrollers' },
  ReplicaSet: { group: 'apps', resource: 'replicasets' },
  StatefulSet: { group: 'apps', resource: 'statefulsets' },
  Deployment: { group: 'apps', resource: 'deployments' },
};

export interface DisruptionOptions {
  readonly now?: () => number;
  readonly retryMs?: number;
}

export class DisruptionController implements Controller {
  private readonly client: ControllerClient;
  private readonly recorder: EventRecorder;
  private readonly pdbs: SharedInformer;
  private readonly pods: SharedInformer;
  private readonly queue: WorkQueue<string>;
  private readonly now: () => number;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly ctx: ControllerContext, opts: DisruptionOptions = {}) {
    this.client = ctx.client(DISRUPTION_CONTROLLER);
    this.recorder = ctx.recorder(DISRUPTION_CONTROLLER, 'controllermanager');
    this.now = opts.now ?? Date.now;
    this.pdbs = ctx.informers.informer('policy', 'poddisruptionbudgets');
    this.pods = ctx.informers.informer('', 'pods');
    this.queue = new WorkQueue((key) => this.sync(key), {
      retryMs: opts.retryMs ?? 1000,
      onError: (key, err) => console.error(`disruption controller: ${key} failed; will retry`, err),
    });
  }

  async start(): Promise<void> {
    this.pdbs.addHandler({ onAdd: (p) => this.enqueue(p), onUpdate: (_o, p) => this.enqueue(p) });
    const podChanged = (pod: ApiObject) => {
      for (const p of this.pdbs.list(pod.metadata.namespace ?? '')) if (selects(p, pod)) this.enqueue(p);
    };
    this.pods.addHandler({ onAdd: podChanged, onUpdate: (old, pod) => { podChanged(old); podChanged(pod); }, onDelete: podChanged });
    await Promise.all([this.pdbs.start(), this.pods.start()]);
    // disruptedPods entries expire: look again at budgets holding some
    this.timer = setInterval(() => {
      for (const p of this.pdbs.list()) if (Object.keys(obj(obj(p.status).disruptedPods)).length > 0) this.enqueue(p);
    }, 15_000);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.queue.stop();
  }

  private enqueue(p: ApiObject): void {
    const key = `${p.metadata.namespace}/${p.metadata.name}`;
    this.queue.add(key, key);
  }

  private async sync(key: string): Promise<boolean> {
    const [namespace, name] = key.split('/') as [string, string];
    const pdb = this.pdbs.get(namespace, name);
    if (!pdb || pdb.metadata.deletionTimestamp) return true;
    const pods = this.pods.list(namespace).filter((pod) => selects(pdb, pod));
    if (pods.length === 0) void this.recorder.event(pdb, 'Normal', 'NoPods', 'No matching pods found');
    let want: { expected: number; desired: number };
    try {
      want = await this.expectations(pdb, pods);
    } catch (err) {
      const e = err as Error & { reason?: string };
      void this.recorder.event(pdb, 'Warning', e.reason ?? 'CalculateExpectedPodCountFailed', e.reason ? e.message : `Failed to calculate the number of expected pods: ${e.message}`);
      return this.write(pdb, { currentHealthy: 0, desiredHealthy: 0, expectedPods: 0, disruptionsAllowed: 0, disruptedPods: obj(obj(pdb.status).disruptedPods) });
    }
    const now = this.now();
    const disrupted = this.stillDisrupted(pdb, pods, now);
    const healthy = pods.filter((p) => !p.metadata.deletionTimestamp && isPodReady(p) && !(p.metadata.name! in disrupted)).length;
    return this.write(pdb, {
      currentHealthy: healthy, desiredHealthy: want.desired, expectedPods: want.expected,
      disruptionsAllowed: Math.max(0, healthy - want.desired), disruptedPods: disrupted,
    });
  }

  /** Entries of evictions whose pod is still there and not yet terminating, for at most DELETION_TIMEOUT_MS. */
  private stillDisrupted(pdb: ApiObject, pods: ApiObject[], now: number): Record<string, string> {
    const byName = new Map(pods.map((p) => [p.metadata.name!, p]));
    const out: Record<string, string> = {};
    for (const [name, at] of Object.entries(obj(obj(pdb.status).disruptedPods))) {
      const pod = byName.get(name);
      if (!pod || pod.metadata.deletionTimestamp || typeof at !== 'string') continue;
      if (Date.parse(at) + DELETION_TIMEOUT_MS < now) continue;
      out[name] = at;
    }
    return out;
  }

  /** expectedPods and desiredHealthy (kube's getExpectedPodCount). */
  private async expectations(pdb: ApiObject, pods: ApiObject[]): Promise<{ expected: number; desired: number }> {
    const spec = obj(pdb.spec);
    if (spec.maxUnavailable !== undefined && spec.maxUnavailable !== null) {
      const expected = await this.expectedScale(pdb, pods);
      const maxUnavailable = scaled(spec.maxUnavailable, expected, true);
      return { expected, desired: Math.max(0, expected - maxUnavailable) };
    }
    if (typeof spec.minAvailable === 'number') return { expected: pods.length, desired: spec.minAvailable };
    if (typeof spec.minAvailable === 'string') {
      const expected = await this.expectedScale(pdb, pods);
      return { expected, desired: scaled(spec.minAvailable, expected, true) };
    }
    return { expected: pods.length, desired: 0 };
  }

  /** The sum of the scales of the pods' controllers, each counted once (kube's getExpectedScale). */
  private async expectedScale(pdb: ApiObject, pods: ApiObject[]): Promise<number> {
    const seen = new Map<string, number>();
    for (const pod of pods) {
      const ref = (pod.metadata.ownerReferences ?? []).find((r) => r.controller);
      if (!ref) {
        const err = new Error(`found no controllers for pod "${pod.metadata.name}"`) as Error & { reason: string };
        err.reason = 'NoControllers';
        throw err;
      }
      if (seen.has(ref.uid)) continue;
      seen.set(ref.uid, await this.scaleOf(pod.metadata.namespace ?? '', ref.kind, ref.name, ref.uid));
    }
    let sum = 0;
    for (const n of seen.values()) sum += n;
    return sum;
  }

  private async scaleOf(namespace: string, kind: string, name: string, uid: string): Promise<number> {
    const source = SCALE_SOURCES[kind];
    if (!source) throw new Error(`pods of ${kind} ${name} have no scale this controller knows`);
    const owner = await this.client.get({ ...source, version: 'v1' }, namespace, name);
    if (owner.metadata.uid !== uid) throw new Error(`${kind} ${name} is not the controller of its pods any more`);
    // a ReplicaSet owned by a Deployment counts at the Deployment's scale
    const parent = kind === 'ReplicaSet' ? (owner.metadata.ownerReferences ?? []).find((r) => r.controller && r.kind === 'Deployment') : undefined;
    if (parent) return this.scaleOf(namespace, 'Deployment', parent.name, parent.uid);
    const replicas = obj(owner.spec).replicas;
    return typeof replicas === 'number' ? replicas : 1;
  }

  private async write(pdb: ApiObject, s: { currentHealthy: number; desiredHealthy: number; expectedPods: number; disruptionsAllowed: number; disruptedPods: Json }): Promise<boolean> {
    const cur = obj(pdb.status);
    const status: Json = { ...cur, ...s, observedGeneration: pdb.metadata.generation ?? 0 };
    if (Object.keys(s.disruptedPods).length === 0) delete status.disruptedPods;
    status.conditions = withDisruptionAllowed(status);
    if (sameStatus(cur, status)) return true;
    try {
      await this.client.update(PDB_STATUS, pdb.metadata.namespace!, pdb.metadata.name!, (live) => {
        if (live.metadata.resourceVersion !== pdb.metadata.resourceVersion) throw Object.assign(new Error('stale'), { stale: true });
        return { ...live, status };
      });
    } catch (err) {
      if ((err as { stale?: boolean }).stale) return false; // newer budget or eviction: computed again
      if (isReason(err, 'NotFound')) return true;
      if (isReason(err, 'Conflict')) return false;
      throw err;
    }
    return true;
  }
}

/** A budget's selector picks the pod (an empty selector picks nothing, as kube's eviction and controller read it). */
function selects(pdb: ApiObject, pod: ApiObject): boolean {
  const sel = obj(pdb.spec).selector;
  return pod.metadata.namespace === pdb.metadata.namespace && isObject(sel) && !selectorIsEmpty(sel) && selectorMatches(sel, pod.metadata.labels ?? {});
}

/** An int-or-percent against a total, rounded up (kube's GetScaledValueFromIntOrPercent with roundUp). */
export function scaled(v: unknown, total: number, roundUp: boolean): number {
  if (typeof v === 'number') return v;
  const m = typeof v === 'string' ? /^(\d+)%$/.exec(v) : null;
  if (!m) throw new Error(`invalid value for IntOrString: invalid value ${JSON.stringify(v)}`);
  const x = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(x) : Math.floor(x);
}

function sameStatus(a: Json, b: Json): boolean {
  const strip = (s: Json) => JSON.stringify({ ...s, conditions: (Array.isArray(s.conditions) ? s.conditions : []).map((c) => ({ ...obj(c), lastTransitionTime: undefined })) });
  return strip(a) === strip(b);
}

export const startDisruptionController = (ctx: ControllerContext, opts?: DisruptionOptions): Controller => new DisruptionController(ctx, opts);

/** For tests: a timestamp as the eviction subresource writes it. */
export const disruptedAt = (ms: number): string => nowTimestamp(ms);
