// The `svc agent` process's full garbage collections, paced as Go's runtime
// paces the kubelet's (GOGC: collect when the heap has grown by a fraction of
// what survived the last collection). V8 left to itself lets the old
// generation grow to its first limit (tens of MB) before a full collection,
// so a burst — 30 pods starting at once — leaves 10–15 MB of dead objects
// committed until V8's memory reducer runs, seconds after allocation calms.
// Every `periodMs` the collector compares the heap in use with the live size
// the last collection left and, past `live × (1 + growth) + slack`, runs a
// full, compacting collection: a plain one frees the dead objects but keeps
// their pages (the live ones are spread over them), a compacting one moves
// the live objects together and gives the rest back — the old generation
// back to the live size (V8's memory reducer does the same, later). V8's `gc`
// is reached with --expose-gc set at run time (vm context), not exposed to
// other code; --compact-on-every-full-gc is set around our collections only.
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface CollectorPolicy {
  /** The fraction of the live heap it may grow by (0.25: 25 %). */
  readonly growth: number;
  /** Bytes it may grow by on top (a small heap is not collected over and over). */
  readonly slackBytes: number;
}

export const AGENT_POLICY: CollectorPolicy = { growth: 0.25, slackBytes: 4 << 20 };

/** Whether a heap of `usedBytes` is due for a collection, `liveBytes` having survived the last one. */
export function collectionDue(usedBytes: number, liveBytes: number, policy: CollectorPolicy = AGENT_POLICY): boolean {
  return usedBytes > liveBytes * (1 + policy.growth) + policy.slackBytes;
}

export interface CollectorOptions {
  readonly policy?: CollectorPolicy;
  readonly periodMs?: number;
  /** The heap in use, bytes (default: V8's used_heap_size). */
  readonly heapUsed?: () => number;
  /** A full collection (default: V8's gc). */
  readonly collect?: () => void;
}

export class HeapCollector {
  private timer: NodeJS.Timeout | undefined;
  private live: number;
  /** How many collections it ran, and the milliseconds they took. */
  collections = 0;
  spentMs = 0;
  private readonly heapUsed: () => number;
  private readonly collect: () => void;

  constructor(private readonly opts: CollectorOptions = {}) {
    this.heapUsed = opts.heapUsed ?? (() => getHeapStatistics().used_heap_size);
    this.collect = opts.collect ?? v8Collect();
    this.live = this.heapUsed();
  }

  start(): void {
    this.timer = setInterval(() => this.tick(), this.opts.periodMs ?? 2000);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** One check: a collection when due; the live size it left is the next baseline. */
  tick(): boolean {
    if (!collectionDue(this.heapUsed(), this.live, this.opts.policy)) return false;
    const t0 = performance.now();
    this.collect();
    this.spentMs += performance.now() - t0;
    this.collections++;
    this.live = this.heapUsed();
    return true;
  }
}

/** V8's full, compacting collection, without exposing `gc` as a global. */
function v8Collect(): () => void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  return () => {
    setFlagsFromString('--compact-on-every-full-gc');
    try {
      gc();
    } finally {
      setFlagsFromString('--no-compact-on-every-full-gc');
    }
  };
}
