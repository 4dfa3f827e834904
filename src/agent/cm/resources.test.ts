import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '../../registry/object.js';
import { hugePageFileSize, milliCPUToQuota, milliCPUToShares, podResourceConfig } from './resources.js';

type Res = { requests?: Record<string, string>; limits?: Record<string, string> };
const pod = (containers: Res[], extra: { init?: Res[]; overhead?: Record<string, string> } = {}): ApiObject => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', uid: 'u1' },
  spec: {
    containers: containers.map((resources, i) => ({ name: `c${i}`, image: 'busybox', resources })),
    ...(extra.init ? { initContainers: extra.init.map((resources, i) => ({ name: `i${i}`, image: 'busybox', resources })) } : {}),
    ...(extra.overhead ? { overhead: extra.overhead } : {}),
  },
});

test('cpu conversions', () => {
  const rows: [number, number, number][] = [[0, 2, 0], [1, 2, 1000], [100, 102, 10000], [250, 256, 25000], [1000, 1024, 100000], [5, 5, 1000], [300000, 262144, 30000000]];
  for (const [milli, shares, quota] of rows) {
    assert.equal(milliCPUToShares(milli), shares, `shares of ${milli}m`);
    assert.equal(milliCPUToQuota(milli, 100_000), quota, `quota of ${milli}m`);
  }
  assert.equal(milliCPUToQuota(500, 50_000), 25_000);
  assert.equal(hugePageFileSize('hugepages-2Mi'), '2MB');
  assert.equal(hugePageFileSize('hugepages-1Gi'), '1GB');
  assert.equal(hugePageFileSize('memory'), undefined);
});

test("a pod's cgroup values by QoS class", () => {
  const g = { requests: { cpu: '500m', memory: '64Mi' }, limits: { cpu: '500m', memory: '64Mi' } };
  const rows: { name: string; pod: ApiObject; opts?: Parameters<typeof podResourceConfig>[1]; want: ReturnType<typeof podResourceConfig> }[] = [
    { name: 'best effort', pod: pod([{}]), want: { cpuShares: 2 } },
    { name: 'guaranteed, two containers', pod: pod([g, g]), want: { cpuShares: 1024, cpuQuota: 100000, cpuPeriod: 100000, memory: 128 * 1024 * 1024 } },
    { name: 'guaranteed without cfs quota', pod: pod([g]), opts: { enforceCPULimits: false }, want: { cpuShares: 512, cpuQuota: -1, cpuPeriod: 100000, memory: 64 * 1024 * 1024 } },
    { name: 'guaranteed, 50 ms period, pids', pod: pod([g]), opts: { cpuPeriodUs: 50_000, podPidsLimit: 100 }, want: { cpuShares: 512, cpuQuota: 25000, cpuPeriod: 50000, memory: 64 * 1024 * 1024, pidsLimit: 100 } },
    { name: 'burstable, requests only', pod: pod([{ requests: { cpu: '100m' } }]), want: { cpuShares: 102 } },
    { name: 'burstable, memory limits on every container', pod: pod([{ requests: { cpu: '100m' }, limits: { memory: '32Mi' } }, { limits: { memory: '32Mi' } }]), want: { cpuShares: 102, memory: 64 * 1024 * 1024 } },
    { name: 'burstable, cpu limit on one container only', pod: pod([{ requests: { cpu: '1' }, limits: { cpu: '1' } }, { requests: { cpu: '100m' } }]), want: { cpuShares: 1126 } },
    { name: 'init container larger than the app containers', pod: pod([{ requests: { cpu: '100m' } }], { init: [{ requests: { cpu: '1' } }] }), want: { cpuShares: 1024 } },
    { name: 'overhead added', pod: pod([g], { overhead: { cpu: '250m', memory: '16Mi' } }), want: { cpuShares: 768, cpuQuota: 75000, cpuPeriod: 100000, memory: 80 * 1024 * 1024 } },
    { name: 'huge pages', pod: pod([{ requests: { cpu: '1', memory: '1Gi', 'hugepages-2Mi': '4Mi' }, limits: { cpu: '1', memory: '1Gi', 'hugepages-2Mi': '4Mi' } }]), want: { cpuShares: 1024, cpuQuota: 100000, cpuPeriod: 100000, memory: 1024 ** 3, hugePageLimits: { '2MB': 4 * 1024 * 1024 } } },
  ];
  for (const r of rows) assert.deepEqual(podResourceConfig(r.pod, r.opts), r.want, r.name);
});
