// A small expiring cache for review answers (token and access reviews), keyed
// by a SHA-256 of the question so that tokens are never kept in memory as keys.
import { createHash } from 'node:crypto';

export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expires: number }>();
  constructor(private readonly max = 4096, private readonly now: () => number = Date.now) {}

  static key(parts: unknown): string {
    return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
  }

  get(key: string): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.expires > this.now()) return e.value;
    this.entries.delete(key);
    return undefined;
  }

  set(key: string, value: V, ttlMs: number): void {
    if (ttlMs <= 0) return;
    this.entries.delete(key);
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { value, expires: this.now() + ttlMs });
  }
}
