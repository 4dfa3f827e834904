// The NoExecute taint manager (kube's pkg/controller/nodelifecycle/scheduler,
// v1.27): a pod bound to a node with NoExecute taints it does not tolerate is
// evicted now; one tolerating them for a while is evicted when its smallest
// tolerationSeconds has passed since the taint was seen; one tolerating them
// forever stays. An eviction marks the pod with the DisruptionTarget condition
// (DeletionByTaintManager, "Taint manager: deleting due to NoExecute taint")
// and deletes it, with the TaintManagerEviction events "Marking for deletion
// Pod <ns>/<name>" and, when a taint goes first, "Cancelling deletion of Pod
// <ns>/<name>" (component taint-controller).
import type { ApiObject } from '../../registry/object.js';
import { isObject, nowTimestamp } from '../../registry/object.js';
import type { ControllerContext } from '../context.js';
import type { ControllerClient, Target } from '../client.js';
import type { EventRecorder } from '../events.js';
import type { SharedInformer } from '../shared.js';
import { isReason } from '../informer.js';
import { minTolerationSeconds, taintsOf } from './taints.js';

const PODS: Target = { group: '', version: 'v1', resource: 'pods' };
const POD_STATUS: Target = { ...PODS, subresource: 'status' };

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (isObject(v) ? v : {});

export class TaintManager {
  private readonly client: ControllerClient;
  private readonly recorder: EventRecorder;
  /** Pods with a pending eviction, by namespace/name: when it fires and its timer. */
  private readonly pending = new Map<string, { at: number; timer: NodeJS.Timeout; uid: string }>();
  private stopped = false;

  constructor(ctx: ControllerContext, private readonly deps: { serviceAccount: string; nodes: SharedInformer; pods: SharedInformer; now: () => number }) {
    this.client = ctx.client(deps.serviceAccount);
    this.recorder = ctx.recorder(deps.serviceAccount, 'taint-controller');
  }

  async start(): Promise<void> {
    this.deps.nodes.addHandler({ onAdd: (n) => this.nodeChanged(n), onUpdate: (_o, n) => this.nodeChanged(n) });
    this.deps.pods.addHandler({ onAdd: (p) => this.podChanged(p), onUpdate: (_o, p) => this.podChanged(p), onDelete: (p) => this.cancel(keyOf(p), undefined) });
  }

  stop(): void {
    this.stopped = true;
    for (const p of this.pending.values()) clearTimeout(p.timer);
    this.pending.clear();
  }

  private nodeChanged(node: ApiObject): void {
    for (const pod of this.deps.pods.list()) if (obj(pod.spec).nodeName === node.metadata.name) this.consider(pod, node);
  }

  private podChanged(pod: ApiObject): void {
    const nodeName = obj(pod.spec).nodeName;
    if (typeof nodeName !== 'string' || !nodeName) return;
    const node = this.deps.nodes.get('', nodeName);
    if (node) this.consider(pod, node);
  }

  /** kube's processPodOnNode. */
  private consider(pod: ApiObject, node: ApiObject): void {
    if (this.stopped) return;
    const key = keyOf(pod);
    if (pod.metadata.deletionTimestamp) return this.cancel(key, undefined, false);
    const taints = taintsOf(node).filter((t) => t.effect === 'NoExecute');
    if (taints.length === 0) return this.cancel(key, pod);
    const tolerations = (Array.isArray(obj(pod.spec).tolerations) ? obj(pod.spec).tolerations as unknown[] : []).filter(isObject);
    const seconds = minTolerationSeconds(tolerations, taints);
    if (seconds === -1) return this.cancel(key, pod); // tolerated forever
    const now = this.deps.now();
    const at = seconds === undefined ? now : now + seconds * 1000;
    const prior = this.pending.get(key);
    if (prior && prior.uid === pod.metadata.uid && prior.at <= at) return; // an earlier (or the same) eviction is due
    if (prior) clearTimeout(prior.timer);
    const timer = setTimeout(() => void this.evict(pod), Math.max(0, at - now));
    timer.unref();
    this.pending.set(key, { at, timer, uid: pod.metadata.uid! });
  }

  private cancel(key: string, pod: ApiObject | undefined, announce = true): void {
    const prior = this.pending.get(key);
    if (!prior) return;
    clearTimeout(prior.timer);
    this.pending.delete(key);
    if (announce && pod) void this.recorder.event(pod, 'Normal', 'TaintManagerEviction', `Cancelling deletion of Pod ${key}`);
  }

  private async evict(pod: ApiObject): Promise<void> {
    const key = keyOf(pod);
    this.pending.delete(key);
    if (this.stopped) return;
    void this.recorder.event(pod, 'Normal', 'TaintManagerEviction', `Marking for deletion Pod ${key}`);
    const ns = pod.metadata.namespace!;
    const name = pod.metadata.name!;
    try {
      await this.client.update(POD_STATUS, ns, name, (cur) => {
        if (cur.metadata.uid !== pod.metadata.uid) return cur;
        const status = obj(cur.status);
        const conditions = ((status.conditions as Json[] | undefined) ?? []).filter((c) => c.type !== 'DisruptionTarget');
        conditions.push({ type: 'DisruptionTarget', status: 'True', reason: 'DeletionByTaintManager', message: 'Taint manager: deleting due to NoExecute taint', lastTransitionTime: nowTimestamp(this.deps.now()) });
        return { ...cur, status: { ...status, conditions } };
      }, { verb: 'patch' });
      await this.client.delete(PODS, ns, name, { preconditions: { uid: pod.metadata.uid! } });
    } catch (err) {
      if (isReason(err, 'NotFound') || isReason(err, 'Conflict')) return;
      console.error(`taint manager: evicting pod ${key} failed`, err);
    }
  }
}

const keyOf = (p: ApiObject): string => `${p.metadata.namespace}/${p.metadata.name}`;
