// Whole objects in the envelope: golden bytes of a small ConfigMap (worked
// out by hand from core/v1 and meta/v1 generated.proto and runtime.Unknown),
// a body as a Go client writes it, round trips of rich objects, Status,
// watch frames and lists written in pieces.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeEnvelope, decodeObject, encodeObject, encodeWatchFrame, hasProtobuf, ProtobufListWriter } from './index.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const h = (s: string) => Buffer.from(s.replace(/\s+/g, ''), 'hex');

describe('protobuf objects', () => {
  // ConfigMap {metadata=1 ObjectMeta{name=1, namespace=3}, data=2 map, binaryData=3 map<string,bytes>, immutable=4}
  const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'ns' }, data: { a: '1' }, binaryData: { b: '/w==' }, immutable: true };
  const golden = h(`
    6b387300                                  magic "k8s\\0"
    0a0f 0a027631 1209436f6e6669674d6170      typeMeta{apiVersion "v1", kind "ConfigMap"}
    121c                                      raw, 28 bytes:
      0a08 0a02636d 1a026e73                  metadata{name "cm", namespace "ns"}
      1206 0a0161 120131                      data entry {key "a", value "1"}
      1a06 0a0162 1201ff                      binaryData entry {key "b", value 0xff}
      2001                                    immutable true
    1a00 2200                                 contentEncoding "", contentType ""`.replace(/ [a-z"].*$/gm, ''));

  it('encodes a small ConfigMap to the bytes worked out by hand', () => {
    assert.equal(hex(encodeObject(cm)!), hex(golden));
  });

  it('decodes those bytes back to the same JSON object', () => {
    assert.deepEqual(decodeObject(golden), cm);
  });

  it('decodes a body as a Go client writes it (every non-pointer field present) to the JSON Go would send', () => {
    const raw = h(`
      0a14 0a02636d 1200 1a026e73 2200 2a00 3200 3800 4200
      1206 0a0161 120131`);
    const body = Buffer.concat([h('6b387300 0a0f 0a027631 1209436f6e6669674d6170'), h('12'), Buffer.from([raw.length]), raw, h('1a00 2200')]);
    assert.deepEqual(decodeObject(body), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'ns', creationTimestamp: null }, data: { a: '1' } });
  });

  it('rejects a body without the magic prefix, as Kubernetes does', () => {
    assert.throws(() => decodeObject(Buffer.from('{"kind":"ConfigMap"}')), /does not appear to be a protobuf message, expected prefix \[107 56 115 0\]/);
    assert.throws(() => decodeEnvelope(h('6b387301 0a00')), /expected prefix/);
  });

  const rich: Record<string, unknown>[] = [
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'web',
        namespace: 'default',
        uid: '8d8a3c1e-0000-4000-8000-000000000001',
        resourceVersion: '42',
        generation: 1,
        creationTimestamp: '2024-05-06T07:08:09Z',
        deletionTimestamp: '2024-05-06T07:09:09Z',
        deletionGracePeriodSeconds: 0,
        labels: { app: 'web', tier: 'front' },
        annotations: { note: 'x' },
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-1', uid: 'u1', controller: true, blockOwnerDeletion: true }],
        finalizers: ['a/b'],
        managedFields: [{ manager: 'kubectl', operation: 'Update', apiVersion: 'v1', time: '2024-05-06T07:08:09Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } } }],
      },
      spec: {
        volumes: [
          { name: 'cfg', configMap: { name: 'cfg', defaultMode: 420, optional: false, items: [{ key: 'k', path: 'p' }] } },
          { name: 'tmp', emptyDir: { sizeLimit: '1Gi' } },
          { name: 'tok', projected: { sources: [{ serviceAccountToken: { path: 'token', expirationSeconds: 3607 } }], defaultMode: 420 } },
        ],
        initContainers: [{ name: 'init', image: 'busybox', command: ['sh', '-c', 'true'] }],
        containers: [
          {
            name: 'c',
            image: 'nginx:1.25',
            args: ['-g', 'daemon off;'],
            ports: [{ name: 'http', containerPort: 80, protocol: 'TCP' }],
            env: [{ name: 'A', value: '1' }, { name: 'B', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'b', optional: true } } }],
            envFrom: [{ secretRef: { name: 's' } }],
            resources: { limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '250m', memory: '64Mi' } },
            volumeMounts: [{ name: 'cfg', mountPath: '/etc/cfg', readOnly: true }],
            livenessProbe: { httpGet: { path: '/healthz', port: 'http', scheme: 'HTTP' }, initialDelaySeconds: 3, periodSeconds: 10, timeoutSeconds: 1, successThreshold: 1, failureThreshold: 3 },
            readinessProbe: { tcpSocket: { port: 80 }, periodSeconds: 5 },
            securityContext: { runAsUser: 0, runAsNonRoot: false, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
            terminationMessagePath: '/dev/termination-log',
            terminationMessagePolicy: 'File',
            imagePullPolicy: 'IfNotPresent',
          },
        ],
        ephemeralContainers: [{ name: 'debug', image: 'busybox', targetContainerName: 'c', stdin: true, tty: true }],
        restartPolicy: 'Always',
        terminationGracePeriodSeconds: 0,
        dnsPolicy: 'ClusterFirst',
        nodeSelector: { disk: 'ssd' },
        serviceAccountName: 'default',
        automountServiceAccountToken: false,
        securityContext: { fsGroup: 2000, supplementalGroups: [1, 2] },
        tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }],
        affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a', 'b'] }] }] } } },
        priority: 0,
        enableServiceLinks: true,
        preemptionPolicy: 'PreemptLowerPriority',
        overhead: { cpu: '10m' },
      },
      status: {
        phase: 'Running',
        conditions: [{ type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: '2024-05-06T07:08:10Z' }],
        hostIP: '10.0.0.1',
        podIP: '10.1.0.5',
        podIPs: [{ ip: '10.1.0.5' }],
        startTime: '2024-05-06T07:08:09Z',
        containerStatuses: [{ name: 'c', state: { running: { startedAt: '2024-05-06T07:08:10Z' } }, lastState: {}, ready: true, restartCount: 0, image: 'nginx:1.25', imageID: '', started: true }],
        qosClass: 'Burstable',
      },
    },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default', generation: 3 },
      spec: {
        replicas: 0,
        selector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'Exists' }] },
        template: { metadata: { creationTimestamp: null, labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: 1 } },
        revisionHistoryLimit: 10,
        progressDeadlineSeconds: 600,
      },
      status: { observedGeneration: 3, replicas: 2, conditions: [{ type: 'Available', status: 'True', lastUpdateTime: '2024-05-06T07:08:09Z', lastTransitionTime: '2024-05-06T07:08:09Z', reason: 'MinimumReplicasAvailable', message: 'ok' }] },
    },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        type: 'NodePort',
        selector: { app: 'web' },
        ports: [{ name: 'http', protocol: 'TCP', port: 80, targetPort: 'http', nodePort: 30080, appProtocol: 'http' }],
        clusterIP: '10.96.0.10',
        clusterIPs: ['10.96.0.10'],
        ipFamilies: ['IPv4'],
        ipFamilyPolicy: 'SingleStack',
        sessionAffinity: 'ClientIP',
        sessionAffinityConfig: { clientIP: { timeoutSeconds: 10800 } },
        externalTrafficPolicy: 'Cluster',
        internalTrafficPolicy: 'Cluster',
        allocateLoadBalancerNodePorts: false,
      },
      status: { loadBalancer: {} },
    },
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bin', namespace: 'default' }, data: { 'a.txt': 'hello\n', empty: '' }, binaryData: { 'b.bin': Buffer.from([0, 1, 254, 255]).toString('base64') } },
    {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'n1', labels: { 'kubernetes.io/hostname': 'n1' } },
      spec: { podCIDR: '10.1.0.0/24', podCIDRs: ['10.1.0.0/24'], taints: [{ key: 'k', value: 'v', effect: 'NoSchedule', timeAdded: '2024-05-06T07:08:09Z' }], unschedulable: true },
      status: {
        capacity: { cpu: '4', memory: '16316412Ki', pods: '110', 'ephemeral-storage': '100Gi', 'hugepages-2Mi': '0' },
        allocatable: { cpu: '3900m', memory: '15.5Gi', pods: '110' },
        conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: '2024-05-06T07:08:09Z', lastTransitionTime: '2024-05-06T07:08:09Z', reason: 'KubeletReady', message: 'ready' }],
        addresses: [{ type: 'InternalIP', address: '10.0.0.1' }],
        daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
        nodeInfo: { machineID: 'm', systemUUID: 's', bootID: 'b', kernelVersion: '6', osImage: 'o', containerRuntimeVersion: 'c', kubeletVersion: 'v1.27.0', kubeProxyVersion: 'v1.27.0', operatingSystem: 'linux', architecture: 'amd64' },
        images: [{ names: ['nginx:1.25'], sizeBytes: 70000000 }],
      },
    },
    {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList', shortNames: ['wd'] },
        scope: 'Namespaced',
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: {
                  spec: { type: 'object', required: ['size'], properties: { size: { type: 'integer', minimum: 1, maximum: 10.5, default: 3 }, tags: { type: 'array', items: { type: 'string' } } }, additionalProperties: false },
                  status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                  anything: { additionalProperties: { type: 'string' }, type: 'object' },
                },
              },
            },
            subresources: { status: {}, scale: { specReplicasPath: '.spec.size', statusReplicasPath: '.status.size' } },
            additionalPrinterColumns: [{ name: 'Size', type: 'integer', jsonPath: '.spec.size' }],
          },
        ],
        conversion: { strategy: 'None' },
      },
      status: { acceptedNames: { plural: '', kind: '' }, storedVersions: ['v1'] },
    },
  ];
  for (const o of rich) {
    it(`round-trips a ${o.kind} to the same JSON object`, () => {
      const b = encodeObject(o)!;
      assert.ok(b, `${o.kind} has a protobuf form`);
      assert.deepEqual(decodeObject(b), o);
    });
  }

  it('writes a Status, and knows which kinds have no protobuf form', () => {
    const status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'configmaps "x" not found', reason: 'NotFound', details: { name: 'x', kind: 'configmaps' }, code: 404 };
    assert.deepEqual(decodeObject(encodeObject(status)!), status);
    assert.equal(hasProtobuf({ apiVersion: 'meta.k8s.io/v1', kind: 'Table' }), false);
    assert.equal(hasProtobuf({ apiVersion: 'example.com/v1', kind: 'Widget' }), false);
    assert.equal(hasProtobuf({ apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadataList' }), true);
    assert.equal(hasProtobuf({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleList' }), true);
  });

  it('frames a watch event: 4-byte length, WatchEvent{type, object{raw=envelope}}', () => {
    const frame = encodeWatchFrame('ADDED', cm)!;
    assert.equal(frame.readUInt32BE(0), frame.length - 4);
    const inner = encodeObject(cm)!;
    const event = frame.subarray(4);
    // type=1 "ADDED", object=2 {raw=1 <envelope>}
    const expect = Buffer.concat([h('0a05'), Buffer.from('ADDED'), h('12'), Buffer.from([inner.length + 2]), h('0a'), Buffer.from([inner.length]), inner]);
    assert.equal(hex(event), hex(expect));
  });

  it('writes a list in pieces that make the same bytes as the whole list', () => {
    const items = [{ metadata: { name: 'a', namespace: 'ns' }, data: { k: 'v' } }, { metadata: { name: 'b', namespace: 'ns' } }];
    const w = ProtobufListWriter.for('v1', 'ConfigMapList')!;
    for (const i of items) w.add(i);
    const pieces = w.finish({ resourceVersion: '7', continue: 'tok' });
    const whole = encodeObject({ apiVersion: 'v1', kind: 'ConfigMapList', metadata: { resourceVersion: '7', continue: 'tok' }, items });
    assert.equal(hex(Buffer.concat(pieces)), hex(whole!));
    assert.deepEqual(decodeObject(Buffer.concat(pieces)), { apiVersion: 'v1', kind: 'ConfigMapList', metadata: { resourceVersion: '7', continue: 'tok' }, items });
    assert.equal(ProtobufListWriter.for('example.com/v1', 'WidgetList'), undefined);
  });
});
