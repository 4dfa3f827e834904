import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { tempDir } from '../../testing/tempdir.js';
import { containerConfig, expandCommandAndArgs, type ContainerConfigOptions } from './container.js';
import { containerEnv, ContainerConfigError, serviceEnvVars, type EnvOptions, type EnvSources, type ServiceLike } from './env.js';
import { MemoryEvents } from './events.js';
import { expand, mappingFor } from './expansion.js';
import { hashContainer } from './labels.js';
import { volumeMounts } from './mounts.js';
import { containerResources, milliCPUToQuota, milliCPUToShares } from './resources.js';
import { containerSecurityContext, DEFAULT_MASKED_PATHS, DEFAULT_READONLY_PATHS, verifyRunAsNonRoot } from './security.js';
import { testContainer, testPod } from './testpods.js';
import type { Container, PodSpec } from './types.js';

describe('$(VAR) expansion', () => {
  const vars = mappingFor(new Map([['A', 'a'], ['B', 'b'], ['EMPTY', '']]));
  const table: [string, string][] = [
    ['$(A)', 'a'], ['x$(A)y$(B)z', 'xaybz'], ['$(UNKNOWN)', '$(UNKNOWN)'], ['$$(A)', '$(A)'], ['$$$(A)', '$a'],
    ['$(A', '$(A'], ['$A', '$A'], ['trailing $', 'trailing $'], ['$()', '$()'], ['$(EMPTY)x', 'x'], ['$$', '$'], ['$(A)$(B', 'a$(B'],
  ];
  for (const [input, want] of table) it(JSON.stringify(input), () => assert.equal(expand(input, vars), want));

  it('command and args expand from the environment, $$ escapes', () => {
    const c = testContainer({ command: ['sh', '-c', 'echo $(GREETING) $$(GREETING)'], args: ['$(MISSING)', '$(WHO)'] });
    assert.deepEqual(expandCommandAndArgs(c, [{ name: 'GREETING', value: 'hi' }, { name: 'WHO', value: 'you' }]), {
      command: ['sh', '-c', 'echo hi $(GREETING)'], args: ['$(MISSING)', 'you'],
    });
  });
});

const SERVICES: ServiceLike[] = [
  { metadata: { name: 'kubernetes', namespace: 'default' }, spec: { clusterIP: '10.96.0.1', ports: [{ name: 'https', port: 443, protocol: 'TCP' }] } },
  { metadata: { name: 'my-db', namespace: 'ns1' }, spec: { clusterIP: '10.96.0.20', ports: [{ port: 5432 }, { name: 'metrics', port: 9187, protocol: 'TCP' }] } },
  { metadata: { name: 'headless', namespace: 'ns1' }, spec: { clusterIP: 'None', ports: [{ port: 80 }] } },
  { metadata: { name: 'elsewhere', namespace: 'other' }, spec: { clusterIP: '10.96.0.30', ports: [{ port: 80 }] } },
];

const b64 = (s: string): string => Buffer.from(s).toString('base64');
const sources = (extra: Partial<EnvSources> = {}): EnvSources => ({
  configMap: async (_ns, name) => (name === 'cfg' ? { data: { LEVEL: 'debug', 'bad key': 'x', '1starts': 'y', 'dotted.ok': 'z' } } : undefined),
  secret: async (_ns, name) => (name === 'sec' ? { data: { PASSWORD: b64('s3cret') } } : undefined),
  services: () => SERVICES,
  ...extra,
});
const envOpts = (o: Partial<EnvOptions> = {}): EnvOptions => ({
  sources: sources(), masterServiceNamespace: 'default', podIPs: ['10.88.0.5'], hostIPs: ['192.168.1.10'],
  nodeAllocatable: { cpu: '4', memory: '8Gi', 'ephemeral-storage': '100Gi' }, events: new MemoryEvents(), ...o,
});
const envOf = async (c: Partial<Container>, spec: Partial<PodSpec> = {}, o: Partial<EnvOptions> = {}): Promise<Record<string, string>> =>
  Object.fromEntries((await containerEnv(testPod({ nodeName: 'node-1', serviceAccountName: 'sa1', ...spec }, { labels: { b: '2', a: '1' } }), testContainer(c), envOpts(o))).map((e) => [e.name, e.value]));

describe('service environment variables', () => {
  it("kube's names and values for the first and named ports", () => {
    assert.deepEqual(serviceEnvVars([SERVICES[1]]), [
      ['MY_DB_SERVICE_HOST', '10.96.0.20'], ['MY_DB_SERVICE_PORT', '5432'], ['MY_DB_SERVICE_PORT_METRICS', '9187'],
      ['MY_DB_PORT', 'tcp://10.96.0.20:5432'],
      ['MY_DB_PORT_5432_TCP', 'tcp://10.96.0.20:5432'], ['MY_DB_PORT_5432_TCP_PROTO', 'tcp'], ['MY_DB_PORT_5432_TCP_PORT', '5432'], ['MY_DB_PORT_5432_TCP_ADDR', '10.96.0.20'],
      ['MY_DB_PORT_9187_TCP', 'tcp://10.96.0.20:9187'], ['MY_DB_PORT_9187_TCP_PROTO', 'tcp'], ['MY_DB_PORT_9187_TCP_PORT', '9187'], ['MY_DB_PORT_9187_TCP_ADDR', '10.96.0.20'],
    ]);
  });
  it("the pod's namespace and the master service; headless and other namespaces left out", async () => {
    const env = await envOf({});
    assert.equal(env.KUBERNETES_SERVICE_HOST, '10.96.0.1');
    assert.equal(env.KUBERNETES_PORT_443_TCP, 'tcp://10.96.0.1:443');
    assert.equal(env.MY_DB_SERVICE_HOST, '10.96.0.20');
    assert.equal(env.HEADLESS_SERVICE_HOST, undefined);
    assert.equal(env.ELSEWHERE_SERVICE_HOST, undefined);
  });
  it('enableServiceLinks: false keeps only the master service', async () => {
    const env = await envOf({}, { enableServiceLinks: false });
    assert.equal(env.KUBERNETES_SERVICE_HOST, '10.96.0.1');
    assert.equal(env.MY_DB_SERVICE_HOST, undefined);
  });
  it('standalone (no sources): no service variables', async () => {
    assert.deepEqual(await envOf({ env: [{ name: 'A', value: '1' }] }, {}, { sources: undefined }), { A: '1' });
  });
  it('a declared variable wins over a service variable of the same name', async () => {
    const env = await envOf({ env: [{ name: 'MY_DB_SERVICE_HOST', value: 'mine' }] });
    assert.equal(env.MY_DB_SERVICE_HOST, 'mine');
  });
});

describe('container environment', () => {
  const table: { name: string; c: Partial<Container>; want: Record<string, string> }[] = [
    { name: 'values expand earlier variables and service variables; later ones stay literal', c: { env: [{ name: 'A', value: 'x' }, { name: 'B', value: '$(A)-$(C)-$(MY_DB_SERVICE_PORT)' }, { name: 'C', value: 'c' }, { name: 'D', value: '$$(A)' }] },
      want: { A: 'x', B: 'x-$(C)-5432', C: 'c', D: '$(A)' } },
    { name: 'fieldRefs', c: { env: [
      { name: 'N', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }, { name: 'NS', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
      { name: 'U', valueFrom: { fieldRef: { fieldPath: 'metadata.uid' } } }, { name: 'NODE', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
      { name: 'SA', valueFrom: { fieldRef: { fieldPath: 'spec.serviceAccountName' } } }, { name: 'IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
      { name: 'IPS', valueFrom: { fieldRef: { fieldPath: 'status.podIPs' } } }, { name: 'HOST', valueFrom: { fieldRef: { fieldPath: 'status.hostIP' } } },
      { name: 'L', valueFrom: { fieldRef: { fieldPath: 'metadata.labels' } } }, { name: 'LA', valueFrom: { fieldRef: { fieldPath: "metadata.labels['a']" } } },
    ] }, want: { N: 'web', NS: 'ns1', U: 'uid-1', NODE: 'node-1', SA: 'sa1', IP: '10.88.0.5', IPS: '10.88.0.5', HOST: '192.168.1.10', L: 'a="1"\nb="2"', LA: '1' } },
    { name: 'resourceFieldRefs with divisors; unset limits are the node allocatable', c: {
      resources: { requests: { cpu: '250m', memory: '64Mi' }, limits: { cpu: '1500m' } },
      env: [
        { name: 'CPU_REQ', valueFrom: { resourceFieldRef: { resource: 'requests.cpu' } } }, { name: 'CPU_REQ_M', valueFrom: { resourceFieldRef: { resource: 'requests.cpu', divisor: '1m' } } },
        { name: 'CPU_LIM', valueFrom: { resourceFieldRef: { resource: 'limits.cpu' } } }, { name: 'MEM_REQ_MI', valueFrom: { resourceFieldRef: { resource: 'requests.memory', divisor: '1Mi' } } },
        { name: 'MEM_LIM', valueFrom: { resourceFieldRef: { resource: 'limits.memory' } } },
      ] }, want: { CPU_REQ: '1', CPU_REQ_M: '250', CPU_LIM: '2', MEM_REQ_MI: '64', MEM_LIM: String(8 * 1024 ** 3) } },
    { name: 'configMap and secret keys; optional missing ones skipped', c: { env: [
      { name: 'LEVEL', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'LEVEL' } } }, { name: 'PW', valueFrom: { secretKeyRef: { name: 'sec', key: 'PASSWORD' } } },
      { name: 'OPT1', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'NOPE', optional: true } } }, { name: 'OPT2', valueFrom: { secretKeyRef: { name: 'gone', key: 'x', optional: true } } },
    ] }, want: { LEVEL: 'debug', PW: 's3cret' } },
    { name: 'envFrom with prefix; env overrides envFrom', c: { envFrom: [{ configMapRef: { name: 'cfg' }, prefix: 'CFG_' }, { secretRef: { name: 'sec' } }, { configMapRef: { name: 'gone', optional: true } }], env: [{ name: 'PASSWORD', value: 'over' }] },
      want: { CFG_LEVEL: 'debug', 'CFG_dotted.ok': 'z', CFG_1starts: 'y', PASSWORD: 'over' } },
  ];
  for (const c of table) {
    it(c.name, async () => {
      const env = await envOf(c.c);
      for (const k of Object.keys(env)) if (/_SERVICE_|_PORT/.test(k)) delete env[k];
      assert.deepEqual(env, c.want);
    });
  }

  it('envFrom keys that are not variable names are skipped with an event', async () => {
    const events = new MemoryEvents();
    const env = await envOf({ envFrom: [{ configMapRef: { name: 'cfg' } }] }, {}, { events });
    assert.equal(env.LEVEL, 'debug');
    assert.equal(env['bad key'], undefined);
    assert.equal(env['1starts'], undefined);
    assert.deepEqual(events.events.map((e) => [e.type, e.reason, e.message]), [
      ['Warning', 'InvalidEnvironmentVariableNames', 'Keys [1starts, bad key] from the EnvFrom configMap ns1/cfg were skipped since they are considered invalid environment variable names.'],
    ]);
  });

  const errors: { name: string; c: Partial<Container>; o?: Partial<EnvOptions>; message: string }[] = [
    { name: 'missing configMap', c: { env: [{ name: 'X', valueFrom: { configMapKeyRef: { name: 'gone', key: 'k' } } }] }, message: 'configmap "gone" not found' },
    { name: 'missing secret', c: { envFrom: [{ secretRef: { name: 'gone' } }] }, message: 'secret "gone" not found' },
    { name: 'missing key', c: { env: [{ name: 'X', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'k' } } }] }, message: "couldn't find key k in ConfigMap ns1/cfg" },
    { name: 'missing secret key', c: { env: [{ name: 'X', valueFrom: { secretKeyRef: { name: 'sec', key: 'k' } } }] }, message: "couldn't find key k in Secret ns1/sec" },
    { name: 'no API in standalone mode', c: { env: [{ name: 'X', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'k' } } }] }, o: { sources: undefined }, message: "couldn't get configMap ns1/cfg, no kubeClient defined" },
    { name: 'unsupported fieldPath', c: { env: [{ name: 'X', valueFrom: { fieldRef: { fieldPath: 'spec.nothing' } } }] }, message: 'unsupported fieldPath: spec.nothing' },
  ];
  for (const e of errors) {
    it(`error: ${e.name}`, async () => {
      await assert.rejects(envOf(e.c, {}, e.o ?? {}), (err: Error) => err instanceof ContainerConfigError && err.message === e.message);
    });
  }
});

describe('container resources', () => {
  it('shares and quota conversions', () => {
    assert.deepEqual([0, 1, 2, 100, 1000, 300000].map(milliCPUToShares), [2, 2, 2, 102, 1024, 262144]);
    assert.deepEqual([0, 1, 5, 250, 1500].map((m) => milliCPUToQuota(m, 100000)), [0, 1000, 1000, 25000, 150000]);
  });
  const GiB = 1024 ** 3;
  const table: { name: string; spec?: Partial<PodSpec>; c: Partial<Container>; quota?: boolean; want: object }[] = [
    { name: 'BestEffort: minimum shares, no quota, oom 1000', c: {}, want: { cpuShares: 2, cpuQuota: 0, cpuPeriod: 100000, oomScoreAdj: 1000 } },
    { name: 'Guaranteed: shares from the request, quota from the limit, memory limit, oom -997', c: { resources: { requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: '500m', memory: '1Gi' } } },
      want: { cpuShares: 512, memoryLimitInBytes: GiB, cpuQuota: 50000, cpuPeriod: 100000, oomScoreAdj: -997 } },
    { name: 'Burstable: oom from the memory request over capacity', c: { resources: { requests: { cpu: '100m', memory: '2Gi' } } },
      want: { cpuShares: 102, cpuQuota: 0, cpuPeriod: 100000, oomScoreAdj: 750 } },
    { name: 'Burstable with a tiny request: 999, not 1000', c: { resources: { requests: { memory: '1' } } }, want: { cpuShares: 2, cpuQuota: 0, cpuPeriod: 100000, oomScoreAdj: 999 } },
    { name: 'Burstable with a huge request: at least 3', c: { resources: { requests: { memory: '8Gi' }, limits: { memory: '16Gi' } } },
      want: { cpuShares: 2, memoryLimitInBytes: 16 * GiB, cpuQuota: 0, cpuPeriod: 100000, oomScoreAdj: 3 } },
    { name: 'only a cpu limit: shares from the limit', c: { resources: { limits: { cpu: '2' } } }, want: { cpuShares: 2048, cpuQuota: 200000, cpuPeriod: 100000, oomScoreAdj: 999 } },
    { name: '--cpu-cfs-quota=false: no quota or period', c: { resources: { limits: { cpu: '2' } } }, quota: false, want: { cpuShares: 2048, oomScoreAdj: 999 } },
    { name: 'system-node-critical: -997', spec: { priority: 2000001000, priorityClassName: 'system-node-critical' }, c: {}, want: { cpuShares: 2, cpuQuota: 0, cpuPeriod: 100000, oomScoreAdj: -997 } },
    { name: 'hugepages limits', c: { resources: { requests: { cpu: '1', memory: '1Gi', 'hugepages-2Mi': '4Mi' }, limits: { cpu: '1', memory: '1Gi', 'hugepages-2Mi': '4Mi' } } },
      want: { cpuShares: 1024, memoryLimitInBytes: GiB, cpuQuota: 100000, cpuPeriod: 100000, oomScoreAdj: -997, hugepageLimits: [{ pageSize: '2MB', limit: 4 * 1024 * 1024 }] } },
  ];
  for (const c of table) {
    it(c.name, () => {
      const container = testContainer(c.c);
      const pod = testPod({ containers: [container], ...c.spec });
      assert.deepEqual(containerResources(pod, container, { cpuCFSQuota: c.quota ?? true, memoryCapacity: 8 * GiB }), c.want);
    });
  }
});

describe('container security context', () => {
  const seccomp = { seccompDefault: false, seccompProfileRoot: '/var/lib/kubelet/seccomp' };
  it('container settings over the pod, image uid, groups, masked paths, noNewPrivs', () => {
    const c = testContainer({ securityContext: { runAsGroup: 7, capabilities: { add: ['NET_ADMIN'], drop: ['ALL'] }, readOnlyRootFilesystem: true, allowPrivilegeEscalation: false } });
    const pod = testPod({ containers: [c], securityContext: { runAsGroup: 5, fsGroup: 9, supplementalGroups: [10] } });
    assert.deepEqual(containerSecurityContext(pod, c, { uid: 1234, username: '' }, seccomp), {
      capabilities: { addCapabilities: ['NET_ADMIN'], dropCapabilities: ['ALL'] }, privileged: false,
      namespaceOptions: { network: 'POD', pid: 'CONTAINER', ipc: 'POD' }, runAsUser: { value: 1234 }, runAsGroup: { value: 7 },
      readonlyRootfs: true, supplementalGroups: [9, 10], noNewPrivs: true,
      maskedPaths: DEFAULT_MASKED_PATHS, readonlyPaths: DEFAULT_READONLY_PATHS, seccomp: { profileType: 'Unconfined' },
    });
  });
  const seccompTable: { name: string; pod?: Partial<PodSpec>; c?: Partial<Container>; def?: boolean; want: object }[] = [
    { name: 'none: Unconfined', want: { profileType: 'Unconfined' } },
    { name: '--seccomp-default: RuntimeDefault', def: true, want: { profileType: 'RuntimeDefault' } },
    { name: 'pod profile', pod: { securityContext: { seccompProfile: { type: 'RuntimeDefault' } } }, want: { profileType: 'RuntimeDefault' } },
    { name: 'container over pod', pod: { securityContext: { seccompProfile: { type: 'RuntimeDefault' } } }, c: { securityContext: { seccompProfile: { type: 'Unconfined' } } }, def: true, want: { profileType: 'Unconfined' } },
    { name: 'Localhost under the profile root', c: { securityContext: { seccompProfile: { type: 'Localhost', localhostProfile: 'profiles/audit.json' } } }, want: { profileType: 'Localhost', localhostRef: '/var/lib/kubelet/seccomp/profiles/audit.json' } },
  ];
  for (const s of seccompTable) {
    it(`seccomp: ${s.name}`, () => {
      const c = testContainer(s.c);
      assert.deepEqual(containerSecurityContext(testPod({ containers: [c], ...s.pod }), c, { uid: 0, username: '' }, { ...seccomp, seccompDefault: s.def ?? false }).seccomp, s.want);
    });
  }
  it('procMount Unmasked: no masked or read-only paths; a user name image gives runAsUsername', () => {
    const c = testContainer({ securityContext: { procMount: 'Unmasked', privileged: true } });
    const sc = containerSecurityContext(testPod({ containers: [c] }), c, { username: 'nobody' }, seccomp);
    assert.deepEqual([sc.maskedPaths, sc.readonlyPaths, sc.privileged, sc.runAsUser, sc.runAsUsername], [[], [], true, undefined, 'nobody']);
  });
  const nonRoot: { name: string; pod?: Partial<PodSpec>; c?: Partial<Container>; uid?: number; username?: string; error?: string }[] = [
    { name: 'not asked', uid: 0 },
    { name: 'image root', pod: { securityContext: { runAsNonRoot: true } }, uid: 0, error: 'container has runAsNonRoot and image will run as root (pod: "web_ns1(uid-1)", container: app)' },
    { name: 'runAsUser 0', c: { securityContext: { runAsNonRoot: true, runAsUser: 0 } }, uid: 1000, error: `container's runAsUser breaks non-root policy (pod: "web_ns1(uid-1)", container: app)` },
    { name: 'runAsUser set', pod: { securityContext: { runAsNonRoot: true, runAsUser: 1000 } }, uid: 0 },
    { name: 'image non-numeric user', c: { securityContext: { runAsNonRoot: true } }, username: 'app', error: 'container has runAsNonRoot and image has non-numeric user (app), cannot verify user is non-root (pod: "web_ns1(uid-1)", container: app)' },
    { name: 'image uid 1000', c: { securityContext: { runAsNonRoot: true } }, uid: 1000 },
  ];
  for (const n of nonRoot) {
    it(`runAsNonRoot: ${n.name}`, () => {
      const c = testContainer(n.c);
      const run = (): void => verifyRunAsNonRoot(testPod({ containers: [c], ...n.pod }), c, n.uid, n.username ?? '');
      if (n.error) assert.throws(run, (e: Error) => e instanceof ContainerConfigError && e.message === n.error);
      else assert.doesNotThrow(run);
    });
  }
});

describe('mounts', () => {
  it('host paths, subPath and subPathExpr (created), read-only from mount or volume, propagation', () => {
    const root = tempDir('kr-mounts-');
    const c = testContainer({ securityContext: { privileged: true }, volumeMounts: [
      { name: 'data', mountPath: '/data' },
      { name: 'data', mountPath: '/sub', subPath: 'a/b', readOnly: true },
      { name: 'data', mountPath: '/expr', subPathExpr: '$(POD)/logs' },
      { name: 'cfg', mountPath: '/etc/cfg', mountPropagation: 'HostToContainer' },
      { name: 'data', mountPath: '/shared', mountPropagation: 'Bidirectional' },
    ] });
    const volumes = new Map([['data', { hostPath: join(root, 'data') }], ['cfg', { hostPath: join(root, 'cfg'), readOnly: true }]]);
    const got = volumeMounts(testPod({ containers: [c] }), c, volumes, [{ name: 'POD', value: 'web' }]);
    assert.deepEqual(got.map((m) => [m.containerPath, m.hostPath.slice(root.length), m.readonly, m.propagation]), [
      ['/data', '/data', false, 'PROPAGATION_PRIVATE'],
      ['/sub', '/data/a/b', true, 'PROPAGATION_PRIVATE'],
      ['/expr', '/data/web/logs', false, 'PROPAGATION_PRIVATE'],
      ['/etc/cfg', '/cfg', true, 'PROPAGATION_HOST_TO_CONTAINER'],
      ['/shared', '/data', false, 'PROPAGATION_BIDIRECTIONAL'],
    ]);
    assert.ok(statSync(join(root, 'data/a/b')).isDirectory());
    assert.ok(statSync(join(root, 'data/web/logs')).isDirectory());
  });
  const bad: { name: string; m: object; message: string }[] = [
    { name: 'unknown volume', m: { name: 'nope', mountPath: '/x' }, message: 'cannot find volume "nope" to mount into container "app"' },
    { name: 'subPath leaving the volume', m: { name: 'data', mountPath: '/x', subPath: '../../etc' }, message: `subpath "../../etc" must not contain '..'` },
    { name: 'Bidirectional unprivileged', m: { name: 'data', mountPath: '/x', mountPropagation: 'Bidirectional' }, message: 'Bidirectional mount propagation is available only to privileged containers' },
  ];
  for (const b of bad) {
    it(`refused: ${b.name}`, () => {
      const c = testContainer({ volumeMounts: [b.m as never] });
      assert.throws(() => volumeMounts(testPod({ containers: [c] }), c, new Map([['data', { hostPath: tempDir('kr-m-') }]]), []),
        (e: Error) => e instanceof ContainerConfigError && e.message === b.message);
    });
  }
});

describe('container config', () => {
  it('image, expanded command, env, labels and annotations, log path, termination-message file, tty', async () => {
    const podsDir = tempDir('kr-pods-');
    const logs = tempDir('kr-logs-');
    const c = testContainer({ command: ['sh', '-c'], args: ['echo $(MSG)'], workingDir: '/w', env: [{ name: 'MSG', value: 'hi' }], tty: true, stdin: true,
      lifecycle: { preStop: { exec: { command: ['sleep', '1'] } } }, ports: [{ containerPort: 80 }] });
    const pod = testPod({ containers: [c], terminationGracePeriodSeconds: 30 });
    const opts: ContainerConfigOptions = {
      env: envOpts({ sources: undefined }), resources: { cpuCFSQuota: true, memoryCapacity: 1 << 30 },
      seccomp: { seccompDefault: true, seccompProfileRoot: '/s' }, volumes: new Map(), podsDir, podLogsRoot: logs,
    };
    const cfg = await containerConfig(pod, c, { imageRef: 'sha256:abc', restartCount: 3, imageUser: { username: '' } }, opts);
    assert.deepEqual(cfg.metadata, { name: 'app', attempt: 3 });
    assert.deepEqual(cfg.image, { image: 'sha256:abc' });
    assert.deepEqual([cfg.command, cfg.args, cfg.workingDir, cfg.envs], [['sh', '-c'], ['echo hi'], '/w', [{ key: 'MSG', value: 'hi' }]]);
    assert.equal(cfg.logPath, 'app/3.log');
    assert.ok(existsSync(join(logs, 'ns1_web_uid-1', 'app')));
    assert.deepEqual([cfg.tty, cfg.stdin, cfg.stdinOnce], [true, true, false]);
    assert.deepEqual(cfg.labels, { 'io.kubernetes.pod.name': 'web', 'io.kubernetes.pod.namespace': 'ns1', 'io.kubernetes.pod.uid': 'uid-1', 'io.kubernetes.container.name': 'app' });
    assert.deepEqual(cfg.annotations, {
      'io.kubernetes.container.hash': hashContainer(c), 'io.kubernetes.container.restartCount': '3',
      'io.kubernetes.container.terminationMessagePath': '/dev/termination-log', 'io.kubernetes.container.terminationMessagePolicy': 'File',
      'io.kubernetes.pod.terminationGracePeriod': '30', 'io.kubernetes.container.preStopHandler': '{"exec":{"command":["sleep","1"]}}',
      'io.kubernetes.container.ports': '[{"containerPort":80}]',
    });
    const tm = cfg.mounts!.find((m) => m.containerPath === '/dev/termination-log')!;
    assert.ok(tm.hostPath.startsWith(join(podsDir, 'uid-1', 'containers', 'app') + '/'));
    assert.equal(readFileSync(tm.hostPath, 'utf8'), '');
    assert.equal(statSync(tm.hostPath).mode & 0o777, 0o666);
    assert.equal(cfg.linux?.securityContext?.runAsUser?.value, 0);
    assert.equal(cfg.linux?.securityContext?.seccomp?.profileType, 'RuntimeDefault');
  });
  it('the container hash changes with the spec, not with key order', () => {
    const a = testContainer({ image: 'x:1', command: ['a'] });
    assert.equal(hashContainer(a), hashContainer({ command: ['a'], ...a }));
    assert.notEqual(hashContainer(a), hashContainer({ ...a, image: 'x:2' }));
  });
});
