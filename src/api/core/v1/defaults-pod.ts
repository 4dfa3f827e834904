// core/v1 defaulting of pods and pod templates (also every workload's
// template), ReplicationControllers, and the admission-time pod changes the
// DefaultTolerationSeconds and Priority plugins make.
import { at, each, emptyStr, filledMap, isObj, mirrorFirst, orSet, orStr, struct, zeroNum, type Json } from './defaults-common.js';
import { defaultContainer, defaultVolume } from './defaults-container.js';

const INIT_CONTAINER_ANNOTATIONS = new Set([
  'pod.beta.kubernetes.io/init-containers', 'pod.alpha.kubernetes.io/init-containers',
  'pod.beta.kubernetes.io/init-container-statuses', 'pod.alpha.kubernetes.io/init-container-statuses',
]);

/** Conversion drops the pre-1.8 init-container annotations from pods and pod templates. */
function dropInitContainerAnnotations(obj: Json): void {
  const annotations = at(at(obj, 'metadata') ?? {}, 'annotations');
  if (annotations) for (const k in annotations) if (INIT_CONTAINER_ANNOTATIONS.has(k)) delete annotations[k];
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
  for (const c of each(spec, 'initContainers')) defaultContainer(c);
  for (const c of each(spec, 'containers')) defaultContainer(c);
  for (const c of each(spec, 'ephemeralContainers')) defaultContainer(c);
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
  for (const k of Object.keys(limits)) if (!(k in requests)) requests[k] = limits[k];
}

export function defaultPod(pod: Json): void {
  dropInitContainerAnnotations(pod);
  const spec = struct(pod, 'spec');
  if (spec) {
    for (const c of each(spec, 'containers')) defaultRequestsFromLimits(c);
    for (const c of each(spec, 'initContainers')) defaultRequestsFromLimits(c);
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
