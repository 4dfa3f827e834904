// The tolerations every daemon pod carries (kube's
// util.AddOrUpdateDaemonPodTolerations): a daemon keeps running when its node
// goes not-ready or unreachable (NoExecute, no tolerationSeconds, so the taint
// manager never evicts it) and may start on nodes under memory, disk or pid
// pressure or cordoned (NoSchedule); a hostNetwork pod also on a node whose
// network is unavailable.
//
// Each is written in kube's spelling (node.kubernetes.io/…) and in this
// repo's (node.svc.io/…, the taints our nodes carry). Matching treats the two
// alike (src/api/core/v1/taints.ts), but the DefaultTolerationSeconds
// admission plugin looks for our spelling of not-ready/unreachable: without it
// a daemon pod would get the 300 s tolerations and be evicted from a
// not-ready node, which kube's daemon pods never are.
//
// As kube's AddOrUpdateTolerationInPodSpec, a toleration the pod already has
// with the same key, operator, value and effect is replaced in place (a
// user's `tolerationSeconds: 300` on not-ready becomes unbounded); others are
// appended in order.
import { isObject } from '../../registry/object.js';

export interface Toleration {
  readonly key?: string;
  readonly operator?: string;
  readonly value?: string;
  readonly effect?: string;
  readonly tolerationSeconds?: number;
}

const KUBE = 'node.kubernetes.io/';
const OURS = 'node.svc.io/';

const exists = (name: string, effect: string): Toleration[] => [
  { key: KUBE + name, operator: 'Exists', effect },
  { key: OURS + name, operator: 'Exists', effect },
];

/** The tolerations kube adds, in its order, each in both spellings. */
export function daemonTolerations(hostNetwork: boolean): Toleration[] {
  return [
    ...exists('not-ready', 'NoExecute'),
    ...exists('unreachable', 'NoExecute'),
    ...exists('disk-pressure', 'NoSchedule'),
    ...exists('memory-pressure', 'NoSchedule'),
    ...exists('pid-pressure', 'NoSchedule'),
    ...exists('unschedulable', 'NoSchedule'),
    ...(hostNetwork ? exists('network-unavailable', 'NoSchedule') : []),
  ];
}

/** kube's Toleration.MatchToleration: same key, operator, value and effect. */
function sameToleration(a: Toleration, b: Toleration): boolean {
  return (a.key ?? '') === (b.key ?? '') && (a.operator ?? '') === (b.operator ?? '')
    && (a.value ?? '') === (b.value ?? '') && (a.effect ?? '') === (b.effect ?? '');
}

/** kube's AddOrUpdateTolerationInPodSpec over a list: the matching entries replaced, or `t` appended. */
export function addOrUpdateToleration(list: readonly Toleration[], t: Toleration): Toleration[] {
  let replaced = false;
  const out = list.map((cur) => {
    if (!sameToleration(cur, t)) return cur;
    replaced = true;
    return { ...t };
  });
  if (!replaced) out.push({ ...t });
  return out;
}

/** The pod spec (changed in place) with every daemon toleration added or updated. */
export function addDaemonPodTolerations(spec: Record<string, unknown>): void {
  let list = (Array.isArray(spec.tolerations) ? spec.tolerations.filter(isObject) : []) as Toleration[];
  for (const t of daemonTolerations(spec.hostNetwork === true)) list = addOrUpdateToleration(list, t);
  spec.tolerations = list;
}
