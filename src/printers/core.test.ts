// Services of every type, nodes, events and the small core printers: exact cells.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { printerFor } from './index.js';
import type { KObject } from './table.js';

const now = Date.parse('2024-05-01T12:00:00Z');
const created = '2024-05-01T11:00:00Z'; // 60m
const cells = (resource: string, o: KObject, group = '') => printerFor(group, resource).row(o, { now }).cells;
const obj = (name: string, rest: Record<string, unknown>, meta: Record<string, unknown> = {}): KObject => ({ metadata: { name, creationTimestamp: created, ...meta }, ...rest });

describe('services', () => {
  const svc = (spec: Record<string, unknown>, status: Record<string, unknown> = {}) => cells('services', obj('s', { spec, status }));
  const rows: [string, ReturnType<typeof svc>, unknown[]][] = [
    ['ClusterIP', svc({ type: 'ClusterIP', clusterIP: '10.0.0.10', clusterIPs: ['10.0.0.10'], ports: [{ port: 80, protocol: 'TCP' }, { port: 53, protocol: 'UDP' }], selector: { app: 'web', tier: 'fe' } }),
      ['s', 'ClusterIP', '10.0.0.10', '<none>', '80/TCP,53/UDP', '60m', 'app=web,tier=fe']],
    ['headless, no ports, no selector', svc({ type: 'ClusterIP', clusterIP: 'None', clusterIPs: ['None'] }), ['s', 'ClusterIP', 'None', '<none>', '<none>', '60m', '<none>']],
    ['ClusterIP with external IPs', svc({ type: 'ClusterIP', clusterIPs: ['10.0.0.1'], externalIPs: ['1.2.3.4', '5.6.7.8'], ports: [{ port: 80, protocol: 'TCP' }] }),
      ['s', 'ClusterIP', '10.0.0.1', '1.2.3.4,5.6.7.8', '80/TCP', '60m', '<none>']],
    ['NodePort', svc({ type: 'NodePort', clusterIPs: ['10.0.0.2'], ports: [{ port: 80, nodePort: 30080, protocol: 'TCP' }, { port: 443, nodePort: 30001, protocol: 'TCP' }] }),
      ['s', 'NodePort', '10.0.0.2', '<none>', '80:30080/TCP,443:30001/TCP', '60m', '<none>']],
    ['LoadBalancer pending', svc({ type: 'LoadBalancer', clusterIPs: ['10.0.0.3'], ports: [{ port: 80, nodePort: 31000, protocol: 'TCP' }] }),
      ['s', 'LoadBalancer', '10.0.0.3', '<pending>', '80:31000/TCP', '60m', '<none>']],
    ['LoadBalancer with ingress (sorted, unique, hostnames when no IP)', svc({ type: 'LoadBalancer', clusterIPs: ['10.0.0.3'] }, { loadBalancer: { ingress: [{ ip: '9.9.9.9' }, { hostname: 'lb.example.com' }, { ip: '1.1.1.1' }, { ip: '9.9.9.9' }] } }),
      ['s', 'LoadBalancer', '10.0.0.3', '1.1.1.1,9.9.9.9,lb.example.com', '<none>', '60m', '<none>']],
    ['LoadBalancer ingress then external IPs', svc({ type: 'LoadBalancer', clusterIPs: ['10.0.0.3'], externalIPs: ['7.7.7.7'] }, { loadBalancer: { ingress: [{ ip: '2.2.2.2' }] } }),
      ['s', 'LoadBalancer', '10.0.0.3', '2.2.2.2,7.7.7.7', '<none>', '60m', '<none>']],
    ['ExternalName', svc({ type: 'ExternalName', externalName: 'db.example.com' }), ['s', 'ExternalName', '<none>', 'db.example.com', '<none>', '60m', '<none>']],
  ];
  for (const [name, got, want] of rows) it(name, () => assert.deepEqual(got, want));
});

describe('nodes', () => {
  const node = (labels: Record<string, string>, spec: Record<string, unknown>, conditions: unknown[]) => cells('nodes', obj('n1', {
    spec,
    status: {
      conditions, nodeInfo: { kubeletVersion: 'v1.27.16', osImage: 'Debian GNU/Linux 12', kernelVersion: '6.1.0', containerRuntimeVersion: 'containerd://1.7.0' },
      addresses: [{ type: 'Hostname', address: 'n1' }, { type: 'InternalIP', address: '192.168.1.10' }],
    },
  }, { labels }));
  it('ready control plane', () => assert.deepEqual(
    node({ 'node-role.kubernetes.io/control-plane': '', 'node-role.kubernetes.io/master': '' }, {}, [{ type: 'MemoryPressure', status: 'False' }, { type: 'Ready', status: 'True' }]),
    ['n1', 'Ready', 'control-plane,master', '60m', 'v1.27.16', '192.168.1.10', '<none>', 'Debian GNU/Linux 12', '6.1.0', 'containerd://1.7.0']));
  it('not ready and cordoned, role from kubernetes.io/role', () => assert.deepEqual(
    node({ 'kubernetes.io/role': 'worker' }, { unschedulable: true }, [{ type: 'Ready', status: 'Unknown' }]).slice(0, 3), ['n1', 'NotReady,SchedulingDisabled', 'worker']));
  it('no Ready condition, no roles; svc.io role spelling', () => {
    assert.deepEqual(node({}, {}, []).slice(0, 3), ['n1', 'Unknown', '<none>']);
    assert.equal(node({ 'node-role.svc.io/edge': '', 'node-role.kubernetes.io/': '' }, {}, []).at(2), 'edge');
  });
  it('missing node info prints <unknown>', () => {
    assert.deepEqual(cells('nodes', obj('n', { status: {} })).slice(4), ['', '<none>', '<none>', '<unknown>', '<unknown>', '<unknown>']);
  });
});

describe('events', () => {
  const base = { type: 'Warning', reason: 'BackOff', message: ' Back-off restarting failed container \n', involvedObject: { kind: 'Pod', name: 'web-1', fieldPath: 'spec.containers{app}' }, source: { component: 'kubelet', host: 'n1' } };
  it('core event with count and timestamps', () => assert.deepEqual(
    cells('events', obj('web-1.17a', { ...base, count: 12, firstTimestamp: '2024-05-01T10:00:00Z', lastTimestamp: '2024-05-01T11:58:00Z' })),
    ['2m', 'Warning', 'BackOff', 'pod/web-1', 'spec.containers{app}', 'kubelet, n1', 'Back-off restarting failed container', '120m', 12, 'web-1.17a']));
  it('singleton event: eventTime, count 1, reporting controller as source', () => assert.deepEqual(
    cells('events', obj('e', { type: 'Normal', reason: 'Scheduled', message: 'ok', involvedObject: { kind: 'Pod', name: 'p' }, eventTime: '2024-05-01T11:59:30.000000Z', reportingComponent: 'default-scheduler', source: {} })),
    ['30s', 'Normal', 'Scheduled', 'pod/p', '', 'default-scheduler', 'ok', '30s', 1, 'e']));
  it('series: last observed time and series count', () => {
    const c = cells('events', obj('e', { ...base, count: 3, firstTimestamp: '2024-05-01T11:00:00Z', series: { count: 40, lastObservedTime: '2024-05-01T11:59:50.000000Z' } }));
    assert.deepEqual([c[0], c[7], c[8]], ['10s', '60m', 40]);
  });
  it('events.svc.io shape: regarding, note, deprecated fields', () => assert.deepEqual(
    cells('events', obj('e', { apiVersion: 'events.svc.io/v1', type: 'Normal', reason: 'Pulled', note: 'pulled', regarding: { kind: 'Node', name: '' }, reportingController: 'kubelet', reportingInstance: 'n2', deprecatedCount: 2, deprecatedFirstTimestamp: '2024-05-01T11:00:00Z', deprecatedLastTimestamp: '2024-05-01T11:30:00Z' }), 'events.k8s.io'),
    ['30m', 'Normal', 'Pulled', 'node', '', 'kubelet, n2', 'pulled', '60m', 2, 'e']));
  it('column order and priorities', () => assert.deepEqual(printerFor('', 'events').columns.map((c) => `${c.name}:${c.priority}`),
    ['Last Seen:0', 'Type:0', 'Reason:0', 'Object:0', 'Subobject:1', 'Source:1', 'Message:0', 'First Seen:1', 'Count:1', 'Name:1']));
});

describe('small core printers', () => {
  const rows: [string, unknown[], unknown[]][] = [
    ['namespace', cells('namespaces', obj('ns', { status: { phase: 'Terminating' } })), ['ns', 'Terminating', '60m']],
    ['configmap counts data and binaryData', cells('configmaps', obj('c', { data: { a: '1' }, binaryData: { b: 'AA==' } })), ['c', 2, '60m']],
    ['empty configmap', cells('configmaps', obj('c', {})), ['c', 0, '60m']],
    ['secret', cells('secrets', obj('s', { type: 'kubernetes.io/tls', data: { 'tls.crt': 'x', 'tls.key': 'y' } })), ['s', 'kubernetes.io/tls', 2, '60m']],
    ['service account', cells('serviceaccounts', obj('default', { secrets: [{ name: 't' }] })), ['default', 1, '60m']],
    ['endpoints', cells('endpoints', obj('e', { subsets: [{ addresses: [{ ip: '10.1.0.1' }, { ip: '10.1.0.2' }], ports: [{ port: 80 }, { port: 443 }] }] })), ['e', '10.1.0.1:80,10.1.0.2:80,10.1.0.1:443 + 1 more...', '60m']],
    ['endpoints without subsets', cells('endpoints', obj('e', {})), ['e', '<none>', '60m']],
    ['endpoints, IPv6 and port-less', cells('endpoints', obj('e', { subsets: [{ addresses: [{ ip: 'fd00::1' }], ports: [{ port: 53 }] }, { addresses: [{ ip: '10.0.0.9' }] }] })), ['e', '[fd00::1]:53,10.0.0.9', '60m']],
    ['bound PV', cells('persistentvolumes', obj('pv1', { spec: { capacity: { storage: '10Gi' }, accessModes: ['ReadWriteMany', 'ReadWriteOnce'], persistentVolumeReclaimPolicy: 'Retain', claimRef: { namespace: 'ns', name: 'data' }, storageClassName: 'fast', volumeMode: 'Filesystem' }, status: { phase: 'Bound' } })),
      ['pv1', '10Gi', 'RWO,RWX', 'Retain', 'Bound', 'ns/data', 'fast', '', '60m', 'Filesystem']],
    ['pending PVC', cells('persistentvolumeclaims', obj('data', { spec: { resources: { requests: { storage: '1Gi' } }, storageClassName: 'fast' }, status: { phase: 'Pending' } })),
      ['data', 'Pending', '', '', '', 'fast', '60m', '<unset>']],
    ['bound PVC, class from the beta annotation', cells('persistentvolumeclaims', obj('data', { spec: { volumeName: 'pv1', storageClassName: 'fast', volumeMode: 'Block' }, status: { phase: 'Bound', capacity: { storage: '10Gi' }, accessModes: ['ReadWriteOnce'] } }, { annotations: { 'volume.beta.kubernetes.io/storage-class': 'slow' } })),
      ['data', 'Bound', 'pv1', '10Gi', 'RWO', 'slow', '60m', 'Block']],
    ['resource quota', cells('resourcequotas', obj('q', { status: { hard: { pods: '10', 'limits.cpu': '4', 'requests.cpu': '2', 'limits.memory': '8Gi' }, used: { pods: '3', 'requests.cpu': '500m' } } })),
      ['q', 'pods: 3/10, requests.cpu: 500m/2', 'limits.cpu: 0/4, limits.memory: 0/8Gi', '60m']],
    ['pod template', cells('podtemplates', obj('t', { template: { metadata: { labels: { b: '2', a: '1' } }, spec: { containers: [{ name: 'a', image: 'x:1' }, { name: 'b', image: 'y:2' }] } } })), ['t', 'a,b', 'x:1,y:2', 'a=1,b=2']],
    ['replication controller', cells('replicationcontrollers', obj('rc', { spec: { replicas: 3, selector: { app: 'x' }, template: { spec: { containers: [{ name: 'c', image: 'i' }] } } }, status: { replicas: 3, readyReplicas: 2 } })),
      ['rc', 3, 3, 2, '60m', 'c', 'i', 'app=x']],
    ['component status', cells('componentstatuses', obj('etcd-0', { conditions: [{ type: 'Healthy', status: 'True', message: 'ok' }] })), ['etcd-0', 'Healthy', 'ok', '']],
  ];
  for (const [name, got, want] of rows) it(name, () => assert.deepEqual(got, want));
});
