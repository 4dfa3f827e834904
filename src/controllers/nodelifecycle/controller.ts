// The node lifecycle controller (kube's pkg/controller/nodelifecycle, v1.27),
// every `monitorPeriodMs` (--node-monitor-period, 5 s):
//   - health: a node is heard from when its Lease in svc-node-lease is
//     renewed or its Ready condition's heartbeat moves; not heard from for
//     `gracePeriodMs` (--node-monitor-grace-period, 40 s) — or never, for
//     `startupGraceMs` after it registered — its Ready, MemoryPressure,
//     DiskPressure and PIDPressure conditions become Unknown
//     (NodeStatusUnknown "Kubelet stopped posting node status.", or
//     NodeStatusNeverUpdated "Kubelet never posted node status."), its pods'
//     Ready conditions False, with the NodeNotReady / NodeReady events;
//   - NoSchedule taints follow the conditions (not-ready, unreachable,
//     memory/disk/pid pressure, network-unavailable, unschedulable) — the
//     TaintNodesByCondition plugin's initial not-ready taint goes once the
//     node is Ready;
//   - NoExecute taints not-ready / unreachable follow Ready False / Unknown,
//     rate-limited per zone (topology.kubernetes.io region and zone): 0.1
//     nodes/s (--node-eviction-rate); a zone with ≥ 55 % of its nodes not
//     ready (and more than 2) is partially disrupted: 0.01/s
//     (--secondary-node-eviction-rate) when it has more than 50 nodes
//     (--large-cluster-size-threshold), else none; when every zone is fully
//     disrupted nothing is tainted and the NoExecute taints go (kube's
//     "master disruption mode");
//   - the taint manager (taintmanager.ts) evicts the pods that do not
//     tolerate a NoExecute taint.
// Acts as service account node-controller; taints are the node.svc.io
// spelling (taints.ts).
import type { ApiObject } from '../../registry/object.js';
import { isObject, nowTimestamp } from '../../registry/object.js';
import type { Controller, ControllerContext } from '../context.js';
import type { ControllerClient, Target } from '../client.js';
import type { EventRecorder } from '../events.js';
import type { SharedInformer } from '../shared.js';
import { isReason } from '../informer.js';
import { conditionsOf, MANAGED_NO_SCHEDULE, NODE_TAINT, readyStatus, taintsOf, wantedNoScheduleTaints, canonicalTaintKey, type Taint } from './taints.js';
import { TaintManager } from './taintmanager.js';
import { NODE_LEASE_NAMESPACE } from '../../authz/node/authorizer.js';

export const NODE_CONTROLLER = 'node-controller';
const NODES: Target = { group: '', version: 'v1', resource: 'nodes' };
const NODE_STATUS: Target = { ...NODES, subresource: 'status' };
const POD_STATUS: Target = { group: '', version: 'v1', resource: 'pods', subresource: 'status' };
const UNKNOWN_CONDITIONS = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'];

export interface NodeLifecycleOptions {
  readonly monitorPeriodMs?: number;
  readonly gracePeriodMs?: number;
  readonly startupGraceMs?: number;
  /** Nodes tainted NoExecute per second per healthy zone. */
  readonly evictionRate?: number;
  readonly secondaryEvictionRate?: number;
  readonly unhealthyZoneThreshold?: number;
  readonly largeClusterSize?: number;
  readonly now?: () => number;
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (isObject(v) ? v : {});

/** A zone's token bucket of NoExecute taintings (burst 1, as kube's RateLimitedTimedQueue). */
class ZoneLimiter {
  private tokens = 1;
  private at: number;
  constructor(public rate: number, now: number) {
    this.at = now;
  }
  take(now: number): boolean {
    this.tokens = Math.min(1, this.tokens + ((now - this.at) / 1000) * this.rate);
    this.at = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

export class NodeLifecycleController implements Controller {
  private readonly client: ControllerClient;
  private readonly recorder: EventRecorder;
  private readonly nodes: SharedInformer;
  private readonly leases: SharedInformer;
  private readonly pods: SharedInformer;
  private readonly taintManager: TaintManager;
  private readonly o: Required<Omit<NodeLifecycleOptions, 'now'>>;
  private readonly now: () => number;
  /** When each node was last heard from (local clock), with what was heard. */
  private readonly heard = new Map<string, { at: number; heartbeat: string }>();
  /** Each node's Ready status as last observed, for the transition events. */
  private readonly observedReady = new Map<string, string | undefined>();
  private readonly zones = new Map<string, ZoneLimiter>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(ctx: ControllerContext, opts: NodeLifecycleOptions = {}) {
    this.client = ctx.client(NODE_CONTROLLER);
    this.recorder = ctx.recorder(NODE_CONTROLLER, 'node-controller');
    this.nodes = ctx.informers.informer('', 'nodes');
    this.leases = ctx.informers.informer('coordination.svc.io', 'leases');
    this.pods = ctx.informers.informer('', 'pods');
    this.now = opts.now ?? Date.now;
    this.o = {
      monitorPeriodMs: opts.monitorPeriodMs ?? 5000, gracePeriodMs: opts.gracePeriodMs ?? 40_000, startupGraceMs: opts.startupGraceMs ?? 60_000,
      evictionRate: opts.evictionRate ?? 0.1, secondaryEvictionRate: opts.secondaryEvictionRate ?? 0.01,
      unhealthyZoneThreshold: opts.unhealthyZoneThreshold ?? 0.55, largeClusterSize: opts.largeClusterSize ?? 50,
    };
    this.taintManager = new TaintManager(ctx, { serviceAccount: NODE_CONTROLLER, nodes: this.nodes, pods: this.pods, now: this.now });
  }

  async start(): Promise<void> {
    await Promise.all([this.nodes.start(), this.leases.start(), this.pods.start()]);
    this.nodes.addHandler({ onAdd: (n) => void this.noSchedule(n), onUpdate: (_o, n) => void this.noSchedule(n), onDelete: (n) => this.forget(n) });
    await this.taintManager.start();
    this.timer = setInterval(() => void this.monitor(), this.o.monitorPeriodMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.taintManager.stop();
  }

  /** One monitoring pass (also for tests); passes never overlap. */
  monitor(): Promise<void> {
    this.running ??= this.pass().catch((err) => console.error('node lifecycle controller: pass failed', err)).finally(() => (this.running = undefined));
    return this.running;
  }

  private forget(node: ApiObject): void {
    this.heard.delete(node.metadata.name!);
    this.observedReady.delete(node.metadata.name!);
  }

  private async pass(): Promise<void> {
    const now = this.now();
    const seen: ApiObject[] = [];
    for (const node of this.nodes.list()) {
      const current = await this.health(node, now);
      seen.push(current);
      const name = node.metadata.name!;
      const was = this.observedReady.get(name);
      const ready = readyStatus(current);
      if (this.observedReady.has(name) && was !== ready) {
        if (ready === 'True') void this.recorder.event(current, 'Normal', 'NodeReady', `Node ${name} status is now: NodeReady`);
        else if (was === 'True') {
          void this.recorder.event(current, 'Normal', 'NodeNotReady', `Node ${name} status is now: NodeNotReady`);
          await this.markPodsNotReady(name);
        }
      }
      this.observedReady.set(name, ready);
    }
    await this.noExecute(seen, now);
  }

  /** The node as the controller sees it after its health check (conditions made Unknown when not heard from). */
  private async health(node: ApiObject, now: number): Promise<ApiObject> {
    const name = node.metadata.name!;
    const lease = this.leases.get(NODE_LEASE_NAMESPACE, name);
    const ready = conditionsOf(node).find((c) => c.type === 'Ready');
    const heartbeat = `${String(obj(lease?.spec).renewTime ?? '')}|${String(ready?.lastHeartbeatTime ?? '')}|${String(ready?.status ?? '')}`;
    const prior = this.heard.get(name);
    if (!prior || prior.heartbeat !== heartbeat) this.heard.set(name, { at: now, heartbeat }); // local observation time, as kube's probeTimestamp
    const at = this.heard.get(name)!.at;
    const neverPosted = !ready;
    const grace = neverPosted ? this.o.startupGraceMs : this.o.gracePeriodMs;
    const since = neverPosted ? Math.max(at, Date.parse(node.metadata.creationTimestamp ?? '') || at) : at;
    if (now - since <= grace) return node;
    if (!neverPosted && UNKNOWN_CONDITIONS.every((t) => conditionsOf(node).find((c) => c.type === t)?.status === 'Unknown' || !conditionsOf(node).some((c) => c.type === t))) return node;
    const [reason, message] = neverPosted ? ['NodeStatusNeverUpdated', 'Kubelet never posted node status.'] : ['NodeStatusUnknown', 'Kubelet stopped posting node status.'];
    try {
      return await this.client.update(NODE_STATUS, '', name, (cur) => {
        const stamp = nowTimestamp(now);
        const conditions = conditionsOf(cur).map((c) => ({ ...c }));
        for (const type of UNKNOWN_CONDITIONS) {
          const c = conditions.find((x) => x.type === type);
          if (!c) conditions.push({ type, status: 'Unknown', reason, message, lastHeartbeatTime: cur.metadata.creationTimestamp, lastTransitionTime: stamp });
          else if (c.status !== 'Unknown') Object.assign(c, { status: 'Unknown', reason, message, lastTransitionTime: stamp });
        }
        return { ...cur, status: { ...obj(cur.status), conditions } };
      });
    } catch (err) {
      if (isReason(err, 'NotFound')) return node;
      throw err;
    }
  }

  /** Ready False on every pod of the node (kube's MarkPodsNotReady). */
  private async markPodsNotReady(nodeName: string): Promise<void> {
    for (const pod of this.pods.list()) {
      if (obj(pod.spec).nodeName !== nodeName) continue;
      const ready = (Array.isArray(obj(pod.status).conditions) ? (obj(pod.status).conditions as Json[]) : []).find((c) => c.type === 'Ready');
      if (!ready || ready.status === 'False') continue;
      try {
        await this.client.update(POD_STATUS, pod.metadata.namespace!, pod.metadata.name!, (cur) => {
          const conditions = ((obj(cur.status).conditions as Json[] | undefined) ?? []).map((c) => (c.type === 'Ready' ? { ...c, status: 'False', lastTransitionTime: nowTimestamp(this.now()) } : c));
          return { ...cur, status: { ...obj(cur.status), conditions } };
        }, { verb: 'patch' });
      } catch (err) {
        if (!isReason(err, 'NotFound')) console.error(`node lifecycle controller: marking pod ${pod.metadata.namespace}/${pod.metadata.name} not ready failed`, err);
      }
    }
  }

  /** The node's NoSchedule taints made to follow its conditions (kube's doNoScheduleTaintingPass). */
  private async noSchedule(node: ApiObject): Promise<void> {
    const want = new Set(wantedNoScheduleTaints(node));
    const taints = taintsOf(node);
    const managed = (t: Taint) => t.effect === 'NoSchedule' && MANAGED_NO_SCHEDULE.has(canonicalTaintKey(t.key));
    const have = new Set(taints.filter(managed).map((t) => canonicalTaintKey(t.key)));
    if (have.size === want.size && [...want].every((k) => have.has(k))) return;
    try {
      await this.client.update(NODES, '', node.metadata.name!, (cur) => {
        const kept = taintsOf(cur).filter((t) => !managed(t) || want.has(canonicalTaintKey(t.key)));
        const present = new Set(kept.filter(managed).map((t) => canonicalTaintKey(t.key)));
        const added = [...want].filter((k) => !present.has(k)).map((key) => ({ key, effect: 'NoSchedule' }));
        return withTaints(cur, [...kept, ...added]);
      }, { verb: 'patch' });
    } catch (err) {
      if (!isReason(err, 'NotFound')) console.error(`node lifecycle controller: tainting ${node.metadata.name} failed`, err);
    }
  }

  /** NoExecute taints after the Ready conditions, rate-limited per zone (kube's processTaintBaseEviction + handleDisruption). */
  private async noExecute(nodes: ApiObject[], now: number): Promise<void> {
    const byZone = new Map<string, ApiObject[]>();
    for (const n of nodes) {
      const z = zoneOf(n);
      byZone.set(z, [...(byZone.get(z) ?? []), n]);
    }
    const states = new Map<string, 'normal' | 'partial' | 'full'>();
    for (const [z, ns] of byZone) {
      const notReady = ns.filter((n) => readyStatus(n) !== 'True').length;
      states.set(z, notReady === ns.length && ns.length > 0 ? 'full' : notReady > 2 && notReady / ns.length >= this.o.unhealthyZoneThreshold ? 'partial' : 'normal');
    }
    const allFull = byZone.size > 0 && [...states.values()].every((s) => s === 'full');
    for (const n of nodes) {
      const ready = readyStatus(n);
      const key = ready === 'False' ? NODE_TAINT.notReady : ready === 'Unknown' ? NODE_TAINT.unreachable : undefined;
      const noExecute = taintsOf(n).filter((t) => t.effect === 'NoExecute' && (canonicalTaintKey(t.key) === NODE_TAINT.notReady || canonicalTaintKey(t.key) === NODE_TAINT.unreachable));
      if (!key || allFull) {
        if (noExecute.length > 0) await this.setNoExecute(n, undefined); // ready again, or every zone down: untaint
        continue;
      }
      if (noExecute.length === 1 && canonicalTaintKey(noExecute[0]!.key) === key) continue;
      if (noExecute.length > 0) {
        await this.setNoExecute(n, key); // swap not-ready ⇄ unreachable without waiting for the limiter
        continue;
      }
      const z = zoneOf(n);
      const state = states.get(z)!;
      const rate = state === 'partial' ? (byZone.get(z)!.length > this.o.largeClusterSize ? this.o.secondaryEvictionRate : 0) : this.o.evictionRate;
      let limiter = this.zones.get(z);
      if (!limiter) this.zones.set(z, (limiter = new ZoneLimiter(rate, now)));
      limiter.rate = rate;
      if (rate > 0 && limiter.take(now)) await this.setNoExecute(n, key);
    }
  }

  private async setNoExecute(node: ApiObject, key: string | undefined): Promise<void> {
    try {
      await this.client.update(NODES, '', node.metadata.name!, (cur) => {
        const others = taintsOf(cur).filter((t) => !(t.effect === 'NoExecute' && (canonicalTaintKey(t.key) === NODE_TAINT.notReady || canonicalTaintKey(t.key) === NODE_TAINT.unreachable)));
        return withTaints(cur, key ? [...others, { key, effect: 'NoExecute', timeAdded: nowTimestamp(this.now()) }] : others);
      }, { verb: 'patch' });
    } catch (err) {
      if (!isReason(err, 'NotFound')) console.error(`node lifecycle controller: NoExecute taint of ${node.metadata.name} failed`, err);
    }
  }
}

function withTaints(node: ApiObject, taints: Taint[]): ApiObject {
  const spec = { ...obj(node.spec) };
  if (taints.length > 0) spec.taints = taints;
  else delete spec.taints;
  return { ...node, spec };
}

/** kube's zone key: region and zone labels (either spelling). */
function zoneOf(node: ApiObject): string {
  const l = node.metadata.labels ?? {};
  const region = l['topology.kubernetes.io/region'] ?? l['topology.svc.io/region'] ?? l['failure-domain.beta.kubernetes.io/region'] ?? '';
  const zone = l['topology.kubernetes.io/zone'] ?? l['topology.svc.io/zone'] ?? l['failure-domain.beta.kubernetes.io/zone'] ?? '';
  return `${region}:\u0000:${zone}`;
}

export const startNodeLifecycleController = (ctx: ControllerContext, opts?: NodeLifecycleOptions): Controller => new NodeLifecycleController(ctx, opts);
