// core/v1 validation: table-driven, each row the exact `field: message` causes
// kube-apiserver v1.27 answers with.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderCause } from '../../meta/govalue.js';
import type { FieldError } from '../../meta/field.js';
import {
  POD_UPDATE_FORBIDDEN,
  coreValidators,
  validateConfigMap,
  validateConfigMapUpdate,
  validateEvent,
  validateNamespace,
  validateNode,
  validateNodeUpdate,
  validatePod,
  validatePodUpdate,
  validateSecret,
  validateSecretUpdate,
  validateService,
  validateServiceUpdate,
} from './validation.js';

type O = { [k: string]: unknown };
const clone = <T>(x: T): T => structuredClone(x);
const causes = (errs: FieldError[]) => errs.map(renderCause);

const DNS_LABEL = (v: string) =>
  `Invalid value: ${JSON.stringify(v)}: a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`;

const container = (over: O = {}): O => ({ name: 'app', image: 'img:1', imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File', terminationMessagePath: '/dev/termination-log', resources: {}, ...over });
const pod = (spec: O = {}): O => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'ns' },
  spec: { containers: [container()], restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', terminationGracePeriodSeconds: 30, schedulerName: 'default-scheduler', ...spec },
});

type Row = [name: string, errs: () => FieldError[], want: string[]];
const table = (rows: Row[]) => {
  for (const [name, errs, want] of rows) it(name, () => assert.deepEqual(causes(errs()), want));
};

describe('Pod', () => {
  table([
    ['a valid pod', () => validatePod(pod()), []],
    ['container name not a DNS label', () => validatePod(pod({ containers: [container({ name: 'Bad_Name' })] })), [`spec.containers[0].name: ${DNS_LABEL('Bad_Name')}`]],
    ['container names unique', () => validatePod(pod({ containers: [container(), container()] })), ['spec.containers[1].name: Duplicate value: "app"']],
    ['init container name clashes with a container', () => validatePod(pod({ initContainers: [container()] })), ['spec.initContainers[0].name: Duplicate value: "app"']],
    ['containers required', () => validatePod(pod({ containers: [] })), ['spec.containers: Required value']],
    ['image required', () => validatePod(pod({ containers: [container({ image: '' })] })), ['spec.containers[0].image: Required value']],
    ['image whitespace', () => validatePod(pod({ containers: [container({ image: ' img' })] })), ['spec.containers[0].image: Invalid value: " img": must not have leading or trailing whitespace']],
    [
      'ports: range, names, protocol',
      () =>
        validatePod(
          pod({
            containers: [
              container({
                ports: [
                  { name: 'http', containerPort: 70000, protocol: 'TCP' },
                  { name: 'http', containerPort: 80, protocol: 'TCP' },
                  { name: 'Bad--', containerPort: 0, protocol: 'HTTP' },
                ],
              }),
            ],
          }),
        ),
      [
        'spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
        'spec.containers[0].ports[1].name: Duplicate value: "http"',
        'spec.containers[0].ports[2].name: Invalid value: "Bad--": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
        'spec.containers[0].ports[2].name: Invalid value: "Bad--": must not contain consecutive hyphens',
        'spec.containers[0].ports[2].name: Invalid value: "Bad--": must not begin or end with a hyphen',
        'spec.containers[0].ports[2].containerPort: Required value',
        'spec.containers[0].ports[2].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"',
      ],
    ],
    ['restartPolicy values', () => validatePod(pod({ restartPolicy: 'Sometimes' })), ['spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"']],
    ['restartPolicy required', () => validatePod(pod({ restartPolicy: '' })), ['spec.restartPolicy: Required value']],
    ['dnsPolicy values', () => validatePod(pod({ dnsPolicy: 'Cluster' })), ['spec.dnsPolicy: Unsupported value: "Cluster": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"']],
    ['dnsPolicy None needs dnsConfig', () => validatePod(pod({ dnsPolicy: 'None' })), ['spec.dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None']],
    [
      'volumes: names unique, a type, mounts must name one',
      () =>
        validatePod(
          pod({
            volumes: [{ name: 'data', emptyDir: {} }, { name: 'data', emptyDir: {} }, { name: 'none' }],
            containers: [container({ volumeMounts: [{ name: 'data', mountPath: '/d' }, { name: 'missing', mountPath: '/d' }, { name: 'none', mountPath: '/n' }] })],
          }),
        ),
      [
        'spec.volumes[1].name: Duplicate value: "data"',
        'spec.volumes[2]: Required value: must specify a volume type',
        'spec.containers[0].volumeMounts[1].name: Not found: "missing"',
        'spec.containers[0].volumeMounts[1].mountPath: Invalid value: "/d": must be unique',
        'spec.containers[0].volumeMounts[2].name: Not found: "none"',
      ],
    ],
    ['two volume types', () => validatePod(pod({ volumes: [{ name: 'v', emptyDir: {}, hostPath: { path: '/x' } }] })), ['spec.volumes[0].emptyDir: Forbidden: may not specify more than 1 volume type']],
    [
      'requests above limits (cause on `requests`, canonical quantity)',
      () => validatePod(pod({ containers: [container({ resources: { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '1500m', memory: '2048Mi' } } })] })),
      ['spec.containers[0].resources.requests: Invalid value: "1500m": must be less than or equal to cpu limit', 'spec.containers[0].resources.requests: Invalid value: "2Gi": must be less than or equal to memory limit'],
    ],
    ['extended resources: requests equal limits', () => validatePod(pod({ containers: [container({ resources: { limits: { 'example.com/gpu': '2' }, requests: { 'example.com/gpu': '1' } } })] })), ['spec.containers[0].resources.requests: Invalid value: "1": must be equal to example.com/gpu limit']],
    ['non-standard resource', () => validatePod(pod({ containers: [container({ resources: { limits: { gpu: '1' } } })] })), ['spec.containers[0].resources.limits[gpu]: Invalid value: "gpu": must be a standard resource for containers']],
    [
      'env var names',
      () => validatePod(pod({ containers: [container({ env: [{ name: '1BAD', value: 'x' }, { name: '' }, { name: 'OK', valueFrom: {} }] })] })),
      [
        `spec.containers[0].env[0].name: Invalid value: "1BAD": a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')`,
        'spec.containers[0].env[1].name: Required value',
        'spec.containers[0].env[2].valueFrom: Invalid value: "": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`',
      ],
    ],
    ['activeDeadlineSeconds', () => validatePod(pod({ activeDeadlineSeconds: 0 })), ['spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive']],
    [
      'tolerations',
      () => validatePod(pod({ tolerations: [{ operator: 'Equal', value: 'x' }, { key: 'k', operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 5 }] })),
      [
        'spec.tolerations[0].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
        "spec.tolerations[1].effect: Invalid value: \"NoSchedule\": effect must be 'NoExecute' when `tolerationSeconds` is set",
      ],
    ],
    ['ephemeral containers on create', () => validatePod(pod({ ephemeralContainers: [container({ name: 'dbg' })] })), ['spec.ephemeralContainers: Forbidden: cannot be set on create']],
  ]);

  const old = pod({ tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }], activeDeadlineSeconds: 100 });
  const upd = (f: (s: O) => void) => {
    const p = clone(old);
    f(p.spec as O);
    return validatePodUpdate(p, old);
  };
  table([
    ['image, activeDeadlineSeconds down, tolerationSeconds and added tolerations may change', () => upd((s) => {
      (s.containers as O[])[0]!.image = 'img:2';
      s.activeDeadlineSeconds = 50;
      s.tolerations = [{ key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 }, { key: 'n', operator: 'Exists' }];
    }), []],
    ['adding a container', () => upd((s) => (s.containers as O[]).push(container({ name: 'two' }))), ['spec.containers: Forbidden: pod updates may not add or remove containers']],
    ['activeDeadlineSeconds may not grow', () => upd((s) => (s.activeDeadlineSeconds = 200)), ['spec.activeDeadlineSeconds: Invalid value: 200: must be less than or equal to previous value']],
    ['activeDeadlineSeconds may not be removed', () => upd((s) => delete s.activeDeadlineSeconds), ['spec.activeDeadlineSeconds: Invalid value: null: must not update from a positive integer to nil value']],
    ['removing a toleration', () => upd((s) => (s.tolerations = [])), ['spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds']],
  ]);
  it('any other spec change: the v1.27 Forbidden message, then an account of the change', () => {
    const errs = upd((s) => ((s.containers as O[])[0]!.name = 'renamed'));
    assert.equal(errs.length, 1);
    assert.equal(errs[0]!.field, 'spec');
    assert.equal(errs[0]!.type, 'Forbidden');
    const [first, ...rest] = errs[0]!.detail.split('\n');
    assert.equal(first, POD_UPDATE_FORBIDDEN);
    assert.equal(
      first,
      'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
    );
    assert.ok(rest.join('\n').includes('spec.containers[0].name: "app"'));
  });
  it('pods/status: the spec is not validated (kube\'s ValidatePodStatusUpdate; the status strategy keeps the stored spec)', () => {
    const v = coreValidators().Pod!;
    const bad = clone(old);
    (bad.spec as O).containers = [container({ name: 'Not_A_Label' })];
    // through the main resource the same object is refused; through status it is not looked at
    assert.ok(v.validateUpdate(bad, old).length > 0);
    assert.ok(v.validateUpdate(bad, old, 'ephemeralcontainers').length > 0);
    assert.deepEqual(v.validateUpdate(bad, old, 'status'), []);
  });
  it('terminationGracePeriodSeconds only from negative to 1', () => {
    const neg = pod({ terminationGracePeriodSeconds: -1 });
    const to1 = clone(neg);
    (to1.spec as O).terminationGracePeriodSeconds = 1;
    assert.deepEqual(validatePodUpdate(to1, neg), []);
    const to5 = clone(neg);
    (to5.spec as O).terminationGracePeriodSeconds = 5;
    assert.equal(validatePodUpdate(to5, neg).length, 1);
  });
});

describe('ConfigMap and Secret', () => {
  const cm = (o: O) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'n' }, ...o });
  const secret = (o: O) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'n' }, type: 'Opaque', ...o });
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  table([
    ['key syntax', () => validateConfigMap(cm({ data: { 'bad key': 'x', '..dots': 'y' } })), [
      `data[..dots]: Invalid value: "..dots": must not start with '..'`,
      `data[bad key]: Invalid value: "bad key": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`,
    ]],
    ['data and binaryData overlap', () => validateConfigMap(cm({ data: { k: '1' }, binaryData: { k: b64('hi') } })), ['data[k]: Invalid value: "k": duplicate of key present in binaryData']],
    ['total size', () => validateConfigMap(cm({ data: { a: 'x'.repeat(600 * 1024), b: 'y'.repeat(500 * 1024) } })), [': Too long: must have at most 1048576 bytes']],
    ['immutable', () => validateConfigMapUpdate(cm({ data: { k: '2' } }), cm({ immutable: true, data: { k: '1' } })), ['immutable: Forbidden: field is immutable when `immutable` is set', 'data: Forbidden: field is immutable when `immutable` is set']],
    ['immutable, unchanged', () => validateConfigMapUpdate(cm({ immutable: true, data: { k: '1' } }), cm({ immutable: true, data: { k: '1' } })), []],
    ['basic-auth needs username or password', () => validateSecret(secret({ type: 'kubernetes.io/basic-auth', data: { other: b64('x') } })), ['data[username]: Required value', 'data[password]: Required value']],
    ['basic-auth: stringData counts', () => validateSecret(secret({ type: 'kubernetes.io/basic-auth', stringData: { username: 'u' } })), []],
    ['tls needs both keys', () => validateSecret(secret({ type: 'kubernetes.io/tls', data: { 'tls.crt': b64('c') } })), ['data[tls.key]: Required value']],
    ['dockerconfigjson must be JSON', () => validateSecret(secret({ type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': b64('nope') } })), [
      `data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": invalid character 'n' looking for beginning of value`,
    ]],
    ['dockerconfigjson required', () => validateSecret(secret({ type: 'kubernetes.io/dockerconfigjson', data: {} })), ['data[.dockerconfigjson]: Required value']],
    ['service-account-token needs the annotation', () => validateSecret(secret({ type: 'kubernetes.io/service-account-token' })), ['metadata.annotations[kubernetes.io/service-account.name]: Required value']],
    ['svc.io/service-account-token needs the annotation in its spelling', () => validateSecret(secret({ type: 'svc.io/service-account-token', metadata: { annotations: { 'kubernetes.io/service-account.name': 'x' } } })), ['metadata.annotations[svc.io/service-account.name]: Required value']],
    ['secret size', () => validateSecret(secret({ data: { a: b64('x'.repeat(1024 * 1024 + 1)) } })), ['data: Too long: must have at most 1048576 bytes']],
    ['type immutable', () => validateSecretUpdate(secret({ type: 'kubernetes.io/basic-auth', data: { username: b64('u') } }), secret({ data: { username: b64('u') } })), ['type: Invalid value: "kubernetes.io/basic-auth": field is immutable']],
    ['immutable secret data', () => validateSecretUpdate(secret({ immutable: true, data: { k: b64('w2') } }), secret({ immutable: true, data: { k: b64('v') } })), ['data: Forbidden: field is immutable when `immutable` is set']],
  ]);
});

describe('Service', () => {
  const svc = (spec: O) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'n' }, spec: { type: 'ClusterIP', sessionAffinity: 'None', ...spec } });
  const port = (o: O = {}) => ({ port: 80, protocol: 'TCP', targetPort: 80, ...o });
  table([
    ['valid', () => validateService(svc({ ports: [port()], clusterIPs: ['10.0.0.5'], clusterIP: '10.0.0.5' })), []],
    ['ports required', () => validateService(svc({})), ['spec.ports: Required value']],
    ['headless needs no ports', () => validateService(svc({ clusterIP: 'None', clusterIPs: ['None'] })), []],
    ['ExternalName needs no ports but a name', () => validateService(svc({ type: 'ExternalName' })), ['spec.externalName: Required value']],
    [
      'port range, names, protocol, targetPort',
      () => validateService(svc({ ports: [port({ name: 'a', port: 0 }), port({ name: 'a', protocol: 'HTTP', targetPort: 'Bad_Port' }), port({ port: 81 })] })),
      [
        'spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
        'spec.ports[1].name: Duplicate value: "a"',
        'spec.ports[1].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"',
        'spec.ports[1].targetPort: Invalid value: "Bad_Port": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
        'spec.ports[2].name: Required value',
      ],
    ],
    ['type values', () => validateService(svc({ type: 'Internal', ports: [port()] })), ['spec.type: Unsupported value: "Internal": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"']],
    ['nodePort with ClusterIP', () => validateService(svc({ ports: [port({ nodePort: 30001 })] })), ["spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"]],
    ['nodePort range (default 30000-32767)', () => validateService(svc({ type: 'NodePort', externalTrafficPolicy: 'Cluster', ports: [port({ nodePort: 80 })] })), [
      'spec.ports[0].nodePort: Invalid value: 80: provided port is not in the valid range. The range of valid ports is 30000-32767',
    ]],
    ['nodePort range from options', () => validateService(svc({ type: 'NodePort', ports: [port({ nodePort: 30001 })] }), { nodePortRange: { min: 20000, max: 20100 } }), [
      'spec.ports[0].nodePort: Invalid value: 30001: provided port is not in the valid range. The range of valid ports is 20000-20100',
    ]],
    ['update: a port held from before a range change is not checked again; a new one is', () => validateServiceUpdate(
      svc({ type: 'NodePort', ports: [port({ name: 'a', nodePort: 30001 }), port({ name: 'b', port: 81, nodePort: 30002 })] }),
      svc({ type: 'NodePort', ports: [port({ name: 'a', nodePort: 30001 })] }),
      { nodePortRange: { min: 20000, max: 20100 } },
    ), [
      'spec.ports[1].nodePort: Invalid value: 30002: provided port is not in the valid range. The range of valid ports is 20000-20100',
    ]],
    ['duplicate port/protocol', () => validateService(svc({ ports: [port({ name: 'a' }), port({ name: 'b' })] })), [
      'spec.ports[1]: Duplicate value: core.ServicePort{Name:"", Protocol:"TCP", AppProtocol:(*string)(nil), Port:80, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}',
    ]],
    ['clusterIP may not change', () => validateServiceUpdate(svc({ ports: [port()], clusterIPs: ['10.0.0.6'], clusterIP: '10.0.0.6' }), svc({ ports: [port()], clusterIPs: ['10.0.0.5'], clusterIP: '10.0.0.5' })), [
      'spec.clusterIPs[0]: Invalid value: []string{"10.0.0.6"}: may not change once set',
    ]],
  ]);
});

describe('Namespace, Node, Event', () => {
  table([
    ['namespace finalizers', () => validateNamespace({ spec: { finalizers: ['kubernetes', 'custom', 'example.com/x'] } }), ['spec.finalizers: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified']],
    ['node taints', () => validateNode({ spec: { taints: [{ key: 'k', effect: 'Sometimes' }, { key: 'd', effect: 'NoSchedule' }, { key: 'd', value: 'v', effect: 'NoSchedule' }] } }), [
      'spec.taints[0].effect: Unsupported value: "Sometimes": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
      'spec.taints[2]: Duplicate value: core.Taint{Key:"d", Value:"v", Effect:"NoSchedule", TimeAdded:<nil>}: taints must be unique by key and effect pair',
    ]],
    ['node taint effect required', () => validateNode({ spec: { taints: [{ key: 'k' }] } }), ['spec.taints[0].effect: Required value']],
    ['podCIDRs', () => validateNode({ spec: { podCIDRs: ['10.0.0.0/33', '10.1.0.0/16'] } }), [
      'spec.podCIDRs[0]: Invalid value: []string{"10.0.0.0/33", "10.1.0.0/16"}: must be valid CIDR',
      'spec.podCIDRs: Invalid value: []string{"10.0.0.0/33", "10.1.0.0/16"}: may specify no more than one CIDR for each IP family',
    ]],
    ['podCIDR may only be set once', () => validateNodeUpdate({ spec: { podCIDRs: ['10.2.0.0/16'] } }, { spec: { podCIDRs: ['10.1.0.0/16'] } }), ['spec.podCIDRs: Forbidden: node updates may not change podCIDR except from "" to valid']],
    ['event involvedObject namespace', () => validateEvent({ metadata: { name: 'e', namespace: 'a' }, involvedObject: { namespace: 'b' } }), ['involvedObject.namespace: Invalid value: "b": does not match event.namespace']],
    ['event with eventTime needs reporting fields (core/v1 names `source`)', () => validateEvent({ metadata: { name: 'e', namespace: 'a' }, involvedObject: { namespace: 'a' }, eventTime: '2023-01-01T00:00:00.000000Z' }), [
      'source: Required value',
      `source: Invalid value: "": name part must be non-empty`,
      `source: Invalid value: "": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
      'reportingInstance: Required value',
      'action: Required value',
      'reason: Required value',
    ]],
  ]);
});

// Every check of the pod spec with its causes in Kubernetes' order (these pin the
// order and texts the fast path of validation.ts must keep).
describe('Pod spec: causes and their order', () => {
  table([
    [
      'volume types in the order Kubernetes checks them',
      () => validatePod(pod({ volumes: [{ name: 'v', configMap: { name: '' }, hostPath: {}, emptyDir: {}, secret: null }] })),
      [
        'spec.volumes[0].hostPath.path: Required value',
        'spec.volumes[0].emptyDir: Forbidden: may not specify more than 1 volume type',
        'spec.volumes[0].configMap: Forbidden: may not specify more than 1 volume type',
      ],
    ],
    [
      'env sources',
      () => validatePod(pod({
          containers: [
            container({
              env: [
                { name: 'A', value: 'x', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
                { name: 'B', valueFrom: { fieldRef: {}, configMapKeyRef: { name: 'Bad', key: '' } } },
                { name: 'C', valueFrom: { secretKeyRef: { name: 's', key: '..x' }, resourceFieldRef: {} } },
                { name: '..D' },
              ],
            }),
          ],
        })),
      [
        'spec.containers[0].env[0].valueFrom: Invalid value: "": may not be specified when `value` is not empty',
        'spec.containers[0].env[1].valueFrom.fieldRef.fieldPath: Required value',
        "spec.containers[0].env[1].valueFrom.configMapKeyRef.name: Invalid value: \"Bad\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
        'spec.containers[0].env[1].valueFrom.configMapKeyRef.key: Required value',
        'spec.containers[0].env[1].valueFrom: Invalid value: "": may not have more than one field specified at a time',
        'spec.containers[0].env[2].valueFrom.resourceFieldRef.resource: Required value',
        "spec.containers[0].env[2].valueFrom.secretKeyRef.key: Invalid value: \"..x\": must not start with '..'",
        'spec.containers[0].env[2].valueFrom: Invalid value: "": may not have more than one field specified at a time',
        "spec.containers[0].env[3].name: Invalid value: \"..D\": must not start with '..'",
      ],
    ],
    [
      'resource names are checked in sorted order',
      () => validatePod(pod({
          containers: [
            container({
              resources: {
                limits: { memory: '1Gi', 'hugepages-2Mi': '2Mi', cpu: '-1', 'Bad Name': '1' },
                requests: { 'hugepages-2Mi': '1Mi', cpu: '2', 'example.com/dev': '1' },
              },
            }),
          ],
        })),
      [
        "spec.containers[0].resources.limits[Bad Name]: Invalid value: \"Bad Name\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
        'spec.containers[0].resources.limits[Bad Name]: Invalid value: "Bad Name": must be a standard resource for containers',
        'spec.containers[0].resources.limits[cpu]: Invalid value: "-1": must be greater than or equal to 0',
        'spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit',
        'spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources',
        'spec.containers[0].resources.requests: Invalid value: "1Mi": must be equal to hugepages-2Mi limit',
      ],
    ],
    [
      'init containers: probes, names, mounts',
      () => validatePod(pod({
          volumes: [{ name: 'v', emptyDir: {} }],
          initContainers: [
            container({
              name: 'init',
              livenessProbe: {},
              lifecycle: {},
              ports: [{ containerPort: 80, protocol: 'TCP', name: 'p' }, { containerPort: 80, hostPort: 70000, protocol: '' }],
              volumeMounts: [{ name: 'v', mountPath: '' }],
            }),
            container({ name: 'init', imagePullPolicy: 'Sometimes', terminationMessagePolicy: '' }),
          ],
        })),
      [
        'spec.initContainers[0].ports[1].hostPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
        'spec.initContainers[0].ports[1].protocol: Required value',
        'spec.initContainers[0].volumeMounts[0].mountPath: Required value',
        'spec.initContainers[0].lifecycle: Forbidden: may not be set for init containers',
        'spec.initContainers[0].livenessProbe: Forbidden: may not be set for init containers',
        "spec.initContainers[1].terminationMessagePolicy: Required value: must be 'File' or 'FallbackToLogsOnError'",
        'spec.initContainers[1].imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"',
        'spec.initContainers[1].name: Duplicate value: "init"',
      ],
    ],
    [
      'labels and scheduling gates',
      () => validatePod(pod({ nodeSelector: { 'Bad/x': 'y', ok: '-bad-' }, schedulingGates: [{ name: 'a/b/c' }, { name: 'g' }, { name: 'g' }], serviceAccountName: 'Bad', nodeName: 'n..x', hostname: 'H', subdomain: 's_' })),
      [
        "spec.nodeSelector: Invalid value: \"Bad/x\": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
        "spec.nodeSelector: Invalid value: \"-bad-\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
        "spec.schedulingGates[0].name: Invalid value: \"a/b/c\": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
        'spec.schedulingGates[2].name: Duplicate value: "g"',
        "spec.serviceAccountName: Invalid value: \"Bad\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
        "spec.nodeName: Invalid value: \"n..x\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
        "spec.hostname: Invalid value: \"H\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
        "spec.subdomain: Invalid value: \"s_\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      ],
    ],
    [
      'tolerations of every kind',
      () => validatePod(pod({ tolerations: [{ key: 'a/b/c', operator: 'Equal', value: '-x-' }, { key: 'k', operator: 'Exists', value: 'v' }, { key: 'k', operator: 'Maybe', effect: 'Sometimes' }] })),
      [
        "spec.tolerations[0].key: Invalid value: \"a/b/c\": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
        "spec.tolerations[0].operator: Invalid value: core.Toleration{Key:\"a/b/c\", Operator:\"Equal\", Value:\"-x-\", Effect:\"\", TolerationSeconds:(*int64)(nil)}: a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
        "spec.tolerations[1].operator: Invalid value: core.Toleration{Key:\"k\", Operator:\"Exists\", Value:\"v\", Effect:\"\", TolerationSeconds:(*int64)(nil)}: value must be empty when `operator` is 'Exists'",
        'spec.tolerations[2].operator: Unsupported value: "Maybe": supported values: "Equal", "Exists"',
        'spec.tolerations[2].effect: Unsupported value: "Sometimes": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
      ],
    ],
  ]);
});
