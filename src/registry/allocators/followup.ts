// Releases on update (see service.ts): the values an update dropped are
// released only once the update is written — a follow-up watches the
// Service's key and releases what the stored object no longer uses.
import type { Store } from '../../storage/interface.js';
import type { ApiObject } from '../object.js';
import type { Claims } from './claims.js';
import type { Pool } from './ranges.js';
import { clusterIPsOf, isObj, nodePortsOf, portNum } from './servicespec.js';

/** A value to release once the update that dropped it is written. */
export interface Deferred {
  readonly kind: 'ip' | 'port';
  readonly pool: Pool;
  readonly value: number;
}

export function dedupe(items: Deferred[]): Deferred[] {
  const seen = new Set<string>();
  return items.filter((it) => {
    const k = it.pool.prefix + it.value;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * One update's deferred releases: watches the Service's key from the old
 * revision and, on each change and at the deadline, releases the values the
 * stored Service no longer uses (claims.release checks the owner's uid).
 */
export class FollowUp {
  readonly done: Promise<void>;
  private cancelled = false;
  private wake: (() => void) | undefined;
  private finish: (() => void) | undefined;
  private remaining: Deferred[];

  constructor(
    private readonly storage: Store,
    private readonly claims: Claims,
    private readonly key: string,
    private readonly uid: string,
    fromRevision: number,
    items: Deferred[],
    deadlineMs: number,
  ) {
    this.remaining = items;
    this.done = this.run(fromRevision, deadlineMs).catch((err) => {
      console.error(`svc: releasing node ports or cluster IPs dropped by an update of ${key} failed:`, err);
    });
  }

  /** The update failed: release nothing. */
  cancel(): void {
    this.cancelled = true;
    this.finish?.();
  }

  /** Shutdown: one last check now, then stop. */
  finishNow(): void {
    this.finish?.();
  }

  private async run(fromRevision: number, deadlineMs: number): Promise<void> {
    let changed = false;
    let ended = false;
    const ping = () => {
      changed = true;
      this.wake?.();
    };
    this.finish = () => {
      ended = true;
      this.wake?.();
    };
    const timer = setTimeout(() => this.finish?.(), deadlineMs);
    timer.unref?.();
    let handle: { close(): void } | undefined;
    try {
      handle = await this.storage.watch({ prefix: this.key, fromRevision }, {
        onEvents: (events) => {
          if (events.some((e) => (e.type === 'delete' ? e.key : e.kv.key) === this.key)) ping();
        },
        onError: () => this.finish?.(),
      });
    } catch {
      // No watch (history compacted, store closing): the deadline check still runs.
    }
    try {
      while (!this.cancelled && this.remaining.length > 0) {
        if (!changed && !ended) await new Promise<void>((r) => (this.wake = r));
        this.wake = undefined;
        if (this.cancelled) return;
        changed = false;
        await this.releaseUnused();
        if (ended) return;
      }
    } finally {
      clearTimeout(timer);
      handle?.close();
    }
  }

  private async releaseUnused(): Promise<void> {
    const kv = await this.storage.get(this.key);
    let svc: ApiObject | undefined;
    if (kv) {
      try {
        svc = JSON.parse(Buffer.from(kv.value.buffer, kv.value.byteOffset, kv.value.byteLength).toString('utf8')) as ApiObject;
      } catch {
        svc = undefined;
      }
    }
    const same = svc !== undefined && svc.metadata?.uid === this.uid;
    const spec = same && isObj(svc!.spec) ? svc!.spec : {};
    // Anything the stored object mentions counts as used, whatever its type.
    const usedIPs = new Set(clusterIPsOf(spec));
    const usedPorts = new Set(nodePortsOf(spec));
    const hc = portNum(spec.healthCheckNodePort);
    if (hc > 0) usedPorts.add(hc);
    const keep: Deferred[] = [];
    for (const it of this.remaining) {
      const used = it.kind === 'ip' ? usedIPs.has(it.value) : usedPorts.has(it.value);
      if (same && used) {
        keep.push(it);
        continue;
      }
      await this.claims.release(it.pool, it.value, this.uid);
    }
    this.remaining = keep;
  }
}
