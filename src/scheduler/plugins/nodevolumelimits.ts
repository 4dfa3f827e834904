// NodeVolumeLimits (kube's CSILimits): the CSI volumes a node's pods use,
// counted per driver by volume handle, may not exceed what the node's CSINode
// says the driver can attach (spec.drivers[].allocatable.count). A bound
// claim counts by its PersistentVolume's csi volumeHandle; an unbound one by
// its class's provisioner, as a new volume.
import type { ApiObject } from '../../registry/object.js';
import { isObject } from '../../registry/object.js';
import type { Plugin } from '../framework.js';
import { unschedulable } from '../framework.js';
import { claimClassName, claimSpec, podClaimNames, type VolumeListers } from '../volumes.js';

export const ERR_MAX_VOLUME_COUNT = 'node(s) exceed max volume count';

export interface CSINodes {
  csiNode(name: string): ApiObject | undefined;
}

/** driver → the volume handles the pod uses. */
function attachable(pod: ApiObject, listers: VolumeListers): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const ns = pod.metadata.namespace ?? '';
  const put = (driver: string, handle: string) => {
    let s = out.get(driver);
    if (!s) out.set(driver, (s = new Set()));
    s.add(handle);
  };
  for (const name of podClaimNames(pod)) {
    const claim = listers.claim(ns, name);
    if (!claim) continue;
    const volumeName = claimSpec(claim).volumeName;
    if (typeof volumeName === 'string' && volumeName !== '') {
      const pv = listers.volume(volumeName);
      const csi = pv && isObject(pv.spec) && isObject(pv.spec.csi) ? pv.spec.csi : undefined;
      if (csi && typeof csi.driver === 'string') put(csi.driver, String(csi.volumeHandle ?? volumeName));
      continue;
    }
    const provisioner = listers.storageClass(claimClassName(claim))?.provisioner;
    if (typeof provisioner === 'string' && provisioner !== '') put(provisioner, `${ns}/${name}`);
  }
  return out;
}

function limits(node: string, csi: CSINodes): Map<string, number> {
  const out = new Map<string, number>();
  const cn = csi.csiNode(node);
  const drivers = cn && isObject(cn.spec) && Array.isArray(cn.spec.drivers) ? cn.spec.drivers.filter(isObject) : [];
  for (const d of drivers) {
    const count = isObject(d.allocatable) ? d.allocatable.count : undefined;
    if (typeof d.name === 'string' && typeof count === 'number') out.set(d.name, count);
  }
  return out;
}

export function nodeVolumeLimits(listers: VolumeListers, csi: CSINodes): Plugin {
  return {
    name: 'NodeVolumeLimits',
    filter(_state, pod, node) {
      const wanted = attachable(pod, listers);
      if (wanted.size === 0) return undefined;
      const max = limits(node.name, csi);
      if (max.size === 0) return undefined;
      const used = new Map<string, Set<string>>();
      for (const { pod: p } of node.pods.values()) {
        for (const [driver, handles] of attachable(p, listers)) {
          let s = used.get(driver);
          if (!s) used.set(driver, (s = new Set()));
          for (const h of handles) s.add(h);
        }
      }
      for (const [driver, handles] of wanted) {
        const limit = max.get(driver);
        if (limit === undefined) continue;
        const have = used.get(driver) ?? new Set<string>();
        const fresh = [...handles].filter((h) => !have.has(h)).length;
        if (have.size + fresh > limit) return unschedulable(ERR_MAX_VOLUME_COUNT);
      }
      return undefined;
    },
  };
}
