// The pod admission plugins over HTTPS (issue 20), one table each, on one
// server with them all enabled (their configurations do not meet: namespace
// `basic` opts out of the cluster-wide node selector and default tolerations
// by empty annotations): Priority, DefaultTolerationSeconds, AlwaysPullImages,
// ExtendedResourceToleration, LimitPodHardAntiAffinityTopology,
// SecurityContextDeny, RuntimeClass, PodNodeSelector and
// PodTolerationRestriction (configuration file + namespace annotations; the
// texts of golden admission-09). Dry runs answer as without, storing nothing;
// the phase order shows: DefaultTolerationSeconds' tolerations must pass a
// namespace whitelist, RuntimeClass's toleration (added after
// PodTolerationRestriction's mutation) is refused by its validating step.
import assert from 'node:assert/strict';
import { after, before, describe } from 'node:test';
import { tempDir } from '../../src/testing/tempdir.js';
import type { TestServer } from './harness.js';
import { BACKENDS } from './backends.js';
import { admissionConfig, given, pod, rows, tolerationKeys, type Row } from './admission-table.js';

const NS_SELECTOR = 'scheduler.alpha.kubernetes.io/node-selector';
const DEFAULT_TOLERATIONS = 'scheduler.alpha.kubernetes.io/defaultTolerations';
const WHITELIST = 'scheduler.alpha.kubernetes.io/tolerationsWhitelist';
const NR = { key: 'node.svc.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 };
const UR = { key: 'node.svc.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 };
const dedicated = { key: 'dedicated', operator: 'Equal', value: 'prod', effect: 'NoSchedule' };
const spot = { key: 'spot', operator: 'Equal', value: 'true', effect: 'NoSchedule' };
const clusterDefault = { key: 'cluster-default', operator: 'Equal', value: 'x', effect: 'NoSchedule' };

const ns = (name: string, annotations: Record<string, string> = {}) => ['/api/v1/namespaces', { metadata: { name, annotations } }] as [string, unknown];
const P = (n: string) => `/api/v1/namespaces/${n}/pods`;
const B = P('basic');
const PCS = '/apis/scheduling.k8s.io/v1/priorityclasses';
const forbidden = (name: string, text: string) => `pods "${name}" is forbidden: ${text}`;
const WL = (scope: string) => `pod tolerations (possibly merged with namespace default tolerations) conflict with its ${scope} whitelist`;
const cpu = { resources: { requests: { cpu: '100m' } } };
const withContainer = (c: Record<string, unknown>) => ({ containers: [{ name: 'app', image: 'registry.example/app:1.0', ...c }] });
const antiAffinity = (kind: 'required' | 'preferred', topologyKey: string) => ({
  affinity: { podAntiAffinity: kind === 'required'
    ? { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { a: 'b' } }, topologyKey }] }
    : { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: { labelSelector: { matchLabels: { a: 'b' } }, topologyKey } }] } },
});

const PRIORITY: Row[] = [
  { what: 'no class: priority 0, PreemptLowerPriority', method: 'POST', path: B, body: pod('pr-none'), status: 201,
    expect: (p) => assert.deepEqual([p.spec.priority, p.spec.preemptionPolicy], [0, 'PreemptLowerPriority']) },
  { what: 'a PriorityClass: its value and preemptionPolicy', method: 'POST', path: B, body: pod('pr-high', { priorityClassName: 'high' }), status: 201,
    get: `${B}/pr-high`, stored: (p) => assert.deepEqual([p.spec.priority, p.spec.preemptionPolicy], [1000, 'Never']) },
  { what: 'a built-in system class', method: 'POST', path: B, body: pod('pr-sys', { priorityClassName: 'system-node-critical' }), status: 201,
    expect: (p) => assert.equal(p.spec.priority, 2000001000) },
  { what: 'a missing class is 403', method: 'POST', path: B, body: pod('pr-nope', { priorityClassName: 'nope' }), status: 403,
    message: forbidden('pr-nope', 'no PriorityClass with name nope was found'), absent: `${B}/pr-nope` },
  { what: 'a priority that is not the class\'s', method: 'POST', path: B, body: pod('pr-5', { priorityClassName: 'high', priority: 5 }), status: 403,
    message: forbidden('pr-5', 'the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 1000 from the given PriorityClass name') },
  { what: 'a preemptionPolicy that is not the class\'s', method: 'POST', path: B, body: pod('pr-pol', { priorityClassName: 'high', preemptionPolicy: 'PreemptLowerPriority' }), status: 403,
    message: forbidden('pr-pol', 'the string value of PreemptionPolicy (PreemptLowerPriority) must not be provided in pod spec; priority admission controller computed Never from the given PriorityClass name') },
  { what: 'dry run: the same refusal', method: 'POST', path: `${B}?dryRun=All`, body: pod('pr-nope', { priorityClassName: 'nope' }), status: 403,
    message: forbidden('pr-nope', 'no PriorityClass with name nope was found') },
  { what: 'dry run: the same mutation, nothing stored', method: 'POST', path: `${B}?dryRun=All`, body: pod('pr-dry', { priorityClassName: 'high' }), status: 201,
    expect: (p) => assert.equal(p.spec.priority, 1000), absent: `${B}/pr-dry` },
  // the cluster's default class (globalDefault): pods naming none get it, name and all; there is only one
  { what: 'a default PriorityClass', method: 'POST', path: PCS, body: { metadata: { name: 'everyday' }, value: 100, globalDefault: true }, status: 201 },
  { what: 'a second default PriorityClass is 403', method: 'POST', path: PCS, body: { metadata: { name: 'another' }, value: 5, globalDefault: true }, status: 403,
    message: 'priorityclasses.scheduling.k8s.io "another" is forbidden: PriorityClass another is marked as default, but another default PriorityClass everyday already exists', absent: `${PCS}/another` },
  { what: 'no class: the default class\'s name, value and preemptionPolicy', method: 'POST', path: B, body: pod('pr-default'), status: 201,
    get: `${B}/pr-default`, stored: (p) => assert.deepEqual([p.spec.priorityClassName, p.spec.priority, p.spec.preemptionPolicy], ['everyday', 100, 'PreemptLowerPriority']) },
  { what: 'the default class deleted: priority 0 again', method: 'DELETE', path: `${PCS}/everyday`, status: 200 },
  { what: 'no class, no default class', method: 'POST', path: B, body: pod('pr-none-again'), status: 201,
    expect: (p) => assert.deepEqual([p.spec.priorityClassName, p.spec.priority], [undefined, 0]) },
];

const DEFAULT_TOLERATION_SECONDS: Row[] = [
  { what: 'not-ready and unreachable for 300 s', method: 'POST', path: B, body: pod('dts'), status: 201,
    get: `${B}/dts`, stored: (p) => assert.deepEqual(p.spec.tolerations, [NR, UR]) },
  { what: 'a pod\'s own not-ready toleration is kept', method: 'POST', path: B,
    body: pod('dts-own', { tolerations: [{ key: 'node.svc.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 }] }), status: 201,
    expect: (p) => assert.deepEqual(p.spec.tolerations, [{ ...NR, tolerationSeconds: 60 }, UR]) },
  { what: 'an update that drops them gets them back', method: 'PATCH', path: `${B}/dts`, body: { spec: { tolerations: [NR] } }, status: 200,
    expect: (p) => assert.deepEqual(p.spec.tolerations, [NR, UR]) },
];

const ALWAYS_PULL_IMAGES: Row[] = [
  { what: 'every container pulls Always (golden admission-10)', method: 'POST', path: B,
    body: pod('never', { ...withContainer({ imagePullPolicy: 'Never' }), initContainers: [{ name: 'init', image: 'registry.example/init:1', imagePullPolicy: 'IfNotPresent' }] }), status: 201,
    get: `${B}/never`, stored: (p) => assert.deepEqual([p.spec.containers[0].imagePullPolicy, p.spec.initContainers[0].imagePullPolicy], ['Always', 'Always']) },
  { what: 'an update bringing a new image pulls Always', method: 'PATCH', path: `${B}/never`,
    body: { spec: { containers: [{ name: 'app', image: 'registry.example/app:2.0', imagePullPolicy: 'IfNotPresent' }] } }, status: 200,
    expect: (p) => assert.deepEqual([p.spec.containers[0].image, p.spec.containers[0].imagePullPolicy], ['registry.example/app:2.0', 'Always']) },
  { what: 'dry run: the same mutation, nothing stored', method: 'POST', path: `${B}?dryRun=All`, body: pod('apl-dry', withContainer({ imagePullPolicy: 'IfNotPresent' })), status: 201,
    expect: (p) => assert.equal(p.spec.containers[0].imagePullPolicy, 'Always'), absent: `${B}/apl-dry` },
];

const EXTENDED_RESOURCE_TOLERATION: Row[] = [
  { what: 'an extended resource gets its NoSchedule toleration', method: 'POST', path: B,
    body: pod('gpu', withContainer({ resources: { requests: { 'example.com/gpu': '1' }, limits: { 'example.com/gpu': '1' } } })), status: 201,
    get: `${B}/gpu`, stored: (p) => assert.deepEqual(p.spec.tolerations.at(-1), { key: 'example.com/gpu', operator: 'Exists', effect: 'NoSchedule' }) },
  { what: 'in an init container too', method: 'POST', path: B,
    body: pod('gpu-init', { initContainers: [{ name: 'i', image: 'registry.example/i:1', resources: { requests: { 'example.com/fpga': '2' }, limits: { 'example.com/fpga': '2' } } }] }), status: 201,
    expect: (p) => assert.ok(tolerationKeys(p).includes('example.com/fpga')) },
  { what: 'native resources get none', method: 'POST', path: B, body: pod('cpu', withContainer(cpu)), status: 201,
    expect: (p) => assert.ok(!tolerationKeys(p).some((k) => k.startsWith('example.com/'))) },
];

const ANTI_AFFINITY: Row[] = [
  { what: 'a hard term on the zone is 403', method: 'POST', path: B, body: pod('aa-zone', antiAffinity('required', 'topology.kubernetes.io/zone')), status: 403,
    message: forbidden('aa-zone', 'affinity.PodAntiAffinity.RequiredDuringScheduling has TopologyKey topology.kubernetes.io/zone but only key kubernetes.io/hostname is allowed') },
  { what: 'a hard term on the hostname', method: 'POST', path: B, body: pod('aa-host', antiAffinity('required', 'kubernetes.io/hostname')), status: 201 },
  { what: 'a soft term on the zone', method: 'POST', path: B, body: pod('aa-soft', antiAffinity('preferred', 'topology.kubernetes.io/zone')), status: 201 },
  { what: 'dry run: the same refusal', method: 'POST', path: `${B}?dryRun=All`, body: pod('aa-zone', antiAffinity('required', 'topology.kubernetes.io/zone')), status: 403,
    message: forbidden('aa-zone', 'affinity.PodAntiAffinity.RequiredDuringScheduling has TopologyKey topology.kubernetes.io/zone but only key kubernetes.io/hostname is allowed') },
];

const SECURITY_CONTEXT_DENY: Row[] = [
  { what: 'pod runAsUser', method: 'POST', path: B, body: pod('scd-1', { securityContext: { runAsUser: 1000 } }), status: 403, message: forbidden('scd-1', 'pod.Spec.SecurityContext.RunAsUser is forbidden') },
  { what: 'supplementalGroups is checked first', method: 'POST', path: B, body: pod('scd-2', { securityContext: { runAsUser: 1, supplementalGroups: [5] } }), status: 403,
    message: forbidden('scd-2', 'pod.Spec.SecurityContext.SupplementalGroups is forbidden') },
  { what: 'pod fsGroup', method: 'POST', path: B, body: pod('scd-3', { securityContext: { fsGroup: 2000 } }), status: 403, message: forbidden('scd-3', 'pod.Spec.SecurityContext.FSGroup is forbidden') },
  { what: 'a container\'s runAsUser', method: 'POST', path: B, body: pod('scd-4', withContainer({ securityContext: { runAsUser: 1000 } })), status: 403,
    message: forbidden('scd-4', 'SecurityContext.RunAsUser is forbidden') },
  { what: 'a container\'s seLinuxOptions', method: 'POST', path: B, body: pod('scd-5', withContainer({ securityContext: { seLinuxOptions: { level: 's0:c1' } } })), status: 403,
    message: forbidden('scd-5', 'SecurityContext.SELinuxOptions is forbidden') },
  { what: 'runAsNonRoot is allowed', method: 'POST', path: B, body: pod('scd-ok', { securityContext: { runAsNonRoot: true } }), status: 201 },
  { what: 'dry run: the same refusal', method: 'POST', path: `${B}?dryRun=All`, body: pod('scd-1', { securityContext: { runAsUser: 1000 } }), status: 403,
    message: forbidden('scd-1', 'pod.Spec.SecurityContext.RunAsUser is forbidden') },
];

const RUNTIME_CLASS: Row[] = [
  { what: 'the class\'s overhead is set', method: 'POST', path: B, body: pod('rc-over', { runtimeClassName: 'over' }), status: 201,
    get: `${B}/rc-over`, stored: (p) => assert.deepEqual(p.spec.overhead, { cpu: '250m', memory: '64Mi' }) },
  { what: 'another overhead is 403', method: 'POST', path: B, body: pod('rc-mismatch', { runtimeClassName: 'over', overhead: { cpu: '100m' } }), status: 403,
    message: forbidden('rc-mismatch', "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead") },
  { what: 'the class\'s scheduling is merged', method: 'POST', path: B, body: pod('rc-sched', { runtimeClassName: 'sched', nodeSelector: { disk: 'ssd' } }), status: 201,
    expect: (p) => {
      assert.deepEqual(p.spec.nodeSelector, { disk: 'ssd', 'rc-pool': 'a' });
      assert.ok(tolerationKeys(p).includes('rc-taint'));
    } },
  { what: 'a conflicting nodeSelector is 403', method: 'POST', path: B, body: pod('rc-conflict', { runtimeClassName: 'sched', nodeSelector: { 'rc-pool': 'b' } }), status: 403,
    message: forbidden('rc-conflict', 'conflict: runtimeClass.scheduling.nodeSelector[rc-pool] = a; pod.spec.nodeSelector[rc-pool] = b') },
  { what: 'a missing class is 403', method: 'POST', path: B, body: pod('rc-missing', { runtimeClassName: 'missing' }), status: 403,
    message: forbidden('rc-missing', 'pod rejected: RuntimeClass "missing" not found') },
  { what: 'an overhead without a class (validating step)', method: 'POST', path: B, body: pod('rc-bare', { overhead: { cpu: '100m' } }), status: 403,
    message: forbidden('rc-bare', 'pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead') },
  { what: 'a class without overhead or scheduling', method: 'POST', path: B, body: pod('rc-plain', { runtimeClassName: 'plain' }), status: 201,
    expect: (p) => assert.equal(p.spec.overhead, undefined) },
  { what: 'dry run: the same refusal', method: 'POST', path: `${B}?dryRun=All`, body: pod('rc-missing', { runtimeClassName: 'missing' }), status: 403,
    message: forbidden('rc-missing', 'pod rejected: RuntimeClass "missing" not found') },
];

const PNS = P('pns');
const POD_NODE_SELECTOR: Row[] = [
  { what: 'the namespace selector is merged in (golden)', method: 'POST', path: PNS, body: pod('plain'), status: 201,
    get: `${PNS}/plain`, stored: (p) => assert.deepEqual(p.spec.nodeSelector, { env: 'prod' }) },
  { what: 'with the pod\'s own', method: 'POST', path: PNS, body: pod('ssd', { nodeSelector: { disk: 'ssd' } }), status: 201,
    expect: (p) => assert.deepEqual(p.spec.nodeSelector, { disk: 'ssd', env: 'prod' }) },
  { what: 'a conflicting pod selector is 403 (golden)', method: 'POST', path: PNS, body: pod('dev', { nodeSelector: { env: 'dev' } }), status: 403,
    message: forbidden('dev', 'pod node label selector conflicts with its namespace node label selector'), absent: `${PNS}/dev` },
  { what: 'no annotation: the configuration\'s clusterDefaultNodeSelector', method: 'POST', path: P('plain'), body: pod('cd'), status: 201,
    expect: (p) => assert.deepEqual(p.spec.nodeSelector, { tier: 'general' }) },
  { what: 'the svc.io annotation spelling', method: 'POST', path: P('pns-svc'), body: pod('svc'), status: 201,
    expect: (p) => assert.deepEqual(p.spec.nodeSelector, { env: 'svc' }) },
  { what: 'within the configuration\'s namespace whitelist', method: 'POST', path: P('pns-wl'), body: pod('wl-ssd', { nodeSelector: { disk: 'ssd' } }), status: 201,
    expect: (p) => assert.deepEqual(p.spec.nodeSelector, { disk: 'ssd', env: 'prod' }) },
  { what: 'outside the whitelist is 403', method: 'POST', path: P('pns-wl'), body: pod('wl-hdd', { nodeSelector: { disk: 'hdd' } }), status: 403,
    message: forbidden('wl-hdd', 'pod node label selector labels conflict with its namespace whitelist') },
  { what: 'an unparsable annotation is 500 (golden)', method: 'POST', path: P('pns-bad'), body: pod('plain'), status: 500, message: 'invalid selector: [env in (a]' },
  { what: 'dry run: the same refusal', method: 'POST', path: `${PNS}?dryRun=All`, body: pod('dev', { nodeSelector: { env: 'dev' } }), status: 403,
    message: forbidden('dev', 'pod node label selector conflicts with its namespace node label selector') },
  { what: 'dry run: the same mutation, nothing stored', method: 'POST', path: `${PNS}?dryRun=All`, body: pod('pns-dry'), status: 201,
    expect: (p) => assert.deepEqual(p.spec.nodeSelector, { env: 'prod' }), absent: `${PNS}/pns-dry` },
  { what: 'phase order: RuntimeClass merges its selector after the namespace\'s', method: 'POST', path: P('pns-open'), body: pod('rc-ns', { runtimeClassName: 'sched' }), status: 201,
    expect: (p) => assert.deepEqual(p.spec.nodeSelector, { env: 'open', 'rc-pool': 'a' }) },
];

const POD_TOLERATION_RESTRICTION: Row[] = [
  { what: 'namespace defaults after DefaultTolerationSeconds\' (golden)', method: 'POST', path: PNS, body: pod('tol-plain'), status: 201,
    get: `${PNS}/tol-plain`, stored: (p) => assert.deepEqual(p.spec.tolerations, [NR, UR, dedicated]) },
  { what: 'a whitelisted toleration (golden)', method: 'POST', path: PNS, body: pod('spot', { tolerations: [spot] }), status: 201,
    expect: (p) => assert.deepEqual(p.spec.tolerations, [spot, NR, UR, dedicated]) },
  { what: 'outside the namespace whitelist is 500 (golden)', method: 'POST', path: PNS,
    body: pod('gpu', { tolerations: [{ key: 'gpu', operator: 'Equal', value: 'true', effect: 'NoSchedule' }] }), status: 500, message: WL('namespace'), absent: `${PNS}/gpu` },
  { what: 'an update is checked too', method: 'PATCH', path: `${PNS}/spot`, body: { spec: { tolerations: [spot, { key: 'gpu', operator: 'Exists', effect: 'NoSchedule' }] } }, status: 500,
    message: WL('namespace') },
  { what: 'no annotation: the configuration\'s default', method: 'POST', path: P('plain'), body: pod('tol-cd'), status: 201,
    expect: (p) => assert.deepEqual(p.spec.tolerations, [NR, UR, clusterDefault]) },
  { what: 'a pod that is not BestEffort tolerates memory pressure', method: 'POST', path: P('plain'), body: pod('tol-mp', withContainer(cpu)), status: 201,
    expect: (p) => assert.ok(tolerationKeys(p).includes('node.svc.io/memory-pressure')) },
  { what: 'phase order: a whitelist must cover DefaultTolerationSeconds\' tolerations', method: 'POST', path: P('ptr-strict'), body: pod('strict'), status: 500,
    message: WL('namespace') },
  { what: 'phase order: RuntimeClass\'s toleration meets the validating step', method: 'POST', path: PNS, body: pod('rc-tol', { runtimeClassName: 'sched' }), status: 500,
    message: WL('namespace') },
  { what: 'dry run: the same refusal', method: 'POST', path: `${PNS}?dryRun=All`,
    body: pod('gpu', { tolerations: [{ key: 'gpu', operator: 'Equal', value: 'true', effect: 'NoSchedule' }] }), status: 500, message: WL('namespace') },
];

const ENABLED = ['AlwaysPullImages', 'ExtendedResourceToleration', 'LimitPodHardAntiAffinityTopology', 'SecurityContextDeny', 'PodNodeSelector', 'PodTolerationRestriction'];

for (const backend of BACKENDS) {
  describe(`pod admission plugins (${backend.name})`, { skip: backend.skip }, () => {
    let t: TestServer;
    before(async () => {
      const configFile = admissionConfig(tempDir('svc-adm-pods-'), {
        PodNodeSelector: { podNodeSelectorPluginConfig: { clusterDefaultNodeSelector: 'tier=general', 'pns-wl': 'env=prod,disk=ssd' } },
        PodTolerationRestriction: { apiVersion: 'podtolerationrestriction.admission.k8s.io/v1alpha1', kind: 'Configuration', default: [clusterDefault] },
      });
      t = await backend.start({ admission: { enable: ENABLED, configFile } });
      const whitelist = JSON.stringify([dedicated, spot,
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' }]);
      await given(t, [
        ns('basic', { [NS_SELECTOR]: '', [DEFAULT_TOLERATIONS]: '[]' }),
        ns('plain'),
        ns('pns', { [NS_SELECTOR]: 'env=prod', [DEFAULT_TOLERATIONS]: JSON.stringify([dedicated]), [WHITELIST]: whitelist }),
        ns('pns-svc', { 'scheduler.alpha.svc.io/node-selector': 'env=svc' }),
        ns('pns-wl', { [NS_SELECTOR]: 'env=prod' }),
        ns('pns-bad', { [NS_SELECTOR]: 'env in (a' }),
        ns('pns-open', { [NS_SELECTOR]: 'env=open', [DEFAULT_TOLERATIONS]: '[]' }),
        ns('ptr-strict', { [DEFAULT_TOLERATIONS]: '[]', [WHITELIST]: JSON.stringify([dedicated]) }),
        ['/apis/scheduling.k8s.io/v1/priorityclasses', { metadata: { name: 'high' }, value: 1000, preemptionPolicy: 'Never' }],
        ['/apis/node.k8s.io/v1/runtimeclasses', { metadata: { name: 'plain' }, handler: 'runc' }],
        ['/apis/node.k8s.io/v1/runtimeclasses', { metadata: { name: 'over' }, handler: 'runc', overhead: { podFixed: { cpu: '250m', memory: '64Mi' } } }],
        ['/apis/node.k8s.io/v1/runtimeclasses', { metadata: { name: 'sched' }, handler: 'runc',
          scheduling: { nodeSelector: { 'rc-pool': 'a' }, tolerations: [{ key: 'rc-taint', operator: 'Exists', effect: 'NoSchedule' }] } }],
      ]);
    });
    after(async () => t?.stop());
    const server = () => t;

    describe('Priority', () => rows(server, PRIORITY));
    describe('DefaultTolerationSeconds', () => rows(server, DEFAULT_TOLERATION_SECONDS));
    describe('AlwaysPullImages', () => rows(server, ALWAYS_PULL_IMAGES));
    describe('ExtendedResourceToleration', () => rows(server, EXTENDED_RESOURCE_TOLERATION));
    describe('LimitPodHardAntiAffinityTopology', () => rows(server, ANTI_AFFINITY));
    describe('SecurityContextDeny', () => rows(server, SECURITY_CONTEXT_DENY));
    describe('RuntimeClass', () => rows(server, RUNTIME_CLASS));
    describe('PodNodeSelector', () => rows(server, POD_NODE_SELECTOR));
    describe('PodTolerationRestriction', () => rows(server, POD_TOLERATION_RESTRICTION));
  });
}
