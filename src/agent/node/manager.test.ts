import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Image, RuntimeCondition } from '../cri/types.js';
import { LEASES } from '../../simnodes/heartbeat.js';
import { parseEvictionThresholds, DEFAULT_EVICTION_HARD } from './eviction.js';
import { FakeAgentApi } from './fakeapi.js';
import { isExtendedResourceName, NodeManager, NODES, nodeHostname, statusPatch, transitionEvents, type NodeManagerOptions } from './manager.js';
import { statusImages } from './status.js';
import { GI, tableMachine } from './testmachine.js';

const READY: RuntimeCondition[] = [{ type: 'RuntimeReady', status: true, reason: '', message: '' }, { type: 'NetworkReady', status: true, reason: '', message: '' }];
const img = (id: string, size: number, tags: string[], digests: string[] = []): Image => ({ id, size, repoTags: tags, repoDigests: digests, username: '' });

function setup(over: Partial<NodeManagerOptions> = {}, conditions = READY) {
  const api = new FakeAgentApi('node-a');
  let now = Date.parse('2026-01-01T00:00:00Z');
  const clock = { now: () => now };
  const machine = tableMachine();
  const runtime = { status: async () => conditions, version: async () => ({ version: '0.1.0', runtimeName: 'containerd', runtimeVersion: '1.6.20~ds1', runtimeApiVersion: 'v1' }) };
  const images = { listImages: async () => [img('sha256:a', 10, ['svc.local/pause:1']), img('sha256:b', 900, ['svc.local/busybox:1.35'], ['svc.local/busybox@sha256:bb'])] };
  const m = new NodeManager({
    api, runtime, images, machine, clock, maxPods: 110, evictionHard: parseEvictionThresholds(DEFAULT_EVICTION_HARD),
    node: { name: 'node-a', hostname: 'node-a', controllerAttachDetach: true, labels: { 'team.example.com/pool': 'blue' }, taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] },
    kubeletPort: 10250, leaseNamespace: 'svc-node-lease', ...over,
  });
  return { api, m, machine, advance: (ms: number) => { now += ms; } };
}

test('registration creates the Node with the kubelet labels, annotations and taints', async () => {
  const { api, m } = setup();
  const node = await m.register();
  assert.equal(m.nodeUID, node.metadata.uid);
  assert.deepEqual(node.metadata.labels, {
    'beta.kubernetes.io/arch': 'amd64', 'beta.kubernetes.io/os': 'linux', 'beta.svc.io/arch': 'amd64', 'beta.svc.io/os': 'linux',
    'kubernetes.io/arch': 'amd64', 'kubernetes.io/hostname': 'node-a', 'kubernetes.io/os': 'linux',
    'svc.io/arch': 'amd64', 'svc.io/hostname': 'node-a', 'svc.io/os': 'linux', 'team.example.com/pool': 'blue',
  });
  assert.deepEqual(node.metadata.annotations, { 'node.alpha.kubernetes.io/ttl': '0', 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' });
  assert.deepEqual(node.spec, { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] });
  assert.deepEqual(api.calls.map((c) => c.verb), ['create']);
  const sent = api.calls[0]!.body as { status: { capacity: Record<string, string>; conditions: { type: string }[] } };
  assert.equal(sent.status.capacity.pods, '110', 'created with its first status');
  assert.deepEqual(sent.status.conditions.map((c) => c.type), ['MemoryPressure', 'DiskPressure', 'PIDPressure', 'Ready']);
});

test('registration adopts an existing Node: kubelet labels reconciled, other labels and taints kept', async () => {
  const { api, m } = setup();
  const existing = api.seed(NODES, {
    apiVersion: 'v1', kind: 'Node',
    metadata: { name: 'node-a', labels: { 'kubernetes.io/hostname': 'old-name', 'kubernetes.io/os': 'linux', 'custom': 'x' }, annotations: { 'node.alpha.kubernetes.io/ttl': '15' } },
    spec: { taints: [{ key: 'keep', effect: 'NoExecute' }] },
  });
  const node = await m.register();
  assert.equal(node.metadata.uid, existing.metadata.uid, 'not recreated');
  assert.equal(node.metadata.labels?.['kubernetes.io/hostname'], 'node-a');
  assert.equal(node.metadata.labels?.['svc.io/arch'], 'amd64');
  assert.equal(node.metadata.labels?.custom, 'x');
  assert.equal(node.metadata.labels?.['team.example.com/pool'], undefined, '--node-labels are not reconciled');
  assert.equal(node.metadata.annotations?.['node.alpha.kubernetes.io/ttl'], '15', "the TTL controller's value stays");
  assert.equal(node.metadata.annotations?.['volumes.kubernetes.io/controller-managed-attach-detach'], 'true');
  assert.deepEqual(node.spec, { taints: [{ key: 'keep', effect: 'NoExecute' }] });
  // a second registration finds nothing to change
  api.calls.length = 0;
  await m.register();
  assert.deepEqual(api.calls.map((c) => c.verb), ['create', 'get']);
});

test('--register-node=false needs the Node to be there', async () => {
  const { api, m } = setup({ registerNode: false });
  await assert.rejects(m.register(), /nodes "node-a" not found/);
  api.seed(NODES, { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-a' } });
  await m.register();
  assert.ok(!api.calls.some((c) => c.verb === 'create'));
});

test('status: capacity, allocatable, addresses, nodeInfo, images, conditions', async () => {
  const { api, m } = setup({ svcReserved: { cpu: '200m' } });
  await m.start();
  m.stop();
  const node = await api.get(NODES, '', 'node-a');
  const s = node.status as Record<string, any>;
  assert.deepEqual(s.capacity, { cpu: '2', 'ephemeral-storage': '100Gi', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0', memory: '4Gi', pods: '110' });
  assert.deepEqual(s.allocatable, { cpu: '1800m', 'ephemeral-storage': '90Gi', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0', memory: '3996Mi', pods: '110' });
  assert.deepEqual(s.addresses, [{ type: 'InternalIP', address: '10.0.0.5' }, { type: 'Hostname', address: 'node-a' }]);
  assert.deepEqual(s.daemonEndpoints, { kubeletEndpoint: { Port: 10250 } });
  assert.deepEqual(s.nodeInfo, {
    machineID: '0123456789abcdef0123456789abcdef', systemUUID: '', bootID: '11111111-2222-3333-4444-555555555555', kernelVersion: '6.1.0-test',
    osImage: 'Debian GNU/Linux 12 (bookworm)', containerRuntimeVersion: 'containerd://1.6.20~ds1', kubeletVersion: 'v1.27.3', kubeProxyVersion: 'v1.27.3',
    operatingSystem: 'linux', architecture: 'amd64',
  });
  assert.deepEqual(s.images, [{ names: ['svc.local/busybox@sha256:bb', 'svc.local/busybox:1.35'], sizeBytes: 900 }, { names: ['svc.local/pause:1'], sizeBytes: 10 }]);
  assert.deepEqual(s.conditions.map((c: any) => [c.type, c.status, c.reason, c.message, c.lastHeartbeatTime]), [
    ['MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available', '2026-01-01T00:00:00Z'],
    ['DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure', '2026-01-01T00:00:00Z'],
    ['PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available', '2026-01-01T00:00:00Z'],
    ['Ready', 'True', 'KubeletReady', 'kubelet is posting ready status', '2026-01-01T00:00:00Z'],
  ]);
});

test('status is written when it changed or when the report period passed', async () => {
  const { api, m, machine, advance: step } = setup({ statusReportMs: 60_000 });
  const advance = async (ms: number) => {
    step(ms);
    await m.checkRuntime();
  };
  await m.start();
  m.stop();
  await advance(10_000);
  assert.equal(await m.updateStatus(false), false, 'unchanged but for heartbeats');
  // another writer (the node lifecycle controller) marks Ready Unknown
  await api.update({ ...NODES, subresource: 'status' }, '', 'node-a', (cur) => {
    const s = cur.status as { conditions: { type: string; status: string }[] };
    return { ...cur, status: { ...s, conditions: s.conditions.map((c) => (c.type === 'Ready' ? { ...c, status: 'Unknown' } : c)) } };
  });
  await advance(10_000);
  assert.equal(await m.updateStatus(false), true);
  const ready = ((await api.get(NODES, '', 'node-a')).status as any).conditions[3];
  assert.deepEqual([ready.status, ready.lastTransitionTime], ['True', '2026-01-01T00:00:20Z']);
  // memory pressure shows at once
  machine.figures.memoryAvailable = 10 * 1024 * 1024;
  await advance(10_000);
  assert.equal(await m.updateStatus(false), true);
  assert.equal(((await api.get(NODES, '', 'node-a')).status as any).conditions[0].status, 'True');
  await advance(10_000);
  assert.equal(await m.updateStatus(false), false);
  await advance(60_000);
  assert.equal(await m.updateStatus(false), true, 'report period');
  // an extended resource advertised by someone else stays, and is allocatable
  await api.patch({ ...NODES, subresource: 'status' }, '', 'node-a', { status: { capacity: { 'example.com/dongle': '4' } } });
  await advance(1_000);
  assert.equal(await m.updateStatus(false), true, 'allocatable follows');
  const status = (await api.get(NODES, '', 'node-a')).status as any;
  assert.equal(status.capacity['example.com/dongle'], '4');
  assert.equal(status.allocatable['example.com/dongle'], '4');
  await advance(1_000);
  assert.equal(await m.updateStatus(false), false);
  void GI;
});

test('Ready is False with the network error while the CNI is not ready', async () => {
  const { api, m } = setup({}, [READY[0]!, { type: 'NetworkReady', status: false, reason: 'NetworkPluginNotReady', message: 'Network plugin returns error: cni plugin not initialized' }]);
  await m.start();
  m.stop();
  const ready = ((await api.get(NODES, '', 'node-a')).status as any).conditions[3];
  assert.deepEqual([ready.status, ready.reason, ready.message], ['False', 'KubeletNotReady', 'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized']);
});

test('the Lease: created with the Node as owner, then renewed', async () => {
  const { api, m, advance } = setup({ leaseRenewMs: 5 });
  await m.start();
  // the heartbeat runs on its own timer: wait for the first renewal to land
  for (let i = 0; i < 100 && api.all('coordination.svc.io/leases').length === 0; i++) await new Promise((r) => setTimeout(r, 5));
  const lease = await api.get(LEASES, 'svc-node-lease', 'node-a');
  assert.deepEqual(lease.metadata.ownerReferences, [{ apiVersion: 'v1', kind: 'Node', name: 'node-a', uid: m.nodeUID }]);
  assert.deepEqual(lease.spec, { holderIdentity: 'node-a', leaseDurationSeconds: 40, renewTime: '2026-01-01T00:00:00.000000Z' });
  advance(10_000);
  for (let i = 0; i < 100 && ((await api.get(LEASES, 'svc-node-lease', 'node-a')).spec as any)?.renewTime !== '2026-01-01T00:00:10.000000Z'; i++) await new Promise((r) => setTimeout(r, 5));
  m.stop();
  assert.equal(((await api.get(LEASES, 'svc-node-lease', 'node-a')).spec as any)?.renewTime, '2026-01-01T00:00:10.000000Z');
});

test('helpers: hostname, image list, status patch', () => {
  assert.equal(nodeHostname('  Worker-1.Example '), 'worker-1.example');
  assert.throws(() => nodeHostname(' '), /empty hostname is invalid/);
  const many = Array.from({ length: 60 }, (_, i) => img(`sha256:${i}`, i, Array.from({ length: 7 }, (_, j) => `r/i${i}:${j}`)));
  const listed = statusImages(many);
  assert.equal(listed.length, 50);
  assert.equal(listed[0]!.sizeBytes, 59);
  assert.equal(listed[0]!.names.length, 5);
  assert.deepEqual(statusPatch({ capacity: { cpu: '2', 'hugepages-32Mi': '0' } }, { capacity: { cpu: '2' } }), { capacity: { cpu: '2', 'hugepages-32Mi': null } });
  const rows: [string, boolean][] = [['example.com/dongle', true], ['cpu', false], ['kubernetes.io/x', false], ['node.kubernetes.io/x', false], ['requests.example.com/x', false]];
  for (const [name, want] of rows) assert.equal(isExtendedResourceName(name), want, name);
});

test('health checks make the node NotReady; condition changes are events', async () => {
  let pleg: string | undefined;
  const events: string[] = [];
  const { api, m, advance } = setup({ healthChecks: [{ name: 'PLEG', check: () => pleg }], onEvent: (e) => events.push(`${e.type} ${e.reason}: ${e.message}`) });
  await m.start();
  m.stop();
  assert.deepEqual(events, [
    'Normal Starting: Starting kubelet.',
    'Normal NodeHasSufficientMemory: Node node-a status is now: NodeHasSufficientMemory',
    'Normal NodeHasNoDiskPressure: Node node-a status is now: NodeHasNoDiskPressure',
    'Normal NodeHasSufficientPID: Node node-a status is now: NodeHasSufficientPID',
  ]);
  events.length = 0;
  pleg = 'pleg was last seen active 3m0s ago; threshold is 3m0s';
  advance(1_000);
  await m.checkRuntime();
  assert.equal(await m.updateStatus(false), true);
  const ready = ((await api.get(NODES, '', 'node-a')).status as any).conditions[3];
  assert.deepEqual([ready.status, ready.message], ['False', 'PLEG is not healthy: pleg was last seen active 3m0s ago; threshold is 3m0s']);
  assert.deepEqual(events, ['Normal NodeNotReady: Node node-a status is now: NodeNotReady']);
  assert.deepEqual(transitionEvents('n', undefined, [{ type: 'Ready', status: 'True' }]), [], "Ready's first appearance is no event");
});
