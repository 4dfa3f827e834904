// A bounded least-recently-used map (k8s.io/utils/lru as client-go's event
// caches use it): `get` and `add` make an entry the most recent; adding past
// the bound drops the least recent one.
export class LruCache<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(readonly maxEntries: number) {
    if (!(maxEntries > 0)) throw new RangeError(`LruCache: maxEntries must be positive, got ${maxEntries}`);
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    if (!this.entries.has(key)) return undefined;
    const value = this.entries.get(key)!;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  add(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as K);
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }
}
