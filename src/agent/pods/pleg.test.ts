import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Container, PodSandbox, RuntimeService } from '../cri/types.js';
import { Pleg, POD_UID_LABEL } from './pleg.js';

const sandbox = (id: string, uid: string, state: PodSandbox['state'] = 'SANDBOX_READY'): PodSandbox => ({
  id, state, createdAt: 0, metadata: { name: 'p', namespace: 'ns', uid, attempt: 0 }, labels: { [POD_UID_LABEL]: uid }, annotations: {},
});
const container = (id: string, uid: string, state: Container['state']): Container => ({
  id, podSandboxId: 's', state, createdAt: 0, metadata: { name: 'c', attempt: 0 }, image: { image: 'i' }, imageRef: 'i', labels: { [POD_UID_LABEL]: uid }, annotations: {},
});

test('a relist reports the pods whose sandboxes or containers changed, appeared or went', async () => {
  let sandboxes: PodSandbox[] = [sandbox('s1', 'a'), sandbox('s2', 'b')];
  let containers: Container[] = [container('c1', 'a', 'CONTAINER_RUNNING'), container('c2', 'b', 'CONTAINER_RUNNING')];
  const runtime = { listPodSandbox: async () => sandboxes, listContainers: async () => containers } as unknown as RuntimeService;
  const changed: string[] = [];
  let now = 0;
  const pleg = new Pleg({ runtime, onPodChanged: (uid) => changed.push(uid), now: () => now });
  await pleg.relist();
  assert.deepEqual(changed.sort(), ['a', 'b']);
  changed.length = 0;
  await pleg.relist();
  assert.deepEqual(changed, [], 'nothing changed');
  containers = [container('c1', 'a', 'CONTAINER_EXITED'), container('c2', 'b', 'CONTAINER_RUNNING')];
  await pleg.relist();
  assert.deepEqual(changed, ['a']);
  changed.length = 0;
  sandboxes = [sandbox('s1', 'a')];
  containers = [container('c1', 'a', 'CONTAINER_EXITED')];
  await pleg.relist();
  assert.deepEqual(changed, ['b'], 'a pod whose sandbox and containers went');
  assert.equal(pleg.healthy().ok, true);
  now = 4 * 60_000;
  assert.deepEqual(pleg.healthy(), { ok: false, message: 'pleg was last seen active 240s ago; threshold is 3m0s' });
});
