import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseResourceList } from '../../quota/resources.js';
import type { ApiObject } from '../../registry/object.js';
import { CgroupFs, v1Hierarchies } from './cgroupfs.js';
import { CgroupConfigError, ContainerManager } from './manager.js';

const capacity = parseResourceList({ cpu: '2', memory: '2Gi', pid: '4096' });

function realCgroups(): CgroupFs | string {
  if (process.getuid?.() !== 0) return 'not root';
  try {
    const fs = new CgroupFs();
    return fs.controllers.includes('cpu') && fs.controllers.includes('memory') ? fs : 'no cpu and memory v1 hierarchies';
  } catch (err) {
    return (err as Error).message;
  }
}

const pod = (uid: string, resources: Record<string, Record<string, string>> = {}): ApiObject => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name: uid, uid }, spec: { containers: [{ name: 'c', image: 'busybox', resources }] },
});

test('mountinfo: the v1 hierarchies and their controllers', () => {
  const text = [
    '30 22 0:27 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755',
    '31 30 0:28 / /sys/fs/cgroup/cpu,cpuacct rw,relatime - cgroup cgroup rw,cpu,cpuacct',
    '33 30 0:30 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory',
    '39 30 0:36 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,xattr,name=systemd',
    '40 30 0:37 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw',
  ].join('\n');
  assert.deepEqual([...v1Hierarchies(text)], [
    ['/sys/fs/cgroup/cpu,cpuacct', ['cpu', 'cpuacct']], ['/sys/fs/cgroup/memory', ['memory']], ['/sys/fs/cgroup/systemd', ['name=systemd']],
  ]);
  assert.throws(() => new CgroupFs({ mountinfo: '40 30 0:37 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw' }), /no cgroup v1 hierarchy/);
});

test('configuration errors, as kube words them', () => {
  const fs = { exists: () => true } as unknown as CgroupFs;
  const rows: [string[], Partial<ConstructorParameters<typeof ContainerManager>[0]>, RegExp][] = [
    [['pods', 'cpus'], {}, /option "cpus" specified for enforceNodeAllocatable/],
    [['none', 'pods'], {}, /may not contain additional enforcements when "none" is specified/],
    [['system-reserved'], {}, /systemReservedCgroup \(--system-reserved-cgroup\) must be specified/],
    [['svc-reserved'], {}, /svcReservedCgroup \(--svc-reserved-cgroup\) must be specified/],
  ];
  for (const [enforce, extra, want] of rows) {
    assert.throws(() => new ContainerManager({ fs, capacity, enforceNodeAllocatable: enforce, ...extra }), (e: unknown) => e instanceof CgroupConfigError && want.test(e.message), enforce.join(','));
  }
  const flat = new ContainerManager({ fs, capacity, cgroupsPerQOS: false, cgroupRoot: '/pods', enforceNodeAllocatable: [] });
  assert.equal(flat.podCgroup(pod('x')), '/pods');
});

test('kubepods, QoS and pod cgroups on the real cgroupfs', (t) => {
  const fs = realCgroups();
  if (typeof fs === 'string') return t.skip(`cgroup v1 as root is needed: ${fs}`);
  const root = `/svc-cm-test-${process.pid}`;
  fs.create(root);
  const sleeper = spawn('sleep', ['30'], { stdio: 'ignore' });
  try {
    assert.throws(() => new ContainerManager({ fs, capacity, cgroupRoot: `${root}/missing` }).start(), /cgroup-root "\/svc-cm-test-\d+\/missing" doesn't exist/);
    const cm = new ContainerManager({ fs, capacity, cgroupRoot: root, svcReserved: { cpu: '500m', memory: '512Mi' } });
    const events: string[] = [];
    cm.start((e) => events.push(`${e.reason}: ${e.message}`));
    assert.deepEqual(events, ['NodeAllocatableEnforced: Updated Node Allocatable limit across pods']);
    assert.equal(fs.read('cpu', `${root}/kubepods`, 'cpu.shares'), '1536');
    assert.equal(fs.read('memory', `${root}/kubepods`, 'memory.limit_in_bytes'), String(1536 * 1024 * 1024));
    if (fs.controllers.includes('pids')) assert.equal(fs.read('pids', `${root}/kubepods`, 'pids.max'), '4096');
    assert.equal(fs.read('cpu', `${root}/kubepods/besteffort`, 'cpu.shares'), '2');
    assert.equal(fs.read('cpu', `${root}/kubepods/burstable`, 'cpu.shares'), '2');

    const guaranteed = pod('g1', { requests: { cpu: '250m', memory: '32Mi' }, limits: { cpu: '250m', memory: '32Mi' } });
    const burstable = pod('b1', { requests: { cpu: '300m' } });
    const bestEffort = pod('e1');
    assert.equal(cm.ensurePod(guaranteed), `${root}/kubepods/podg1`);
    assert.equal(cm.ensurePod(burstable), `${root}/kubepods/burstable/podb1`);
    assert.equal(cm.ensurePod(bestEffort), `${root}/kubepods/besteffort/pode1`);
    assert.equal(fs.read('cpu', `${root}/kubepods/podg1`, 'cpu.shares'), '256');
    assert.equal(fs.read('cpu', `${root}/kubepods/podg1`, 'cpu.cfs_quota_us'), '25000');
    assert.equal(fs.read('memory', `${root}/kubepods/podg1`, 'memory.limit_in_bytes'), String(32 * 1024 * 1024));
    assert.equal(fs.read('cpu', `${root}/kubepods/burstable/podb1`, 'cpu.cfs_quota_us'), '-1');
    assert.equal(fs.read('cpu', `${root}/kubepods/besteffort/pode1`, 'cpu.shares'), '2');
    if (fs.controllers.includes('cpuset')) assert.notEqual(fs.read('cpuset', `${root}/kubepods/burstable/podb1`, 'cpuset.cpus'), '', 'cpuset filled from the parent');
    // every hierarchy has the pod's folder (containerd puts containers below it)
    assert.ok(existsSync(fs.dir('memory', `${root}/kubepods/burstable/podb1`)!));

    cm.updateQOSCgroups([guaranteed, burstable, pod('b2', { requests: { cpu: '700m' } }), bestEffort]);
    assert.equal(fs.read('cpu', `${root}/kubepods/burstable`, 'cpu.shares'), '1024');
    assert.deepEqual([...cm.podCgroups().keys()].sort(), ['b1', 'e1', 'g1']);

    // a process in e1 keeps its cgroup; b1 is no longer active and empty: removed
    writeFileSync(`${fs.dir('cpu', `${root}/kubepods/besteffort/pode1`)}/cgroup.procs`, String(sleeper.pid));
    assert.deepEqual(cm.cleanupOrphans(new Set(['g1'])), ['b1']);
    assert.equal(fs.exists(`${root}/kubepods/burstable/podb1`), false);
    assert.deepEqual(fs.pids(`${root}/kubepods/besteffort/pode1`), [sleeper.pid]);
    assert.throws(() => cm.removePod('e1'), /failed to remove cgroup/);
    // the process leaves: the pod's cgroup goes
    writeFileSync(`${fs.dir('cpu', '/')}/cgroup.procs`, String(sleeper.pid));
    assert.equal(cm.removePod('e1'), true);
    assert.equal(cm.removePod('e1'), false);
    assert.equal(cm.removePod('g1'), true);
    assert.deepEqual([...cm.podCgroups().keys()], []);
    assert.ok(readFileSync(`${fs.dir('cpu', root)}/cpu.shares`, 'utf8'));
  } finally {
    sleeper.kill('SIGKILL');
    fs.destroy(root);
  }
  assert.equal(fs.exists(root), false, 'test cgroups cleaned up');
});
