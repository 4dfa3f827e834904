// core/v1 defaulting, case by case (v1.27 behaviour). The golden-transcript
// comparison of whole objects is in ../../defaults.test.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  defaultPodPriority, defaulters, defaultTolerationSeconds, imageTag, type Json,
} from './defaults.js';

const gates = { enabled: () => false };
const run = (kind: string, obj: Json): Json => {
  defaulters[kind]!(obj, gates);
  return obj;
};
type Row = [name: string, input: Json, want: Json];
const table = (kind: string, rows: Row[]) => {
  for (const [name, input, want] of rows) it(name, () => assert.deepEqual(run(kind, structuredClone(input)), want));
};

/** What SetDefaults_PodSpec adds to an empty spec. */
const SPEC = { dnsPolicy: 'ClusterFirst', restartPolicy: 'Always', securityContext: {}, terminationGracePeriodSeconds: 30, schedulerName: 'default-scheduler' };
/** What a container gets, for an image with a tag other than latest. */
const C = { resources: {}, terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', imagePullPolicy: 'IfNotPresent' };
const PROBE = { timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 };

describe('imageTag', () => {
  const rows: [string, string][] = [
    ['nginx', 'latest'], ['nginx:latest', 'latest'], ['nginx:1.25', '1.25'], ['registry.example/app', 'latest'],
    ['registry.example:5000/team/app:v2', 'v2'], ['localhost/app', 'latest'], ['app@sha256:' + 'a'.repeat(64), ''],
    ['app:latest@sha256:' + 'a'.repeat(64), 'latest'], ['app:latest@sha256:abc', ''], ['Upper/app', ''], ['registry.example/App', ''],
    ['', ''], ['a'.repeat(64), ''], ['app:', ''], ['-app', ''], ['my_app__x.y-z:1', '1'],
  ];
  for (const [image, tag] of rows) it(JSON.stringify(image), () => assert.equal(imageTag(image), tag));
});

describe('Pod', () => {
  table('Pod', [
    ['an empty pod', {}, { spec: { enableServiceLinks: true, ...SPEC } }],
    ['pull policy from the tag; set values are kept', {
      spec: { restartPolicy: 'Never', dnsPolicy: 'Default', terminationGracePeriodSeconds: 0, enableServiceLinks: false, containers: [
        { name: 'a', image: 'x' }, { name: 'b', image: 'x:latest' }, { name: 'c', image: 'x:1' }, { name: 'd', image: 'x', imagePullPolicy: 'Never', terminationMessagePolicy: 'FallbackToLogsOnError' },
      ] },
    }, {
      spec: { restartPolicy: 'Never', dnsPolicy: 'Default', terminationGracePeriodSeconds: 0, enableServiceLinks: false, securityContext: {}, schedulerName: 'default-scheduler', containers: [
        { name: 'a', image: 'x', ...C, imagePullPolicy: 'Always' }, { name: 'b', image: 'x:latest', ...C, imagePullPolicy: 'Always' },
        { name: 'c', image: 'x:1', ...C }, { name: 'd', image: 'x', ...C, imagePullPolicy: 'Never', terminationMessagePolicy: 'FallbackToLogsOnError' },
      ] },
    }],
    ['null is unset', { spec: { restartPolicy: null, securityContext: null, containers: [{ name: 'a', image: 'x:1', resources: null }] } },
      { spec: { ...SPEC, enableServiceLinks: true, containers: [{ name: 'a', image: 'x:1', ...C }] } }],
    ['requests default to limits in app and init containers, not ephemeral ones', {
      spec: {
        containers: [{ name: 'a', image: 'x:1', resources: { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '500m' } } }],
        initContainers: [{ name: 'i', image: 'x:1', resources: { limits: { cpu: '1' } } }],
        ephemeralContainers: [{ name: 'e', image: 'x:1', resources: { limits: { cpu: '1' } } }],
      },
    }, {
      spec: {
        ...SPEC, enableServiceLinks: true,
        containers: [{ name: 'a', image: 'x:1', ...C, resources: { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '500m', memory: '1Gi' } } }],
        initContainers: [{ name: 'i', image: 'x:1', ...C, resources: { limits: { cpu: '1' }, requests: { cpu: '1' } } }],
        ephemeralContainers: [{ name: 'e', image: 'x:1', ...C, resources: { limits: { cpu: '1' } } }],
      },
    }],
    ['ports, env fieldRef, probes and lifecycle handlers', {
      spec: { containers: [{
        name: 'a', image: 'x:1', ports: [{ containerPort: 80 }, { containerPort: 53, protocol: 'UDP' }],
        env: [{ name: 'N', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }, { name: 'V', value: 'v' }, { name: 'R', valueFrom: { fieldRef: { apiVersion: 'v2', fieldPath: 'x' } } }],
        livenessProbe: { httpGet: { port: 80 }, periodSeconds: 5 }, readinessProbe: { grpc: { port: 9 } }, startupProbe: { exec: { command: ['true'] }, failureThreshold: 0 },
        lifecycle: { preStop: { httpGet: { port: 80, path: '/stop' } }, postStart: { exec: { command: ['x'] } } },
      }] },
    }, {
      spec: { ...SPEC, enableServiceLinks: true, containers: [{
        name: 'a', image: 'x:1', ...C, ports: [{ containerPort: 80, protocol: 'TCP' }, { containerPort: 53, protocol: 'UDP' }],
        env: [{ name: 'N', valueFrom: { fieldRef: { fieldPath: 'metadata.name', apiVersion: 'v1' } } }, { name: 'V', value: 'v' }, { name: 'R', valueFrom: { fieldRef: { apiVersion: 'v2', fieldPath: 'x' } } }],
        livenessProbe: { ...PROBE, periodSeconds: 5, httpGet: { port: 80, path: '/', scheme: 'HTTP' } },
        readinessProbe: { ...PROBE, grpc: { port: 9, service: '' } },
        startupProbe: { ...PROBE, exec: { command: ['true'] } },
        lifecycle: { preStop: { httpGet: { port: 80, path: '/stop', scheme: 'HTTP' } }, postStart: { exec: { command: ['x'] } } },
      }] },
    }],
    ['host network: container ports become host ports', {
      spec: { hostNetwork: true, containers: [{ name: 'a', image: 'x:1', ports: [{ containerPort: 80 }, { containerPort: 81, hostPort: 9 }] }] },
    }, {
      spec: { ...SPEC, hostNetwork: true, enableServiceLinks: true, containers: [{ name: 'a', image: 'x:1', ...C, ports: [{ containerPort: 80, hostPort: 80, protocol: 'TCP' }, { containerPort: 81, hostPort: 9, protocol: 'TCP' }] }] },
    }],
    ['serviceAccount mirrors serviceAccountName; the old field alone is taken over', { spec: { serviceAccount: 'old' } },
      { spec: { ...SPEC, enableServiceLinks: true, serviceAccountName: 'old', serviceAccount: 'old' } }],
    ['serviceAccountName wins over a different serviceAccount', { spec: { serviceAccountName: 'new', serviceAccount: 'old' } },
      { spec: { ...SPEC, enableServiceLinks: true, serviceAccountName: 'new', serviceAccount: 'new' } }],
    ['init-container annotations are dropped', { metadata: { annotations: { 'pod.beta.kubernetes.io/init-containers': '[]', keep: 'y' } } },
      { metadata: { annotations: { keep: 'y' } }, spec: { ...SPEC, enableServiceLinks: true } }],
    ['status podIP and podIPs kept in step', { status: { podIP: '10.0.0.1' } },
      { spec: { ...SPEC, enableServiceLinks: true }, status: { podIP: '10.0.0.1', podIPs: [{ ip: '10.0.0.1' }] } }],
    ['podIP wins when they differ; podIPs alone fills podIP', { status: { podIPs: [{ ip: 'fd00::1' }] } },
      { spec: { ...SPEC, enableServiceLinks: true }, status: { podIP: 'fd00::1', podIPs: [{ ip: 'fd00::1' }] } }],
  ]);

  it('is idempotent', () => {
    const once = run('Pod', { spec: { containers: [{ name: 'a', image: 'x', resources: { limits: { cpu: '1' } }, livenessProbe: { tcpSocket: { port: 1 } } }], volumes: [{ name: 'v' }] } });
    assert.deepEqual(run('Pod', structuredClone(once)), once);
  });
  it('leaves members of the wrong type alone', () => {
    assert.deepEqual(run('Pod', { spec: { containers: 'x', securityContext: 'y', volumes: [7] } }),
      { spec: { ...SPEC, enableServiceLinks: true, containers: 'x', securityContext: 'y', volumes: [7] } });
  });
});

describe('Pod volumes', () => {
  const volumes = (vs: Json[]): Json => run('Pod', { spec: { volumes: vs } });
  const out = (vs: Json[]): Json => ({ spec: { ...SPEC, enableServiceLinks: true, volumes: vs } });
  const rows: Row[] = [
    ['no source means emptyDir', [{ name: 'a' }, { name: 'b', secret: null }], [{ name: 'a', emptyDir: {} }, { name: 'b', secret: null, emptyDir: {} }]],
    ['file modes 0644', [{ name: 's', secret: { secretName: 's' } }, { name: 'c', configMap: { name: 'c', defaultMode: 256 } }],
      [{ name: 's', secret: { secretName: 's', defaultMode: 420 } }, { name: 'c', configMap: { name: 'c', defaultMode: 256 } }]],
    ['downward API', [{ name: 'd', downwardAPI: { items: [{ path: 'l', fieldRef: { fieldPath: 'metadata.labels' } }] } }],
      [{ name: 'd', downwardAPI: { defaultMode: 420, items: [{ path: 'l', fieldRef: { fieldPath: 'metadata.labels', apiVersion: 'v1' } }] } }]],
    ['projected', [{ name: 'p', projected: { sources: [{ serviceAccountToken: { path: 't' } }, { downwardAPI: { items: [{ path: 'n', fieldRef: { fieldPath: 'metadata.name' } }] } }, { secret: { name: 's' } }] } }],
      [{ name: 'p', projected: { defaultMode: 420, sources: [{ serviceAccountToken: { path: 't', expirationSeconds: 3600 } }, { downwardAPI: { items: [{ path: 'n', fieldRef: { fieldPath: 'metadata.name', apiVersion: 'v1' } }] } }, { secret: { name: 's' } }] } }]],
    ['hostPath type ""', [{ name: 'h', hostPath: { path: '/x' } }, { name: 'i', hostPath: { path: '/y', type: 'Directory' } }],
      [{ name: 'h', hostPath: { path: '/x', type: '' } }, { name: 'i', hostPath: { path: '/y', type: 'Directory' } }]],
    ['storage-system sources', [
      { name: 'i', iscsi: { targetPortal: 't', iqn: 'q', lun: 0 } }, { name: 'r', rbd: { monitors: ['m'], image: 'i' } },
      { name: 'a', azureDisk: { diskName: 'd', diskURI: 'u' } }, { name: 's', scaleIO: { gateway: 'g', system: 's', secretRef: {} } },
    ], [
      { name: 'i', iscsi: { targetPortal: 't', iqn: 'q', lun: 0, iscsiInterface: 'default' } },
      { name: 'r', rbd: { monitors: ['m'], image: 'i', pool: 'rbd', user: 'admin', keyring: '/etc/ceph/keyring' } },
      { name: 'a', azureDisk: { diskName: 'd', diskURI: 'u', cachingMode: 'ReadWrite', fsType: 'ext4', readOnly: false, kind: 'Shared' } },
      { name: 's', scaleIO: { gateway: 'g', system: 's', secretRef: {}, storageMode: 'ThinProvisioned', fsType: 'xfs' } },
    ]],
    ['ephemeral claim template', [{ name: 'e', ephemeral: { volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'] } } } }],
      [{ name: 'e', ephemeral: { volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'], volumeMode: 'Filesystem' } } } }]],
  ].map(([name, vs, want]) => [name as string, vs as unknown as Json, want as unknown as Json]);
  for (const [name, vs, want] of rows) it(name, () => assert.deepEqual(volumes(vs as unknown as Json[]), out(want as unknown as Json[])));
});

describe('PodTemplate and ReplicationController', () => {
  table('PodTemplate', [
    ['a template gets PodSpec defaults but no Pod-only ones (enableServiceLinks, requests from limits)', {
      template: { spec: { containers: [{ name: 'a', image: 'x:1', resources: { limits: { cpu: '1' } } }] } },
    }, { template: { spec: { ...SPEC, containers: [{ name: 'a', image: 'x:1', ...C, resources: { limits: { cpu: '1' } } }] } } }],
    ['an absent template is a zero template', {}, { template: { spec: SPEC } }],
  ]);
  table('ReplicationController', [
    ['selector and labels from the template; replicas 1', { spec: { template: { metadata: { labels: { app: 'a' } }, spec: {} } } },
      { metadata: { labels: { app: 'a' } }, spec: { selector: { app: 'a' }, replicas: 1, template: { metadata: { labels: { app: 'a' } }, spec: SPEC } } }],
    ['given selector and labels are kept', { metadata: { labels: { x: '1' } }, spec: { replicas: 0, selector: { s: '1' }, template: { metadata: { labels: { app: 'a' } } } } },
      { metadata: { labels: { x: '1' } }, spec: { replicas: 0, selector: { s: '1' }, template: { metadata: { labels: { app: 'a' } }, spec: SPEC } } }],
    ['no template: replicas only', { spec: {} }, { spec: { replicas: 1 } }],
  ]);
});

describe('Service', () => {
  table('Service', [
    ['ClusterIP', { spec: { ports: [{ port: 80 }, { port: 53, protocol: 'UDP', targetPort: 'dns' }, { port: 8, targetPort: 0 }] } },
      { spec: { sessionAffinity: 'None', type: 'ClusterIP', internalTrafficPolicy: 'Cluster', ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }, { port: 53, protocol: 'UDP', targetPort: 'dns' }, { port: 8, protocol: 'TCP', targetPort: 8 }] } }],
    ['NodePort', { spec: { type: 'NodePort' } }, { spec: { type: 'NodePort', sessionAffinity: 'None', externalTrafficPolicy: 'Cluster', internalTrafficPolicy: 'Cluster' } }],
    ['LoadBalancer', { spec: { type: 'LoadBalancer', externalTrafficPolicy: 'Local' } },
      { spec: { type: 'LoadBalancer', sessionAffinity: 'None', externalTrafficPolicy: 'Local', internalTrafficPolicy: 'Cluster', allocateLoadBalancerNodePorts: true } }],
    ['ExternalName: no traffic policies', { spec: { type: 'ExternalName', externalName: 'x' } }, { spec: { type: 'ExternalName', externalName: 'x', sessionAffinity: 'None' } }],
    ['ClusterIP with external IPs: no externalTrafficPolicy in v1.27', { spec: { externalIPs: ['1.2.3.4'] } },
      { spec: { externalIPs: ['1.2.3.4'], sessionAffinity: 'None', type: 'ClusterIP', internalTrafficPolicy: 'Cluster' } }],
    ['ClientIP affinity gets a 3 h timeout', { spec: { sessionAffinity: 'ClientIP' } },
      { spec: { sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 10800 } }, type: 'ClusterIP', internalTrafficPolicy: 'Cluster' } }],
    ['a given timeout is kept', { spec: { sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 5 } } } },
      { spec: { sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 5 } }, type: 'ClusterIP', internalTrafficPolicy: 'Cluster' } }],
    ['affinity None drops the config', { spec: { sessionAffinityConfig: { clientIP: { timeoutSeconds: 5 } } } },
      { spec: { sessionAffinity: 'None', type: 'ClusterIP', internalTrafficPolicy: 'Cluster' } }],
  ]);
  table('Endpoints', [
    ['port protocols', { subsets: [{ ports: [{ port: 1 }, { port: 2, protocol: 'SCTP' }] }] }, { subsets: [{ ports: [{ port: 1, protocol: 'TCP' }, { port: 2, protocol: 'SCTP' }] }] }],
  ]);
});

describe('storage, namespaces, nodes, secrets, limit ranges', () => {
  table('PersistentVolumeClaim', [
    ['volumeMode and phase', { spec: { accessModes: ['ReadWriteOnce'] } }, { spec: { accessModes: ['ReadWriteOnce'], volumeMode: 'Filesystem' }, status: { phase: 'Pending' } }],
    ['Block is kept', { spec: { volumeMode: 'Block' }, status: { phase: 'Bound' } }, { spec: { volumeMode: 'Block' }, status: { phase: 'Bound' } }],
  ]);
  table('PersistentVolume', [
    ['reclaim policy, volumeMode, phase and sources', { spec: { hostPath: { path: '/d' } } },
      { spec: { hostPath: { path: '/d', type: '' }, persistentVolumeReclaimPolicy: 'Retain', volumeMode: 'Filesystem' }, status: { phase: 'Pending' } }],
  ]);
  table('Namespace', [
    ['name label and phase', { metadata: { name: 'team', labels: { svc: 'x', 'svc.io/metadata.name': 'other' } } },
      { metadata: { name: 'team', labels: { svc: 'x', 'svc.io/metadata.name': 'team', 'kubernetes.io/metadata.name': 'team' } }, status: { phase: 'Active' } }],
    ['no label without a name (generateName)', { metadata: { generateName: 'n-' } }, { metadata: { generateName: 'n-' }, status: { phase: 'Active' } }],
  ]);
  table('Node', [
    ['allocatable from capacity; podCIDRs from podCIDR', { spec: { podCIDR: '10.0.0.0/24' }, status: { capacity: { cpu: '4' } } },
      { spec: { podCIDR: '10.0.0.0/24', podCIDRs: ['10.0.0.0/24'] }, status: { capacity: { cpu: '4' }, allocatable: { cpu: '4' } } }],
    ['podCIDR wins when they differ', { spec: { podCIDR: 'a', podCIDRs: ['b', 'c'] } }, { spec: { podCIDR: 'a', podCIDRs: ['a'] } }],
  ]);
  table('Secret', [
    ['type Opaque; stringData over data, as base64', { stringData: { u: 'admin', p: 'é' }, data: { p: 'eA==', k: 'dg==' } },
      { type: 'Opaque', data: { p: 'w6k=', k: 'dg==', u: 'YWRtaW4=' } }],
    ['empty stringData leaves no data', { type: 'kubernetes.io/tls', stringData: {} }, { type: 'kubernetes.io/tls' }],
  ]);
  table('LimitRange', [
    ['container defaults from max, default and min', { spec: { limits: [
      { type: 'Container', max: { cpu: '2', memory: '1Gi' }, min: { cpu: '100m', storage: '1' }, default: { memory: '512Mi' } },
      { type: 'Pod', max: { cpu: '2' } },
    ] } }, { spec: { limits: [
      { type: 'Container', max: { cpu: '2', memory: '1Gi' }, min: { cpu: '100m', storage: '1' }, default: { memory: '512Mi', cpu: '2' }, defaultRequest: { memory: '512Mi', cpu: '2', storage: '1' } },
      { type: 'Pod', max: { cpu: '2' } },
    ] } }],
  ]);
});

describe('defaultTolerationSeconds (admission-time)', () => {
  const NR = { key: 'node.svc.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 };
  const UR = { key: 'node.svc.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 };
  const rows: [string, unknown[] | undefined, unknown[] | undefined][] = [
    ['adds both', undefined, [NR, UR]],
    ['keeps existing ones first', [{ key: 'x', operator: 'Exists' }], [{ key: 'x', operator: 'Exists' }, NR, UR]],
    ['an own not-ready toleration', [{ key: 'node.svc.io/not-ready', operator: 'Exists', effect: 'NoExecute' }], [{ key: 'node.svc.io/not-ready', operator: 'Exists', effect: 'NoExecute' }, UR]],
    ['an empty key tolerates both', [{ operator: 'Exists', effect: 'NoExecute' }], [{ operator: 'Exists', effect: 'NoExecute' }]],
    ['an empty effect tolerates NoExecute', [{ key: 'node.svc.io/unreachable', operator: 'Exists' }], [{ key: 'node.svc.io/unreachable', operator: 'Exists' }, NR]],
    ['a NoSchedule one does not count', [{ operator: 'Exists', effect: 'NoSchedule' }], [{ operator: 'Exists', effect: 'NoSchedule' }, NR, UR]],
  ];
  for (const [name, given, want] of rows) {
    it(name, () => {
      const pod: Json = { spec: given ? { tolerations: structuredClone(given) } : {} };
      defaultTolerationSeconds(pod);
      assert.deepEqual((pod.spec as Json).tolerations, want);
    });
  }
  it('configurable seconds', () => {
    const pod: Json = { spec: {} };
    defaultTolerationSeconds(pod, { notReady: 10, unreachable: 20 });
    assert.deepEqual((pod.spec as Json).tolerations, [{ ...NR, tolerationSeconds: 10 }, { ...UR, tolerationSeconds: 20 }]);
  });
});

describe('defaultPodPriority (admission-time)', () => {
  it('no class: priority 0, PreemptLowerPriority', () => {
    const pod: Json = { spec: {} };
    assert.equal(defaultPodPriority(pod), undefined);
    assert.deepEqual(pod.spec, { priority: 0, preemptionPolicy: 'PreemptLowerPriority' });
  });
  it('a resolved class', () => {
    const pod: Json = { spec: { priorityClassName: 'high' } };
    assert.equal(defaultPodPriority(pod, { priorityClassName: 'high', value: 1000, preemptionPolicy: 'Never' }), undefined);
    assert.deepEqual(pod.spec, { priorityClassName: 'high', priority: 1000, preemptionPolicy: 'Never' });
  });
  it('a conflicting priority is refused', () => {
    assert.equal(defaultPodPriority({ spec: { priority: 5 } }),
      'the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name');
  });
  it('a conflicting preemptionPolicy is refused', () => {
    assert.equal(defaultPodPriority({ spec: { preemptionPolicy: 'Never' } }),
      'the string value of PreemptionPolicy (Never) must not be provided in pod spec; priority admission controller computed PreemptLowerPriority from the given PriorityClass name');
  });
});
