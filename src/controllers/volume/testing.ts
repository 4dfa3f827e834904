// Claims, volumes and classes for the volume tests, by option.
import type { ApiObject } from '../../registry/object.js';

export interface ClaimOpts {
  readonly uid?: string;
  readonly cls?: string;
  readonly size?: string;
  readonly modes?: string[];
  readonly volumeName?: string;
  readonly annotations?: Record<string, string>;
  readonly selector?: Record<string, unknown>;
  readonly volumeMode?: string;
  readonly phase?: string;
}

export function testClaim(name: string, o: ClaimOpts = {}): ApiObject {
  return {
    apiVersion: 'v1', kind: 'PersistentVolumeClaim',
    metadata: { name, namespace: 'ns', uid: o.uid ?? `uid-${name}`, resourceVersion: '10', ...(o.annotations ? { annotations: o.annotations } : {}) },
    spec: {
      accessModes: o.modes ?? ['ReadWriteOnce'], resources: { requests: { storage: o.size ?? '1Gi' } },
      ...(o.cls !== undefined ? { storageClassName: o.cls } : {}), ...(o.volumeName ? { volumeName: o.volumeName } : {}),
      ...(o.selector ? { selector: o.selector } : {}), ...(o.volumeMode ? { volumeMode: o.volumeMode } : {}),
    },
    status: { phase: o.phase ?? 'Pending' },
  };
}

export interface VolumeOpts {
  readonly size?: string;
  readonly cls?: string;
  readonly modes?: string[];
  readonly phase?: string;
  readonly claim?: { name: string; uid?: string };
  readonly labels?: Record<string, string>;
  readonly host?: string;
  readonly policy?: string;
  readonly annotations?: Record<string, string>;
  readonly volumeMode?: string;
  readonly deleting?: boolean;
}

export function testVolume(name: string, o: VolumeOpts = {}): ApiObject {
  return {
    apiVersion: 'v1', kind: 'PersistentVolume',
    metadata: {
      name, uid: `uid-${name}`, resourceVersion: '5', ...(o.labels ? { labels: o.labels } : {}), ...(o.annotations ? { annotations: o.annotations } : {}),
      ...(o.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
    },
    spec: {
      capacity: { storage: o.size ?? '1Gi' }, accessModes: o.modes ?? ['ReadWriteOnce'], persistentVolumeReclaimPolicy: o.policy ?? 'Retain',
      ...(o.cls !== undefined ? { storageClassName: o.cls } : {}), ...(o.volumeMode ? { volumeMode: o.volumeMode } : {}),
      ...(o.claim ? { claimRef: { kind: 'PersistentVolumeClaim', namespace: 'ns', name: o.claim.name, ...(o.claim.uid !== undefined ? { uid: o.claim.uid } : {}) } } : {}),
      ...(o.host ? { nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [o.host] }] }] } } } : {}),
      hostPath: { path: `/srv/${name}` },
    },
    status: { phase: o.phase ?? 'Available' },
  };
}

export function testClass(name: string, o: { provisioner?: string; mode?: string; topologies?: unknown[]; isDefault?: boolean } = {}): ApiObject {
  return {
    apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass',
    metadata: { name, ...(o.isDefault ? { annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } } : {}) },
    provisioner: o.provisioner ?? 'example.com/csi', volumeBindingMode: o.mode ?? 'Immediate', reclaimPolicy: 'Delete',
    ...(o.topologies ? { allowedTopologies: o.topologies } : {}),
  };
}

export function testNodeObject(name: string, labels: Record<string, string> = {}): ApiObject {
  return { apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'kubernetes.io/hostname': name, ...labels } } };
}
