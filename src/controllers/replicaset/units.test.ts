// The replica-set controller's pieces: slow-start batches, expectations,
// status, ControllerRef claims.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../registry/object.js';
import { slowStartBatch } from './slowstart.js';
import { Expectations } from './expectations.js';
import { calculateStatus } from './status.js';
import { claimObjects } from './claim.js';

describe('slowStartBatch', () => {
  const cases: { name: string; count: number; failAt?: number; batches: number[]; successes: number }[] = [
    { name: 'all succeed: batches of 1, 2, 4, then the rest', count: 10, batches: [1, 2, 4, 3], successes: 10 },
    { name: 'a failure stops after its batch', count: 10, failAt: 3, batches: [1, 2], successes: 2 },
    { name: 'the first call failing stops at once', count: 10, failAt: 1, batches: [1], successes: 0 },
    { name: 'nothing to do', count: 0, batches: [], successes: 0 },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      let calls = 0;
      let running = 0;
      const batches: number[] = [];
      const r = await slowStartBatch(c.count, 1, async () => {
        const n = ++calls;
        // the calls of one batch all start before any of them ends
        if (running++ === 0) batches.push(1);
        else batches[batches.length - 1]!++;
        await new Promise((res) => setImmediate(res));
        running--;
        if (n === c.failAt) throw new Error('boom');
      });
      assert.deepEqual(batches, c.batches);
      assert.equal(r.successes, c.successes);
      assert.equal(r.error === undefined, c.failAt === undefined);
    });
  }
});

describe('expectations', () => {
  it('creations: unmet until each is observed or skipped; never set or expired counts as met', () => {
    let now = 0;
    const e = new Expectations(() => now, 1000);
    assert.equal(e.satisfied('k'), true);
    e.expectCreations('k', 2);
    assert.equal(e.satisfied('k'), false);
    e.creationObserved('k');
    assert.equal(e.satisfied('k'), false);
    e.creationSkipped('k');
    assert.equal(e.satisfied('k'), true);
    e.expectCreations('k', 1);
    now = 1001;
    assert.equal(e.satisfied('k'), true, 'expired');
  });

  it('deletions are tracked by pod: a pod seen twice (terminating, then gone) counts once', () => {
    const e = new Expectations();
    e.expectDeletions('k', ['ns/a', 'ns/b']);
    e.deletionObserved('k', 'ns/a');
    e.deletionObserved('k', 'ns/a');
    assert.equal(e.satisfied('k'), false);
    e.deletionObserved('k', 'ns/other');
    assert.equal(e.satisfied('k'), false);
    e.deletionObserved('k', 'ns/b');
    assert.equal(e.satisfied('k'), true);
  });
});

const NOW = Date.parse('2026-01-01T12:00:00Z');
const pod = (name: string, labels: Record<string, string>, readySecondsAgo?: number): ApiObject => ({
  metadata: { name, labels },
  status: readySecondsAgo === undefined ? {} : { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: new Date(NOW - readySecondsAgo * 1000).toISOString() }] },
});

describe('replica set status', () => {
  const rs: ApiObject = { metadata: { name: 'r', generation: 2 }, status: { replicas: 0 } };
  it('counts replicas, fully labelled, ready, and available after minReadySeconds', () => {
    const pods = [pod('a', { app: 'x', tier: 'web' }, 30), pod('b', { app: 'x' }, 5), pod('c', { app: 'x', tier: 'web' })];
    const s = calculateStatus(rs, pods, { app: 'x', tier: 'web' }, 10, { failed: false }, NOW);
    assert.deepEqual({ ...s }, { replicas: 3, fullyLabeledReplicas: 2, readyReplicas: 2, availableReplicas: 1 });
  });

  it('ReplicaFailure: FailedCreate or FailedDelete with the error; removed when a sync manages again', () => {
    const failing = calculateStatus(rs, [], {}, 0, { failed: true, creating: true, message: 'pods "r-x" is forbidden: quota' }, NOW);
    assert.deepEqual(failing.conditions, [{ type: 'ReplicaFailure', status: 'True', lastTransitionTime: '2026-01-01T12:00:00Z', reason: 'FailedCreate', message: 'pods "r-x" is forbidden: quota' }]);
    const deleting = calculateStatus(rs, [], {}, 0, { failed: true, creating: false, message: 'no' }, NOW);
    assert.equal(deleting.conditions![0]!.reason, 'FailedDelete');
    const again = calculateStatus({ ...rs, status: failing }, [], {}, 0, { failed: true, creating: true, message: 'other' }, NOW + 5000);
    assert.deepEqual(again.conditions, failing.conditions, 'an existing failure is kept as it was');
    const healed = calculateStatus({ ...rs, status: failing }, [], {}, 0, { failed: false }, NOW);
    assert.equal(healed.conditions, undefined);
  });
});

describe('ControllerRef claims', () => {
  const owner: ApiObject = { metadata: { name: 'rs', namespace: 'ns', uid: 'owner' } };
  const ref = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'owner', controller: true, blockOwnerDeletion: true };
  const obj = (name: string, labels: Record<string, string>, extra: Partial<ApiObject['metadata']> = {}): ApiObject => ({ metadata: { name, namespace: 'ns', uid: `${name}-uid`, labels, ...extra } });

  async function claim(candidates: ApiObject[], o: { owner?: ApiObject; fresh?: ApiObject } = {}) {
    const writes: Record<string, ApiObject> = {};
    let ownerReads = 0;
    const r = await claimObjects(candidates, {
      owner: o.owner ?? owner, ownerRef: ref, resource: { group: '', resource: 'pods' },
      matches: (x) => x.metadata.labels?.app === 'web',
      getOwner: async () => {
        ownerReads++;
        return o.fresh ?? owner;
      },
      write: async (x, mutate) => void (writes[x.metadata.name!] = mutate(structuredClone(x))),
    });
    return { ...r, claimed: r.claimed.map((x) => x.metadata.name), writes, ownerReads };
  }

  it('adopts matching orphans (one fresh read of the owner), keeps its own, releases its non-matching, ignores others\'', async () => {
    const r = await claim([
      obj('orphan', { app: 'web' }), obj('orphan2', { app: 'web' }),
      obj('mine', { app: 'web' }, { ownerReferences: [ref] }),
      obj('strayed', { app: 'db' }, { ownerReferences: [ref] }),
      obj('theirs', { app: 'web' }, { ownerReferences: [{ ...ref, uid: 'other' }] }),
      obj('unrelated', { app: 'db' }),
      obj('terminating', { app: 'web' }, { deletionTimestamp: '2026-01-01T00:00:00Z' }),
    ]);
    assert.deepEqual(r.claimed, ['orphan', 'orphan2', 'mine']);
    assert.deepEqual(Object.keys(r.writes).sort(), ['orphan', 'orphan2', 'strayed']);
    assert.deepEqual(r.writes.orphan!.metadata.ownerReferences, [ref]);
    assert.equal(r.writes.strayed!.metadata.ownerReferences, undefined);
    assert.equal(r.ownerReads, 1);
    assert.deepEqual(r.errors, []);
  });

  it('an owner being deleted adopts nothing and releases nothing', async () => {
    const r = await claim([obj('orphan', { app: 'web' }), obj('strayed', { app: 'db' }, { ownerReferences: [ref] })], { owner: { metadata: { ...owner.metadata, deletionTimestamp: '2026-01-01T00:00:00Z' } } });
    assert.deepEqual(r.claimed, []);
    assert.deepEqual(r.writes, {});
  });

  it('an owner replaced since the cache saw it adopts nothing (kube\'s message)', async () => {
    const r = await claim([obj('orphan', { app: 'web' })], { fresh: { metadata: { ...owner.metadata, uid: 'new' } } });
    assert.deepEqual(r.claimed, []);
    assert.match(String(r.errors[0]), /original ReplicaSet ns\/rs is gone: got uid new, wanted owner/);
  });
});
