// The kubelet's two heartbeats for every simulated node, each one timer for
// all nodes:
//   Lease   <node> in svc-node-lease (kube's kube-node-lease): renewTime renewed
//           every `leaseRenewMs` (kubelet: 10 s, leaseDurationSeconds 40),
//           created with the Node as owner when missing
//   status  checked every `statusCheckMs` (nodeStatusUpdateFrequency, 10 s)
//           against the Node on the server, written when it differs (another
//           writer changed a condition) or every `statusReportMs`
//           (nodeStatusReportFrequency, 5 min)
// A round's writes go out together, at most `concurrency` at a time.
import type { Target } from '../controllers/client.js';
import { isReason } from '../controllers/informer.js';
import type { ApiObject } from '../registry/object.js';
import { isObject } from '../registry/object.js';
import { microTime, type Clock } from './clock.js';
import { nodeStatus, nodeStatusDiffers, type NodeSettings } from './node.js';
import type { ObjectCache } from './api.js';
import { inPool } from './pool.js';
import type { SimNode } from './simnode.js';

export const LEASES: Target = { group: 'coordination.svc.io', version: 'v1', resource: 'leases' };
export const NODE_STATUS: Target = { group: '', version: 'v1', resource: 'nodes', subresource: 'status' };

export interface HeartbeatOptions {
  /** Where the Leases are (kube's kube-node-lease; this server's svc-node-lease). */
  readonly leaseNamespace: string;
  readonly leaseRenewMs: number;
  readonly leaseDurationSeconds: number;
  readonly statusCheckMs: number;
  readonly statusReportMs: number;
  readonly concurrency: number;
}

export class Heartbeats {
  private leaseTimer: NodeJS.Timeout | undefined;
  private statusTimer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly nodes: readonly SimNode[], private readonly nodeInformer: ObjectCache,
    private readonly settings: NodeSettings, private readonly clock: Clock, private readonly opts: HeartbeatOptions,
  ) {}

  /** Renews every Lease once, then keeps the two rounds going. */
  async start(): Promise<void> {
    await this.renewLeases();
    this.schedule('lease');
    this.schedule('status');
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.leaseTimer);
    clearTimeout(this.statusTimer);
  }

  private schedule(which: 'lease' | 'status'): void {
    if (this.stopped) return;
    const ms = which === 'lease' ? this.opts.leaseRenewMs : this.opts.statusCheckMs;
    const t = setTimeout(() => {
      void (which === 'lease' ? this.renewLeases() : this.checkStatuses()).finally(() => this.schedule(which));
    }, ms);
    t.unref();
    if (which === 'lease') this.leaseTimer = t;
    else this.statusTimer = t;
  }

  /** One round of Lease renewals. */
  async renewLeases(): Promise<void> {
    // paused nodes (dead kubelets) are skipped
    await inPool(this.nodes.filter((n) => !n.paused), this.opts.concurrency, (n) => this.renewLease(n));
  }

  private lease(n: SimNode, now: number, current?: ApiObject): ApiObject {
    const spec = isObject(current?.spec) ? current.spec : {};
    return {
      ...(current ?? { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: n.name, namespace: this.opts.leaseNamespace } }),
      spec: { ...spec, holderIdentity: n.name, leaseDurationSeconds: this.opts.leaseDurationSeconds, renewTime: microTime(now) },
    };
  }

  private async renewLease(n: SimNode): Promise<void> {
    if (this.stopped) return;
    const now = this.clock.now();
    try {
      await n.client.update(LEASES, this.opts.leaseNamespace, n.name, (cur) => this.lease(n, now, cur));
    } catch (err) {
      if (!isReason(err, 'NotFound')) return n.report('renewing its Lease', err);
      const fresh = this.lease(n, now);
      if (n.uid) fresh.metadata.ownerReferences = [{ apiVersion: 'v1', kind: 'Node', name: n.name, uid: n.uid }];
      await n.client.create(LEASES, this.opts.leaseNamespace, fresh).catch((e) => { if (!isReason(e, 'AlreadyExists')) n.report('creating its Lease', e); });
    }
  }

  /** One round of status checks: writes the statuses that changed or are due. */
  async checkStatuses(): Promise<void> {
    const now = this.clock.now();
    const due = this.nodes.filter((n) => {
      if (n.paused) return false;
      const server = this.nodeInformer.get('', n.name);
      if (!server) return false;
      if (now - n.lastReport >= this.opts.statusReportMs) return true;
      return nodeStatusDiffers(server.status, nodeStatus(n, this.settings, now, server.status));
    });
    await inPool(due, this.opts.concurrency, (n) => this.writeStatus(n));
  }

  /** Writes the node's status now (conditions' heartbeats at now). */
  async writeStatus(n: SimNode): Promise<void> {
    if (this.stopped) return;
    const now = this.clock.now();
    try {
      await n.client.update(NODE_STATUS, '', n.name, (cur) => ({ ...cur, status: { ...(isObject(cur.status) ? cur.status : {}), ...nodeStatus(n, this.settings, now, cur.status) } }));
      n.lastReport = now;
    } catch (err) {
      n.report('updating its status', err);
    }
  }
}
