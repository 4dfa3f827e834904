// A binary heap whose items are also found by key (kube's scheduler
// internal/heap): the activeQ pops its best pod in O(log n) instead of
// scanning every pending pod, and a pod is removed or replaced by key.
// `less(a, b)` says a comes out before b; it must not change while an item
// is in the heap (set() with a new item re-places it).

export class KeyedHeap<T> {
  private readonly items: T[] = [];
  private readonly keys: string[] = [];
  private readonly index = new Map<string, number>();

  constructor(private readonly less: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.items.length;
  }

  has(key: string): boolean {
    return this.index.has(key);
  }

  get(key: string): T | undefined {
    const i = this.index.get(key);
    return i === undefined ? undefined : this.items[i];
  }

  /** Adds the item, or replaces the one of its key and re-places it. */
  set(key: string, item: T): void {
    const i = this.index.get(key);
    if (i !== undefined) {
      this.items[i] = item;
      this.fix(i);
      return;
    }
    this.items.push(item);
    this.keys.push(key);
    this.index.set(key, this.items.length - 1);
    this.up(this.items.length - 1);
  }

  delete(key: string): boolean {
    const i = this.index.get(key);
    if (i === undefined) return false;
    this.removeAt(i);
    return true;
  }

  /** The first item without removing it. */
  peek(): T | undefined {
    return this.items[0];
  }

  pop(): T | undefined {
    if (this.items.length === 0) return undefined;
    const top = this.items[0];
    this.removeAt(0);
    return top;
  }

  values(): IterableIterator<T> {
    return this.items.values();
  }

  private removeAt(i: number): void {
    const last = this.items.length - 1;
    this.index.delete(this.keys[i]!);
    if (i !== last) {
      this.items[i] = this.items[last]!;
      this.keys[i] = this.keys[last]!;
      this.index.set(this.keys[i]!, i);
    }
    this.items.pop();
    this.keys.pop();
    if (i < this.items.length) this.fix(i);
  }

  private fix(i: number): void {
    if (!this.up(i)) this.down(i);
  }

  private swap(i: number, j: number): void {
    const it = this.items[i]!;
    this.items[i] = this.items[j]!;
    this.items[j] = it;
    const k = this.keys[i]!;
    this.keys[i] = this.keys[j]!;
    this.keys[j] = k;
    this.index.set(this.keys[i]!, i);
    this.index.set(this.keys[j]!, j);
  }

  /** Moves item i towards the root; whether it moved. */
  private up(i: number): boolean {
    const start = i;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(this.items[i]!, this.items[parent]!)) break;
      this.swap(i, parent);
      i = parent;
    }
    return i !== start;
  }

  private down(i: number): void {
    const n = this.items.length;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) return;
      const r = l + 1;
      const child = r < n && this.less(this.items[r]!, this.items[l]!) ? r : l;
      if (!this.less(this.items[child]!, this.items[i]!)) return;
      this.swap(i, child);
      i = child;
    }
  }
}
