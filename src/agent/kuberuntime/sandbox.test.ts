import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryEvents } from './events.js';
import { dottedSysctl, sandboxConfig, SandboxConfigError, type SandboxOptions } from './sandbox.js';
import { testContainer, testPod } from './testpods.js';

const opts = (o: Partial<SandboxOptions> = {}): SandboxOptions => ({
  dns: { clusterDNS: ['10.96.0.10'], clusterDomain: 'cluster.local', resolvConf: '' }, cpuCFSQuota: true, events: new MemoryEvents(), ...o,
});

describe('sandbox config', () => {
  it('metadata, log folder, kube labels beside the pod labels, annotations, cgroup parent', () => {
    const pod = testPod({}, { labels: { app: 'web' }, annotations: { note: 'x' } });
    const c = sandboxConfig(pod, 2, opts({ cgroupParent: '/kubepods/besteffort/poduid-1', podLogsRoot: '/tmp/logs' }));
    assert.deepEqual(c.metadata, { name: 'web', namespace: 'ns1', uid: 'uid-1', attempt: 2 });
    assert.equal(c.logDirectory, '/tmp/logs/ns1_web_uid-1');
    assert.deepEqual(c.labels, { app: 'web', 'io.kubernetes.pod.name': 'web', 'io.kubernetes.pod.namespace': 'ns1', 'io.kubernetes.pod.uid': 'uid-1' });
    assert.deepEqual(c.annotations, { note: 'x' });
    assert.equal(c.linux?.cgroupParent, '/kubepods/besteffort/poduid-1');
    assert.equal(c.hostname, 'web');
    assert.deepEqual(c.dnsConfig?.searches, ['ns1.svc.cluster.local', 'svc.cluster.local', 'cluster.local']);
    assert.equal(sandboxConfig(pod, 0, opts()).logDirectory, '/var/log/pods/ns1_web_uid-1');
  });

  const hostnames: { name: string; spec: Parameters<typeof testPod>[0]; podName?: string; want?: string; error?: string }[] = [
    { name: 'spec.hostname wins over the pod name', spec: { hostname: 'h1' }, want: 'h1' },
    { name: 'setHostnameAsFQDN with a subdomain gives the FQDN', spec: { hostname: 'h1', subdomain: 'sub', setHostnameAsFQDN: true }, want: 'h1.sub.ns1.svc.cluster.local' },
    { name: 'a subdomain alone keeps the short name', spec: { subdomain: 'sub' }, want: 'web' },
    { name: 'host network pods get no hostname', spec: { hostNetwork: true, hostname: 'h1' }, want: undefined },
    { name: 'long pod names are cut to 63 without trailing dashes or dots', spec: {}, podName: `${'a'.repeat(62)}-b`, want: 'a'.repeat(62) },
    { name: 'an FQDN over 64 characters is refused', spec: { hostname: 'h'.repeat(40), subdomain: 'sub', setHostnameAsFQDN: true },
      error: `failed to construct FQDN from pod hostname and cluster domain, FQDN ${'h'.repeat(40)}.sub.ns1.svc.cluster.local is too long (64 characters is the max, 66 characters requested)` },
  ];
  for (const h of hostnames) {
    it(`hostname: ${h.name}`, () => {
      const pod = testPod(h.spec, h.podName ? { name: h.podName } : {});
      if (h.error) {
        assert.throws(() => sandboxConfig(pod, 0, opts()), (e: Error) => e instanceof SandboxConfigError && e.message === h.error);
        return;
      }
      assert.equal(sandboxConfig(pod, 0, opts()).hostname, h.want);
    });
  }

  it('port mappings from every container port, duplicates skipped, protocol and host IP kept', () => {
    const pod = testPod({
      containers: [
        testContainer({ ports: [{ containerPort: 80, hostPort: 8080 }, { containerPort: 80, hostPort: 8080 }, { name: 'dns', containerPort: 53, protocol: 'UDP', hostIP: '127.0.0.1' }] }),
        testContainer({ name: 'side', ports: [{ containerPort: 9090 }] }),
      ],
    });
    assert.deepEqual(sandboxConfig(pod, 0, opts()).portMappings, [
      { protocol: 'TCP', containerPort: 80, hostPort: 8080, hostIp: '' },
      { protocol: 'UDP', containerPort: 53, hostPort: 0, hostIp: '127.0.0.1' },
      { protocol: 'TCP', containerPort: 9090, hostPort: 0, hostIp: '' },
    ]);
  });

  const namespaces: { name: string; spec: Parameters<typeof testPod>[0]; want: object }[] = [
    { name: 'defaults', spec: {}, want: { network: 'POD', pid: 'CONTAINER', ipc: 'POD' } },
    { name: 'host namespaces', spec: { hostNetwork: true, hostPID: true, hostIPC: true }, want: { network: 'NODE', pid: 'NODE', ipc: 'NODE' } },
    { name: 'shared process namespace', spec: { shareProcessNamespace: true }, want: { network: 'POD', pid: 'POD', ipc: 'POD' } },
  ];
  for (const n of namespaces) {
    it(`namespaces: ${n.name}`, () => assert.deepEqual(sandboxConfig(testPod(n.spec), 0, opts()).linux?.securityContext?.namespaceOptions, n.want));
  }

  it('security context: user, group, fsGroup before supplemental groups, seccomp always RuntimeDefault, privileged when a container is', () => {
    const pod = testPod({
      securityContext: { runAsUser: 1000, runAsGroup: 2000, fsGroup: 3000, supplementalGroups: [4000, 5000], seccompProfile: { type: 'Unconfined' }, sysctls: [{ name: 'net/ipv4/ip_unprivileged_port_start', value: '0' }, { name: 'kernel.shm_rmid_forced', value: '1' }] },
      initContainers: [testContainer({ name: 'init', securityContext: { privileged: true } })],
    });
    const l = sandboxConfig(pod, 0, opts()).linux!;
    assert.deepEqual(l.securityContext, {
      namespaceOptions: { network: 'POD', pid: 'CONTAINER', ipc: 'POD' }, privileged: true, seccomp: { profileType: 'RuntimeDefault' },
      runAsUser: { value: 1000 }, runAsGroup: { value: 2000 }, supplementalGroups: [3000, 4000, 5000],
    });
    assert.deepEqual(l.sysctls, { 'net.ipv4.ip_unprivileged_port_start': '0', 'kernel.shm_rmid_forced': '1' });
  });

  it('sysctl names with slashes become dotted, dots inside a segment become slashes', () => {
    assert.equal(dottedSysctl('net/ipv4/conf/eno2.100/rp_filter'), 'net.ipv4.conf.eno2/100.rp_filter');
    assert.equal(dottedSysctl('net.ipv4.ip_forward'), 'net.ipv4.ip_forward');
  });

  it('resources: pod totals (init containers by max), overhead apart', () => {
    const pod = testPod({
      containers: [
        testContainer({ resources: { requests: { cpu: '250m' }, limits: { cpu: '500m', memory: '64Mi' } } }),
        testContainer({ name: 'b', resources: { requests: { cpu: '250m' }, limits: { cpu: '500m', memory: '64Mi' } } }),
      ],
      initContainers: [testContainer({ name: 'i', resources: { requests: { cpu: '2' }, limits: { cpu: '2', memory: '32Mi' } } })],
      overhead: { cpu: '100m', memory: '10Mi' },
    });
    const l = sandboxConfig(pod, 0, opts()).linux!;
    assert.deepEqual(l.resources, { cpuShares: 2048, memoryLimitInBytes: 128 * 1024 * 1024, cpuQuota: 200000, cpuPeriod: 100000 });
    assert.deepEqual(l.overhead, { cpuShares: 102, memoryLimitInBytes: 10 * 1024 * 1024, cpuQuota: 10000, cpuPeriod: 100000 });
  });
});
