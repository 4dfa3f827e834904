// The pods bound to simulated nodes, "run" as their kubelets would: each
// informer event puts the pod's key in a dirty set; one flush per turn of
// the event loop handles every dirty pod (status writes as the pod's node,
// at most `concurrency` in flight); pods waiting to exit or restart sit in
// one Deadlines heap. A status write is computed from the stored pod inside
// the update (a pod that moved on meanwhile is left alone), and the informer
// copy older than our last write is skipped until the watch catches up.
// A pod starts only once admitted (admit.ts: pods, cpu, memory… against
// allocatable); a refused one is Failed with the kubelet's OutOf<resource>.
// Terminating pods have their containers stopped and their phase made
// terminal (Failed, or Succeeded), then get the kubelet's final delete:
// gracePeriodSeconds 0 with the pod's uid as precondition.
import type { Target } from '../controllers/client.js';
import { isReason } from '../controllers/informer.js';
import type { ResourceHandler } from '../controllers/shared.js';
import type { ApiObject } from '../registry/object.js';
import { isObject } from '../registry/object.js';
import type { ObjectCache } from './api.js';
import { podRequests } from '../quota/evaluators/podresources.js';
import type { ResourceList } from '../quota/resources.js';
import { admitPod, rejectedStatus, type Rejection } from './admit.js';
import type { Clock } from './clock.js';
import { Deadlines } from './deadlines.js';
import { inPool } from './pool.js';
import { isHostNetwork, killedStatus, nextStep, podIPOf, statusFor, type Step } from './podstatus.js';
import type { SimNode } from './simnode.js';

export const PODS: Target = { group: '', version: 'v1', resource: 'pods' };
export const POD_STATUS: Target = { ...PODS, subresource: 'status' };

const RETRY_MS = 1000;

const keyOf = (pod: ApiObject) => `${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`;
const splitKey = (key: string): [string, string] => {
  const i = key.indexOf('/');
  return [key.slice(0, i), key.slice(i + 1)];
};
const nodeNameOf = (pod: ApiObject): string => (isObject(pod.spec) && typeof pod.spec.nodeName === 'string' ? pod.spec.nodeName : '');
const isTerminal = (pod: ApiObject) => isObject(pod.status) && (pod.status.phase === 'Succeeded' || pod.status.phase === 'Failed');

/** The pod moved on between the informer's copy and storage's: decide again from the newer one. */
class Moved extends Error {}

export class PodRunner implements ResourceHandler {
  private readonly dirty = new Set<string>();
  private flushing = false;
  private flushQueued = false;
  /** The resourceVersion our last write of a pod produced (informer copies before it are stale). */
  private readonly written = new Map<string, number>();
  /** Pod addresses handed out, by pod key. */
  private readonly ips = new Map<string, { node: SimNode; ip: string }>();
  private readonly deadlines: Deadlines;
  private stopped_ = false;

  constructor(
    private readonly nodes: ReadonlyMap<string, SimNode>, private readonly informer: ObjectCache,
    private readonly clock: Clock, private readonly concurrency: number, private readonly allocatable: ResourceList,
  ) {
    this.deadlines = new Deadlines(clock, (keys) => { for (const k of keys) this.mark(k); });
  }

  stop(): void {
    this.stopped_ = true;
    this.deadlines.stop();
    this.dirty.clear();
  }

  get stopped(): boolean {
    return this.stopped_;
  }

  /** Pods waiting for a deadline (tests, metrics). */
  get waiting(): number {
    return this.deadlines.size;
  }

  onAdd(pod: ApiObject): void {
    this.consider(pod);
  }

  onUpdate(_old: ApiObject, pod: ApiObject): void {
    this.consider(pod);
  }

  onDelete(pod: ApiObject): void {
    const key = keyOf(pod);
    this.deadlines.delete(key);
    this.written.delete(key);
    this.release(key);
    this.nodes.get(nodeNameOf(pod))?.forget(key);
  }

  /** Looks at every pod of the node again (a resumed node). */
  revisit(nodeName: string): void {
    for (const pod of this.informer.list()) if (nodeNameOf(pod) === nodeName) this.consider(pod);
  }

  private consider(pod: ApiObject): void {
    if (this.stopped_) return;
    const node = this.nodes.get(nodeNameOf(pod));
    if (!node || node.paused) return;
    const key = keyOf(pod);
    const written = this.written.get(key);
    if (written !== undefined) {
      if (Number(pod.metadata.resourceVersion) < written) return;
      this.written.delete(key);
    }
    // a pod found running (a restart re-adopting its pods) keeps its address
    const ip = podIPOf(pod);
    if (ip && !isHostNetwork(pod) && !this.ips.has(key) && !isTerminal(pod)) {
      node.addresses.reserve(ip);
      this.ips.set(key, { node, ip });
    }
    // a pod found started was admitted before
    if (!isTerminal(pod) && isObject(pod.status) && pod.status.phase === 'Running') node.admit(key, podRequests(pod));
    if (isTerminal(pod)) {
      this.release(key);
      node.forget(key);
    }
    this.plan(key, nextStep(pod, this.clock.now()));
  }

  private plan(key: string, step: Step): void {
    if (step.kind === 'none') return this.deadlines.delete(key);
    if (step.kind === 'delete' || step.at <= this.clock.now()) {
      this.deadlines.delete(key);
      return this.mark(key);
    }
    this.deadlines.set(key, step.at);
  }

  private mark(key: string): void {
    if (this.stopped_) return;
    this.dirty.add(key);
    if (this.flushQueued) return;
    this.flushQueued = true;
    setImmediate(() => void this.flush());
  }

  private async flush(): Promise<void> {
    this.flushQueued = false;
    if (this.flushing || this.stopped_) return;
    this.flushing = true;
    try {
      while (this.dirty.size > 0 && !this.stopped_) {
        const keys = [...this.dirty];
        this.dirty.clear();
        await inPool(keys, this.concurrency, (k) => this.sync(k));
      }
    } finally {
      this.flushing = false;
    }
  }

  private async sync(key: string): Promise<void> {
    const [namespace, name] = splitKey(key);
    const pod = this.informer.get(namespace, name);
    if (!pod) return;
    const node = this.nodes.get(nodeNameOf(pod));
    if (!node || node.paused) return;
    const now = this.clock.now();
    const step = nextStep(pod, now);
    if (step.kind === 'none') return;
    if (step.kind !== 'delete' && step.at > now) return this.plan(key, step);
    try {
      if (step.kind === 'delete') {
        await node.client.delete(PODS, namespace, name, { gracePeriodSeconds: 0, preconditions: { uid: pod.metadata.uid ?? '' } });
        return;
      }
      // the status this step writes, computed from the stored pod (which must still be at this step)
      let make: (cur: ApiObject) => Record<string, unknown> | undefined;
      if (step.kind === 'kill') make = (cur) => killedStatus(cur, now);
      else {
        const rejection = step.kind === 'start' && !node.isAdmitted(key) ? this.admit(node, key, pod) : undefined;
        if (rejection) make = (cur) => rejectedStatus(cur, rejection, now);
        else {
          const placement = this.placement(key, node, pod);
          if (!placement) {
            node.report(`pod ${key}`, new Error(`no free address in the node's pod range`));
            return this.deadlines.set(key, now + RETRY_MS);
          }
          make = (cur) => statusFor(step, cur, placement, now);
        }
      }
      const updated = await node.client.update(POD_STATUS, namespace, name, (cur) => {
        if (cur.metadata.uid !== pod.metadata.uid || nextStep(cur, now).kind !== step.kind) throw new Moved();
        return { ...cur, status: make(cur) };
      });
      this.written.set(key, Number(updated.metadata.resourceVersion));
      if (isTerminal(updated)) {
        this.release(key);
        node.forget(key);
      }
      this.plan(key, nextStep(updated, this.clock.now()));
    } catch (err) {
      // the informer brings the newer pod, and it is considered then
      if (err instanceof Moved) return;
      // gone, or replaced by a pod of the same name: nothing left to do for this one
      if (isReason(err, 'NotFound') || (step.kind === 'delete' && isReason(err, 'Conflict'))) return;
      node.report(step.kind === 'delete' ? `deleting pod ${key}` : `updating the status of pod ${key}`, err);
      if (!this.stopped_) this.deadlines.set(key, this.clock.now() + RETRY_MS);
    }
  }

  /** The kubelet's admission: the rejection, or undefined once the pod's requests are counted on the node. */
  private admit(node: SimNode, key: string, pod: ApiObject): Rejection | undefined {
    const requests = podRequests(pod);
    const rejection = admitPod(requests, node.used.requests, node.used.pods, this.allocatable);
    if (!rejection) node.admit(key, requests);
    return rejection;
  }

  /** hostIP and podIP for a pod about to run (its address kept, or a new one from the node's range). */
  private placement(key: string, node: SimNode, pod: ApiObject): { hostIP: string; podIP: string } | undefined {
    if (isHostNetwork(pod)) return { hostIP: node.internalIP, podIP: node.internalIP };
    const have = this.ips.get(key) ?? (podIPOf(pod) ? { node, ip: podIPOf(pod) } : undefined);
    if (have) return { hostIP: node.internalIP, podIP: have.ip };
    const ip = node.addresses.allocate();
    if (!ip) return undefined;
    this.ips.set(key, { node, ip });
    return { hostIP: node.internalIP, podIP: ip };
  }

  private release(key: string): void {
    const held = this.ips.get(key);
    if (!held) return;
    this.ips.delete(key);
    held.node.addresses.release(held.ip);
  }
}
