// A least-recently-used map of a fixed size (hashicorp/golang-lru, which kube
// keeps its buckets in): a get of a present key makes it the most recent; an
// add beyond the size evicts the least recently used key. A Map keeps
// insertion order, so re-inserting a key on use makes the first key the
// oldest.
export class Lru<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly size: number) {
    if (!Number.isInteger(size) || size <= 0) throw new RangeError('must provide a positive size');
  }

  get(key: K): V | undefined {
    const v = this.entries.get(key);
    if (v === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, v);
    return v;
  }

  /** The value of `key`, made by `make` (and added, evicting the oldest when full) when absent. */
  getOrAdd(key: K, make: () => V): V {
    const v = this.get(key);
    if (v !== undefined) return v;
    const made = make();
    this.entries.set(key, made);
    if (this.entries.size > this.size) this.entries.delete(this.entries.keys().next().value as K);
    return made;
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  get length(): number {
    return this.entries.size;
  }
}
