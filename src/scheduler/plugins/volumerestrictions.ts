// VolumeRestrictions: a ReadWriteOncePod claim already used by another pod
// keeps the pod off every node (PreFilter); on a node, the same GCE PD (unless
// both read-only), AWS EBS volume or iSCSI target cannot be mounted twice.
import type { ApiObject } from '../../registry/object.js';
import { isObject } from '../../registry/object.js';
import type { CycleState, Plugin } from '../framework.js';
import { unschedulable } from '../framework.js';
import { accessModes, podClaimNames, podVolumes, type VolumeListers } from '../volumes.js';
import type { Obj } from '../pods.js';

export const ERR_DISK_CONFLICT = 'node(s) had no available disk';
export const ERR_RWOP_CONFLICT = 'node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode';

function conflicts(a: Obj, b: Obj): boolean {
  if (isObject(a.gcePersistentDisk) && isObject(b.gcePersistentDisk)) {
    return a.gcePersistentDisk.pdName === b.gcePersistentDisk.pdName && !(a.gcePersistentDisk.readOnly === true && b.gcePersistentDisk.readOnly === true);
  }
  if (isObject(a.awsElasticBlockStore) && isObject(b.awsElasticBlockStore)) return a.awsElasticBlockStore.volumeID === b.awsElasticBlockStore.volumeID;
  if (isObject(a.iscsi) && isObject(b.iscsi)) return a.iscsi.iqn === b.iscsi.iqn && !(a.iscsi.readOnly === true && b.iscsi.readOnly === true);
  return false;
}

const KEY = 'VolumeRestrictions/checked';
const MINE = 'VolumeRestrictions/volumes';

const mayConflict = (v: Obj): boolean => isObject(v.gcePersistentDisk) || isObject(v.awsElasticBlockStore) || isObject(v.iscsi);

export function volumeRestrictions(listers: VolumeListers): Plugin {
  return {
    name: 'VolumeRestrictions',
    preFilter(state: CycleState, pod: ApiObject) {
      const ns = pod.metadata.namespace ?? '';
      const rwop = new Set(podClaimNames(pod).filter((n) => accessModes(listers.claim(ns, n) ?? { metadata: {} }).includes('ReadWriteOncePod')));
      state.write(KEY, true);
      if (rwop.size === 0) return undefined;
      for (const node of state.snapshot.nodes) {
        for (const { pod: other } of node.pods.values()) {
          if (other.metadata.namespace !== ns || other.metadata.uid === pod.metadata.uid) continue;
          if (podClaimNames(other).some((n) => rwop.has(n))) return unschedulable(ERR_RWOP_CONFLICT);
        }
      }
      return undefined;
    },
    filter(state, pod, node) {
      // only GCE PD, AWS EBS and iSCSI volumes can conflict on a node (kube's PreFilter skips the rest)
      let mine = state.read<Obj[]>(MINE);
      if (!mine) state.write(MINE, (mine = podVolumes(pod).filter(mayConflict)));
      if (mine.length === 0) return undefined;
      for (const { pod: other } of node.pods.values()) {
        for (const v of podVolumes(other)) if (mine.some((m) => conflicts(m, v))) return unschedulable(ERR_DISK_CONFLICT);
      }
      return undefined;
    },
  };
}
