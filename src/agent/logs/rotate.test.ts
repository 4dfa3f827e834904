import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { tempDir } from '../../testing/tempdir.js';
import { ContainerLogManager } from './rotate.js';
import type { Container, ContainerStatus } from '../cri/types.js';

function fakeRuntime(containers: Record<string, { path: string; state?: Container['state'] }>, opts: { failReopen?: boolean } = {}) {
  const reopened: string[] = [];
  return {
    reopened,
    listContainers: async (f?: { state?: string }) => Object.entries(containers)
      .filter(([, c]) => !f?.state || (c.state ?? 'CONTAINER_RUNNING') === f.state)
      .map(([id]) => ({ id }) as Container),
    containerStatus: async (id: string) => ({ id, logPath: containers[id]!.path }) as ContainerStatus,
    reopenContainerLog: async (id: string) => {
      if (opts.failReopen) throw new Error('reopen failed');
      reopened.push(id);
      writeFileSync(containers[id]!.path, '');
    },
  };
}

let second = 0;
const clock = () => new Date(2026, 0, 2, 3, 4, second++);

test('rotation: below the size nothing happens; at the size the log is renamed and reopened', async () => {
  const dir = tempDir('svc-rotate-');
  const small = join(dir, 'small.log');
  const big = join(dir, 'big.log');
  const exited = join(dir, 'exited.log');
  writeFileSync(small, 'x'.repeat(99));
  writeFileSync(big, 'y'.repeat(100));
  writeFileSync(exited, 'z'.repeat(500));
  const rt = fakeRuntime({ a: { path: small }, b: { path: big }, c: { path: exited, state: 'CONTAINER_EXITED' } });
  const m = new ContainerLogManager({ runtime: rt, policy: { maxSizeBytes: 100, maxFiles: 3 }, now: clock });
  await m.rotateAll();
  assert.deepEqual(rt.reopened, ['b']);
  assert.deepEqual(readdirSync(dir).sort(), ['big.log', `big.log.20260102-030400`, 'exited.log', 'small.log']);
  assert.equal(readFileSync(join(dir, 'big.log.20260102-030400'), 'utf8'), 'y'.repeat(100));
});

test('rotation: older rotated files compressed, at most maxFiles kept, leftovers cleaned', async () => {
  const dir = tempDir('svc-rotate-');
  const log = join(dir, '0.log');
  const rt = fakeRuntime({ a: { path: log } });
  second = 10;
  const m = new ContainerLogManager({ runtime: rt, policy: { maxSizeBytes: 1, maxFiles: 3 }, now: clock });
  writeFileSync(`${log}.20000101-000000.gz.tmp`, 'half');
  for (const content of ['r1', 'r2', 'r3']) {
    writeFileSync(log, content);
    await m.rotateAll();
  }
  writeFileSync(log, 'live');
  const files = readdirSync(dir).sort();
  assert.deepEqual(files, ['0.log', '0.log.20260102-030411.gz', '0.log.20260102-030412']);
  assert.equal(gunzipSync(readFileSync(join(dir, '0.log.20260102-030411.gz'))).toString(), 'r2');
  assert.equal(readFileSync(join(dir, '0.log.20260102-030412'), 'utf8'), 'r3');
});

test('rotation: a failed reopen renames the log back', async () => {
  const dir = tempDir('svc-rotate-');
  const log = join(dir, '0.log');
  writeFileSync(log, 'content');
  const errors: unknown[] = [];
  const m = new ContainerLogManager({ runtime: fakeRuntime({ a: { path: log } }, { failReopen: true }), policy: { maxSizeBytes: 1, maxFiles: 2 }, now: clock, onError: (_id, e) => errors.push(e) });
  await m.rotateAll();
  assert.equal(errors.length, 1);
  assert.equal(readFileSync(log, 'utf8'), 'content');
  assert.deepEqual(readdirSync(dir), ['0.log']);
  assert.equal(existsSync(`${log}.gz`), false);
});

test('rotation: maxFiles below 2 is refused as kube', () => {
  assert.throws(() => new ContainerLogManager({ runtime: fakeRuntime({}), policy: { maxSizeBytes: 1, maxFiles: 1 } }), /must be > 1/);
});

test('rotation: a container\'s log path is asked of the runtime once, and forgotten when the container stops running', async () => {
  const dir = tempDir('svc-rotate-');
  const containers: Record<string, { path: string; state?: Container['state'] }> = { a: { path: join(dir, 'a.log') } };
  writeFileSync(containers.a!.path, 'x');
  const rt = fakeRuntime(containers);
  const asked: string[] = [];
  const runtime = { ...rt, containerStatus: async (id: string) => (asked.push(id), rt.containerStatus(id)) };
  const m = new ContainerLogManager({ runtime, policy: { maxSizeBytes: 100, maxFiles: 2 }, now: clock });
  await m.rotateAll();
  await m.rotateAll();
  assert.deepEqual(asked, ['a']);
  containers.a!.state = 'CONTAINER_EXITED';
  await m.rotateAll();
  containers.a = { path: join(dir, 'a2.log') };
  writeFileSync(containers.a.path, 'y'.repeat(100));
  await m.rotateAll();
  assert.deepEqual(asked, ['a', 'a']);
  assert.deepEqual(rt.reopened, ['a']);
  assert.ok(readdirSync(dir).some((f) => f.startsWith('a2.log.')), 'the new container\'s log was rotated at its own path');
});
