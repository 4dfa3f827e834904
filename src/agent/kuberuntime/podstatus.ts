// A pod's state as the runtime has it (kube's GetPodStatus): its sandboxes and
// containers found by kube's pod-uid label, newest first, each container's
// status read back from CRI with what the kubelet stored in its labels and
// annotations (name, hash, restart count), and for exited containers the
// termination message — the file mounted at terminationMessagePath, or with
// FallbackToLogsOnError and a failure the last lines of the log.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { ContainerState, PodSandboxStatus, RuntimeService } from '../cri/types.js';
import { CriError } from '../cri/types.js';
import { containerInfo, POD_UID_LABEL } from './labels.js';

/** kube's MaxContainerTerminationMessageLength. */
export const MAX_TERMINATION_MESSAGE_LENGTH = 4096;
export const MAX_TERMINATION_MESSAGE_LOG_LENGTH = 2048;
export const MAX_TERMINATION_MESSAGE_LOG_LINES = 80;

export type RuntimeContainerState = 'created' | 'running' | 'exited' | 'unknown';

/** kube's kubecontainer.Status: one container instance as the runtime reports it. */
export interface RuntimeContainerStatus {
  /** The CRI id. */
  readonly id: string;
  /** `containerd://<id>`. */
  readonly containerID: string;
  readonly name: string;
  readonly state: RuntimeContainerState;
  /** Milliseconds since the epoch (0: not yet). */
  readonly createdAt: number;
  readonly startedAt: number;
  readonly finishedAt: number;
  readonly exitCode: number;
  readonly image: string;
  readonly imageID: string;
  readonly hash: string;
  readonly restartCount: number;
  readonly reason: string;
  readonly message: string;
  readonly podSandboxId?: string;
}

/** kube's kubecontainer.PodStatus. */
export interface RuntimePodStatus {
  readonly uid: string;
  readonly name: string;
  readonly namespace: string;
  readonly ips: readonly string[];
  /** Newest first. */
  readonly sandboxes: readonly PodSandboxStatus[];
  /** Newest first. */
  readonly containers: readonly RuntimeContainerStatus[];
}

const STATES: Record<ContainerState, RuntimeContainerState> = {
  CONTAINER_CREATED: 'created',
  CONTAINER_RUNNING: 'running',
  CONTAINER_EXITED: 'exited',
  CONTAINER_UNKNOWN: 'unknown',
};

const ms = (ns: number): number => Math.floor(ns / 1e6);

/** The latest instance of a container by name. */
export const findContainer = (status: RuntimePodStatus, name: string): RuntimeContainerStatus | undefined =>
  status.containers.find((c) => c.name === name);

/** The last `max` bytes of a file. */
function readTail(path: string, max: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const len = Math.min(size, max);
    const buf = Buffer.alloc(len);
    readSync(fd, buf, 0, len, size - len);
    return buf;
  } finally {
    closeSync(fd);
  }
}

/** The text of the last lines of a CRI log file (`<time> <stream> <P|F> <text>`), partial lines joined (kube's readLastStringFromContainerLogs). */
export function lastLogText(path: string): string {
  let raw: string;
  try {
    raw = readTail(path, 1 << 20).toString('utf8');
  } catch {
    return '';
  }
  const lines: string[] = [];
  let partial = '';
  for (const line of raw.split('\n')) {
    const m = /^\S+ (stdout|stderr) ([PF]) (.*)$/.exec(line);
    if (!m) continue;
    partial += m[3];
    if (m[2] === 'F') {
      lines.push(`${partial}\n`);
      partial = '';
    }
  }
  const text = lines.slice(-MAX_TERMINATION_MESSAGE_LOG_LINES).join('');
  const bytes = Buffer.from(text, 'utf8');
  return bytes.length > MAX_TERMINATION_MESSAGE_LOG_LENGTH ? bytes.subarray(bytes.length - MAX_TERMINATION_MESSAGE_LOG_LENGTH).toString('utf8') : text;
}

/** kube's getTerminationMessage: the message and whether to read the logs instead. */
export function terminationMessage(mounts: readonly { containerPath: string; hostPath: string }[], path: string, fallbackToLogs: boolean): { message: string; checkLogs: boolean } {
  if (path === '') return { message: '', checkLogs: fallbackToLogs };
  const mount = mounts.find((m) => m.containerPath === path);
  if (!mount) return { message: '', checkLogs: fallbackToLogs };
  try {
    const data = readTail(mount.hostPath, MAX_TERMINATION_MESSAGE_LENGTH).toString('utf8');
    return { message: data, checkLogs: fallbackToLogs && data.length === 0 };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { message: '', checkLogs: fallbackToLogs };
    return { message: `Error on reading termination log ${mount.hostPath}: ${(err as Error).message}`, checkLogs: false };
  }
}

const ignoreNotFound = <T>(p: Promise<T>): Promise<T | undefined> =>
  p.catch((err: unknown) => {
    if (err instanceof CriError && err.notFound) return undefined;
    throw err;
  });

/** The statuses of every container of the pod uid, newest first (kube's getPodContainerStatuses). */
export async function podContainerStatuses(runtime: RuntimeService, uid: string, runtimeName = 'containerd'): Promise<RuntimeContainerStatus[]> {
  const list = await runtime.listContainers({ labelSelector: { [POD_UID_LABEL]: uid } });
  // the statuses asked for together: one round trip to the runtime, not one per container
  const statuses = await Promise.all(list.map((c) => ignoreNotFound(runtime.containerStatus(c.id))));
  const out: (RuntimeContainerStatus & { createdNs: number })[] = [];
  for (const [i, c] of list.entries()) {
    const s = statuses[i];
    if (!s) continue;
    const info = containerInfo(s.labels, s.annotations);
    const state = STATES[s.state] ?? 'unknown';
    let message = state === 'exited' ? s.message : '';
    if (state === 'exited') {
      const fallback = info.terminationMessagePolicy === 'FallbackToLogsOnError' && s.exitCode !== 0 && s.reason !== 'ContainerCannotRun';
      let { message: tm, checkLogs } = terminationMessage(s.mounts, info.terminationMessagePath, fallback);
      if (checkLogs) tm = lastLogText(s.logPath);
      if (tm !== '') message = message === '' ? tm : `${message}: ${tm}`;
    }
    out.push({
      id: s.id,
      containerID: `${runtimeName}://${s.id}`,
      name: info.containerName || s.metadata.name,
      state,
      createdAt: ms(s.createdAt),
      startedAt: state === 'created' ? 0 : ms(s.startedAt),
      finishedAt: state === 'exited' ? ms(s.finishedAt) : 0,
      exitCode: state === 'exited' ? s.exitCode : 0,
      image: s.image.image,
      imageID: s.imageRef,
      hash: info.hash,
      restartCount: s.annotations['io.kubernetes.container.restartCount'] !== undefined ? info.restartCount : s.metadata.attempt,
      reason: state === 'exited' ? s.reason : '',
      message,
      podSandboxId: c.podSandboxId,
      createdNs: s.createdAt,
    });
  }
  return out.sort((a, b) => b.createdNs - a.createdNs).map(({ createdNs: _ns, ...s }) => s);
}

/** kube's GetPodStatus. */
export async function podStatus(runtime: RuntimeService, pod: { uid: string; name: string; namespace: string }, runtimeName = 'containerd'): Promise<RuntimePodStatus> {
  // sandboxes and containers asked for together (kube asks one after the other; the answers are the same)
  const [sandboxes, containers] = await Promise.all([
    runtime.listPodSandbox({ labelSelector: { [POD_UID_LABEL]: pod.uid } }).then(async (list) => {
      const sorted = [...list].sort((a, b) => b.createdAt - a.createdAt);
      return { sorted, statuses: await Promise.all(sorted.map((sb) => ignoreNotFound(runtime.podSandboxStatus(sb.id)))) };
    }),
    podContainerStatuses(runtime, pod.uid, runtimeName),
  ]);
  const statuses: PodSandboxStatus[] = [];
  let ips: string[] = [];
  for (const [i, s] of sandboxes.statuses.entries()) {
    if (!s) continue;
    statuses.push(s);
    if (i === 0 && s.state === 'SANDBOX_READY' && s.network?.ip) ips = [s.network.ip, ...(s.network.additionalIps ?? []).map((x) => x.ip)];
  }
  return { uid: pod.uid, name: pod.name, namespace: pod.namespace, ips, sandboxes: statuses, containers };
}
