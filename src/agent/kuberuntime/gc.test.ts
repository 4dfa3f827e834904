import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tempDir } from '../../testing/tempdir.js';
import { MemoryEvents } from './events.js';
import { FakeImages, FakeRuntime } from './fake.js';
import { garbageCollect } from './gc.js';
import { RuntimeManager } from './manager.js';
import { testPod } from './testpods.js';
import type { Pod } from './types.js';

describe('container garbage collection', () => {
  it('keeps the newest dead instance per container of live pods, removes the dead of gone pods and their old sandboxes', async () => {
    const clock = { now: 1_700_000_000_000 };
    const runtime = new FakeRuntime({ now: () => clock.now });
    const images = new FakeImages();
    images.add('svc.local/busybox:1.35');
    const manager = new RuntimeManager({
      runtime, images, events: new MemoryEvents(), now: () => clock.now, cpuCFSQuota: true, memoryCapacity: 1 << 30, nodeAllocatable: {}, hostIPs: [],
      dns: { clusterDNS: [], clusterDomain: '', resolvConf: '' }, podsDir: tempDir('kr-gc-'), podLogsRoot: tempDir('kr-gc-logs-'),
    });
    const sync = async (p: Pod) => manager.syncPod(p, await manager.getPodStatus({ uid: p.metadata.uid, name: p.metadata.name, namespace: p.metadata.namespace }));
    runtime.onStart = () => ({ exitCode: 1 });
    const live = testPod();
    const gone = testPod({}, { name: 'gone', uid: 'uid-gone' });
    for (let i = 0; i < 3; i++) {
      await sync(live);
      clock.now += 600_000;
    }
    await sync(gone);
    const liveSandbox = [...runtime.sandboxes.values()].find((s) => s.config.metadata.uid === 'uid-1')!;
    const goneSandbox = [...runtime.sandboxes.values()].find((s) => s.config.metadata.uid === 'uid-gone')!;
    await runtime.stopPodSandbox(goneSandbox.id);
    assert.equal([...runtime.containers.values()].filter((c) => c.sandboxId === liveSandbox.id).length, 3);
    const removed = await garbageCollect(runtime, { isPodActive: (uid) => uid === 'uid-1' });
    assert.equal(removed.containers.length, 3);
    assert.deepEqual(removed.sandboxes, [goneSandbox.id]);
    const left = [...runtime.containers.values()];
    assert.equal(left.length, 1);
    assert.equal(left[0].config.metadata.attempt, 2, 'the newest dead instance is kept');
    assert.ok(runtime.sandboxes.has(liveSandbox.id));
  });
});
