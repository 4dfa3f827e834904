// A container's CRI security context (kube's determineEffectiveSecurityContext):
// the container's securityContext over the pod's, seccomp (container, then pod,
// then RuntimeDefault with --seccomp-default, else Unconfined), the image's
// user when none is set, groups, noNewPrivs from allowPrivilegeEscalation,
// the default masked and read-only /proc paths unless procMount is Unmasked
// (the runtime drops them for privileged containers). runAsNonRoot is checked
// against the user the container will run as.
import { join } from 'node:path';
import type { LinuxContainerSecurityContext, SecurityProfile } from '../cri/types.js';
import { ContainerConfigError } from './env.js';
import { namespacesForPod } from './sandbox.js';
import { formatPod, type Container, type Pod, type SeccompProfile, type SecurityContext } from './types.js';

export const DEFAULT_MASKED_PATHS = [
  '/proc/asound', '/proc/acpi', '/proc/kcore', '/proc/keys', '/proc/latency_stats', '/proc/timer_list',
  '/proc/timer_stats', '/proc/sched_debug', '/proc/scsi', '/sys/firmware',
];
export const DEFAULT_READONLY_PATHS = ['/proc/bus', '/proc/fs', '/proc/irq', '/proc/sys', '/proc/sysrq-trigger'];

/** The container's securityContext with the pod's runAsUser, runAsGroup, runAsNonRoot and seLinuxOptions filled in. */
export function effectiveSecurityContext(pod: Pod, container: Container): SecurityContext {
  const c = container.securityContext ?? {};
  const p = pod.spec.securityContext ?? {};
  return {
    ...c,
    ...(c.seLinuxOptions === undefined && p.seLinuxOptions !== undefined ? { seLinuxOptions: p.seLinuxOptions } : {}),
    ...(c.runAsUser === undefined && p.runAsUser !== undefined ? { runAsUser: p.runAsUser } : {}),
    ...(c.runAsGroup === undefined && p.runAsGroup !== undefined ? { runAsGroup: p.runAsGroup } : {}),
    ...(c.runAsNonRoot === undefined && p.runAsNonRoot !== undefined ? { runAsNonRoot: p.runAsNonRoot } : {}),
  };
}

/** kube's verifyRunAsNonRoot: `uid` and `username` are the image's user (uid 0 when the image names none). */
export function verifyRunAsNonRoot(pod: Pod, container: Container, uid: number | undefined, username: string): void {
  const sc = effectiveSecurityContext(pod, container);
  if (sc.runAsNonRoot !== true) return;
  if (sc.runAsUser !== undefined) {
    if (sc.runAsUser === 0) throw new ContainerConfigError(`container's runAsUser breaks non-root policy (pod: "${formatPod(pod)}", container: ${container.name})`);
    return;
  }
  if (uid === 0) throw new ContainerConfigError(`container has runAsNonRoot and image will run as root (pod: "${formatPod(pod)}", container: ${container.name})`);
  if (uid === undefined && username !== '') {
    throw new ContainerConfigError(`container has runAsNonRoot and image has non-numeric user (${username}), cannot verify user is non-root (pod: "${formatPod(pod)}", container: ${container.name})`);
  }
}

export interface SeccompOptions {
  /** --seccomp-default (SeccompDefault). */
  readonly seccompDefault: boolean;
  /** Where Localhost profiles live (`<root-dir>/seccomp`). */
  readonly seccompProfileRoot: string;
}

function profile(p: SeccompProfile, root: string): SecurityProfile {
  if (p.type === 'Localhost') return { profileType: 'Localhost', localhostRef: join(root, p.localhostProfile ?? '') };
  return { profileType: p.type };
}

export function seccompProfile(pod: Pod, container: Container, opts: SeccompOptions): SecurityProfile {
  const p = container.securityContext?.seccompProfile ?? pod.spec.securityContext?.seccompProfile;
  if (p) return profile(p, opts.seccompProfileRoot);
  return { profileType: opts.seccompDefault ? 'RuntimeDefault' : 'Unconfined' };
}

export function containerSecurityContext(pod: Pod, container: Container, image: { uid?: number; username: string }, opts: SeccompOptions): LinuxContainerSecurityContext {
  const sc = effectiveSecurityContext(pod, container);
  const unmasked = sc.procMount === 'Unmasked';
  const groups: number[] = [];
  const psc = pod.spec.securityContext;
  if (psc?.fsGroup !== undefined) groups.push(psc.fsGroup);
  for (const g of psc?.supplementalGroups ?? []) groups.push(g);
  const runAsUser = sc.runAsUser ?? image.uid;
  return {
    ...(sc.capabilities ? { capabilities: { addCapabilities: [...(sc.capabilities.add ?? [])], dropCapabilities: [...(sc.capabilities.drop ?? [])] } } : {}),
    privileged: sc.privileged === true,
    namespaceOptions: namespacesForPod(pod),
    ...(sc.seLinuxOptions ? { selinuxOptions: { ...sc.seLinuxOptions } } : {}),
    ...(runAsUser !== undefined ? { runAsUser: { value: runAsUser } } : {}),
    ...(sc.runAsUser === undefined && image.uid === undefined && image.username !== '' ? { runAsUsername: image.username } : {}),
    ...(sc.runAsGroup !== undefined ? { runAsGroup: { value: sc.runAsGroup } } : {}),
    readonlyRootfs: sc.readOnlyRootFilesystem === true,
    ...(groups.length > 0 ? { supplementalGroups: groups } : {}),
    noNewPrivs: sc.allowPrivilegeEscalation === false,
    maskedPaths: unmasked ? [] : [...DEFAULT_MASKED_PATHS],
    readonlyPaths: unmasked ? [] : [...DEFAULT_READONLY_PATHS],
    seccomp: seccompProfile(pod, container, opts),
  };
}
