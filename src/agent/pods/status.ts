// The pod status the agent reports, as the kubelet's generateAPIPodStatus
// (v1.27) makes it from what the runtime says: the phase (getPhase), the
// kubelet-owned conditions (Initialized, Ready, ContainersReady,
// PodScheduled; readiness gates), addresses, start time and QoS class. The
// container statuses come from the runtime manager; the conditions other
// writers set are kept; a condition's lastTransitionTime moves only when its
// status does.
import { isObject, type ApiObject } from '../../registry/object.js';
import { podQOSClass } from '../../registry/strategies/podqos.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (isObject(v) ? v : {});
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObject) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

export type PodPhase = 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown';

export const KUBELET_CONDITIONS: readonly string[] = ['Initialized', 'Ready', 'ContainersReady', 'PodScheduled'];

/** The container status of a name, if the runtime reported one. */
const statusOf = (statuses: readonly Obj[], name: string): Obj | undefined => statuses.find((s) => s.name === name);
const stateOf = (s: Obj): Obj => obj(s.state);
const lastTerminated = (s: Obj): Obj | undefined => (isObject(obj(s.lastState).terminated) ? obj(obj(s.lastState).terminated) : undefined);
const exitCodeOf = (t: Obj): number => (typeof t.exitCode === 'number' ? t.exitCode : 0);

/**
 * kube's getPhase: init containers pending or failed, then the regular
 * containers' states against the restart policy. `terminal`: the pod is
 * being stopped for good (deleted or evicted), so stopped containers decide
 * the phase whatever the restart policy.
 */
export function podPhase(pod: ApiObject, initStatuses: readonly Obj[], statuses: readonly Obj[], terminal = false): PodPhase {
  const spec = obj(pod.spec);
  const policy = str(spec.restartPolicy) || 'Always';
  let pendingInit = 0;
  let failedInit = 0;
  for (const c of list(spec.initContainers)) {
    const s = statusOf(initStatuses, str(c.name));
    if (!s) { pendingInit++; continue; }
    const st = stateOf(s);
    if (isObject(st.running)) pendingInit++;
    else if (isObject(st.terminated)) { if (exitCodeOf(st.terminated) !== 0) failedInit++; }
    else if (isObject(st.waiting)) {
      const last = lastTerminated(s);
      if (last) { if (exitCodeOf(last) !== 0) failedInit++; } else pendingInit++;
    } else pendingInit++;
  }
  let unknown = 0, running = 0, waiting = 0, stopped = 0, succeeded = 0;
  for (const c of list(spec.containers)) {
    const s = statusOf(statuses, str(c.name));
    if (!s) { unknown++; continue; }
    const st = stateOf(s);
    if (isObject(st.running)) running++;
    else if (isObject(st.terminated)) { stopped++; if (exitCodeOf(st.terminated) === 0) succeeded++; }
    else if (isObject(st.waiting)) { if (lastTerminated(s)) stopped++; else waiting++; }
    else unknown++;
  }
  if (failedInit > 0 && policy === 'Never') return 'Failed';
  if (pendingInit > 0 || waiting > 0) return 'Pending';
  if (running > 0 && unknown === 0) return 'Running';
  if (running === 0 && stopped > 0 && unknown === 0) {
    if (terminal) return stopped === succeeded ? 'Succeeded' : 'Failed';
    if (policy === 'Always') return 'Running';
    if (stopped === succeeded) return 'Succeeded';
    if (policy === 'Never') return 'Failed';
    return 'Running';
  }
  return 'Pending';
}

export interface Condition {
  type: string;
  status: 'True' | 'False';
  reason?: string;
  message?: string;
}

/** kube's GeneratePodInitializedCondition. */
export function initializedCondition(pod: ApiObject, initStatuses: readonly Obj[], phase: PodPhase): Condition {
  const inits = list(obj(pod.spec).initContainers);
  const unknown: string[] = [];
  const incomplete: string[] = [];
  for (const c of inits) {
    const name = str(c.name);
    const s = statusOf(initStatuses, name);
    if (!s) { unknown.push(name); continue; }
    const t = obj(stateOf(s).terminated);
    if (!(isObject(stateOf(s).terminated) && exitCodeOf(t) === 0)) incomplete.push(name);
  }
  // all init containers known and the pod done: PodCompleted (also with none)
  if (phase === 'Succeeded' && unknown.length === 0) return { type: 'Initialized', status: 'True', reason: 'PodCompleted' };
  const parts: string[] = [];
  if (unknown.length > 0) parts.push(`containers with unknown status: [${unknown.join(' ')}]`);
  if (incomplete.length > 0) parts.push(`containers with incomplete status: [${incomplete.join(' ')}]`);
  if (parts.length > 0) return { type: 'Initialized', status: 'False', reason: 'ContainersNotInitialized', message: parts.join(', ') };
  return { type: 'Initialized', status: 'True' };
}

/** kube's GenerateContainersReadyCondition. */
export function containersReadyCondition(pod: ApiObject, statuses: readonly Obj[], phase: PodPhase): Condition {
  const unknown: string[] = [];
  const unready: string[] = [];
  for (const c of list(obj(pod.spec).containers)) {
    const name = str(c.name);
    const s = statusOf(statuses, name);
    if (!s) unknown.push(name);
    else if (s.ready !== true) unready.push(name);
  }
  if (phase === 'Succeeded' && unknown.length === 0) return { type: 'ContainersReady', status: 'False', reason: 'PodCompleted' };
  const parts: string[] = [];
  if (unknown.length > 0) parts.push(`containers with unknown status: [${unknown.join(' ')}]`);
  if (unready.length > 0) parts.push(`containers with unready status: [${unready.join(' ')}]`);
  if (parts.length > 0) return { type: 'ContainersReady', status: 'False', reason: 'ContainersNotReady', message: parts.join(', ') };
  return { type: 'ContainersReady', status: 'True' };
}

/** kube's GeneratePodReadyCondition: the containers, then the readiness gates against the pod's other conditions. */
export function readyCondition(pod: ApiObject, statuses: readonly Obj[], otherConditions: readonly Obj[], phase: PodPhase): Condition {
  const cr = containersReadyCondition(pod, statuses, phase);
  if (cr.status !== 'True') return { ...cr, type: 'Ready' };
  const gates: string[] = [];
  for (const g of list(obj(pod.spec).readinessGates)) {
    const type = str(g.conditionType);
    const c = otherConditions.find((p) => p.type === type);
    if (!c) gates.push(`corresponding condition of pod readiness gate "${type}" does not exist.`);
    else if (c.status !== 'True') gates.push(`the status of pod readiness gate "${type}" is not "True", but ${str(c.status)}`);
  }
  if (gates.length > 0) return { type: 'Ready', status: 'False', reason: 'ReadinessGatesNotReady', message: gates.join(', ') };
  return { type: 'Ready', status: 'True' };
}

/** What the runtime and the agent know of a pod, from which its status is made. */
export interface RuntimeView {
  readonly initContainerStatuses: readonly Obj[];
  readonly containerStatuses: readonly Obj[];
  /** The sandbox's addresses (the node's for host-network pods); none before a sandbox runs. */
  readonly podIPs: readonly string[];
  readonly hostIP: string;
  /** The pod is being stopped for good. */
  readonly terminal?: boolean;
  /** A reason and message of the whole pod (e.g. admission refused it: phase Failed). */
  readonly failure?: { readonly reason: string; readonly message: string };
}

/** The status to report: the pod's current status with the kubelet-owned parts made from the runtime's view at `now` (RFC 3339). */
export function podStatus(pod: ApiObject, view: RuntimeView, now: string): Obj {
  const prev = obj(pod.status);
  const prevConditions = list(prev.conditions);
  const others = prevConditions.filter((c) => !KUBELET_CONDITIONS.includes(str(c.type)));
  const phase: PodPhase = view.failure ? 'Failed' : podPhase(pod, view.initContainerStatuses, view.containerStatuses, view.terminal);
  const generated: Condition[] = [
    initializedCondition(pod, view.initContainerStatuses, phase),
    readyCondition(pod, view.containerStatuses, others, phase),
    containersReadyCondition(pod, view.containerStatuses, phase),
    { type: 'PodScheduled', status: 'True' },
  ];
  const conditions = generated.map((c) => {
    const old = prevConditions.find((p) => p.type === c.type);
    const since = old?.status === c.status && typeof old.lastTransitionTime === 'string' ? old.lastTransitionTime : now;
    return { type: c.type, status: c.status, lastProbeTime: null, lastTransitionTime: since, ...(c.reason ? { reason: c.reason } : {}), ...(c.message ? { message: c.message } : {}) };
  });
  const status: Obj = {
    ...prev,
    phase,
    conditions: [...conditions, ...others],
    hostIP: view.hostIP,
    startTime: typeof prev.startTime === 'string' ? prev.startTime : now,
    qosClass: podQOSClass(pod),
  };
  if (view.podIPs.length > 0) {
    status.podIP = view.podIPs[0];
    status.podIPs = view.podIPs.map((ip) => ({ ip }));
  }
  if (view.containerStatuses.length > 0) status.containerStatuses = [...view.containerStatuses].sort((a, b) => (str(a.name) < str(b.name) ? -1 : 1));
  if (view.initContainerStatuses.length > 0) status.initContainerStatuses = view.initContainerStatuses;
  if (view.failure) {
    status.reason = view.failure.reason;
    status.message = view.failure.message;
  } else {
    delete status.reason;
    delete status.message;
  }
  return status;
}

/** Whether two statuses differ in what the agent reports (kube's isPodStatusByKubeletEqual: conditions compared without times). */
export function statusDiffers(a: Obj, b: Obj): boolean {
  const strip = (s: Obj): unknown => ({ ...s, conditions: list(s.conditions).map((c) => ({ ...c, lastTransitionTime: undefined, lastProbeTime: undefined })) });
  return JSON.stringify(strip(a)) !== JSON.stringify(strip(b));
}
