// The objects a store wrote or read for a write most recently, decoded and
// frozen, by key and revision — so the next write of the same object
// (controllers and appliers write the same objects over and over) neither
// parses its stored JSON again nor stringifies its response: the stored
// bytes an object came from are kept beside it, and a response is spliced
// from them (encoded.ts servedJSON).
//
// Callers get the same object back, so nobody may change one (a write starts
// from a copy or builds a new object, as GenericStore's update paths do).
// Under test (scripts/test.mjs sets SVC_FREEZE_REUSED=1) every remembered
// object is deep-frozen, so a path that modifies one fails loudly; a server
// does not freeze them (freezing a 15 KiB object costs about what parsing it
// does). Memory is bounded by the stored size of the objects kept; the
// oldest are dropped first.
import type { KeyValue } from '../storage/interface.js';
import { deepFreeze, type ApiObject } from './object.js';

/** Stored JSON kept decoded, in bytes (the decoded objects take about 2–3 times as much heap). */
export const RECENT_BYTES = 16 * 1024 * 1024;

interface Entry {
  readonly key: string;
  readonly revision: number;
  readonly obj: ApiObject;
  readonly size: number;
  /** Neighbours in the order remembered (older, newer): dropping the oldest or any entry is O(1). */
  older: Entry | undefined;
  newer: Entry | undefined;
}

/** The stored bytes each remembered object was written as or decoded from. */
const storedBytes = new WeakMap<ApiObject, Uint8Array>();

/** The bytes `obj` was stored as, when it is an object a RecentObjects remembered. */
export function storedFormOf(obj: ApiObject): Uint8Array | undefined {
  return storedBytes.get(obj);
}

export class RecentObjects {
  private readonly entries = new Map<string, Entry>();
  /**
   * The oldest and newest entries. Eviction follows this list, not the Map's
   * own order: a Map iterated from its start walks over the slots of every
   * entry deleted since its last rehash, which cost ≈ 1.8 µs per write at
   * 16,800 entries and 4.0 µs at 33,500 (and grows with them).
   */
  private oldest: Entry | undefined;
  private newest: Entry | undefined;
  private bytes = 0;

  constructor(
    private readonly budget = RECENT_BYTES,
    private readonly freeze = process.env.SVC_FREEZE_REUSED === '1',
  ) {}

  /** The decoded object of `kv`, if it is the version remembered for its key. */
  get(kv: KeyValue): ApiObject | undefined {
    const e = this.entries.get(kv.key);
    return e !== undefined && e.revision === kv.modRevision ? e.obj : undefined;
  }

  /**
   * Remembers `obj` — whose metadata.resourceVersion is `revision` — as the
   * decoded form of `value` stored under `key` (frozen when freezing).
   */
  remember(key: string, revision: number, obj: ApiObject, value: Uint8Array): void {
    this.forget(key);
    if (value.byteLength > this.budget) return;
    if (this.freeze) deepFreeze(obj);
    storedBytes.set(obj, value);
    const e: Entry = { key, revision, obj, size: value.byteLength, older: this.newest, newer: undefined };
    if (this.newest) this.newest.newer = e;
    else this.oldest = e;
    this.newest = e;
    this.entries.set(key, e);
    this.bytes += e.size;
    while (this.bytes > this.budget && this.oldest) this.drop(this.oldest);
  }

  forget(key: string): void {
    const e = this.entries.get(key);
    if (e !== undefined) this.drop(e);
  }

  get size(): number {
    return this.entries.size;
  }

  private drop(e: Entry): void {
    this.entries.delete(e.key);
    this.bytes -= e.size;
    if (e.older) e.older.newer = e.newer;
    else this.oldest = e.newer;
    if (e.newer) e.newer.older = e.older;
    else this.newest = e.older;
    e.older = e.newer = undefined;
  }
}
