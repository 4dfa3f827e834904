// Server-side defaulting for core/v1, as kube-apiserver v1.27 applies it when
// it decodes a request body (and again when it decodes a stored object): the
// SetDefaults_* functions and declarative `+default` markers of core/v1, plus
// the v1 ⇄ internal conversions that change what a client reads back
// (Secret stringData → data, spec.serviceAccount mirrored from
// serviceAccountName, podIP/podIPs and podCIDR/podCIDRs kept in step, the
// dropped init-container annotations).
//
// Every function mutates a decoded JSON object in place. A Go pointer that is
// nil, a string that is "" and a number that is 0 are all "unset" in Go; in
// JSON that is an absent or null member (and "" / 0 where Go cannot tell
// them apart). A member holding the wrong JSON type is left alone for
// validation to report. Non-pointer Go structs that defaulting writes into
// (Deployment.spec.strategy, a pod template's spec) are created when absent,
// as Go's zero value would be.
//
// Not here, by design:
// - admission-time changes: defaultTolerationSeconds and defaultPodPriority
//   below are exported for the DefaultTolerationSeconds and Priority plugins;
//   the ServiceAccount plugin (serviceAccountName "default", token volume) is
//   not defaulting.
// - what the registry fills on create: Service clusterIP(s), ipFamilies,
//   ipFamilyPolicy, nodePorts, healthCheckNodePort; Namespace
//   spec.finalizers ["kubernetes"]; status resets; PVC dataSource/dataSourceRef
//   normalisation; Job selector and controller-uid labels; generation.
// - Quantity rounding to milli scale and canonical formatting (SetDefaults_ResourceList)
//   belong to the Quantity codec; ConfigMap data {} (SetDefaults_ConfigMap)
//   is invisible on the wire (omitempty) and is not reproduced.
// ---- shared helpers (imported by the other group-version defaulters) ----

export type Json = Record<string, unknown>;
/** The feature-gate question defaulting asks; `FeatureGates` answers it. */
export interface Gates { enabled(name: string): boolean }

export const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Go's nil pointer / unset member. */
export const unset = (o: Json, k: string): boolean => o[k] === undefined || o[k] === null;
/** Go's "" string (absent, null or ""). */
export const emptyStr = (o: Json, k: string): boolean => unset(o, k) || o[k] === '';
/** Go's 0 number (absent, null or 0). */
export const zeroNum = (o: Json, k: string): boolean => unset(o, k) || o[k] === 0;

/** Sets o[k] when it is unset (Go nil pointer). */
export function orSet(o: Json, k: string, v: unknown): void {
  if (unset(o, k)) o[k] = v;
}
/** Sets o[k] when it is "" (Go string zero value). */
export function orStr(o: Json, k: string, v: string): void {
  if (emptyStr(o, k)) o[k] = v;
}
/** Sets o[k] when it is 0 (Go integer zero value). */
export function orNum(o: Json, k: string, v: number): void {
  if (zeroNum(o, k)) o[k] = v;
}
/** o[k] when it is an object. */
export function at(o: Json, k: string): Json | undefined {
  const v = o[k];
  return isObj(v) ? v : undefined;
}
/** o[k] as an object, created when unset (a Go non-pointer struct); undefined when it holds another type. */
export function struct(o: Json, k: string): Json | undefined {
  if (unset(o, k)) o[k] = {};
  return at(o, k);
}
/** The objects in the list o[k]. */
export function each(o: Json | undefined, k: string): Json[] {
  const v = o?.[k];
  return Array.isArray(v) ? v.filter(isObj) : [];
}
/** A non-empty object o[k] (a Go map with entries). */
export function filledMap(o: Json, k: string): Json | undefined {
  const m = at(o, k);
  return m && Object.keys(m).length > 0 ? m : undefined;
}

// ---- containers ----

const HEX_ID = /^[a-f0-9]{64}$/;
const DOMAIN = String.raw`(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])(?:\.(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]))*(?::[0-9]+)?`;
const COMPONENT = String.raw`[a-z0-9]+(?:(?:[._]|__|[-]*)[a-z0-9]+)*`;
const REFERENCE = new RegExp(String.raw`^(${DOMAIN}/${COMPONENT}(?:/${COMPONENT})*)(?::([\w][\w.-]{0,127}))?(?:@([A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*):([0-9a-fA-F]{32,}))?$`);
const DIGEST_HEX: Record<string, RegExp> = { sha256: /^[a-f0-9]{64}$/, sha384: /^[a-f0-9]{96}$/, sha512: /^[a-f0-9]{128}$/ };

/**
 * The tag Kubernetes sees in an image reference (docker's normalized-name
 * rules, as vendored by v1.27): "latest" when neither tag nor digest is
 * given, "" when the reference does not parse.
 */
export function imageTag(image: string): string {
  if (HEX_ID.test(image)) return '';
  const slash = image.indexOf('/');
  let domain = 'docker.io';
  let rest = image;
  if (slash >= 0) {
    const first = image.slice(0, slash);
    if (/[.:]/.test(first) || first === 'localhost') [domain, rest] = [first, image.slice(slash + 1)];
  }
  if (domain === 'index.docker.io') domain = 'docker.io';
  if (domain === 'docker.io' && !rest.includes('/')) rest = `library/${rest}`;
  const colon = rest.indexOf(':');
  const repo = colon >= 0 ? rest.slice(0, colon) : rest;
  if (repo.toLowerCase() !== repo) return '';
  const m = REFERENCE.exec(`${domain}/${rest}`);
  if (!m || m[1]!.length > 255) return '';
  const [, , tag, algorithm, hex] = m;
  if (algorithm !== undefined && !DIGEST_HEX[algorithm]?.test(hex!)) return '';
  if (tag !== undefined) return tag;
  return algorithm === undefined ? 'latest' : '';
}

/** HTTPGetAction: path "/", scheme HTTP. */
function defaultHandler(h: Json | undefined): void {
  const get = h && at(h, 'httpGet');
  if (get) {
    orStr(get, 'path', '/');
    orStr(get, 'scheme', 'HTTP');
  }
}

/** Liveness, readiness and startup probes. */
export function defaultProbe(p: Json): void {
  orNum(p, 'timeoutSeconds', 1);
  orNum(p, 'periodSeconds', 10);
  orNum(p, 'successThreshold', 1);
  orNum(p, 'failureThreshold', 3);
  defaultHandler(p);
  const grpc = at(p, 'grpc');
  if (grpc) orSet(grpc, 'service', ''); // +default=""
}

/** Containers, init containers and ephemeral containers (SetDefaults_Container and what lies inside). */
export function defaultContainer(c: Json): void {
  if (emptyStr(c, 'imagePullPolicy')) {
    c.imagePullPolicy = imageTag(typeof c.image === 'string' ? c.image : '') === 'latest' ? 'Always' : 'IfNotPresent';
  }
  orStr(c, 'terminationMessagePath', '/dev/termination-log');
  orStr(c, 'terminationMessagePolicy', 'File');
  for (const port of each(c, 'ports')) orStr(port, 'protocol', 'TCP');
  for (const env of each(c, 'env')) {
    const ref = at(at(env, 'valueFrom') ?? {}, 'fieldRef');
    if (ref) orStr(ref, 'apiVersion', 'v1');
  }
  struct(c, 'resources'); // a Go struct value: always serialised
  for (const k of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
    const p = at(c, k);
    if (p) defaultProbe(p);
  }
  const lifecycle = at(c, 'lifecycle');
  if (lifecycle) for (const k of ['postStart', 'preStop']) defaultHandler(at(lifecycle, k));
}

// ---- volumes ----

const VOLUME_SOURCES = [
  'hostPath', 'emptyDir', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'secret', 'nfs', 'iscsi',
  'glusterfs', 'persistentVolumeClaim', 'rbd', 'flexVolume', 'cinder', 'cephfs', 'flocker', 'downwardAPI', 'fc',
  'azureFile', 'configMap', 'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'projected',
  'portworxVolume', 'scaleIO', 'storageos', 'csi', 'ephemeral',
] as const;

/** 0644, the file mode of secret, configMap, downwardAPI and projected volumes. */
export const DEFAULT_MODE = 0o644;

function defaultDownwardItems(source: Json): void {
  for (const item of each(source, 'items')) {
    const ref = at(item, 'fieldRef');
    if (ref) orStr(ref, 'apiVersion', 'v1');
  }
}

/** The sources a PersistentVolume shares with pod volumes, and their declarative defaults. */
export function defaultPersistentVolumeSource(s: Json): void {
  const hostPath = at(s, 'hostPath');
  if (hostPath) orSet(hostPath, 'type', '');
  const iscsi = at(s, 'iscsi');
  if (iscsi) orStr(iscsi, 'iscsiInterface', 'default');
  const rbd = at(s, 'rbd');
  if (rbd) {
    orStr(rbd, 'pool', 'rbd');
    orStr(rbd, 'user', 'admin');
    orStr(rbd, 'keyring', '/etc/ceph/keyring');
  }
  const azureDisk = at(s, 'azureDisk');
  if (azureDisk) {
    orSet(azureDisk, 'cachingMode', 'ReadWrite');
    orSet(azureDisk, 'fsType', 'ext4');
    orSet(azureDisk, 'readOnly', false);
    orSet(azureDisk, 'kind', 'Shared');
  }
  const scaleIO = at(s, 'scaleIO');
  if (scaleIO) {
    orStr(scaleIO, 'storageMode', 'ThinProvisioned');
    orStr(scaleIO, 'fsType', 'xfs');
  }
}

/** A pod volume: emptyDir {} when no source is given, then each source's defaults. */
export function defaultVolume(v: Json): void {
  if (!VOLUME_SOURCES.some((k) => !unset(v, k))) v.emptyDir = {};
  defaultPersistentVolumeSource(v);
  for (const k of ['secret', 'configMap', 'downwardAPI', 'projected']) {
    const s = at(v, k);
    if (s) orSet(s, 'defaultMode', DEFAULT_MODE);
  }
  const downward = at(v, 'downwardAPI');
  if (downward) defaultDownwardItems(downward);
  for (const p of each(at(v, 'projected'), 'sources')) {
    const d = at(p, 'downwardAPI');
    if (d) defaultDownwardItems(d);
    const token = at(p, 'serviceAccountToken');
    if (token) orSet(token, 'expirationSeconds', 3600);
  }
  const claimSpec = at(at(at(v, 'ephemeral') ?? {}, 'volumeClaimTemplate') ?? {}, 'spec');
  if (claimSpec) defaultPersistentVolumeClaimSpec(claimSpec);
}

// ---- pods and templates ----

const INIT_CONTAINER_ANNOTATIONS = [
  'pod.beta.kubernetes.io/init-containers', 'pod.alpha.kubernetes.io/init-containers',
  'pod.beta.kubernetes.io/init-container-statuses', 'pod.alpha.kubernetes.io/init-container-statuses',
];

/** Conversion drops the pre-1.8 init-container annotations from pods and pod templates. */
function dropInitContainerAnnotations(obj: Json): void {
  const annotations = at(at(obj, 'metadata') ?? {}, 'annotations');
  if (annotations) for (const k of INIT_CONTAINER_ANNOTATIONS) delete annotations[k];
}

/** Keeps a deprecated singular field and its plural successor in step, the singular one winning when they differ. */
export function mirrorFirst(o: Json, single: string, plural: string, wrap: (s: string) => unknown, unwrap: (x: unknown) => unknown): void {
  const one = o[single];
  const many = Array.isArray(o[plural]) ? (o[plural] as unknown[]) : [];
  if (typeof one === 'string' && one !== '' && (many.length === 0 || unwrap(many[0]) !== one)) o[plural] = [wrap(one)];
  const now = o[plural];
  if (Array.isArray(now) && now.length > 0) o[single] = unwrap(now[0]);
}

function defaultHostPorts(spec: Json): void {
  for (const c of [...each(spec, 'containers'), ...each(spec, 'initContainers')]) {
    for (const port of each(c, 'ports')) if (zeroNum(port, 'hostPort')) port.hostPort = port.containerPort ?? 0;
  }
}

/** A PodSpec wherever it appears (pods and every pod template): SetDefaults_PodSpec and what lies inside. */
export function defaultPodSpec(spec: Json): void {
  // conversion: serviceAccount is the deprecated alias, always read back equal to serviceAccountName
  if (emptyStr(spec, 'serviceAccountName') && !emptyStr(spec, 'serviceAccount')) spec.serviceAccountName = spec.serviceAccount;
  if (!emptyStr(spec, 'serviceAccountName')) spec.serviceAccount = spec.serviceAccountName;
  else delete spec.serviceAccount;
  orStr(spec, 'dnsPolicy', 'ClusterFirst');
  orStr(spec, 'restartPolicy', 'Always');
  if (spec.hostNetwork === true) defaultHostPorts(spec); // in PodSpec (so templates too) until v1.28
  orSet(spec, 'securityContext', {});
  orSet(spec, 'terminationGracePeriodSeconds', 30);
  orStr(spec, 'schedulerName', 'default-scheduler');
  for (const v of each(spec, 'volumes')) defaultVolume(v);
  for (const k of ['initContainers', 'containers', 'ephemeralContainers']) for (const c of each(spec, k)) defaultContainer(c);
}

/** A PodTemplateSpec (Deployment, ReplicaSet, StatefulSet, DaemonSet, Job, CronJob, PodTemplate, ReplicationController). */
export function defaultPodTemplateSpec(template: Json): void {
  dropInitContainerAnnotations(template);
  const spec = struct(template, 'spec');
  if (spec) defaultPodSpec(spec);
}

/** Requests default to limits, per resource, for app and init containers of a Pod (not of templates). */
function defaultRequestsFromLimits(c: Json): void {
  const resources = at(c, 'resources');
  const limits = resources && filledMap(resources, 'limits');
  if (!resources || !limits) return;
  const requests = struct(resources, 'requests');
  if (!requests) return;
  for (const [k, v] of Object.entries(limits)) if (!(k in requests)) requests[k] = v;
}

export function defaultPod(pod: Json): void {
  dropInitContainerAnnotations(pod);
  const spec = struct(pod, 'spec');
  if (spec) {
    for (const c of [...each(spec, 'containers'), ...each(spec, 'initContainers')]) defaultRequestsFromLimits(c);
    orSet(spec, 'enableServiceLinks', true);
    defaultPodSpec(spec);
  }
  const status = at(pod, 'status');
  if (status) mirrorFirst(status, 'podIP', 'podIPs', (ip) => ({ ip }), (x) => (isObj(x) ? x.ip : undefined));
}

export function defaultPodTemplate(obj: Json): void {
  const template = struct(obj, 'template');
  if (template) defaultPodTemplateSpec(template);
}

export function defaultReplicationController(rc: Json): void {
  const spec = struct(rc, 'spec');
  if (!spec) return;
  const template = at(spec, 'template');
  const labels = template && at(at(template, 'metadata') ?? {}, 'labels');
  if (labels) {
    if (!filledMap(spec, 'selector')) spec.selector = { ...labels };
    const metadata = struct(rc, 'metadata');
    if (metadata && !filledMap(metadata, 'labels')) metadata.labels = { ...labels };
  }
  orSet(spec, 'replicas', 1);
  if (template) defaultPodTemplateSpec(template);
}

// ---- admission-time pod changes (not defaulting; exported for the plugins) ----

export const TAINT_NODE_NOT_READY = 'node.svc.io/not-ready';
export const TAINT_NODE_UNREACHABLE = 'node.svc.io/unreachable';

/**
 * ADMISSION-TIME, not defaulting: what the DefaultTolerationSeconds plugin
 * does to a Pod on create. Adds NoExecute tolerations of the not-ready and
 * unreachable taints (300 s unless configured) when the pod tolerates
 * neither already (an empty key or effect tolerates every key or effect).
 */
export function defaultTolerationSeconds(pod: Json, seconds: { notReady?: number; unreachable?: number } = {}): void {
  const spec = struct(pod, 'spec');
  if (!spec) return;
  const tolerations = each(spec, 'tolerations');
  const tolerates = (key: string) => tolerations.some((t) =>
    (emptyStr(t, 'key') || t.key === key) && (emptyStr(t, 'effect') || t.effect === 'NoExecute'));
  const added: Json[] = [];
  for (const [key, s] of [[TAINT_NODE_NOT_READY, seconds.notReady ?? 300], [TAINT_NODE_UNREACHABLE, seconds.unreachable ?? 300]] as const) {
    if (!tolerates(key)) added.push({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: s });
  }
  if (added.length > 0) spec.tolerations = [...(Array.isArray(spec.tolerations) ? spec.tolerations : []), ...added];
}

/** The priority class a pod resolves to: its own class, the global default class, or none. */
export interface ResolvedPriority {
  /** The class name to record; "" when the pod names none and there is no global default. */
  readonly priorityClassName: string;
  readonly value: number;
  /** The class's preemptionPolicy; PreemptLowerPriority when there is no class. */
  readonly preemptionPolicy?: string;
}

/**
 * ADMISSION-TIME, not defaulting: what the Priority plugin does to a Pod on
 * create once it has resolved the pod's PriorityClass (with no class and no
 * global default: priority 0, PreemptLowerPriority). Returns the Forbidden
 * message when the pod carries a priority or preemptionPolicy that differs
 * from the computed one; otherwise sets them.
 */
export function defaultPodPriority(pod: Json, resolved: ResolvedPriority = { priorityClassName: '', value: 0, preemptionPolicy: 'PreemptLowerPriority' }): string | undefined {
  const spec = struct(pod, 'spec');
  if (!spec) return undefined;
  if (typeof spec.priority === 'number' && spec.priority !== resolved.value) {
    return `the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${resolved.value} from the given PriorityClass name`;
  }
  const policy = resolved.preemptionPolicy;
  if (policy !== undefined && !emptyStr(spec, 'preemptionPolicy') && spec.preemptionPolicy !== policy) {
    return `the string value of PreemptionPolicy (${String(spec.preemptionPolicy)}) must not be provided in pod spec; priority admission controller computed ${policy} from the given PriorityClass name`;
  }
  if (resolved.priorityClassName !== '') spec.priorityClassName = resolved.priorityClassName;
  spec.priority = resolved.value;
  if (policy !== undefined) spec.preemptionPolicy = policy;
  return undefined;
}

// ---- services and endpoints ----

/** 3 hours, the ClientIP session affinity timeout. */
export const DEFAULT_CLIENT_IP_TIMEOUT = 10800;

/**
 * SetDefaults_Service. The registry, not defaulting, fills clusterIP and
 * clusterIPs (allocation, and ["None"] for headless), ipFamilies,
 * ipFamilyPolicy, nodePorts, healthCheckNodePort and status.loadBalancer.
 */
export function defaultService(svc: Json): void {
  const spec = struct(svc, 'spec');
  if (!spec) return;
  orStr(spec, 'sessionAffinity', 'None');
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === 'ClientIP') {
    const clientIP = at(at(spec, 'sessionAffinityConfig') ?? {}, 'clientIP');
    if (!clientIP || unset(clientIP, 'timeoutSeconds')) spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: DEFAULT_CLIENT_IP_TIMEOUT } };
  }
  orStr(spec, 'type', 'ClusterIP');
  for (const port of each(spec, 'ports')) {
    orStr(port, 'protocol', 'TCP');
    if (port.targetPort === undefined || port.targetPort === null || port.targetPort === 0 || port.targetPort === '') {
      port.targetPort = port.port ?? 0;
    }
  }
  const type = spec.type;
  if (type === 'NodePort' || type === 'LoadBalancer') orStr(spec, 'externalTrafficPolicy', 'Cluster');
  if (type === 'NodePort' || type === 'LoadBalancer' || type === 'ClusterIP') orSet(spec, 'internalTrafficPolicy', 'Cluster');
  if (type === 'LoadBalancer') orSet(spec, 'allocateLoadBalancerNodePorts', true);
}

export function defaultEndpoints(ep: Json): void {
  for (const subset of each(ep, 'subsets')) for (const port of each(subset, 'ports')) orStr(port, 'protocol', 'TCP');
}

// ---- storage ----

export function defaultPersistentVolumeClaimSpec(spec: Json): void {
  orSet(spec, 'volumeMode', 'Filesystem');
}

/** Also the volumeClaimTemplates of a StatefulSet. */
export function defaultPersistentVolumeClaim(pvc: Json): void {
  const spec = struct(pvc, 'spec');
  if (spec) defaultPersistentVolumeClaimSpec(spec);
  const status = struct(pvc, 'status');
  if (status) orStr(status, 'phase', 'Pending');
}

export function defaultPersistentVolume(pv: Json): void {
  const spec = struct(pv, 'spec');
  if (spec) {
    orStr(spec, 'persistentVolumeReclaimPolicy', 'Retain');
    orSet(spec, 'volumeMode', 'Filesystem');
    defaultPersistentVolumeSource(spec);
  }
  const status = struct(pv, 'status');
  if (status) orStr(status, 'phase', 'Pending');
}

// ---- the rest of core/v1 ----

/** The label kube-apiserver spells kubernetes.io/metadata.name (see ../../../../shared/DESIGN.md §2). */
export const NAMESPACE_NAME_LABEL = 'svc.io/metadata.name';

export function defaultNamespace(ns: Json): void {
  const metadata = at(ns, 'metadata');
  const name = metadata?.name;
  if (metadata && typeof name === 'string' && name !== '') {
    const labels = struct(metadata, 'labels');
    if (labels) labels[NAMESPACE_NAME_LABEL] = name;
  }
  const status = struct(ns, 'status');
  if (status) orStr(status, 'phase', 'Active');
}

export function defaultNode(node: Json): void {
  const spec = at(node, 'spec');
  if (spec) mirrorFirst(spec, 'podCIDR', 'podCIDRs', (c) => c, (x) => x);
  const status = at(node, 'status');
  const capacity = status && filledMap(status, 'capacity');
  if (status && capacity && unset(status, 'allocatable')) status.allocatable = { ...capacity };
}

/** Secret: type Opaque; stringData is written over data (base64 of its UTF-8 bytes) and never stored. */
export function defaultSecret(secret: Json): void {
  orStr(secret, 'type', 'Opaque');
  const stringData = secret.stringData;
  if (isObj(stringData) && Object.keys(stringData).length > 0) {
    const data = struct(secret, 'data');
    if (data) for (const [k, v] of Object.entries(stringData)) data[k] = Buffer.from(String(v), 'utf8').toString('base64');
  }
  delete secret.stringData;
}

export function defaultLimitRange(lr: Json): void {
  for (const item of each(at(lr, 'spec'), 'limits')) {
    if (item.type !== 'Container') continue;
    const fill = (target: string, ...sources: string[]) => {
      const out: Json = { ...(at(item, target) ?? {}) };
      for (const src of sources) for (const [k, v] of Object.entries(at(item, src) ?? {})) if (!(k in out)) out[k] = v;
      if (Object.keys(out).length > 0 || !unset(item, target)) item[target] = out;
    };
    fill('default', 'max');
    fill('defaultRequest', 'default', 'min');
  }
}

/** The core/v1 defaulters by kind. */
export const defaulters: Readonly<Record<string, (obj: Json, gates: Gates) => void>> = {
  Pod: defaultPod,
  PodTemplate: defaultPodTemplate,
  ReplicationController: defaultReplicationController,
  Service: defaultService,
  Endpoints: defaultEndpoints,
  PersistentVolumeClaim: defaultPersistentVolumeClaim,
  PersistentVolume: defaultPersistentVolume,
  Namespace: defaultNamespace,
  Node: defaultNode,
  Secret: defaultSecret,
  LimitRange: defaultLimitRange,
};
