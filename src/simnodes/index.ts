// Simulated nodes (kwok's idea, in process): N Node objects that behave as
// kubelets do toward the API — registered, Ready, heartbeating through Leases
// and status, running the pods bound to them — without running anything.
// Each node acts as itself (user system:node:<name>), so the Node authorizer
// and NodeRestriction apply to every write as to a real kubelet's.
//
//   node.ts       the Node object: labels, capacity, conditions, nodeInfo
//   addresses.ts  node InternalIPs (198.18.0.0/15) and per-node pod /24s
//   heartbeat.ts  Lease renewals and status reports, one timer each for all nodes
//   podstatus.ts  the kubelet's pod statuses and the annotations that steer them
//   pods.ts       pods bound to the nodes: batched status writes, final deletes
//   deadlines.ts  one timer for every pod waiting to exit or restart
//   api.ts        the seam to the API: in process (ControllerContext) or over
//                 HTTPS (remote/, `svc simulate-nodes --kubeconfig F --count N`)
//
// stop() ends the heartbeats and pod handling; the Nodes stay registered, and
// a later start adopts them and their pods as a restarted kubelet does.
import { NODE_LEASE_NAMESPACE } from '../authz/node/authorizer.js';
import { isReason } from '../controllers/informer.js';
import type { Controller, ControllerContext } from '../controllers/context.js';
import { inProcessCluster, type Cluster } from './api.js';
import type { Target } from '../controllers/client.js';
import type { ApiObject } from '../registry/object.js';
import { isObject } from '../registry/object.js';
import { SYSTEM_CLOCK, type Clock } from './clock.js';
import { defaultPodCIDR, nodeInternalIP } from './addresses.js';
import { Heartbeats } from './heartbeat.js';
import { parseResourceList } from '../quota/resources.js';
import { DEFAULT_SETTINGS, defaultAllocatable, nodeLabels, nodeObject, type NodeSettings } from './node.js';
import { PodRunner, PODS } from './pods.js';
import { inPool } from './pool.js';
import { SimNode } from './simnode.js';

export { RUN_SECONDS_ANNOTATION, EXIT_CODE_ANNOTATION } from './podstatus.js';
export { SIMULATED_LABEL, SIMULATED_NODE_ANNOTATION } from './node.js';

export const NODES: Target = { group: '', version: 'v1', resource: 'nodes' };

export interface SimulatedNodesOptions {
  readonly count: number;
  /** Node names are `<prefix><i>` (default `sim-node-`). */
  readonly prefix?: string;
  /** The first index (default 0): several sets side by side. */
  readonly firstIndex?: number;
  /** status.capacity (default cpu 4, memory 16Gi, pods 110, ephemeral-storage 100Gi, no hugepages). */
  readonly capacity?: Readonly<Record<string, string>>;
  /** status.allocatable (default: capacity less the kubelet's hard eviction thresholds). */
  readonly allocatable?: Readonly<Record<string, string>>;
  /** nodeInfo.kubeletVersion (default v1.27.3). */
  readonly kubeletVersion?: string;
  /** Lease renewal period (kubelet: 10 s). */
  readonly leaseRenewMs?: number;
  /** The Leases' leaseDurationSeconds (kubelet: 40). */
  readonly leaseDurationSeconds?: number;
  /** How often the status is compared with the server's (kubelet's nodeStatusUpdateFrequency: 10 s). */
  readonly statusCheckMs?: number;
  /** How often the status is written when nothing changed (kubelet's nodeStatusReportFrequency: 5 min). */
  readonly statusReportMs?: number;
  /** The Leases' namespace (default svc-node-lease, this server's kube-node-lease). */
  readonly leaseNamespace?: string;
  /** Whether pods bound to the nodes are run (default true); false: Nodes and heartbeats only, as a benchmark without kubelets wants. */
  readonly runPods?: boolean;
  /** Writes in flight at once (default 32). */
  readonly concurrency?: number;
  readonly clock?: Clock;
}

export class SimulatedNodes implements Controller {
  readonly nodes: readonly SimNode[];
  private readonly byName: Map<string, SimNode>;
  private readonly settings: NodeSettings;
  private readonly clock: Clock;
  private readonly concurrency: number;
  private heartbeats: Heartbeats | undefined;
  private pods: PodRunner | undefined;

  constructor(private readonly cluster: Cluster, private readonly opts: SimulatedNodesOptions) {
    if (!Number.isInteger(opts.count) || opts.count < 0) throw new RangeError(`simulated nodes: count must be a non-negative integer, got ${opts.count}`);
    const prefix = opts.prefix ?? 'sim-node-';
    const first = opts.firstIndex ?? 0;
    this.nodes = Array.from({ length: opts.count }, (_, i) => {
      const index = first + i;
      const name = `${prefix}${index}`;
      return new SimNode(cluster.kubelet(name), name, index, nodeInternalIP(index), defaultPodCIDR(index));
    });
    this.byName = new Map(this.nodes.map((n) => [n.name, n]));
    this.settings = {
      ...DEFAULT_SETTINGS,
      ...(opts.capacity ? { capacity: opts.capacity } : {}),
      ...(opts.allocatable ? { allocatable: opts.allocatable } : {}),
      ...(opts.kubeletVersion ? { kubeletVersion: opts.kubeletVersion } : {}),
    };
    this.clock = opts.clock ?? SYSTEM_CLOCK;
    this.concurrency = opts.concurrency ?? 32;
  }

  async start(): Promise<void> {
    if (this.nodes.length === 0) return;
    // as a kubelet: it may read its Node and the pods (it would watch with a field selector)
    await Promise.all(this.nodes.map(async (n) => {
      await n.client.authorizeWatch(NODES, '');
      await n.client.authorizeWatch(PODS, '');
    }));
    // a start after stop() begins afresh: pods and addresses are learnt again from the pods found
    for (const n of this.nodes) n.reset();
    const nodeInformer = this.cluster.informer('', 'nodes');
    const podInformer = this.cluster.informer('', 'pods');
    await Promise.all([nodeInformer.start(), podInformer.start()]);
    await Promise.all([nodeInformer.waitForSync(), podInformer.waitForSync()]);

    const heartbeats = new Heartbeats(this.nodes, nodeInformer, this.settings, this.clock, {
      leaseNamespace: this.opts.leaseNamespace ?? NODE_LEASE_NAMESPACE,
      leaseRenewMs: this.opts.leaseRenewMs ?? 10_000,
      leaseDurationSeconds: this.opts.leaseDurationSeconds ?? 40,
      statusCheckMs: this.opts.statusCheckMs ?? 10_000,
      statusReportMs: this.opts.statusReportMs ?? 300_000,
      concurrency: this.concurrency,
    });
    this.heartbeats = heartbeats;
    await inPool(this.nodes, this.concurrency, (n) => this.register(n, heartbeats, nodeInformer.get('', n.name)));
    await heartbeats.start();
    const allocatable = parseResourceList(this.settings.allocatable ?? defaultAllocatable(this.settings.capacity));
    this.pods = new PodRunner(this.byName, podInformer, this.clock, this.concurrency, allocatable);
    // a pod range an IPAM controller gives a node later is taken while the node has no pods yet
    const pods = this.pods;
    nodeInformer.addHandler({
      onUpdate: (_old, node) => {
        const n = this.byName.get(node.metadata.name ?? '');
        if (n && !pods.stopped && isObject(node.spec) && typeof node.spec.podCIDR === 'string') n.usePodCIDR(node.spec.podCIDR);
      },
    });
    if (this.opts.runPods !== false) podInformer.addHandler(this.pods);
  }

  /**
   * The node's kubelet dies: no Lease renewals, no status, its pods left as
   * they are (a terminating one is not deleted) — what a node lifecycle
   * controller sees as a node gone silent. The Node stays.
   */
  pause(name: string): void {
    this.node(name).paused = true;
  }

  /** The node's kubelet is back: heartbeats at once, its pods looked at again. */
  async resume(name: string): Promise<void> {
    const n = this.node(name);
    if (!n.paused) return;
    n.paused = false;
    await this.heartbeats?.renewLeases();
    await this.heartbeats?.writeStatus(n);
    this.pods?.revisit(name);
  }

  private node(name: string): SimNode {
    const n = this.byName.get(name);
    if (!n) throw new RangeError(`no simulated node ${JSON.stringify(name)}`);
    return n;
  }

  stop(): void {
    this.heartbeats?.stop();
    // SharedInformer has no removeHandler: the runner ignores events once stopped
    this.pods?.stop();
  }

  /** The kubelet's registration: create the Node, or adopt the one there (its labels reconciled) and report status at once. */
  private async register(n: SimNode, heartbeats: Heartbeats, existing: ApiObject | undefined): Promise<void> {
    if (!existing) {
      try {
        const created = await n.client.create(NODES, '', nodeObject(n, this.settings, this.clock.now()));
        this.adopted(n, created);
        n.lastReport = this.clock.now();
        return;
      } catch (err) {
        if (!isReason(err, 'AlreadyExists')) throw err;
      }
    }
    const wanted = nodeLabels(n, this.settings);
    const labelsMissing = (node: ApiObject | undefined) => !node || Object.entries(wanted).some(([k, v]) => node.metadata.labels?.[k] !== v);
    const node = !labelsMissing(existing) ? existing! : await n.client.update(NODES, '', n.name, (cur) =>
      labelsMissing(cur) ? { ...cur, metadata: { ...cur.metadata, labels: { ...(cur.metadata.labels ?? {}), ...wanted } } } : cur);
    this.adopted(n, node);
    await heartbeats.writeStatus(n);
  }

  private adopted(n: SimNode, node: ApiObject): void {
    n.uid = node.metadata.uid ?? '';
    const spec = isObject(node.spec) ? node.spec : {};
    if (typeof spec.podCIDR === 'string') n.usePodCIDR(spec.podCIDR);
  }
}

/** Registers `opts.count` simulated nodes and runs their pods (the `--simulated-nodes=N` of `svc server`). */
export function startSimulatedNodes(ctx: ControllerContext, opts: SimulatedNodesOptions): SimulatedNodes {
  return new SimulatedNodes(inProcessCluster(ctx), opts);
}
