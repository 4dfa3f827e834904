// Shared pieces of the storage conformance suite: the factory type, unique
// key prefixes, value helpers and a collecting watch sink.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe } from 'node:test';
import type { Store, WatchEvent, WatchHandle } from '../interface.js';
import type { StorageError, StorageErrorCode } from '../errors.js';
import { isStorageError } from '../errors.js';

export interface StoreFactory {
  /** Shown in test names. */
  readonly name: string;
  /** A store for one group of tests; tests use disjoint key prefixes. */
  open(): Promise<Store>;
}

/**
 * A describe block with one store opened before its tests and closed after
 * them. `s` forwards to that store, so tests can be declared before it opens.
 */
export function suite(f: StoreFactory, topic: string, body: (s: Store) => void): void {
  describe(`${f.name}: ${topic}`, () => {
    let store: Store | undefined;
    before(async () => { store = await f.open(); });
    after(async () => { await store?.close(); });
    const s = new Proxy({} as Store, {
      get: (_, prop) => {
        if (!store) throw new Error('the store is not open yet');
        const v = (store as unknown as Record<string | symbol, unknown>)[prop];
        return typeof v === 'function' ? v.bind(store) : v;
      },
    });
    body(s);
  });
}

export function uniquePrefix(topic: string): string {
  return `/conformance/${topic}-${randomBytes(4).toString('hex')}/`;
}

export const text = (s: string): Uint8Array => Buffer.from(s);
export const str = (v: Uint8Array): string => Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString();

export async function rejectsWith(p: Promise<unknown>, code: StorageErrorCode): Promise<StorageError> {
  try {
    await p;
  } catch (err) {
    assert.ok(isStorageError(err), `expected a StorageError ${code}, got ${String(err)}`);
    assert.equal(err.code, code, `expected ${code}, got ${err.code}: ${err.message}`);
    return err;
  }
  assert.fail(`expected ${code}, but the call succeeded`);
}

/** A watch sink that collects events and lets a test wait for a count. */
export class Collector {
  readonly events: WatchEvent[] = [];
  error: Error | undefined;
  handle: WatchHandle | undefined;
  private waiters: { n: number; resolve: () => void }[] = [];

  readonly sink = {
    onEvents: (batch: readonly WatchEvent[]) => {
      this.events.push(...batch);
      this.wake();
    },
    onError: (err: Error) => {
      this.error = err;
      this.wake();
    },
  };

  /** Waits until `n` events (or an error) arrived; fails after `ms`. */
  async waitFor(n: number, ms = 10_000): Promise<void> {
    if (this.events.length >= n || this.error) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${n} events; have ${this.events.length}`)), ms);
      this.waiters.push({ n, resolve: () => (clearTimeout(timer), resolve()) });
    });
  }

  private wake(): void {
    this.waiters = this.waiters.filter((w) => {
      if (this.events.length >= w.n || this.error) {
        w.resolve();
        return false;
      }
      return true;
    });
  }
}

export function keyOf(e: WatchEvent): string {
  return e.type === 'delete' ? e.key : e.kv.key;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
