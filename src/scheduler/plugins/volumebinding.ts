// VolumeBinding (the part without a volume binder): the pod's claims must
// exist and not be going away, and no claim may wait unbound for an
// Immediate-binding class (PreFilter, for every node at once). A bound
// claim's PersistentVolume must exist and its node affinity match the node.
// Unbound WaitForFirstConsumer claims are left to dynamic provisioning
// unless their class has no provisioner and no available volume fits.
import type { ApiObject } from '../../registry/object.js';
import { isObject } from '../../registry/object.js';
import type { CycleState, Plugin } from '../framework.js';
import { unresolvable } from '../framework.js';
import type { NodeInfo } from '../nodeinfo.js';
import { nodeSelectorMatches } from '../nodeselector.js';
import { accessModes, claimClassName, claimSpec, podClaimNames, type VolumeListers } from '../volumes.js';
import { amount } from '../resources.js';

export const ERR_UNBOUND_IMMEDIATE = 'pod has unbound immediate PersistentVolumeClaims';
export const ERR_NODE_CONFLICT = 'node(s) had volume node affinity conflict';
export const ERR_BIND_CONFLICT = "node(s) didn't find available persistent volumes to bind";
export const ERR_PV_NOT_EXIST = 'node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)';

interface Claims {
  readonly bound: ApiObject[];
  /** Unbound claims of WaitForFirstConsumer classes. */
  readonly delayed: ApiObject[];
}

const KEY = 'VolumeBinding/claims';

function volumeNodeAffinityMatches(pv: ApiObject, node: NodeInfo): boolean {
  const s = isObject(pv.spec) ? pv.spec : {};
  const required = isObject(s.nodeAffinity) ? s.nodeAffinity.required : undefined;
  return required === undefined || required === null || nodeSelectorMatches(required, node.node);
}

/** An available PersistentVolume that could take the claim on this node. */
function staticMatch(claim: ApiObject, node: NodeInfo, volumes: readonly ApiObject[]): boolean {
  const want = amount('storage', isObject(claimSpec(claim).resources) ? (claimSpec(claim).resources as Record<string, unknown> & { requests?: Record<string, unknown> }).requests?.storage : undefined);
  const modes = accessModes(claim);
  const cls = claimClassName(claim);
  return volumes.some((pv) => {
    const s = isObject(pv.spec) ? pv.spec : {};
    const status = isObject(pv.status) ? pv.status : {};
    if (status.phase !== 'Available' || isObject(s.claimRef)) return false;
    if ((typeof s.storageClassName === 'string' ? s.storageClassName : '') !== cls) return false;
    const have = isObject(s.capacity) ? amount('storage', s.capacity.storage) : 0;
    const pvModes = Array.isArray(s.accessModes) ? s.accessModes.map(String) : [];
    return have >= want && modes.every((m) => pvModes.includes(m)) && volumeNodeAffinityMatches(pv, node);
  });
}

export function volumeBinding(listers: VolumeListers & { volumes(): readonly ApiObject[] }): Plugin {
  return {
    name: 'VolumeBinding',
    preFilter(state: CycleState, pod: ApiObject) {
      const ns = pod.metadata.namespace ?? '';
      const claims: Claims = { bound: [], delayed: [] };
      let immediate = false;
      for (const name of podClaimNames(pod)) {
        const claim = listers.claim(ns, name);
        if (!claim) return unresolvable(`persistentvolumeclaim ${JSON.stringify(name)} not found`);
        if (claim.metadata.deletionTimestamp) return unresolvable(`persistentvolumeclaim ${JSON.stringify(name)} is being deleted`);
        if (typeof claimSpec(claim).volumeName === 'string' && claimSpec(claim).volumeName !== '') {
          claims.bound.push(claim);
          continue;
        }
        const cls = listers.storageClass(claimClassName(claim));
        if (cls?.volumeBindingMode === 'WaitForFirstConsumer') claims.delayed.push(claim);
        else immediate = true;
      }
      if (immediate) return unresolvable(ERR_UNBOUND_IMMEDIATE);
      state.write(KEY, claims);
      return undefined;
    },
    filter(state, _pod, node) {
      const claims = state.read<Claims>(KEY);
      if (!claims) return undefined;
      const reasons = new Set<string>();
      for (const claim of claims.bound) {
        const pv = listers.volume(String(claimSpec(claim).volumeName));
        if (!pv) reasons.add(ERR_PV_NOT_EXIST);
        else if (!volumeNodeAffinityMatches(pv, node)) reasons.add(ERR_NODE_CONFLICT);
      }
      for (const claim of claims.delayed) {
        const cls = listers.storageClass(claimClassName(claim));
        const provisions = cls && cls.provisioner !== 'kubernetes.io/no-provisioner';
        if (!provisions && !staticMatch(claim, node, listers.volumes())) reasons.add(ERR_BIND_CONFLICT);
      }
      return reasons.size > 0 ? unresolvable(...reasons) : undefined;
    },
  };
}
