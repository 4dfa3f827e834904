// The shared sync loop: nothing syncs before the informers did; failed syncs
// are retried until they succeed, and dropped after MAX_RETRIES.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ControllerClient } from '../client.js';
import type { ControllerContext } from '../context.js';
import { MAX_RETRIES, SyncLoop } from './loop.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const client = { authorizeWatch: async () => {} } as unknown as ControllerClient;

function loop(sync: (key: string) => Promise<boolean>, informersStarted: Promise<void> = Promise.resolve()): SyncLoop {
  const ctx = { informers: { start: () => informersStarted } } as unknown as ControllerContext;
  return new SyncLoop({ ctx, client, target: { group: '', version: 'v1', resource: 'services' }, label: 'test', retryMs: 1, maxBackoffMs: 2, sync, wire: () => [] });
}

async function until(pred: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !pred(); i++) await sleep(5);
}

describe('SyncLoop', () => {
  it('holds keys until the informers have synced', async () => {
    const seen: string[] = [];
    let release!: () => void;
    const l = loop(async (k) => (seen.push(k), true), new Promise((r) => (release = r)));
    void l.start();
    l.enqueue('ns/a');
    await sleep(20);
    assert.deepEqual(seen, []);
    release();
    await until(() => seen.length > 0);
    assert.deepEqual(seen, ['ns/a']);
    l.stop();
  });

  it('retries a key whose sync answers false or throws, until it succeeds', async () => {
    const results = [false, 'throw', false, true];
    let calls = 0;
    const l = loop(async () => {
      const r = results[calls++];
      if (r === 'throw') throw new Error('boom');
      return r as boolean;
    });
    await l.start();
    l.enqueue('ns/a');
    await until(() => calls >= 4);
    await sleep(30);
    assert.equal(calls, 4, 'no retry after success');
    l.stop();
  });

  it(`drops a key after ${MAX_RETRIES} retries`, async () => {
    let calls = 0;
    const l = loop(async () => (calls++, false));
    await l.start();
    l.enqueue('ns/a');
    await until(() => calls >= MAX_RETRIES + 1);
    await sleep(50);
    assert.equal(calls, MAX_RETRIES + 1);
    l.stop();
  });
});
