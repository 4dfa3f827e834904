// Allocation state as claim keys in storage: value v of a pool is taken
// while the key <pool.prefix><v> exists. Claiming is a storage create, so two
// API servers on one etcd (or one SQLite file) can never hand out the same
// value; releasing deletes the key. The key's value names the owner, so a
// release only ever deletes a claim its owner (by uid) still holds.
import type { Store } from '../../storage/interface.js';
import { isStorageError } from '../../storage/errors.js';
import { scanOrder, type Pool } from './ranges.js';

export interface Owner {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
}

/** A claim made by this process: the revision lets undo delete exactly what it created. */
export interface Claim {
  readonly pool: Pool;
  readonly value: number;
  readonly modRevision: number;
}

/** Blind create attempts before dynamic allocation reads the whole pool once. */
const BLIND_ATTEMPTS = 16;
/** Re-tries of an adopt/create race on one key before reporting it taken. */
const ADOPT_ATTEMPTS = 5;

export function claimKey(pool: Pool, value: number): string {
  return pool.prefix + pool.format(value);
}

function encodeOwner(o: Owner): Uint8Array {
  return Buffer.from(JSON.stringify({ kind: 'Service', namespace: o.namespace, name: o.name, uid: o.uid }));
}

export function decodeOwner(value: Uint8Array): Partial<Owner> {
  try {
    const v = JSON.parse(Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('utf8')) as Partial<Owner>;
    return v && typeof v === 'object' ? v : {};
  } catch {
    return {};
  }
}

export class Claims {
  constructor(
    private readonly storage: Store,
    private readonly random: () => number = Math.random,
  ) {}

  /**
   * Claims one value. A claim the same owner (uid) already holds is adopted:
   * it is rewritten, so a concurrent release of it (which deletes only the
   * revision it read) fails rather than freeing a value now in use again.
   * Returns undefined when someone else holds it.
   */
  async claim(pool: Pool, value: number, owner: Owner): Promise<Claim | undefined> {
    const key = claimKey(pool, value);
    for (let attempt = 0; attempt < ADOPT_ATTEMPTS; attempt++) {
      try {
        const kv = await this.storage.create(key, encodeOwner(owner));
        return { pool, value, modRevision: kv.modRevision };
      } catch (err) {
        if (!isStorageError(err, 'KeyExists')) throw err;
      }
      const held = await this.storage.get(key);
      if (!held) continue; // released meanwhile: create again
      if (decodeOwner(held.value).uid !== owner.uid) return undefined;
      try {
        const kv = await this.storage.update(key, encodeOwner(owner), { expectedModRevision: held.modRevision });
        return { pool, value, modRevision: kv.modRevision };
      } catch (err) {
        if (!isStorageError(err, 'Conflict') && !isStorageError(err, 'KeyNotFound')) throw err;
      }
    }
    return undefined;
  }

  /** Whether nobody holds the value (a read; reserves nothing). */
  async isFree(pool: Pool, value: number): Promise<boolean> {
    return (await this.storage.get(claimKey(pool, value))) === null;
  }

  /**
   * Claims a free value in Kubernetes' scan order, skipping `exclude`;
   * undefined when the pool is full.
   */
  async claimNext(pool: Pool, owner: Owner, exclude: ReadonlySet<number> = new Set()): Promise<Claim | undefined> {
    return this.firstFree(pool, exclude, async (value) => {
      try {
        const kv = await this.storage.create(claimKey(pool, value), encodeOwner(owner));
        return { pool, value, modRevision: kv.modRevision };
      } catch (err) {
        if (!isStorageError(err, 'KeyExists')) throw err;
        return undefined;
      }
    });
  }

  /** A value that is free now, in the same order, without claiming it (dry run); undefined when full. */
  async peekNext(pool: Pool, exclude: ReadonlySet<number> = new Set()): Promise<number | undefined> {
    return this.firstFree(pool, exclude, async (value, known) => (known || (await this.isFree(pool, value)) ? value : undefined));
  }

  /**
   * The scan both share: values in scan order, minus `exclude`, each offered to
   * `attempt` until one succeeds. A few blind attempts first (cheap while the
   * pool is sparse), then one read of every claim to skip what is taken;
   * `known` says the value is free as of that read.
   */
  private async firstFree<T>(pool: Pool, exclude: ReadonlySet<number>, attempt: (value: number, known: boolean) => Promise<T | undefined>): Promise<T | undefined> {
    let taken: Set<number> | undefined;
    let misses = 0;
    for (const offset of scanOrder(pool, this.random)) {
      const value = pool.valueAt(offset);
      if (exclude.has(value) || taken?.has(value)) continue;
      if (!taken && misses >= BLIND_ATTEMPTS) {
        taken = await this.taken(pool);
        if (taken.has(value)) continue;
      }
      const got = await attempt(value, taken !== undefined);
      if (got !== undefined) return got;
      misses++;
    }
    return undefined;
  }

  /** Deletes exactly the claim this process made (undo). Already gone or rewritten: left alone. */
  async unclaim(c: Claim): Promise<void> {
    try {
      await this.storage.delete(claimKey(c.pool, c.value), { expectedModRevision: c.modRevision });
    } catch (err) {
      if (!isStorageError(err, 'KeyNotFound') && !isStorageError(err, 'Conflict')) throw err;
    }
  }

  /** Releases the value if `uid` holds it; a claim held by anyone else is never touched. */
  async release(pool: Pool, value: number, uid: string): Promise<boolean> {
    const key = claimKey(pool, value);
    const held = await this.storage.get(key);
    if (!held || decodeOwner(held.value).uid !== uid) return false;
    try {
      await this.storage.delete(key, { expectedModRevision: held.modRevision });
      return true;
    } catch (err) {
      if (isStorageError(err, 'KeyNotFound') || isStorageError(err, 'Conflict')) return false;
      throw err;
    }
  }

  /** Every value of the pool someone holds (claims outside the current range are ignored). */
  async taken(pool: Pool): Promise<Set<number>> {
    const out = new Set<number>();
    let startAfter: string | undefined;
    for (;;) {
      const page = await this.storage.range(pool.prefix, { limit: 10_000, startAfter });
      for (const kv of page.items) {
        const v = pool.parse(kv.key.slice(pool.prefix.length));
        if (v !== undefined && pool.offsetOf(v) !== undefined) out.add(v);
      }
      const last = page.items[page.items.length - 1]?.key;
      if (!page.more || last === undefined) return out;
      startAfter = last;
    }
  }
}
