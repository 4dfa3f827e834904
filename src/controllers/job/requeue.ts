// A key added to a work queue later (client-go's AddAfter): one pending wait
// per key, the earliest kept, measured on the controller's clock.
import type { Clock } from './clock.js';

export class Requeue {
  private readonly pending = new Map<string, { at: number; cancel: () => void }>();

  constructor(private readonly clock: Clock, private readonly add: (key: string) => void) {}

  after(key: string, ms: number): void {
    const at = this.clock.now() + Math.max(0, ms);
    const have = this.pending.get(key);
    if (have && have.at <= at) return;
    have?.cancel();
    const cancel = this.clock.after(ms, () => {
      this.pending.delete(key);
      this.add(key);
    });
    this.pending.set(key, { at, cancel });
  }

  forget(key: string): void {
    this.pending.get(key)?.cancel();
    this.pending.delete(key);
  }

  stop(): void {
    for (const p of this.pending.values()) p.cancel();
    this.pending.clear();
  }
}
