// Bounded concurrency per key (one key per admission webhook): at most
// `perKey` calls of a key run at once; later ones wait in order. A waiting
// call leaves the queue when its signal aborts (its deadline counts from the
// call, not from the slot), so a hung webhook holds only its own slots.

import type { Cancel } from './deadline.js';

/** Idle keys kept before they are dropped (a key per webhook). */
const IDLE_KEPT = 256;

export class KeyedLimiter {
  private readonly keys = new Map<string, { running: number; waiting: Array<() => void> }>();

  constructor(readonly perKey: number) {
    if (!(perKey >= 1)) throw new RangeError(`perKey must be at least 1, not ${perKey}`);
  }

  /** A release function when a slot of `key` is free now (no promise, no turn of the microtask queue); else undefined and nothing held. */
  tryAcquire(key: string): (() => void) | undefined {
    const k = this.keys.get(key);
    if (k && k.running >= this.perKey) return undefined;
    const slot = k ?? { running: 0, waiting: [] };
    if (!k) this.keys.set(key, slot);
    slot.running++;
    return this.releaser(key, slot);
  }

  /** Resolves with a release function once a slot of `key` is free; rejects with the signal's reason when it aborts first. */
  acquire(key: string, signal?: Cancel): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    let k = this.keys.get(key);
    if (!k) this.keys.set(key, (k = { running: 0, waiting: [] }));
    const slot = k;
    const release = this.releaser(key, slot);
    if (slot.running < this.perKey) {
      slot.running++;
      return Promise.resolve(release);
    }
    return new Promise((resolve, reject) => {
      const start = () => {
        signal?.removeEventListener('abort', onAbort);
        slot.running++;
        resolve(release);
      };
      const onAbort = () => {
        const i = slot.waiting.indexOf(start);
        if (i >= 0) slot.waiting.splice(i, 1);
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      slot.waiting.push(start);
    });
  }

  /**
   * Frees one slot of `key` (once, however often called) and starts the next
   * waiting call. An idle key's entry stays (a key that goes idle between
   * calls, as a webhook under light load does every call, would otherwise be
   * deleted and made again each time); idle entries are dropped once there
   * are more than IDLE_KEPT keys.
   */
  private releaser(key: string, slot: { running: number; waiting: Array<() => void> }): () => void {
    return once(() => {
      slot.running--;
      const next = slot.waiting.shift();
      if (next) next();
      else if (slot.running === 0 && this.keys.size > IDLE_KEPT) this.dropIdle();
    });
  }

  private dropIdle(): void {
    for (const [k, s] of this.keys) if (s.running === 0 && s.waiting.length === 0) this.keys.delete(k);
  }

  /** Calls of `key` running and waiting. */
  load(key: string): { running: number; waiting: number } {
    const k = this.keys.get(key);
    return { running: k?.running ?? 0, waiting: k?.waiting.length ?? 0 };
  }
}

function once(fn: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
}
