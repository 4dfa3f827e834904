// Decoded objects shared by every reader that only looks (informers, admission
// plugins, as kube's listers): a stored value is decoded once per version and
// deep-frozen; an object the store is writing is shared as it was written
// (no decode of its bytes), and whole lists of a prefix are kept while the
// watch cache shows no change under it. One per GenericStore (store.ts).
import type { KeyValue } from '../storage/interface.js';
import { deepFreeze, type ApiObject } from './object.js';
import type { RecentObjects } from './recent.js';

/** Prefixes whose lists are kept (past it, all are forgotten). */
const LISTS_MAX = 1024;

export class SharedObjects {
  /** Decoded objects, by stored value (a new write is a new KeyValue). */
  private readonly objects = new WeakMap<KeyValue, ApiObject>();
  /** Objects being written, by the bytes they were encoded to, while their write is under way. */
  private readonly writing = new WeakMap<Uint8Array, ApiObject>();
  /** Lists by prefix, with the cache revision they were read at. */
  private readonly lists = new Map<string, { revision: number; items: readonly ApiObject[] }>();

  constructor(private readonly recent: RecentObjects, private readonly decode: (kv: KeyValue) => ApiObject) {}

  /** `kv` decoded once and shared, deep-frozen. */
  object(kv: KeyValue): ApiObject {
    let obj = this.objects.get(kv);
    if (!obj) this.objects.set(kv, (obj = deepFreeze(this.written(kv) ?? this.decode(kv))));
    return obj;
  }

  /**
   * Runs `write`, which stores `value`, the encoding of `obj`: an informer
   * decoding the write's event meanwhile shares `obj` (see written()). Only
   * while the write is under way — the watch cache keeps the bytes, so an
   * entry left behind would keep the object alive with them.
   */
  async storing<T>(obj: ApiObject, value: Uint8Array, write: () => Promise<T>): Promise<T> {
    this.writing.set(value, obj);
    try {
      return await write();
    } finally {
      this.writing.delete(value);
    }
  }

  /** The kept list of `prefix` if the cache shows no change under it since it was read (`unchangedSince`). */
  list(prefix: string, unchangedSince: (prefix: string, revision: number) => boolean): readonly ApiObject[] | undefined {
    const memo = this.lists.get(prefix);
    return memo && unchangedSince(prefix, memo.revision) ? memo.items : undefined;
  }

  /** Keeps `items` (stored values) as the list of `prefix` read at `revision`; answers them shared. */
  keepList(prefix: string, revision: number, items: readonly KeyValue[]): readonly ApiObject[] {
    const objects = Object.freeze(items.map((kv) => this.object(kv)));
    if (this.lists.size >= LISTS_MAX) this.lists.clear();
    this.lists.set(prefix, { revision, items: objects });
    return objects;
  }

  /**
   * The object the store wrote as `kv`, when it still knows it: an informer
   * sees a write's event before the write's own continuation runs (SQLite
   * notifies at commit) or after it (then the object is a recent one). It is
   * shared from then on: the writer only stamps its resourceVersion, which is
   * stamped here first, so decoding the bytes again is not needed.
   */
  private written(kv: KeyValue): ApiObject | undefined {
    // Looked up by the bytes: the event's KeyValue is not the one the write will be answered with.
    const obj = this.writing.get(kv.value);
    if (obj === undefined) return this.recent.get(kv);
    this.writing.delete(kv.value);
    stampRevision(obj, kv.modRevision);
    return obj;
  }
}

/** Sets the resourceVersion a write was stored at (an object an informer already shares carries it, frozen). */
export function stampRevision(obj: ApiObject, revision: number): void {
  const rv = String(revision);
  if (obj.metadata.resourceVersion !== rv) obj.metadata.resourceVersion = rv;
}
