// The node's side of the agent, as kube's kubelet_node_status.go runs it:
//
//   start ─► register (create, or adopt the Node there) ─► first status write
//         ├► Lease heartbeat every 10 s                  (lease.ts)
//         ├► runtime Status() every 5 s                  (runtimestate.ts)
//         └► status every --node-status-update-frequency: computed from the
//            machine, the runtime and the Node on the server; written when it
//            changed (other than heartbeats), else every 5 min
//            (nodeStatusReportFrequency)
//
// Status is written as a merge patch of nodes/status, so fields other writers
// own (volumesAttached) stay.
import { hostname } from 'node:os';
import type { Quantity } from '../../api/meta/quantity.js';
import { isReason } from '../../controllers/informer.js';
import { parseResourceList } from '../../quota/resources.js';
import type { ApiObject } from '../../registry/object.js';
import { isObject } from '../../registry/object.js';
import { SYSTEM_CLOCK, type Clock } from '../../simnodes/clock.js';
import { NODE_STATUS } from '../../simnodes/heartbeat.js';
import type { AgentApi } from '../api.js';
import type { ImageService, Image, RuntimeService, VersionInfo } from '../cri/types.js';
import { machineCapacity } from './capacity.js';
import { nodeConditions, PressureTracker } from './conditions.js';
import type { EvictionThreshold } from './eviction.js';
import { DEFAULT_LEASE, LeaseHeartbeat, NODE_LEASE_NAMESPACE } from './lease.js';
import type { MachineReader } from './machine.js';
import { RuntimeState } from './runtimestate.js';
import { initialNode, nodeStatus, reconcileExisting, statusChanged, type NodeSpecOptions } from './status.js';

export const NODES = { group: '', version: 'v1', resource: 'nodes' } as const;

export interface NodeManagerOptions {
  readonly api: AgentApi;
  readonly runtime: Pick<RuntimeService, 'status' | 'version'>;
  readonly images: Pick<ImageService, 'listImages'>;
  readonly machine: MachineReader;
  readonly clock?: Clock;
  /** Name, hostname, --node-labels, --register-with-taints, annotations' flags. */
  readonly node: NodeSpecOptions;
  /** `--register-node` (default true): false expects the Node to exist. */
  readonly registerNode?: boolean;
  readonly maxPods: number;
  readonly svcReserved?: Readonly<Record<string, string>>;
  readonly systemReserved?: Readonly<Record<string, string>>;
  readonly evictionHard: readonly EvictionThreshold[];
  /** `--eviction-pressure-transition-period` (5 min). */
  readonly evictionPressureTransitionMs?: number;
  readonly localStorageCapacityIsolation?: boolean;
  /** `--node-ip`; default the default route's address. */
  readonly nodeIPs?: readonly string[];
  /** The agent's HTTPS port (daemonEndpoints). */
  readonly kubeletPort: number;
  /** Where the Lease is (default svc-node-lease, kube's kube-node-lease). */
  readonly leaseNamespace?: string;
  readonly leaseRenewMs?: number;
  readonly leaseDurationSeconds?: number;
  /** `--node-status-update-frequency` (10 s). */
  readonly statusUpdateMs?: number;
  /** `nodeStatusReportFrequency` (5 min). */
  readonly statusReportMs?: number;
  /** How often the runtime's Status() is asked (kube: 5 s). */
  readonly runtimeCheckMs?: number;
  /** Retry period of a failed registration (kube: 100 ms doubling to 7 s). */
  readonly registerRetryMs?: number;
  readonly onError?: (what: string, err: unknown) => void;
  /** Checks whose failure makes the node NotReady (kube's runtimeState health checks, e.g. PLEG): an error text, or undefined when healthy. */
  readonly healthChecks?: readonly { readonly name: string; readonly check: () => string | undefined }[];
  /** Events about the Node (kube's node status events: NodeReady, NodeHasSufficientMemory, …); the agent's event recorder. */
  readonly onEvent?: (e: NodeEvent) => void;
}

export interface NodeEvent {
  readonly type: 'Normal' | 'Warning';
  readonly reason: string;
  readonly message: string;
}

/** The event reason of a condition now at a status (kube's node status setters). */
const TRANSITION_REASONS: Record<string, Record<string, string>> = {
  MemoryPressure: { True: 'NodeHasInsufficientMemory', False: 'NodeHasSufficientMemory' },
  DiskPressure: { True: 'NodeHasDiskPressure', False: 'NodeHasNoDiskPressure' },
  PIDPressure: { True: 'NodeHasInsufficientPID', False: 'NodeHasSufficientPID' },
  Ready: { True: 'NodeReady', False: 'NodeNotReady' },
};

/** The events a status change makes: one per condition whose status moved (or, but for Ready, that is new). */
export function transitionEvents(nodeName: string, previous: unknown, conditions: readonly { type: string; status: string }[]): NodeEvent[] {
  const before = isObject(previous) && Array.isArray(previous.conditions) ? previous.conditions.filter(isObject) : [];
  const out: NodeEvent[] = [];
  for (const c of conditions) {
    const old = before.find((p) => p.type === c.type);
    const reason = TRANSITION_REASONS[c.type]?.[c.status];
    if (!reason || old?.status === c.status) continue;
    // kube records Ready's changes only, not its first appearance
    if (c.type === 'Ready' && !old) continue;
    out.push({ type: 'Normal', reason, message: `Node ${nodeName} status is now: ${reason}` });
  }
  return out;
}

/** kube's GetHostname: the override or the machine's name, trimmed and lowercased; empty is an error. */
export function nodeHostname(override?: string): string {
  const name = (override ? override : hostname()).trim().toLowerCase();
  if (!name) throw new Error('empty hostname is invalid');
  return name;
}

export class NodeManager {
  private readonly clock: Clock;
  private readonly runtimeState = new RuntimeState();
  private readonly pressure: PressureTracker;
  private readonly lease: LeaseHeartbeat;
  private uid: string | undefined;
  private version: VersionInfo | undefined;
  private lastReport = 0;
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private stopped = false;

  constructor(private readonly o: NodeManagerOptions) {
    this.clock = o.clock ?? SYSTEM_CLOCK;
    this.pressure = new PressureTracker(o.evictionHard, o.evictionPressureTransitionMs ?? 5 * 60_000);
    this.lease = new LeaseHeartbeat(o.api, this.clock, {
      ...DEFAULT_LEASE, namespace: o.leaseNamespace ?? NODE_LEASE_NAMESPACE,
      ...(o.leaseRenewMs !== undefined ? { renewMs: o.leaseRenewMs } : {}),
      ...(o.leaseDurationSeconds !== undefined ? { durationSeconds: o.leaseDurationSeconds } : {}),
    }, () => this.uid, (what, err) => this.report(what, err));
  }

  get nodeName(): string {
    return this.o.node.name;
  }

  /** The registered Node's UID (mirror pods' owner). */
  get nodeUID(): string | undefined {
    return this.uid;
  }

  /** Registers (retrying until it works or stop()), writes the first status, then keeps the heartbeats going. */
  async start(): Promise<void> {
    this.stopped = false;
    this.o.onEvent?.({ type: 'Normal', reason: 'Starting', message: 'Starting kubelet.' });
    await this.checkRuntime();
    await this.registerWithRetry();
    if (this.stopped) return;
    // the heartbeats start even when this first write fails: the status loop writes again
    await this.updateStatus(true).catch((err) => this.report('updating its status', err));
    this.lease.start();
    this.every('runtime', this.o.runtimeCheckMs ?? 5_000, () => this.checkRuntime());
    this.every('status', this.o.statusUpdateMs ?? 10_000, () => this.updateStatus(false));
  }

  stop(): void {
    this.stopped = true;
    this.lease.stop();
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }

  private every(name: string, ms: number, fn: () => Promise<unknown>): void {
    const run = () => {
      if (this.stopped) return;
      const t = setTimeout(() => void fn().catch((err) => this.report(`its ${name} check`, err)).finally(run), ms);
      t.unref();
      this.timers.set(name, t);
    };
    run();
  }

  private report(what: string, err: unknown): void {
    this.o.onError?.(what, err);
  }

  /** Asks the runtime's Status() once (kube's updateRuntimeUp). */
  checkRuntime(): Promise<void> {
    return this.runtimeState.check(this.o.runtime, () => this.clock.now());
  }

  private async registerWithRetry(): Promise<void> {
    let wait = this.o.registerRetryMs ?? 100;
    for (;;) {
      try {
        await this.register();
        return;
      } catch (err) {
        this.report('registering the node', err);
        if (this.stopped) return;
        await new Promise((r) => setTimeout(r, wait).unref());
        wait = Math.min(wait * 2, 7_000);
        if (this.stopped) return;
      }
    }
  }

  /** kube's tryRegisterWithAPIServer: create the Node with its status, or adopt the one there (labels and annotations reconciled). */
  async register(): Promise<ApiObject> {
    const wanted = initialNode(this.o.node, this.o.machine);
    if (this.o.registerNode === false) return this.adopt(await this.o.api.get(NODES, '', this.nodeName));
    try {
      // kube's initialNode carries the first status (nodes keep status on create); its setters record the events
      const status = await this.desiredStatus(undefined);
      const created = await this.o.api.create(NODES, '', { ...wanted, status });
      for (const e of transitionEvents(this.nodeName, undefined, status.conditions as { type: string; status: string }[])) this.o.onEvent?.(e);
      return this.adopt(created);
    } catch (err) {
      if (!isReason(err, 'AlreadyExists')) throw err;
    }
    const existing = await this.o.api.get(NODES, '', this.nodeName);
    if (!reconcileExisting(existing, wanted)) return this.adopt(existing);
    return this.adopt(await this.o.api.update(NODES, '', this.nodeName, (cur) => reconcileExisting(cur, wanted) ?? cur));
  }

  private adopt(node: ApiObject): ApiObject {
    this.uid = node.metadata.uid;
    return node;
  }

  /** The status the agent would report now, against the Node's current status. */
  async desiredStatus(previous: unknown): Promise<Record<string, unknown>> {
    const now = this.clock.now();
    const m = this.o.machine;
    this.pressure.observe({
      memory: { available: m.memoryAvailable(), capacity: m.memoryCapacity() },
      nodefs: m.rootFs(),
      pids: m.pids(),
    }, now);
    this.version ??= await this.o.runtime.version().catch(() => undefined);
    const images: readonly Image[] = await this.o.images.listImages().catch(() => []);
    // extended resources others advertised in capacity stay (kube's MachineInfo setter keeps them)
    const capacity = { ...extendedResources(previous), ...machineCapacity(m, { maxPods: this.o.maxPods, localStorageCapacityIsolation: this.o.localStorageCapacityIsolation }) };
    const conditions = nodeConditions({
      now, previous,
      pressure: (t) => this.pressure.under(t, now),
      ready: {
        errors: [...this.runtimeState.runtimeErrors(now, this.healthErrors()), ...this.runtimeState.networkErrors()],
        capacityNames: Object.keys(capacity),
        localStorageCapacityIsolation: this.o.localStorageCapacityIsolation,
        appArmorEnabled: m.appArmorEnabled(),
      },
    });
    const ips = this.o.nodeIPs && this.o.nodeIPs.length > 0 ? this.o.nodeIPs : [m.defaultRouteIP()].filter(Boolean);
    return nodeStatus({
      capacity,
      allocatable: { svcReserved: this.o.svcReserved, systemReserved: this.o.systemReserved, evictionHard: this.o.evictionHard },
      conditions, nodeIPs: ips, hostname: this.o.node.hostname, kubeletPort: this.o.kubeletPort, machine: m,
      runtimeVersion: this.version, images,
    });
  }

  private healthErrors(): string[] {
    const out: string[] = [];
    for (const h of this.o.healthChecks ?? []) {
      const err = h.check();
      if (err !== undefined) out.push(`${h.name} is not healthy: ${err}`);
    }
    return out;
  }

  /** One status round: written when `force`, when it changed, or when the report period passed. True when written. */
  async updateStatus(force: boolean): Promise<boolean> {
    const node = await this.o.api.get(NODES, '', this.nodeName);
    this.uid ??= node.metadata.uid;
    const desired = await this.desiredStatus(node.status);
    const due = this.clock.now() - this.lastReport >= (this.o.statusReportMs ?? 5 * 60_000);
    if (!force && !due && !statusChanged(node.status, desired)) return false;
    await this.o.api.patch(NODE_STATUS, '', this.nodeName, { status: statusPatch(node.status, desired) });
    this.lastReport = this.clock.now();
    for (const e of transitionEvents(this.nodeName, node.status, desired.conditions as { type: string; status: string }[])) this.o.onEvent?.(e);
    return true;
  }
}

/** kube's IsExtendedResourceName: a domain-prefixed name outside kubernetes.io, not a quota `requests.` name. */
export function isExtendedResourceName(name: string): boolean {
  const slash = name.indexOf('/');
  if (slash < 0 || name.startsWith('requests.')) return false;
  const domain = name.slice(0, slash);
  return domain !== 'kubernetes.io' && !domain.endsWith('.kubernetes.io');
}

/** The extended resources of a status's capacity. */
function extendedResources(status: unknown): Record<string, Quantity> {
  const cap = isObject(status) && isObject(status.capacity) ? status.capacity : {};
  const out: Record<string, Quantity> = {};
  for (const [k, v] of Object.entries(parseResourceList(cap))) if (isExtendedResourceName(k)) out[k] = v;
  return out;
}

/** A merge patch from `server` to `desired`: resource names no longer reported are removed (null). */
export function statusPatch(server: unknown, desired: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...desired };
  const prev = isObject(server) ? server : {};
  for (const k of ['capacity', 'allocatable']) {
    const before = isObject(prev[k]) ? prev[k] : {};
    const after = isObject(desired[k]) ? desired[k] : {};
    const removed = Object.keys(before).filter((n) => !(n in after));
    if (removed.length > 0) out[k] = { ...after, ...Object.fromEntries(removed.map((n) => [n, null])) };
  }
  return out;
}
