// The scheduler cache: assumed pods count until confirmed or forgotten; pods
// on a node not seen yet wait for it; node changes keep their pods.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SchedulerCache } from './cache.js';
import { testNode, testPod } from './testing.js';

const requested = (c: SchedulerCache, node: string) => c.snapshot().get(node)?.requested.cpu ?? 0;

describe('SchedulerCache', () => {
  it('an assumed pod counts at once; the informer confirms it; forget then changes nothing', () => {
    const c = new SchedulerCache();
    c.addOrUpdateNode(testNode('a'));
    const p = testPod('p', { requests: { cpu: '1' } });
    c.assume(p, 'a');
    assert.equal(requested(c, 'a'), 1000);
    assert.equal(c.isAssumed('default/p'), true);
    c.addOrUpdatePod({ ...p, spec: { ...(p.spec as object), nodeName: 'a' } }, 'a');
    assert.equal(c.isAssumed('default/p'), false);
    c.forget(p);
    assert.equal(requested(c, 'a'), 1000, 'a confirmed pod is not forgotten');
  });

  it('a failed binding forgets the assumption', () => {
    const c = new SchedulerCache();
    c.addOrUpdateNode(testNode('a'));
    const p = testPod('p', { requests: { cpu: '1' } });
    c.assume(p, 'a');
    c.forget(p);
    assert.equal(requested(c, 'a'), 0);
    assert.equal(c.snapshot().get('a')!.pods.size, 0);
  });

  it('pods on an unknown node wait for it, and stay through node updates and re-adds', () => {
    const c = new SchedulerCache();
    c.addOrUpdatePod(testPod('p', { requests: { cpu: '2' }, nodeName: 'late' }), 'late');
    assert.equal(c.snapshot().nodes.length, 0);
    c.addOrUpdateNode(testNode('late'));
    assert.equal(requested(c, 'late'), 2000);
    c.addOrUpdateNode(testNode('late', { labels: { x: 'y' } }));
    assert.equal(requested(c, 'late'), 2000);
    c.removeNode('late');
    c.addOrUpdateNode(testNode('late'));
    assert.equal(requested(c, 'late'), 2000);
    c.removePod('default/p');
    assert.equal(requested(c, 'late'), 0);
  });

  it('image states count the nodes holding each image', () => {
    const c = new SchedulerCache();
    c.addOrUpdateNode(testNode('a', { images: [{ names: ['nginx:1'], sizeBytes: 100 }] }));
    c.addOrUpdateNode(testNode('b', { images: [{ names: ['nginx:1', 'redis:7'], sizeBytes: 100 }] }));
    const s = c.snapshot();
    assert.equal(s.get('a')!.images.get('nginx:1')!.numNodes, 2);
    assert.equal(s.get('b')!.images.get('redis:7')!.numNodes, 1);
  });
});
