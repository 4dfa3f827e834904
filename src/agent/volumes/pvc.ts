// persistentVolumeClaim (and generic ephemeral) volumes: the claim must be
// Bound, its volume's claimRef must point back at it, and the volume must be
// one this agent can use — hostPath (the type checked as for a pod's hostPath)
// or local (the path must exist). The host path is used as it is: nothing is
// mounted by the agent, nothing is removed at teardown. A volume the
// svc.io/local-path provisioner made gets its folder made here (0777, as
// rancher's local-path provisioner makes it) on first use.
// Resolution errors read as kube's desired-state populator words them.
import { chmod, mkdir, stat } from 'node:fs/promises';
import type { ApiObject } from '../../registry/object.js';
import type { AgentApi } from '../api.js';
import { goOsError, PluginError } from './errors.js';
import { checkHostPath } from './hostpath.js';
import { PVCS, PVS } from './sources.js';

export const LOCAL_PATH_PROVISIONER = 'svc.io/local-path';
const PROVISIONED_BY = 'pv.kubernetes.io/provisioned-by';

/** A claim or volume that cannot be used yet: the `process` stage of errors.ts. */
export class ClaimError extends Error {
  override readonly name = 'ClaimError';
}

export interface ClaimedVolume {
  readonly hostPath: string;
  readonly readOnly: boolean;
}

interface ClaimRef {
  claimName: string;
  readOnly?: boolean;
  /** A generic ephemeral volume: the claim must be owned by the pod. */
  ephemeral?: boolean;
}

export async function resolveClaim(api: AgentApi, pod: ApiObject, ref: ClaimRef): Promise<{ pv: ApiObject; readOnly: boolean }> {
  const ns = pod.metadata.namespace ?? '';
  const prefix = `error processing PVC ${ns}/${ref.claimName}: `;
  let pvc: ApiObject;
  try {
    pvc = await api.get(PVCS, ns, ref.claimName);
  } catch (err) {
    throw new ClaimError(`${prefix}failed to fetch PVC from API server: ${(err as Error).message}`);
  }
  if (ref.ephemeral && !(pvc.metadata.ownerReferences ?? []).some((o) => o.controller && o.uid === pod.metadata.uid)) {
    throw new ClaimError(`${prefix}PVC ${ns}/${ref.claimName} was not created for pod ${ns}/${pod.metadata.name} (pod is not owner)`);
  }
  if (pvc.metadata.deletionTimestamp) throw new ClaimError(`${prefix}PVC is being deleted`);
  if ((pvc.status as { phase?: string } | undefined)?.phase !== 'Bound') throw new ClaimError(`${prefix}PVC is not bound`);
  const volumeName = (pvc.spec as { volumeName?: string } | undefined)?.volumeName ?? '';
  if (!volumeName) throw new ClaimError(`${prefix}PVC has empty pvc.Spec.VolumeName`);
  let pv: ApiObject;
  try {
    pv = await api.get(PVS, '', volumeName);
  } catch (err) {
    throw new ClaimError(`${prefix}failed to fetch PV ${volumeName} from API server: ${(err as Error).message}`);
  }
  const claimRef = (pv.spec as { claimRef?: { uid?: string } } | undefined)?.claimRef;
  if (!claimRef) throw new ClaimError(`${prefix}found PV object ${volumeName} but it has a nil pv.Spec.ClaimRef indicating it is not yet bound to the claim`);
  if (claimRef.uid !== pvc.metadata.uid) {
    throw new ClaimError(`${prefix}found PV object ${volumeName} but its pv.Spec.ClaimRef.UID (${claimRef.uid ?? ''}) does not point to claim.UID (${pvc.metadata.uid ?? ''})`);
  }
  const spec = pv.spec as { hostPath?: unknown; local?: unknown; volumeMode?: string };
  if (spec.volumeMode === 'Block') throw new ClaimError(`${prefix}volume ${volumeName} has volumeMode Block, which svc agent does not support`);
  if (!spec.hostPath && !spec.local) throw new ClaimError(`${prefix}failed to get Plugin from volumeSpec for volume ${JSON.stringify(volumeName)} err=no volume plugin matched`);
  return { pv, readOnly: ref.readOnly === true };
}

/** Makes the volume's path ready (PluginError: the `setup` stage) and returns it. */
export async function setupClaimedVolume(pv: ApiObject, readOnly: boolean): Promise<ClaimedVolume> {
  const spec = pv.spec as { hostPath?: { path: string; type?: string }; local?: { path: string } };
  if (spec.hostPath) {
    const path = spec.hostPath.path;
    if (pv.metadata.annotations?.[PROVISIONED_BY] === LOCAL_PATH_PROVISIONER && !(await stat(path).catch(() => undefined))) {
      await mkdir(path, { recursive: true, mode: 0o777 });
      await chmod(path, 0o777);
    }
    await checkHostPath(path, spec.hostPath.type);
    return { hostPath: path, readOnly };
  }
  const path = spec.local!.path;
  try {
    await stat(path);
  } catch (err) {
    throw new PluginError(goOsError('stat', path, err));
  }
  return { hostPath: path, readOnly };
}
