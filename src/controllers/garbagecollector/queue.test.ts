// The collector's node queue: several nodes at once, one uid at a time, delayed looks that stop with the queue.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GraphNode } from './graph.js';
import { NodeQueue } from './queue.js';

const node = (uid: string) => new GraphNode({ apiVersion: 'v1', kind: 'ConfigMap', name: uid, uid, namespace: 'ns' }, { virtual: false });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('NodeQueue', () => {
  it('looks at up to `workers` nodes at once, never at one uid twice at the same time', async () => {
    let active = 0;
    let most = 0;
    const perUid = new Map<string, number>();
    const seen: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const q = new NodeQueue(4, async (n) => {
      const uid = n.identity.uid;
      perUid.set(uid, (perUid.get(uid) ?? 0) + 1);
      assert.equal(perUid.get(uid), 1, `one look at ${uid} at a time`);
      most = Math.max(most, ++active);
      await gate;
      seen.push(uid);
      active--;
      perUid.set(uid, perUid.get(uid)! - 1);
      return true;
    }, 60_000, 'test');
    try {
      const nodes = Array.from({ length: 40 }, (_, i) => node(`u${i}`));
      for (const n of nodes) q.add(n);
      for (const n of nodes.slice(0, 10)) q.add(n); // queued again while queued or running
      await sleep(10);
      assert.ok(most > 1 && most <= 4, `at most 4 at once (saw ${most})`);
      release();
      for (let i = 0; i < 500 && seen.length < 40; i++) await sleep(5);
      assert.deepEqual(new Set(seen).size, 40);
    } finally {
      q.stop();
    }
  });

  it('addLater looks again after a delay; stop drops what is pending', async () => {
    const seen: string[] = [];
    const q = new NodeQueue(2, async (n) => (seen.push(n.identity.uid), true), 1, 'test');
    q.addLater(node('a'));
    for (let i = 0; i < 200 && seen.length < 1; i++) await sleep(5);
    assert.deepEqual(seen, ['a']);
    q.stop();
    q.addLater(node('b'));
    await sleep(20);
    assert.deepEqual(seen, ['a'], 'nothing after stop');
  });
});
