// Back-off per key (client-go's flowcontrol.Backoff, no jitter): the daemon
// controller deletes a failed daemon pod on a node at once the first time,
// then waits 1 s, 2 s, 4 s … up to 15 min between deletions on the same node
// (the kubelet may keep rejecting the pod). An entry untouched for twice the
// maximum counts as expired: the next failure starts again at 1 s.
export const FAILED_POD_BACKOFF_INITIAL_MS = 1000;
export const FAILED_POD_BACKOFF_MAX_MS = 15 * 60 * 1000;

interface Entry {
  backoffMs: number;
  lastUpdate: number;
}

export class Backoff {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly initialMs = FAILED_POD_BACKOFF_INITIAL_MS, private readonly maxMs = FAILED_POD_BACKOFF_MAX_MS) {}

  private expired(e: Entry, now: number): boolean {
    return now - e.lastUpdate > 2 * this.maxMs;
  }

  /** The current delay of the key (0 when it has none). */
  get(key: string): number {
    return this.entries.get(key)?.backoffMs ?? 0;
  }

  /** Records an event: the delay starts at the initial value, or doubles (capped). */
  next(key: string, now: number): void {
    const e = this.entries.get(key);
    if (!e || this.expired(e, now)) {
      this.entries.set(key, { backoffMs: this.initialMs, lastUpdate: now });
      return;
    }
    e.backoffMs = Math.min(e.backoffMs * 2, this.maxMs);
    e.lastUpdate = now;
  }

  /** Whether the key's delay since its last event has not yet passed. */
  inBackoffSinceUpdate(key: string, now: number): boolean {
    const e = this.entries.get(key);
    if (!e || this.expired(e, now)) return false;
    return now - e.lastUpdate < e.backoffMs;
  }

  /** Drops expired entries (kube runs it every minute). */
  gc(now: number): void {
    for (const [k, e] of this.entries) if (this.expired(e, now)) this.entries.delete(k);
  }
}
