// A container's mounts (kube's makeMounts and the termination-message file):
// each volumeMount from the host path the volume manager prepared, with
// subPath/subPathExpr (kept inside the volume, created when missing),
// read-only when the mount or the volume says so, and mount propagation
// (Bidirectional only for privileged containers). The termination-message
// file is a fresh file in the pod's container folder
// (`<pods-dir>/<uid>/containers/<name>/<random>`) mounted at
// terminationMessagePath.
import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { isAbsolute, join, normalize, relative } from 'node:path';
import type { Mount, MountPropagation } from '../cri/types.js';
import { ContainerConfigError } from './env.js';
import { expand, mappingFor } from './expansion.js';
import type { Container, Pod } from './types.js';

/** A volume as the volume manager hands it over. */
export interface VolumeHostPath {
  readonly hostPath: string;
  readonly readOnly?: boolean;
}

function propagation(container: Container, mode: string | undefined): MountPropagation {
  switch (mode) {
    case undefined:
    case 'None':
      return 'PROPAGATION_PRIVATE';
    case 'HostToContainer':
      return 'PROPAGATION_HOST_TO_CONTAINER';
    case 'Bidirectional':
      if (container.securityContext?.privileged !== true) throw new ContainerConfigError('Bidirectional mount propagation is available only to privileged containers');
      return 'PROPAGATION_BIDIRECTIONAL';
    default:
      throw new ContainerConfigError(`invalid MountPropagation mode: ${mode}`);
  }
}

/** The host path of a subPath inside a volume; refuses paths that leave it. */
function subPathOf(volumePath: string, sub: string): string {
  if (isAbsolute(sub)) throw new ContainerConfigError(`subpath "${sub}" must be a relative path`);
  const rel = relative(volumePath, join(volumePath, normalize(sub)));
  if (rel.startsWith('..')) throw new ContainerConfigError(`subpath "${sub}" must not contain '..'`);
  return join(volumePath, rel);
}

export function volumeMounts(pod: Pod, container: Container, volumes: ReadonlyMap<string, VolumeHostPath>, env: readonly { name: string; value: string }[]): Mount[] {
  const out: Mount[] = [];
  const vars = new Map(env.map((e) => [e.name, e.value]));
  for (const m of container.volumeMounts ?? []) {
    const vol = volumes.get(m.name);
    if (!vol) throw new ContainerConfigError(`cannot find volume "${m.name}" to mount into container "${container.name}"`);
    let hostPath = vol.hostPath;
    let sub = m.subPath ?? '';
    if (m.subPathExpr) sub = expand(m.subPathExpr, mappingFor(vars));
    if (sub !== '') {
      hostPath = subPathOf(vol.hostPath, sub);
      if (!existsSync(hostPath)) mkdirSync(hostPath, { recursive: true, mode: 0o750 });
    }
    out.push({
      containerPath: m.mountPath,
      hostPath,
      readonly: m.readOnly === true || vol.readOnly === true,
      selinuxRelabel: false,
      propagation: propagation(container, m.mountPropagation),
    });
  }
  return out;
}

/** `<podsDir>/<uid>/containers/<name>`: the pod's container folder (termination-message files). */
export const podContainerDir = (podsDir: string, pod: Pod, container: Container): string =>
  join(podsDir, pod.metadata.uid, 'containers', container.name);

/** Makes the termination-message file and returns its mount (none without terminationMessagePath). */
export function terminationMessageMount(podsDir: string, pod: Pod, container: Container): Mount | undefined {
  const path = container.terminationMessagePath ?? '/dev/termination-log';
  if (path === '') return undefined;
  const dir = podContainerDir(podsDir, pod, container);
  mkdirSync(dir, { recursive: true, mode: 0o750 });
  const file = join(dir, randomBytes(4).toString('hex'));
  closeSync(openSync(file, 'w'));
  chmodSync(file, 0o666);
  return { containerPath: path, hostPath: file, readonly: false, selinuxRelabel: false };
}
