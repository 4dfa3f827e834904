// Which log a /containerLogs request reads, as the kubelet's
// validateContainerLogStatus and GetContainerLogs decide from the pod's status:
//
//   previous            lastState.terminated's container, or "previous terminated container … not found"
//   running             the current container
//   terminated          its container (or, when the next one never started, lastState's)
//   lastState only      lastState.terminated's container
//   waiting             "… is waiting to start: <reason>" (image pull reasons reworded as kube)
//   no status           "container … in pod … is not available"
//
// The container's CRI status gives the log path; a follow keeps going while
// the runtime reports the container RUNNING.
import type { RuntimeService } from '../cri/types.js';
import { isObject } from '../../registry/object.js';

export interface LocatedLog {
  readonly path: string;
  running(): Promise<boolean>;
}

/** No log for the request; the message is kube's (the server answers 400 with it). */
export class ContainerLogError extends Error {
  override readonly name = 'ContainerLogError';
}

type Obj = Record<string, unknown>;

export async function locateContainerLog(
  runtime: Pick<RuntimeService, 'containerStatus'>,
  pod: { readonly name: string; readonly status: unknown },
  container: string,
  previous: boolean,
): Promise<LocatedLog> {
  const id = containerIdFor(pod.name, pod.status, container, previous);
  const bare = id.replace(/^[^:]*:\/\//, '');
  let logPath: string;
  try {
    logPath = (await runtime.containerStatus(bare)).logPath;
  } catch {
    throw new ContainerLogError(`unable to retrieve container logs for ${id}`);
  }
  return {
    path: logPath,
    running: async () => {
      try {
        return (await runtime.containerStatus(bare)).state === 'CONTAINER_RUNNING';
      } catch {
        return false;
      }
    },
  };
}

/** kube's validateContainerLogStatus: the container ID (`<runtime>://<id>`) to read. */
export function containerIdFor(podName: string, podStatus: unknown, container: string, previous: boolean): string {
  const status = isObject(podStatus) ? podStatus : {};
  const find = (key: string): Obj | undefined => (Array.isArray(status[key]) ? (status[key] as unknown[]) : []).find((s): s is Obj => isObject(s) && s.name === container);
  const cs = find('containerStatuses') ?? find('initContainerStatuses') ?? find('ephemeralContainerStatuses');
  const what = `container "${container}" in pod "${podName}"`;
  if (!cs) throw new ContainerLogError(`${what} is not available`);
  const state = isObject(cs.state) ? cs.state : {};
  const last = isObject(cs.lastState) && isObject(cs.lastState.terminated) ? cs.lastState.terminated : undefined;
  const lastId = last && typeof last.containerID === 'string' ? last.containerID : '';
  const terminated = isObject(state.terminated) ? state.terminated : undefined;
  if (previous) {
    if (!lastId) throw new ContainerLogError(`previous terminated ${what} not found`);
    return lastId;
  }
  if (isObject(state.running)) return typeof cs.containerID === 'string' ? cs.containerID : '';
  if (terminated) {
    const tid = typeof terminated.containerID === 'string' ? terminated.containerID : '';
    if (tid) return tid;
    if (lastId) return lastId;
    throw new ContainerLogError(`${what} is terminated`);
  }
  if (last) {
    if (!lastId) throw new ContainerLogError(`${what} is terminated`);
    return lastId;
  }
  if (isObject(state.waiting)) {
    const reason = typeof state.waiting.reason === 'string' ? state.waiting.reason : '';
    if (reason === 'ErrImagePull') throw new ContainerLogError(`${what} is waiting to start: image can't be pulled`);
    if (reason === 'ImagePullBackOff') throw new ContainerLogError(`${what} is waiting to start: trying and failing to pull image`);
    throw new ContainerLogError(`${what} is waiting to start: ${reason}`);
  }
  throw new ContainerLogError(`${what} is waiting to start - no logs yet`);
}
