// Where container logs live, as the kubelet lays them out:
//
//   <root>/<namespace>_<pod name>_<pod uid>/            the sandbox's logDirectory
//          <container>/<restartCount>.log              a container's logPath (relative to it)
//          <container>/<restartCount>.log.<YYYYMMDD-hhmmss>[.gz]   rotated files
import { join } from 'node:path';

/** kube's default pod log root. */
export const DEFAULT_POD_LOGS_ROOT = '/var/log/pods';

export function podLogDirectory(root: string, namespace: string, name: string, uid: string): string {
  return join(root, `${namespace}_${name}_${uid}`);
}

/** The container's logPath relative to the pod's log directory (ContainerConfig.logPath). */
export function containerLogPath(container: string, restartCount: number): string {
  return join(container, `${restartCount}.log`);
}

export function containerLogFile(root: string, pod: { namespace: string; name: string; uid: string }, container: string, restartCount: number): string {
  return join(podLogDirectory(root, pod.namespace, pod.name, pod.uid), containerLogPath(container, restartCount));
}
