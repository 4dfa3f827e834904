// Workload and cluster-wide printers: deployments, replica sets, stateful and
// daemon sets, jobs, cron jobs, and the others group.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { printerFor } from './index.js';
import type { KObject } from './table.js';

const now = Date.parse('2024-05-01T12:00:00Z');
const created = '2024-05-01T11:00:00Z';
const cells = (group: string, resource: string, o: KObject) => printerFor(group, resource).row(o, { now }).cells;
const obj = (name: string, rest: Record<string, unknown>, meta: Record<string, unknown> = {}): KObject => ({ metadata: { name, creationTimestamp: created, ...meta }, ...rest });
const template = { spec: { containers: [{ name: 'web', image: 'nginx:1.25' }, { name: 'log', image: 'busybox' }] } };

describe('workloads', () => {
  const rows: [string, unknown[], unknown[]][] = [
    ['deployment', cells('apps', 'deployments', obj('web', {
      spec: { replicas: 3, selector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'env', operator: 'In', values: ['qa', 'dev'] }, { key: 'canary', operator: 'DoesNotExist' }] }, template },
      status: { readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 },
    })), ['web', '2/3', 3, 2, '60m', 'web,log', 'nginx:1.25,busybox', 'app=web,!canary,env in (dev,qa)']],
    ['new deployment without status', cells('apps', 'deployments', obj('d', { spec: { replicas: 1, template } })), ['d', '0/1', 0, 0, '60m', 'web,log', 'nginx:1.25,busybox', '']],
    ['replica set', cells('apps', 'replicasets', obj('web-5d4', { spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template }, status: { replicas: 2, readyReplicas: 1 } })),
      ['web-5d4', 2, 2, 1, '60m', 'web,log', 'nginx:1.25,busybox', 'app=web']],
    ['stateful set', cells('apps', 'statefulsets', obj('db', { spec: { replicas: 3, template }, status: { readyReplicas: 1 } })), ['db', '1/3', '60m', 'web,log', 'nginx:1.25,busybox']],
    ['daemon set', cells('apps', 'daemonsets', obj('agent', { spec: { selector: {}, template: { spec: { ...template.spec, nodeSelector: { 'kubernetes.io/os': 'linux' } } } }, status: { desiredNumberScheduled: 3, currentNumberScheduled: 3, numberReady: 2, updatedNumberScheduled: 3, numberAvailable: 2 } })),
      ['agent', 3, 3, 2, 3, 2, 'kubernetes.io/os=linux', '60m', 'web,log', 'nginx:1.25,busybox', '<none>']],
    ['controller revision', cells('apps', 'controllerrevisions', obj('db-7f', { revision: 2 }, { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', controller: true }] })), ['db-7f', 'statefulset.apps/db', 2, '60m']],
    ['complete job', cells('batch', 'jobs', obj('j', { spec: { completions: 1, parallelism: 1, selector: { matchLabels: { 'controller-uid': 'u' } }, template }, status: { succeeded: 1, startTime: '2024-05-01T11:00:00Z', completionTime: '2024-05-01T11:00:42Z' } })),
      ['j', '1/1', '42s', '60m', 'web,log', 'nginx:1.25,busybox', 'controller-uid=u']],
    ['running work-queue job', cells('batch', 'jobs', obj('q', { spec: { parallelism: 3, template }, status: { succeeded: 0, startTime: '2024-05-01T11:55:00Z' } })).slice(0, 3), ['q', '0/1 of 3', '5m']],
    ['job not started', cells('batch', 'jobs', obj('n', { spec: { template } })).slice(0, 3), ['n', '0/1', '']],
    ['cron job', cells('batch', 'cronjobs', obj('c', { spec: { schedule: '*/5 * * * *', suspend: false, jobTemplate: { spec: { template } } }, status: { active: [{ name: 'c-1' }], lastScheduleTime: '2024-05-01T11:55:00Z' } })),
      ['c', '*/5 * * * *', 'False', 1, '5m', '60m', 'web,log', 'nginx:1.25,busybox', '<none>']],
    ['cron job never scheduled, suspend unset', cells('batch', 'cronjobs', obj('c', { spec: { schedule: '@daily' } })).slice(0, 5), ['c', '@daily', '<unset>', 0, '<none>']],
  ];
  for (const [name, got, want] of rows) it(name, () => assert.deepEqual(got, want));
  it('deployment columns', () => assert.deepEqual(printerFor('apps', 'deployments').columns.map((c) => `${c.name}:${c.type}:${c.priority}`),
    ['Name:string:0', 'Ready:string:0', 'Up-to-date:string:0', 'Available:string:0', 'Age:string:0', 'Containers:string:1', 'Images:string:1', 'Selector:string:1']));
  it('job and cron job columns (v1.27: no Status, no Timezone)', () => {
    assert.deepEqual(printerFor('batch', 'jobs').columns.map((c) => c.name), ['Name', 'Completions', 'Duration', 'Age', 'Containers', 'Images', 'Selector']);
    assert.deepEqual(printerFor('batch', 'cronjobs').columns.map((c) => c.name), ['Name', 'Schedule', 'Suspend', 'Active', 'Last Schedule', 'Age', 'Containers', 'Images', 'Selector']);
  });
});

describe('other groups', () => {
  const rows: [string, unknown[], unknown[]][] = [
    ['ingress', cells('networking.k8s.io', 'ingresses', obj('i', { spec: { ingressClassName: 'nginx', rules: [{ host: 'a.example' }, { host: 'b.example' }, {}, { host: 'c.example' }, { host: 'd.example' }], tls: [{}] }, status: { loadBalancer: { ingress: [{ ip: '5.5.5.5' }] } } })),
      ['i', 'nginx', 'a.example,b.example,c.example + 2 more...', '5.5.5.5', '80, 443', '60m']],
    ['ingress without hosts or class', cells('networking.svc.io', 'ingresses', obj('i', { spec: {} })), ['i', '<none>', '*', '', '80', '60m']],
    ['network policy', cells('networking.svc.io', 'networkpolicies', obj('np', { spec: { podSelector: {} } })), ['np', '<none>', '60m']],
    ['role binding', cells('rbac.authorization.k8s.io', 'rolebindings', obj('rb', { roleRef: { kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'User', name: 'alice' }, { kind: 'Group', name: 'devs' }, { kind: 'ServiceAccount', namespace: 'ns', name: 'sa' }, { kind: 'User', name: 'bob' }] })),
      ['rb', 'ClusterRole/view', '60m', 'alice, bob', 'devs', 'ns/sa']],
    ['storage class (default)', cells('storage.k8s.io', 'storageclasses', obj('std', { provisioner: 'rancher.io/local-path', volumeBindingMode: 'WaitForFirstConsumer' }, { annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } })),
      ['std (default)', 'rancher.io/local-path', 'Delete', 'WaitForFirstConsumer', false, '60m']],
    ['priority class', cells('scheduling.k8s.io', 'priorityclasses', obj('high', { value: 1000000, globalDefault: false, preemptionPolicy: 'PreemptLowerPriority' })), ['high', 1000000, false, '60m', 'PreemptLowerPriority']],
    ['hpa v2', cells('autoscaling', 'horizontalpodautoscalers', obj('h', {
      spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, minReplicas: 2, maxReplicas: 10, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }, { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '500Mi' } } }, { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } }] },
      status: { currentReplicas: 3, currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 45, averageValue: '200m' } } }] },
    })), ['h', 'Deployment/web', 'cpu: 45%/80%, memory: <unknown>/500Mi + 1 more...', '2', 10, 3, '60m']],
    ['hpa v1', cells('autoscaling', 'horizontalpodautoscalers', obj('h', { spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 5, targetCPUUtilizationPercentage: 50 }, status: { currentReplicas: 1 } })),
      ['h', 'Deployment/web', 'cpu: <unknown>/50%', '<unset>', 5, 1, '60m']],
    ['pdb', cells('policy', 'poddisruptionbudgets', obj('pdb', { spec: { minAvailable: '50%' }, status: { disruptionsAllowed: 1 } })), ['pdb', '50%', 'N/A', 1, '60m']],
    ['lease', cells('coordination.k8s.io', 'leases', obj('l', { spec: { holderIdentity: 'node-1' } })), ['l', 'node-1', '60m']],
    ['csr', cells('certificates.k8s.io', 'certificatesigningrequests', obj('csr', { spec: { signerName: 'kubernetes.io/kube-apiserver-client', username: 'alice', expirationSeconds: 86400 }, status: { conditions: [{ type: 'Approved' }], certificate: 'Zm9v' } })),
      ['csr', '60m', 'kubernetes.io/kube-apiserver-client', 'alice', '24h', 'Approved,Issued']],
    ['endpoint slice', cells('discovery.k8s.io', 'endpointslices', obj('es', { addressType: 'IPv4', ports: [{ port: 80 }, { name: 'dns' }, {}, { port: 9 }], endpoints: [{ addresses: ['10.0.0.1'] }] })),
      ['es', 'IPv4', '80,dns,* + 1 more...', '10.0.0.1', '60m']],
    ['empty endpoint slice', cells('discovery.k8s.io', 'endpointslices', obj('es', { addressType: 'IPv6' })), ['es', 'IPv6', '<unset>', '<unset>', '60m']],
    ['webhook configuration', cells('admissionregistration.k8s.io', 'validatingwebhookconfigurations', obj('w', { webhooks: [{}, {}] })), ['w', 2, '60m']],
    ['runtime class', cells('node.k8s.io', 'runtimeclasses', obj('gvisor', { handler: 'runsc' })), ['gvisor', 'runsc', '60m']],
    ['csi driver defaults', cells('storage.k8s.io', 'csidrivers', obj('d', { spec: {} })), ['d', true, false, false, '<unset>', false, '<none>', '60m']],
    ['volume attachment', cells('storage.k8s.io', 'volumeattachments', obj('va', { spec: { attacher: 'csi.x', nodeName: 'n1', source: { persistentVolumeName: 'pv1' } }, status: { attached: true } })), ['va', 'csi.x', 'pv1', 'n1', true, '60m']],
    ['apiservice', cells('apiregistration.k8s.io', 'apiservices', obj('v1beta1.metrics.k8s.io', { spec: { service: { namespace: 'kube-system', name: 'metrics-server' } }, status: { conditions: [{ type: 'Available', status: 'False', reason: 'MissingEndpoints' }] } })),
      ['v1beta1.metrics.k8s.io', 'kube-system/metrics-server', 'False (MissingEndpoints)', '60m']],
    ['priority level', cells('flowcontrol.apiserver.k8s.io', 'prioritylevelconfigurations', obj('global-default', { spec: { type: 'Limited', limited: { nominalConcurrencyShares: 20, limitResponse: { type: 'Queue', queuing: { queues: 128, handSize: 6, queueLengthLimit: 50 } } } } })),
      ['global-default', 'Limited', 20, 128, 6, 50, '60m']],
    ['exempt priority level', cells('flowcontrol.apiserver.k8s.io', 'prioritylevelconfigurations', obj('exempt', { spec: { type: 'Exempt' } })), ['exempt', 'Exempt', '<none>', '<none>', '<none>', '<none>', '60m']],
  ];
  for (const [name, got, want] of rows) it(name, () => assert.deepEqual(got, want));
});
