// VolumeZone: a bound claim's PersistentVolume labelled with zones or
// regions (values joined by "__") fits only nodes in one of them.
import type { Plugin } from '../framework.js';
import { unresolvable } from '../framework.js';
import { claimSpec, podClaimNames, type VolumeListers } from '../volumes.js';

export const ERR_VOLUME_ZONE = 'node(s) had no available volume zone';
const TOPOLOGY_LABELS = ['topology.kubernetes.io/zone', 'failure-domain.beta.kubernetes.io/zone', 'topology.kubernetes.io/region', 'failure-domain.beta.kubernetes.io/region'];

export function volumeZone(listers: VolumeListers): Plugin {
  return {
    name: 'VolumeZone',
    filter(_state, pod, node) {
      const ns = pod.metadata.namespace ?? '';
      const nodeLabels = node.node.metadata.labels ?? {};
      for (const name of podClaimNames(pod)) {
        const claim = listers.claim(ns, name);
        const volumeName = claim ? claimSpec(claim).volumeName : undefined;
        if (typeof volumeName !== 'string' || volumeName === '') continue; // VolumeBinding's concern
        const pv = listers.volume(volumeName);
        for (const key of TOPOLOGY_LABELS) {
          const value = pv?.metadata.labels?.[key];
          if (value === undefined) continue;
          const nodeValue = nodeLabels[key];
          if (nodeValue === undefined || !value.split('__').includes(nodeValue)) return unresolvable(ERR_VOLUME_ZONE);
        }
      }
      return undefined;
    },
  };
}
