// The decision cache (kube's LRUExpireCache of 1024 entries): each entry kept
// for its own TTL; a read refreshes its recency, never its expiry; the least
// recently used entry goes when a new one does not fit.
export class ExpiringLru<V> {
  /** Insertion order is recency order: a hit moves its entry to the end. */
  private readonly entries = new Map<string, { readonly value: V; readonly expires: number }>();

  constructor(private readonly capacity: number, private readonly now: () => number) {}

  get(key: string): V | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    this.entries.delete(key);
    if (hit.expires <= this.now()) return undefined;
    this.entries.set(key, hit);
    return hit.value;
  }

  /** Keeps `value` for `ttlMs` (nothing when ttlMs ≤ 0). */
  set(key: string, value: V, ttlMs: number): void {
    this.entries.delete(key);
    if (ttlMs <= 0) return;
    if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, expires: this.now() + ttlMs });
  }

  get size(): number {
    return this.entries.size;
  }
}
