// Probe results cached per container ID (kube's results.Manager), one cache
// per probe kind. A set that changes the cached value (or adds one) is
// reported, as kube's results channel carries only changes.
import type { ProbeKind, ProbeResult } from './types.js';

export interface ProbeUpdate {
  readonly kind: ProbeKind;
  readonly podUid: string;
  readonly containerName: string;
  /** The status containerID (`containerd://…`). */
  readonly containerId: string;
  readonly result: ProbeResult;
}

export class ResultsCache {
  private readonly entries = new Map<string, ProbeResult>();
  constructor(readonly kind: ProbeKind, private readonly onUpdate: (u: ProbeUpdate) => void) {}

  get(containerId: string): ProbeResult | undefined {
    return this.entries.get(containerId);
  }

  /** Records a result; returns whether it changed (and was reported). */
  set(containerId: string, result: ProbeResult, podUid: string, containerName: string): boolean {
    if (this.entries.get(containerId) === result) return false;
    this.entries.set(containerId, result);
    this.onUpdate({ kind: this.kind, podUid, containerName, containerId, result });
    return true;
  }

  remove(containerId: string): void {
    this.entries.delete(containerId);
  }

  get size(): number {
    return this.entries.size;
  }
}
