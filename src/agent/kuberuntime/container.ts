// A container → its CRI ContainerConfig (kube's generateContainerConfig):
// the resolved image, command/args with $(VAR) expanded from the
// environment, workingDir, env, mounts (volumes + the termination-message
// file, the pod's managed /etc/hosts), labels/annotations, the log path `<name>/<restartCount>.log`
// relative to the pod's log folder, stdin/tty, resources and the security
// context (runAsNonRoot checked against the image's user first).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ContainerConfig } from '../cri/types.js';
import { containerEnv, type EnvOptions } from './env.js';
import { ETC_HOSTS, etcHostsMount } from './etchosts.js';
import { expand, mappingFor } from './expansion.js';
import { containerAnnotations, containerLabels } from './labels.js';
import { terminationMessageMount, volumeMounts, type VolumeHostPath } from './mounts.js';
import { containerResources, type ContainerResourceOptions } from './resources.js';
import { podLogsDirectory, DEFAULT_POD_LOGS_ROOT } from './sandbox.js';
import { containerSecurityContext, verifyRunAsNonRoot, type SeccompOptions } from './security.js';
import type { Container, Pod } from './types.js';

/** The image's user as ImageStatus reports it: uid, or a user name; neither means root. */
export interface ImageUser {
  readonly uid?: number;
  readonly username: string;
}

export interface ContainerConfigOptions {
  readonly env: EnvOptions;
  readonly resources: ContainerResourceOptions;
  readonly seccomp: SeccompOptions;
  /** The volume manager's host paths by volume name. */
  readonly volumes: ReadonlyMap<string, VolumeHostPath>;
  /** `<root-dir>/pods`. */
  readonly podsDir: string;
  readonly podLogsRoot?: string;
  /** The pod's /etc/hosts (kube mounts its managed file once the pod has an IP). */
  readonly etcHosts?: { readonly clusterDomain: string; readonly podIPs: readonly string[]; readonly nodeHostsFile?: string };
}

/** `<name>/<restartCount>.log`. */
export const containerLogPath = (name: string, restartCount: number): string => join(name, `${restartCount}.log`);

/** The command and args with $(VAR) references expanded from the container's environment. */
export function expandCommandAndArgs(container: Container, env: readonly { name: string; value: string }[]): { command: string[]; args: string[] } {
  const mapping = mappingFor(new Map(env.map((e) => [e.name, e.value])));
  return {
    command: (container.command ?? []).map((c) => expand(c, mapping)),
    args: (container.args ?? []).map((a) => expand(a, mapping)),
  };
}

export async function containerConfig(pod: Pod, container: Container, args: { imageRef: string; restartCount: number; imageUser: ImageUser }, opts: ContainerConfigOptions): Promise<ContainerConfig> {
  // kube: a missing image user means root.
  const uid = args.imageUser.uid ?? (args.imageUser.username === '' ? 0 : undefined);
  verifyRunAsNonRoot(pod, container, uid, args.imageUser.username);
  const envs = await containerEnv(pod, container, opts.env);
  const { command, args: cargs } = expandCommandAndArgs(container, envs);
  const mounts = volumeMounts(pod, container, opts.volumes, envs);
  const logDir = join(podLogsDirectory(opts.podLogsRoot ?? DEFAULT_POD_LOGS_ROOT, pod), container.name);
  mkdirSync(logDir, { recursive: true, mode: 0o755 });
  const hosts = opts.etcHosts;
  if (hosts && hosts.podIPs.length > 0 && !(container.volumeMounts ?? []).some((m) => m.mountPath === ETC_HOSTS)) {
    mounts.push(etcHostsMount(opts.podsDir, pod, hosts.podIPs, hosts.clusterDomain, hosts.nodeHostsFile));
  }
  const tm = terminationMessageMount(opts.podsDir, pod, container);
  if (tm) mounts.push(tm);
  return {
    metadata: { name: container.name, attempt: args.restartCount },
    image: { image: args.imageRef },
    command,
    args: cargs,
    workingDir: container.workingDir ?? '',
    envs: envs.map((e) => ({ key: e.name, value: e.value })),
    mounts,
    labels: containerLabels(pod, container),
    annotations: containerAnnotations(pod, container, args.restartCount),
    logPath: containerLogPath(container.name, args.restartCount),
    stdin: container.stdin === true,
    stdinOnce: container.stdinOnce === true,
    tty: container.tty === true,
    linux: {
      resources: containerResources(pod, container, opts.resources),
      securityContext: containerSecurityContext(pod, container, { uid, username: args.imageUser.username }, opts.seccomp),
    },
  };
}
