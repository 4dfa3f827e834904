// What the volumes read from a pod spec: its volumes, security context
// (fsGroup, fsGroupChangePolicy, the file owner of projected tokens) and service account.
import type { ApiObject } from '../../registry/object.js';

export interface VolumeSpec {
  name: string;
  [source: string]: unknown;
}

interface SecurityContext {
  runAsUser?: number;
  fsGroup?: number;
  fsGroupChangePolicy?: string;
}

interface Spec {
  volumes?: VolumeSpec[];
  securityContext?: SecurityContext;
  serviceAccountName?: string;
  containers?: { securityContext?: SecurityContext }[];
  initContainers?: { securityContext?: SecurityContext }[];
}

export function specOf(pod: ApiObject): Spec {
  return (pod.spec ?? {}) as Spec;
}

export function podVolumes(pod: ApiObject): VolumeSpec[] {
  return specOf(pod).volumes ?? [];
}

export function fsGroupOf(pod: ApiObject): { fsGroup?: number; changePolicy?: string } {
  const sc = specOf(pod).securityContext ?? {};
  return { ...(typeof sc.fsGroup === 'number' ? { fsGroup: sc.fsGroup } : {}), ...(sc.fsGroupChangePolicy ? { changePolicy: sc.fsGroupChangePolicy } : {}) };
}

/** kube's FsUserFrom: the one runAsUser every (init) container runs as, else undefined. */
export function fsUserOf(pod: ApiObject): number | undefined {
  const spec = specOf(pod);
  const podUser = spec.securityContext?.runAsUser;
  let user: number | undefined;
  for (const c of [...(spec.initContainers ?? []), ...(spec.containers ?? [])]) {
    const u = c.securityContext?.runAsUser ?? podUser;
    if (u === undefined || (user !== undefined && u !== user)) return undefined;
    user = u;
  }
  return user;
}

export function serviceAccountOf(pod: ApiObject): string {
  return specOf(pod).serviceAccountName || 'default';
}
