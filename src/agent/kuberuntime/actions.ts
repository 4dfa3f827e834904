// What one sync of a pod must do (kube's computePodActions):
//
//   sandbox missing / not ready / several ready / network mode changed / no IP
//     → kill the pod and create a sandbox (attempt+1), unless the pod is done
//       (restartPolicy Never after a first try, or nothing left to start);
//       the first init container, or every container to (re)start
//   init containers not done → the next one in order (a failed one again
//     unless restartPolicy Never, which kills the pod); nothing else
//   each container: not running → start it if the restart policy says so;
//     running but its spec hash changed, or liveness/startup failed → kill,
//     and start again (always for a changed spec; per policy otherwise)
//   nothing running and nothing to start → kill the pod
import type { PodSandboxStatus } from '../cri/types.js';
import { hashContainer } from './labels.js';
import { findContainer, type RuntimeContainerStatus, type RuntimePodStatus } from './podstatus.js';
import type { Container, Pod } from './types.js';

export type KillReason = 'StartupProbe' | 'LivenessProbe' | 'FailedPostStartHook' | 'Unknown';

export interface ContainerToKill {
  readonly name: string;
  readonly container: Container;
  readonly message: string;
  readonly reason: KillReason;
}

export interface PodActions {
  killPod: boolean;
  createSandbox: boolean;
  sandboxId: string;
  attempt: number;
  nextInitContainer?: Container;
  /** Indexes into spec.containers. */
  containersToStart: number[];
  /** By CRI container id. */
  containersToKill: Map<string, ContainerToKill>;
}

/**
 * The prober's cached results by status containerID (`containerd://…`); undefined when none is known. The prober
 * manager (src/agent/probes) has this shape.
 */
export interface ProbeResults {
  result(kind: 'liveness' | 'startup', containerId: string): 'Success' | 'Failure' | 'Unknown' | undefined;
}

const NO_PROBES: ProbeResults = { result: () => undefined };

export const shouldRestartOnFailure = (pod: Pod): boolean => (pod.spec.restartPolicy ?? 'Always') !== 'Never';

/** kube's PodSandboxChanged: whether a new sandbox is needed, its attempt, and the current sandbox's id. */
export function sandboxChanged(pod: Pod, status: RuntimePodStatus): { changed: boolean; attempt: number; sandboxId: string } {
  if (status.sandboxes.length === 0) return { changed: true, attempt: 0, sandboxId: '' };
  const ready = status.sandboxes.filter((s) => s.state === 'SANDBOX_READY').length;
  const s: PodSandboxStatus = status.sandboxes[0];
  const next = s.metadata.attempt + 1;
  if (ready > 1 || s.state !== 'SANDBOX_READY') return { changed: true, attempt: next, sandboxId: s.id };
  const network = s.linux?.namespaces?.options?.network ?? 'POD';
  if (network !== (pod.spec.hostNetwork ? 'NODE' : 'POD')) return { changed: true, attempt: next, sandboxId: '' };
  if (!pod.spec.hostNetwork && s.network !== undefined && s.network.ip === '') return { changed: true, attempt: next, sandboxId: s.id };
  return { changed: false, attempt: s.metadata.attempt, sandboxId: s.id };
}

export const isInitContainerFailed = (s: RuntimeContainerStatus): boolean =>
  s.reason === 'OOMKilled' || (s.state === 'exited' && s.exitCode !== 0) || s.state === 'unknown';

/** kube's findNextInitContainerToRun: the last failed one's status, the next to run, and whether all are done. */
export function nextInitContainer(pod: Pod, status: RuntimePodStatus): { last?: RuntimeContainerStatus; next?: Container; done: boolean } {
  const inits = pod.spec.initContainers ?? [];
  if (inits.length === 0) return { done: true };
  for (const c of pod.spec.containers) if (findContainer(status, c.name)?.state === 'running') return { done: true };
  for (let i = inits.length - 1; i >= 0; i--) {
    const s = findContainer(status, inits[i].name);
    if (s && isInitContainerFailed(s)) return { last: s, next: inits[i], done: false };
  }
  for (let i = inits.length - 1; i >= 0; i--) {
    const s = findContainer(status, inits[i].name);
    if (!s) continue;
    if (s.state === 'running') return { done: false };
    if (s.state === 'exited') return i === inits.length - 1 ? { done: true } : { next: inits[i + 1], done: false };
  }
  return { next: inits[0], done: false };
}

/** kube's ShouldContainerBeRestarted. */
export function shouldContainerBeRestarted(container: Container, pod: Pod, status: RuntimePodStatus): boolean {
  if (pod.metadata.deletionTimestamp) return false;
  const s = findContainer(status, container.name);
  if (!s) return true;
  if (s.state === 'running') return false;
  if (s.state === 'unknown' || s.state === 'created') return true;
  const policy = pod.spec.restartPolicy ?? 'Always';
  if (policy === 'Never') return false;
  if (policy === 'OnFailure' && s.exitCode === 0) return false;
  return true;
}

function containerSucceeded(c: Container, status: RuntimePodStatus): boolean {
  const s = findContainer(status, c.name);
  return !!s && s.state !== 'running' && s.exitCode === 0;
}

export function computePodActions(pod: Pod, status: RuntimePodStatus, probes: ProbeResults = NO_PROBES): PodActions {
  const sb = sandboxChanged(pod, status);
  const actions: PodActions = {
    killPod: sb.changed,
    createSandbox: sb.changed,
    sandboxId: sb.sandboxId,
    attempt: sb.attempt,
    containersToStart: [],
    containersToKill: new Map(),
  };
  if (sb.changed) {
    if (!shouldRestartOnFailure(pod) && sb.attempt !== 0 && status.containers.length !== 0) {
      actions.createSandbox = false;
      return actions;
    }
    const toStart: number[] = [];
    pod.spec.containers.forEach((c, i) => {
      if (pod.spec.restartPolicy === 'OnFailure' && containerSucceeded(c, status)) return;
      toStart.push(i);
    });
    if (toStart.length === 0 && nextInitContainer(pod, status).done) {
      actions.createSandbox = false;
      return actions;
    }
    const inits = pod.spec.initContainers ?? [];
    if (inits.length > 0) {
      actions.nextInitContainer = inits[0];
      return actions;
    }
    actions.containersToStart = toStart;
    return actions;
  }

  const init = nextInitContainer(pod, status);
  if (!init.done) {
    if (init.next) {
      const failed = init.last !== undefined && isInitContainerFailed(init.last);
      if (failed && !shouldRestartOnFailure(pod)) actions.killPod = true;
      else {
        if (init.last?.state === 'unknown') {
          actions.containersToKill.set(init.last.id, {
            name: init.next.name, container: init.next, reason: 'Unknown',
            message: `Init container is in "${init.last.state}" state, try killing it before restart`,
          });
        }
        actions.nextInitContainer = init.next;
      }
    }
    return actions;
  }

  let keep = 0;
  pod.spec.containers.forEach((c, idx) => {
    const s = findContainer(status, c.name);
    if (!s || s.state !== 'running') {
      if (shouldContainerBeRestarted(c, pod, status)) {
        actions.containersToStart.push(idx);
        if (s?.state === 'unknown') {
          actions.containersToKill.set(s.id, { name: s.name, container: c, reason: 'Unknown', message: `Container is in "${s.state}" state, try killing it before restart` });
        }
      }
      return;
    }
    let message: string;
    let reason: KillReason = 'Unknown';
    let restart = shouldRestartOnFailure(pod);
    if (s.hash !== hashContainer(c)) {
      message = `Container ${c.name} definition changed`;
      restart = true;
    } else if (probes.result('liveness', s.containerID) === 'Failure') {
      message = `Container ${c.name} failed liveness probe`;
      reason = 'LivenessProbe';
    } else if (probes.result('startup', s.containerID) === 'Failure') {
      message = `Container ${c.name} failed startup probe`;
      reason = 'StartupProbe';
    } else {
      keep++;
      return;
    }
    if (restart) {
      message = `${message}, will be restarted`;
      actions.containersToStart.push(idx);
    }
    actions.containersToKill.set(s.id, { name: s.name, container: c, message, reason });
  });
  if (keep === 0 && actions.containersToStart.length === 0) actions.killPod = true;
  return actions;
}
