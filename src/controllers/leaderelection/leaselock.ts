// The Lease a leader election locks (client-go resourcelock.LeaseLock): read,
// created when missing, and updated as a compare-and-swap on the
// resourceVersion last read — a candidate whose view is stale gets the
// Conflict, never overwrites a newer holder. Writes go through a
// ControllerClient, so they are authorized as the component's user
// (system:svc-controller-manager: `leases` create, get/update of its own).
import type { ApiObject } from '../../registry/object.js';
import type { ControllerClient } from '../client.js';
import type { EventRecorder } from '../events.js';
import { isReason } from '../informer.js';
import { leaseSpec, rawRecord, recordFromLease, type LeaderElectionRecord } from './record.js';

export const LEASES = { group: 'coordination.svc.io', version: 'v1', resource: 'leases' } as const;

/** What the elector needs of a lock. */
export interface ResourceLock {
  readonly identity: string;
  /** The record and its raw form, or undefined when the lock object does not exist. */
  get(): Promise<{ record: LeaderElectionRecord; raw: string } | undefined>;
  create(r: LeaderElectionRecord): Promise<void>;
  /** Compare-and-swap against the last get/create/update; throws (Conflict…) when stale. */
  update(r: LeaderElectionRecord): Promise<void>;
  /** An Event about the lock: "<identity> <message>" (reason LeaderElection). */
  recordEvent(message: string): void;
  describe(): string;
}

export class LeaseLock implements ResourceLock {
  private lease: ApiObject | undefined;

  constructor(
    private readonly client: ControllerClient, readonly namespace: string, readonly name: string,
    readonly identity: string, private readonly recorder?: EventRecorder,
  ) {}

  async get(): Promise<{ record: LeaderElectionRecord; raw: string } | undefined> {
    try {
      this.lease = await this.client.get(LEASES, this.namespace, this.name);
    } catch (err) {
      if (isReason(err, 'NotFound')) return undefined;
      throw err;
    }
    const record = recordFromLease(this.lease);
    return { record, raw: rawRecord(record) };
  }

  async create(r: LeaderElectionRecord): Promise<void> {
    this.lease = await this.client.create(LEASES, this.namespace, {
      apiVersion: 'coordination.svc.io/v1', kind: 'Lease',
      metadata: { name: this.name, namespace: this.namespace },
      spec: leaseSpec(r),
    });
  }

  async update(r: LeaderElectionRecord): Promise<void> {
    if (!this.lease) throw new Error('lease not initialized, call get or create first');
    const next = { ...this.lease, spec: { ...(this.lease.spec as object), ...leaseSpec(r) } };
    this.lease = await this.client.replace(LEASES, this.namespace, this.name, next);
  }

  recordEvent(message: string): void {
    if (!this.recorder) return;
    const meta = this.lease?.metadata ?? { name: this.name, namespace: this.namespace };
    void this.recorder.event({ apiVersion: 'coordination.svc.io/v1', kind: 'Lease', metadata: meta }, 'Normal', 'LeaderElection', `${this.identity} ${message}`);
  }

  describe(): string {
    return `${this.namespace}/${this.name}`;
  }
}
