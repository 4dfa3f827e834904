// client-go's flowcontrol.Backoff as the kubelet uses it (no jitter): per key,
// a delay that starts at `initial` and doubles up to `max` on each Next; an
// entry whose last update is more than 2·max before the event counts as
// stale and starts over (a container that ran 10 minutes restarts at 10 s).
export interface BackoffOptions {
  readonly initialMs: number;
  readonly maxMs: number;
  readonly now?: () => number;
}

interface Entry {
  backoff: number;
  lastUpdate: number;
}

export class Backoff {
  private readonly entries = new Map<string, Entry>();
  readonly now: () => number;
  constructor(private readonly opts: BackoffOptions) {
    this.now = opts.now ?? Date.now;
  }

  private expired(eventTime: number, lastUpdate: number): boolean {
    return eventTime - lastUpdate > this.opts.maxMs * 2;
  }

  /** The current delay for the key (0 when none). */
  get(key: string): number {
    return this.entries.get(key)?.backoff ?? 0;
  }

  /** Moves the key's delay on: the initial one for a new or stale entry, else doubled up to max. */
  next(key: string, eventTime: number): void {
    const e = this.entries.get(key);
    if (!e || this.expired(eventTime, e.lastUpdate)) this.entries.set(key, { backoff: this.opts.initialMs, lastUpdate: this.now() });
    else {
      e.backoff = Math.min(e.backoff * 2, this.opts.maxMs);
      e.lastUpdate = this.now();
    }
  }

  /** Whether less than the delay has passed since eventTime (kube's IsInBackOffSince). */
  inBackOffSince(key: string, eventTime: number): boolean {
    const e = this.entries.get(key);
    if (!e || this.expired(eventTime, e.lastUpdate)) return false;
    return this.now() - eventTime < e.backoff;
  }

  /** Whether less than the delay has passed since the last update (kube's IsInBackOffSinceUpdate). */
  inBackOffSinceUpdate(key: string, eventTime: number): boolean {
    const e = this.entries.get(key);
    if (!e || this.expired(eventTime, e.lastUpdate)) return false;
    return eventTime - e.lastUpdate < e.backoff;
  }

  /** How long until the delay since the last update ends (0 when none runs). */
  remainingSinceUpdate(key: string): number {
    const e = this.entries.get(key);
    return e ? Math.max(0, e.lastUpdate + e.backoff - this.now()) : 0;
  }

  /** How long until the delay since eventTime ends (0 when none runs). */
  remainingSince(key: string, eventTime: number): number {
    const e = this.entries.get(key);
    return e && !this.expired(eventTime, e.lastUpdate) ? Math.max(0, eventTime + e.backoff - this.now()) : 0;
  }

  /** Drops entries not updated for 2·max. */
  gc(): void {
    const now = this.now();
    for (const [k, e] of this.entries) if (now - e.lastUpdate > this.opts.maxMs * 2) this.entries.delete(k);
  }

  reset(key: string): void {
    this.entries.delete(key);
  }
}

/** The kubelet's crash-loop and image-pull back-off: 10 s doubling to 5 min. */
export const containerBackoff = (now?: () => number): Backoff => new Backoff({ initialMs: 10_000, maxMs: 300_000, now });
