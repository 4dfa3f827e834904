// VolumeBinding (kube's volumebinding plugin over its SchedulerVolumeBinder,
// ../volumebinder.ts). PreFilter: the pod's claims must exist and not be
// going away, and no claim may wait unbound for an Immediate-binding class.
// Filter: a bound claim's PersistentVolume must exist and fit the node; the
// unbound claims of WaitForFirstConsumer classes must each get an available
// volume fitting the node or be provisionable there. With a writer (the
// scheduler's client), Reserve assumes the node's plan, PreBind writes it —
// volumes' claimRef, claims' volume.kubernetes.io/selected-node — and waits
// (bindTimeoutSeconds, 600 by default) until the binder bound every claim;
// Unreserve drops what was assumed.
import type { ApiObject } from '../../registry/object.js';
import type { CycleState, Plugin, Status } from '../framework.js';
import { unresolvable } from '../framework.js';
import type { NodeInfo } from '../nodeinfo.js';
import { claimClassName, claimSpec, podClaimNames, type VolumeHandle } from '../volumes.js';
import { AssumeCache, assumePodVolumes, findPodVolumes, isEmpty, revertAssumed, waitForBindings, writePodVolumes, type PodVolumes } from '../volumebinder.js';
import { volumeFitsNode } from '../../controllers/volume/match.js';

export const ERR_UNBOUND_IMMEDIATE = 'pod has unbound immediate PersistentVolumeClaims';
export const ERR_NODE_CONFLICT = 'node(s) had volume node affinity conflict';
export const ERR_BIND_CONFLICT = "node(s) didn't find available persistent volumes to bind";
export const ERR_PV_NOT_EXIST = 'node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)';

/** kube's VolumeBindingArgs (the part used here). */
export interface VolumeBindingArgs {
  readonly bindTimeoutSeconds?: number;
  /** How often PreBind looks at the claims while waiting (kube: every second). */
  readonly pollMs?: number;
}

interface Claims {
  readonly bound: ApiObject[];
  /** Unbound claims of WaitForFirstConsumer classes. */
  readonly delayed: ApiObject[];
}

const KEY = 'VolumeBinding/claims';
const nodeKey = (node: string) => `VolumeBinding/node/${node}`;
const ASSUMED = 'VolumeBinding/assumed';

export function volumeBinding(handle: VolumeHandle, args: VolumeBindingArgs = {}): Plugin {
  const cache = new AssumeCache(handle);
  const timeoutMs = (args.bindTimeoutSeconds ?? 600) * 1000;
  const pollMs = args.pollMs ?? 200;
  const writer = handle.writer;
  const plugin: Plugin = {
    name: 'VolumeBinding',
    preFilter(state: CycleState, pod: ApiObject) {
      const ns = pod.metadata.namespace ?? '';
      const claims: Claims = { bound: [], delayed: [] };
      let immediate = false;
      for (const name of podClaimNames(pod)) {
        const claim = cache.claim(ns, name);
        if (!claim) return unresolvable(`persistentvolumeclaim ${JSON.stringify(name)} not found`);
        if (claim.metadata.deletionTimestamp) return unresolvable(`persistentvolumeclaim ${JSON.stringify(name)} is being deleted`);
        if (typeof claimSpec(claim).volumeName === 'string' && claimSpec(claim).volumeName !== '') {
          claims.bound.push(claim);
          continue;
        }
        const cls = cache.storageClass(claimClassName(claim));
        if (cls?.volumeBindingMode === 'WaitForFirstConsumer') claims.delayed.push(claim);
        else immediate = true;
      }
      if (immediate) return unresolvable(ERR_UNBOUND_IMMEDIATE);
      state.write(KEY, claims);
      return undefined;
    },
    filter(state, _pod, node: NodeInfo) {
      const claims = state.read<Claims>(KEY);
      if (!claims) return undefined;
      const reasons = new Set<string>();
      for (const claim of claims.bound) {
        const pv = cache.volume(String(claimSpec(claim).volumeName));
        if (!pv) reasons.add(ERR_PV_NOT_EXIST);
        else if (!volumeFitsNode(pv, node.node)) reasons.add(ERR_NODE_CONFLICT);
      }
      if (claims.delayed.length > 0) {
        const found = findPodVolumes(claims.delayed, node.node, cache);
        if (!found.ok) reasons.add(ERR_BIND_CONFLICT);
        else state.write(nodeKey(node.name), found.volumes);
      }
      return reasons.size > 0 ? unresolvable(...reasons) : undefined;
    },
  };
  if (!writer) return plugin;
  return {
    ...plugin,
    reserve(state, _pod, node) {
      const v = state.read<PodVolumes>(nodeKey(node));
      if (!v || isEmpty(v)) return undefined;
      assumePodVolumes(cache, v);
      state.write(ASSUMED, v);
      return undefined;
    },
    unreserve(state) {
      const v = state.read<PodVolumes>(ASSUMED);
      if (v) revertAssumed(cache, v);
    },
    async preBind(state, _pod, node): Promise<Status | undefined> {
      const v = state.read<PodVolumes>(ASSUMED);
      if (!v || isEmpty(v)) return undefined;
      try {
        const written = await writePodVolumes(writer, v);
        await waitForBindings(written, () => state.snapshot.get(node)?.node, handle, { timeoutMs, pollMs, ...(handle.stopped ? { stopped: handle.stopped } : {}) });
      } catch (err) {
        return { code: 'Error', reasons: [`binding volumes: ${(err as Error).message}`] };
      }
      return undefined;
    },
  };
}
