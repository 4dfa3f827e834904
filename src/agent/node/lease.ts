// The node's Lease heartbeat (kube's nodelease controller): `<node>` in the
// node lease namespace, holderIdentity the node, leaseDurationSeconds 40,
// renewTime renewed every 10 s (a quarter of the duration), an owner
// reference to the Node once its UID is known. A failed renewal is retried
// sooner: 200 ms doubling to 7 s, as kube's onRepeatedHeartbeatFailure.
import { isReason } from '../../controllers/informer.js';
import type { ApiObject } from '../../registry/object.js';
import { isObject } from '../../registry/object.js';
import { microTime, type Clock } from '../../simnodes/clock.js';
import { LEASES } from '../../simnodes/heartbeat.js';
import type { AgentApi } from '../api.js';

export interface LeaseOptions {
  readonly namespace: string;
  readonly durationSeconds: number;
  readonly renewMs: number;
  /** First retry after a failure; doubles up to maxRetryMs. */
  readonly retryMs?: number;
  readonly maxRetryMs?: number;
}

/** Where node leases live (the Node authorizer's namespace for them). */
export const NODE_LEASE_NAMESPACE = 'svc-node-lease';

export const DEFAULT_LEASE: Omit<LeaseOptions, 'namespace'> = { durationSeconds: 40, renewMs: 10_000, retryMs: 200, maxRetryMs: 7_000 };

/** The Lease as it should be after a renewal at `now` (other fields of `current` kept). */
export function renewedLease(opts: { name: string; namespace: string; durationSeconds: number; nodeUID?: string; now: number }, current?: ApiObject): ApiObject {
  const base: ApiObject = current ?? { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: opts.name, namespace: opts.namespace } };
  const spec = isObject(base.spec) ? base.spec : {};
  const owners = base.metadata.ownerReferences ?? [];
  const metadata = owners.length === 0 && opts.nodeUID
    ? { ...base.metadata, ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: opts.name, uid: opts.nodeUID }] }
    : base.metadata;
  return { ...base, metadata, spec: { ...spec, holderIdentity: opts.name, leaseDurationSeconds: opts.durationSeconds, renewTime: microTime(opts.now) } };
}

export class LeaseHeartbeat {
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;
  private failures = 0;

  constructor(
    private readonly api: AgentApi, private readonly clock: Clock, private readonly opts: LeaseOptions,
    /** The Node's UID, when known (registration learns it). */
    private readonly nodeUID: () => string | undefined,
    private readonly onError: (what: string, err: unknown) => void = () => {},
  ) {}

  start(): void {
    this.stopped = false;
    this.tick(0);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private tick(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.renew().then((ok) => {
        this.failures = ok ? 0 : this.failures + 1;
        const retry = Math.min((this.opts.retryMs ?? 200) * 2 ** (this.failures - 1), this.opts.maxRetryMs ?? 7_000);
        this.tick(ok ? this.opts.renewMs : retry);
      });
    }, ms);
    this.timer.unref();
  }

  /** One renewal (created when missing); false when it failed. */
  async renew(): Promise<boolean> {
    const name = this.api.nodeName;
    const make = (cur?: ApiObject) => renewedLease({ name, namespace: this.opts.namespace, durationSeconds: this.opts.durationSeconds, nodeUID: this.nodeUID(), now: this.clock.now() }, cur);
    try {
      await this.api.update(LEASES, this.opts.namespace, name, (cur) => make(cur));
      return true;
    } catch (err) {
      if (!isReason(err, 'NotFound')) {
        this.onError('renewing its Lease', err);
        return false;
      }
    }
    try {
      await this.api.create(LEASES, this.opts.namespace, make());
      return true;
    } catch (err) {
      if (isReason(err, 'AlreadyExists')) return true;
      this.onError('creating its Lease', err);
      return false;
    }
  }
}
