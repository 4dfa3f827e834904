// What the default local-path provisioner makes (after rancher's
// local-path-provisioner, as k3s ships it): its StorageClass and, for a
// claim of that class whose pod the scheduler placed, a hostPath
// PersistentVolume on the selected node — a directory
// <baseDir>/<pv>_<namespace>_<claim> (DirectoryOrCreate), node affinity for
// that node's kubernetes.io/hostname, the claim's size, access modes and
// volume mode, the class's reclaim policy, pre-bound to the claim.
import type { ApiObject } from '../../registry/object.js';
import { isObject } from '../../registry/object.js';
import { ANN_DEFAULT_CLASS, ANN_PROVISIONED_BY } from './annotations.js';
import { accessModesOf, claimReference, specOf } from './match.js';

export const LOCAL_PATH_PROVISIONER = 'svc.io/local-path';
export const LOCAL_PATH_CLASS = 'local-path';
export const DEFAULT_BASE_DIR = '/var/lib/svc/storage';
const HOSTNAME_LABEL = 'kubernetes.io/hostname';

export function localPathClass(name: string, provisioner: string, markDefault: boolean): ApiObject {
  return {
    apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass',
    metadata: { name, ...(markDefault ? { annotations: { [ANN_DEFAULT_CLASS]: 'true' } } : {}) },
    provisioner, reclaimPolicy: 'Delete', volumeBindingMode: 'WaitForFirstConsumer',
  };
}

/** The external provisioners' volume name: pvc-<claim uid>. */
export const volumeNameFor = (claim: ApiObject): string => `pvc-${claim.metadata.uid ?? ''}`;

/** Why the local-path provisioner refuses a claim (rancher's texts), or undefined. */
export function unsupported(claim: ApiObject): string | undefined {
  if (isObject(specOf(claim).selector)) return 'claim.Spec.Selector is not supported';
  if (accessModesOf(claim).some((m) => m !== 'ReadWriteOnce' && m !== 'ReadWriteOncePod')) return 'Only support ReadWriteOnce access mode';
  return undefined;
}

export interface VolumeInput {
  readonly claim: ApiObject;
  readonly storageClass: ApiObject;
  readonly node: ApiObject;
  readonly baseDir: string;
  readonly provisioner: string;
}

export function localPathVolume(i: VolumeInput): ApiObject {
  const name = volumeNameFor(i.claim);
  const spec = specOf(i.claim);
  const requests = isObject(spec.resources) && isObject(spec.resources.requests) ? spec.resources.requests : {};
  const hostname = i.node.metadata.labels?.[HOSTNAME_LABEL] ?? i.node.metadata.name!;
  const cls = i.storageClass as ApiObject & { reclaimPolicy?: string; mountOptions?: string[] };
  return {
    apiVersion: 'v1', kind: 'PersistentVolume',
    metadata: { name, annotations: { [ANN_PROVISIONED_BY]: i.provisioner } },
    spec: {
      capacity: { storage: requests.storage ?? '0' },
      accessModes: accessModesOf(i.claim),
      persistentVolumeReclaimPolicy: cls.reclaimPolicy ?? 'Delete',
      storageClassName: cls.metadata.name,
      volumeMode: typeof spec.volumeMode === 'string' ? spec.volumeMode : 'Filesystem',
      ...(Array.isArray(cls.mountOptions) && cls.mountOptions.length > 0 ? { mountOptions: cls.mountOptions } : {}),
      claimRef: claimReference(i.claim),
      hostPath: { path: `${i.baseDir.replace(/\/+$/, '')}/${name}_${i.claim.metadata.namespace}_${i.claim.metadata.name}`, type: 'DirectoryOrCreate' },
      nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: HOSTNAME_LABEL, operator: 'In', values: [hostname] }] }] } },
    },
  };
}
