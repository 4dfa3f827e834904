// One simulated node: its name and addresses, the API client it acts
// through — user system:node:<name> in system:nodes, so the Node authorizer
// and NodeRestriction judge its writes as a kubelet's — and its pod
// addresses.
import { addLists, subtractLists, type ResourceList } from '../quota/resources.js';
import { PodAddresses } from './addresses.js';
import type { KubeletClient } from './api.js';
import type { NodeIdentity } from './node.js';

export class SimNode implements NodeIdentity {
  /** Set once the Node is registered (the Lease's owner). */
  uid = '';
  /** A paused node is a dead kubelet: no heartbeats, its pods left as they are. */
  paused = false;
  /** When the status was last written (ms). */
  lastReport = 0;
  /** The pod range in use: the Node's spec.podCIDR once known, else the default one. */
  private podCIDR: string;
  private addresses_: PodAddresses;
  /** The requests of the pods the node admitted and that have not ended, by pod key. */
  private readonly admitted = new Map<string, ResourceList>();
  private used_: ResourceList = {};
  /** A failure already logged (logged again only when it changes). */
  lastError = '';

  constructor(readonly client: KubeletClient, readonly name: string, readonly index: number, readonly internalIP: string, defaultPodCIDR: string) {
    this.podCIDR = defaultPodCIDR;
    this.addresses_ = new PodAddresses(defaultPodCIDR);
  }

  /** The pod range addresses come from. */
  get podRange(): string {
    return this.podCIDR;
  }

  get addresses(): PodAddresses {
    return this.addresses_;
  }

  /** Takes the Node's spec.podCIDR (an IPAM controller's) when there is one and no pod has an address yet. */
  usePodCIDR(cidr: string): void {
    if (!cidr || cidr === this.podCIDR || this.addresses_.inUse > 0) return;
    try {
      this.addresses_ = new PodAddresses(cidr);
      this.podCIDR = cidr;
    } catch {
      // an IPv6 or odd range: keep ours
    }
  }

  /** Forgets admitted pods and handed-out addresses (a new start learns them again). */
  reset(): void {
    this.admitted.clear();
    this.used_ = {};
    this.addresses_ = new PodAddresses(this.podCIDR);
  }

  isAdmitted(key: string): boolean {
    return this.admitted.has(key);
  }

  /** What the admitted pods request, and how many they are. */
  get used(): { readonly requests: ResourceList; readonly pods: number } {
    return { requests: this.used_, pods: this.admitted.size };
  }

  admit(key: string, requests: ResourceList): void {
    if (this.admitted.has(key)) return;
    this.admitted.set(key, requests);
    this.used_ = addLists(this.used_, requests);
  }

  /** The pod ended or went away: its requests are free again. */
  forget(key: string): void {
    const r = this.admitted.get(key);
    if (!r) return;
    this.admitted.delete(key);
    this.used_ = subtractLists(this.used_, r);
  }

  /** Logs a failure once until a different one happens. */
  report(what: string, err: unknown): void {
    const text = `${what}: ${err instanceof Error ? err.message : String(err)}`;
    if (text === this.lastError) return;
    this.lastError = text;
    console.error(`simulated node ${this.name}: ${text}`);
  }
}
