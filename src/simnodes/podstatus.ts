// Pod statuses as a kubelet writes them, for pods that "run" on a simulated
// node. What a pod does is read from two annotations:
//
//   simulated.svc.io/run-seconds  how long the containers run before they exit
//                                 (default 0: at once)
//   simulated.svc.io/exit-code    the containers' exit code (default 0)
//
// Pods with restartPolicy Never or OnFailure always exit; Always pods run
// until deleted unless one of the annotations is set (then they exit too,
// and are restarted: a crash-looping Deployment).
//
//   Pending ──start──▶ Running ──run-seconds──▶ exit 0, Never/OnFailure ─▶ Succeeded
//                         ▲                     exit≠0, Never ───────────▶ Failed
//                         │                     exit≠0, OnFailure; Always ▶ CrashLoopBackOff
//                         └──── back-off 10s·2^restarts (≤ 5m), restartCount+1 ──┘
//
// Conditions follow the kubelet's generators (Initialized, Ready,
// ContainersReady, PodScheduled; readiness gates; PodCompleted); conditions
// of other writers are kept; a condition's lastTransitionTime moves only
// when its status does.
import { isObject, type ApiObject } from '../registry/object.js';
import { parseTime, rfc3339 } from './clock.js';
import { containerID, imageID, normalizeImage } from './image.js';
import { containersReadyCondition, initializedCondition, readyCondition, type Condition as GeneratedCondition, type PodPhase } from '../agent/pods/status.js';

/** Init containers as a simulated node reports them: each ran to completion. */
const initsDone = (pod: ApiObject): Obj[] => list(obj(pod.spec).initContainers).map((c) => ({ name: str(c.name), state: { terminated: { exitCode: 0 } } }));

export const RUN_SECONDS_ANNOTATION = 'simulated.svc.io/run-seconds';
export const EXIT_CODE_ANNOTATION = 'simulated.svc.io/exit-code';

const BACKOFF_BASE_S = 10;
const BACKOFF_MAX_S = 300;

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (isObject(v) ? v : {});
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObject) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

export interface Behaviour {
  readonly runSeconds: number;
  readonly exitCode: number;
  /** Whether an annotation was given (an Always pod exits only then). */
  readonly annotated: boolean;
}

/** The pod's annotations read leniently: what is not a non-negative number (an integer 0–255 for the code) counts as 0. */
export function behaviourOf(pod: ApiObject): Behaviour {
  const a = pod.metadata.annotations ?? {};
  const run = Number(a[RUN_SECONDS_ANNOTATION] ?? '0');
  const code = Number(a[EXIT_CODE_ANNOTATION] ?? '0');
  return {
    runSeconds: Number.isFinite(run) && run > 0 ? run : 0,
    exitCode: Number.isInteger(code) && code >= 0 && code <= 255 ? code : 0,
    annotated: Object.hasOwn(a, RUN_SECONDS_ANNOTATION) || Object.hasOwn(a, EXIT_CODE_ANNOTATION),
  };
}

/** Whether the pod's containers exit at some point. */
export const exits = (pod: ApiObject): boolean => restartPolicyOf(pod) !== 'Always' || behaviourOf(pod).annotated;

/** Whether an exit with this code is followed by a restart (the pod's phase stays Running). */
const restartsAfter = (policy: RestartPolicy, exitCode: number): boolean => policy === 'Always' || (policy === 'OnFailure' && exitCode !== 0);

export type RestartPolicy = 'Always' | 'OnFailure' | 'Never';
export const restartPolicyOf = (pod: ApiObject): RestartPolicy => {
  const p = obj(pod.spec).restartPolicy;
  return p === 'Never' || p === 'OnFailure' ? p : 'Always';
};

/** Where a pod is, as its stored status tells. */
export type Stage = 'terminating' | 'done' | 'new' | 'running' | 'backoff';

export function stageOf(pod: ApiObject): Stage {
  if (pod.metadata.deletionTimestamp) return 'terminating';
  const status = obj(pod.status);
  if (status.phase === 'Succeeded' || status.phase === 'Failed') return 'done';
  const statuses = list(status.containerStatuses);
  const names = list(obj(pod.spec).containers).map((c) => str(c.name));
  if (status.phase !== 'Running' || names.some((n) => !statuses.some((s) => s.name === n))) return 'new';
  if (statuses.some((s) => obj(obj(s.state).waiting).reason === 'CrashLoopBackOff')) return 'backoff';
  return 'running';
}

/** What the kubelet does next with a pod, and when (ms since the epoch). */
export type Step =
  | { readonly kind: 'none' }
  | { readonly kind: 'delete' }
  | { readonly kind: 'start'; readonly at: number }
  | { readonly kind: 'exit'; readonly at: number }
  | { readonly kind: 'restart'; readonly at: number }
  /** The pod is being deleted: its containers are stopped and the phase made terminal (then the final delete). */
  | { readonly kind: 'kill'; readonly at: number }
  /** The conditions no longer say what the containers and readiness gates do (a gate's condition changed). */
  | { readonly kind: 'sync'; readonly at: number };

/** Go's time.Duration text for whole seconds ("10s", "1m20s", "5m0s"). */
export function goSeconds(s: number): string {
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m}m${s % 60}s` : `${Math.floor(m / 60)}h${m % 60}m${s % 60}s`;
}

/** The kubelet's crash back-off before restart number `restarts + 1`. */
export const backoffSeconds = (restarts: number): number => Math.min(BACKOFF_BASE_S * 2 ** Math.min(restarts, 10), BACKOFF_MAX_S);

export function nextStep(pod: ApiObject, now: number): Step {
  switch (stageOf(pod)) {
    case 'terminating': {
      const phase = obj(pod.status).phase;
      return phase === 'Succeeded' || phase === 'Failed' ? { kind: 'delete' } : { kind: 'kill', at: now };
    }
    case 'done':
      return { kind: 'none' };
    case 'new':
      return { kind: 'start', at: now };
    case 'running': {
      if (!conditionsCurrent(pod)) return { kind: 'sync', at: now };
      if (!exits(pod)) return { kind: 'none' };
      const started = Math.max(...list(obj(pod.status).containerStatuses).map((s) => parseTime(obj(obj(s.state).running).startedAt) ?? now));
      return { kind: 'exit', at: (Number.isFinite(started) ? started : now) + behaviourOf(pod).runSeconds * 1000 };
    }
    case 'backoff': {
      const s = list(obj(pod.status).containerStatuses)[0] ?? {};
      const finished = parseTime(obj(obj(s.lastState).terminated).finishedAt) ?? now;
      return { kind: 'restart', at: finished + backoffSeconds(Number(s.restartCount ?? 0)) * 1000 };
    }
  }
}

// ---- statuses ------------------------------------------------------------------

export interface Placement {
  readonly hostIP: string;
  /** The pod's address (the host's for hostNetwork pods). */
  readonly podIP: string;
}

interface Condition {
  type: string;
  status: string;
  lastProbeTime: null;
  lastTransitionTime: string;
  reason?: string;
  message?: string;
}

const KUBELET_CONDITIONS = ['Initialized', 'Ready', 'ContainersReady', 'PodScheduled'];

function containerBase(pod: ApiObject, c: Obj, restartCount: number): Obj {
  const image = str(c.image);
  return {
    name: str(c.name), image: normalizeImage(image), imageID: imageID(image),
    containerID: containerID(pod.metadata.uid ?? '', str(c.name), restartCount), restartCount,
  };
}

const running = (pod: ApiObject, c: Obj, restartCount: number, startedAt: string): Obj => ({
  ...containerBase(pod, c, restartCount), state: { running: { startedAt } }, lastState: {}, ready: true, started: true,
});

function terminatedState(pod: ApiObject, c: Obj, restartCount: number, exitCode: number, startedAt: string, finishedAt: string): Obj {
  return {
    exitCode, reason: exitCode === 0 ? 'Completed' : 'Error', startedAt, finishedAt,
    containerID: containerID(pod.metadata.uid ?? '', str(c.name), restartCount),
  };
}

const terminated = (pod: ApiObject, c: Obj, restartCount: number, exitCode: number, startedAt: string, finishedAt: string, ready: boolean): Obj => ({
  ...containerBase(pod, c, restartCount), state: { terminated: terminatedState(pod, c, restartCount, exitCode, startedAt, finishedAt) },
  lastState: {}, ready, started: false,
});

const byName = (a: Obj, b: Obj) => (str(a.name) < str(b.name) ? -1 : str(a.name) > str(b.name) ? 1 : 0);

/** Init containers, all run to completion (spec order, as the kubelet keeps them). */
function initStatuses(pod: ApiObject, t: string): Obj[] | undefined {
  const inits = list(obj(pod.spec).initContainers);
  if (inits.length === 0) return undefined;
  const prev = list(obj(pod.status).initContainerStatuses);
  return inits.map((c) => prev.find((p) => p.name === c.name && isObject(obj(p.state).terminated)) ?? terminated(pod, c, 0, 0, t, t, true));
}

/** The kubelet's conditions for these container statuses and phase, with the pod's other conditions kept. */
function conditions(pod: ApiObject, phase: string, statuses: readonly Obj[], t: string): Condition[] {
  const prev = list(obj(pod.status).conditions);
  const cond = (type: string, status: boolean, reason?: string, message?: string): Condition => {
    const old = prev.find((p) => p.type === type);
    const s = status ? 'True' : 'False';
    const c: Condition = { type, status: s, lastProbeTime: null, lastTransitionTime: old?.status === s && typeof old.lastTransitionTime === 'string' ? old.lastTransitionTime : t };
    if (reason) c.reason = reason;
    if (message) c.message = message;
    return c;
  };
  const others = prev.filter((p) => !KUBELET_CONDITIONS.includes(str(p.type)));
  const at = (c: GeneratedCondition): Condition => cond(c.type, c.status === 'True', c.reason, c.message);
  const p = phase as PodPhase;
  const containersReady = at(containersReadyCondition(pod, statuses, p));
  const ready = at(readyCondition(pod, statuses, others, p));
  const initialized = at(initializedCondition(pod, initsDone(pod), p));
  const scheduled = prev.find((p) => p.type === 'PodScheduled' && p.status === 'True') as Condition | undefined ?? cond('PodScheduled', true);
  return [initialized, ready, containersReady, scheduled, ...(others as unknown as Condition[])];
}

/** Whether the stored kubelet conditions are what the containers and readiness gates make them (times aside). */
function conditionsCurrent(pod: ApiObject): boolean {
  const status = obj(pod.status);
  const stored = list(status.conditions);
  const want = conditions(pod, str(status.phase), list(status.containerStatuses), '');
  const same = (a: Obj | undefined, b: Obj) => a !== undefined && a.status === b.status && str(a.reason) === str(b.reason) && str(a.message) === str(b.message);
  return want.filter((c) => c.type !== 'PodScheduled').every((c) => same(stored.find((x) => x.type === c.type), c as unknown as Obj));
}

function withCommon(pod: ApiObject, at: Placement, phase: string, statuses: Obj[], t: string): Obj {
  const prev = obj(pod.status);
  const status: Obj = {
    ...prev,
    phase,
    conditions: conditions(pod, phase, statuses, t),
    hostIP: at.hostIP,
    podIP: at.podIP,
    podIPs: [{ ip: at.podIP }],
    startTime: typeof prev.startTime === 'string' ? prev.startTime : t,
    containerStatuses: statuses.sort(byName),
  };
  const inits = initStatuses(pod, t);
  if (inits) status.initContainerStatuses = inits;
  delete status.reason;
  delete status.message;
  return status;
}

/** The status once the pod's containers started. */
export function startedStatus(pod: ApiObject, at: Placement, now: number, restartCount = 0): Obj {
  const t = rfc3339(now);
  const statuses = list(obj(pod.spec).containers).map((c) => running(pod, c, restartCount, t));
  return withCommon(pod, at, 'Running', statuses, t);
}

/** The status once the containers exited with the pod's exit code: Succeeded, Failed, or crash back-off under OnFailure. */
export function exitedStatus(pod: ApiObject, at: Placement, now: number): Obj {
  const t = rfc3339(now);
  const { exitCode } = behaviourOf(pod);
  const prev = list(obj(pod.status).containerStatuses);
  const policy = restartPolicyOf(pod);
  const statuses = list(obj(pod.spec).containers).map((c) => {
    const old = prev.find((p) => p.name === c.name);
    const restarts = Number(old?.restartCount ?? 0);
    const startedAt = str(obj(obj(old?.state).running).startedAt) || t;
    if (!restartsAfter(policy, exitCode)) return terminated(pod, c, restarts, exitCode, startedAt, t, false);
    const pod_ = `${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`;
    return {
      ...containerBase(pod, c, restarts),
      state: { waiting: { reason: 'CrashLoopBackOff', message: `back-off ${goSeconds(backoffSeconds(restarts))} restarting failed container=${str(c.name)} pod=${pod_}` } },
      lastState: { terminated: terminatedState(pod, c, restarts, exitCode, startedAt, t) },
      ready: false, started: false,
    };
  });
  const phase = restartsAfter(policy, exitCode) ? 'Running' : exitCode === 0 ? 'Succeeded' : 'Failed';
  return withCommon(pod, at, phase, statuses, t);
}

/** The status once a crashed container (OnFailure) started again. */
export function restartedStatus(pod: ApiObject, at: Placement, now: number): Obj {
  const t = rfc3339(now);
  const prev = list(obj(pod.status).containerStatuses);
  const statuses = list(obj(pod.spec).containers).map((c) => {
    const old = prev.find((p) => p.name === c.name);
    const restarts = Number(old?.restartCount ?? 0) + 1;
    return { ...running(pod, c, restarts, t), lastState: obj(old?.lastState) };
  });
  return withCommon(pod, at, 'Running', statuses, t);
}

/** A process ended by SIGTERM: 128 + 15. */
const SIGTERM_EXIT = 143;

/**
 * The status of a pod being deleted once its containers stopped (kube 1.27's
 * kubelet makes the phase terminal before the final delete): running or
 * waiting containers terminated by SIGTERM (exit 143, reason Error), the phase
 * Succeeded only if every container had exited 0, else Failed.
 */
export function killedStatus(pod: ApiObject, now: number): Obj {
  const t = rfc3339(now);
  const prev = obj(pod.status);
  const statuses = list(prev.containerStatuses).map((c): Obj => {
    const state = obj(c.state);
    if (isObject(state.terminated)) return c;
    const startedAt = str(obj(state.running).startedAt) || t;
    const container = list(obj(pod.spec).containers).find((x) => x.name === c.name) ?? { name: c.name, image: c.image };
    return { ...c, state: { terminated: terminatedState(pod, container, Number(c.restartCount ?? 0), SIGTERM_EXIT, startedAt, t) }, ready: false, started: false };
  });
  const allSucceeded = statuses.length > 0 && statuses.every((c) => obj(obj(c.state).terminated).exitCode === 0);
  const phase = allSucceeded ? 'Succeeded' : 'Failed';
  const status: Obj = { ...prev, phase, conditions: conditions(pod, phase, statuses, t) };
  if (statuses.length > 0) status.containerStatuses = statuses;
  return status;
}

/** The status a step writes (undefined for steps that write none). */
export function statusFor(step: Step, pod: ApiObject, at: Placement, now: number): Obj | undefined {
  switch (step.kind) {
    case 'start': {
      const started = startedStatus(pod, at, now);
      // a pod that exits at once goes straight to its end
      return exits(pod) && behaviourOf(pod).runSeconds === 0 ? exitedStatus({ ...pod, status: started }, at, now) : started;
    }
    case 'exit':
      return exitedStatus(pod, at, now);
    case 'restart':
      return restartedStatus(pod, at, now);
    case 'kill':
      return killedStatus(pod, now);
    case 'sync':
      return withCommon(pod, at, str(obj(pod.status).phase), list(obj(pod.status).containerStatuses), rfc3339(now));
    default:
      return undefined;
  }
}

/** The pod's address as its stored status says (a pod found running at start keeps it). */
export const podIPOf = (pod: ApiObject): string => str(obj(pod.status).podIP);
export const isHostNetwork = (pod: ApiObject): boolean => obj(pod.spec).hostNetwork === true;
