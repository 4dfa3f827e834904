// LimitPodHardAntiAffinityTopology (validating, off by default): a pod's
// required (hard) anti-affinity terms may only use the node-name topology key,
// kubernetes.io/hostname (or its svc.io spelling); on create and update.
import type { AdmissionPlugin } from '../../registry/admission.js';
import { newForbidden } from '../../api/meta/index.js';
import { isObject } from '../../registry/object.js';
import { isCoreWrite, listOf, specOf } from './common.js';

export const HOSTNAME_LABELS = ['kubernetes.io/hostname', 'svc.io/hostname'] as const;

export function limitPodHardAntiAffinityTopology(): AdmissionPlugin {
  return {
    name: 'LimitPodHardAntiAffinityTopology',
    phase: 'validating',
    admit(a) {
      if (!isCoreWrite(a, 'pods')) return;
      const affinity = specOf(a.object)?.affinity;
      const anti = isObject(affinity) && isObject(affinity.podAntiAffinity) ? affinity.podAntiAffinity : undefined;
      for (const term of listOf(anti, 'requiredDuringSchedulingIgnoredDuringExecution')) {
        const key = typeof term.topologyKey === 'string' ? term.topologyKey : '';
        if ((HOSTNAME_LABELS as readonly string[]).includes(key)) continue;
        throw newForbidden({ group: '', resource: 'pods' }, a.object!.metadata.name ?? '',
          `affinity.PodAntiAffinity.RequiredDuringScheduling has TopologyKey ${key} but only key kubernetes.io/hostname is allowed`);
      }
    },
  };
}
