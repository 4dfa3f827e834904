// Where a pod's volumes live on the host, as the kubelet lays them out:
// <rootDir>/pods/<uid>/volumes/<plugin>/<volume>, with kube's plugin folder
// names ("kubernetes.io/empty-dir" escaped for disk as "kubernetes.io~empty-dir")
// so tools that look there find them.
import { join } from 'node:path';

/** The plugins that keep a folder per volume under the pod's folder. */
export const PLUGIN_DIRS = {
  emptyDir: 'kubernetes.io~empty-dir',
  configMap: 'kubernetes.io~configmap',
  secret: 'kubernetes.io~secret',
  downwardAPI: 'kubernetes.io~downward-api',
  projected: 'kubernetes.io~projected',
} as const;

export type FolderPlugin = keyof typeof PLUGIN_DIRS;

export function podDir(rootDir: string, podUid: string): string {
  return join(rootDir, 'pods', podUid);
}

export function podVolumesDir(rootDir: string, podUid: string): string {
  return join(podDir(rootDir, podUid), 'volumes');
}

export function volumeDir(rootDir: string, podUid: string, plugin: FolderPlugin, volume: string): string {
  return join(podVolumesDir(rootDir, podUid), PLUGIN_DIRS[plugin], volume);
}
