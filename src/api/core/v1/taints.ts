// Taints and tolerations (k8s.io/api core/v1 toleration.go): whether a
// toleration tolerates a taint. The well-known node taints are written in
// this repo's spelling (node.svc.io/…); a taint or toleration in kube's
// spelling (node.kubernetes.io/…) names the same key, so pods of stock charts
// that tolerate `node.kubernetes.io/not-ready` tolerate our taint — for the
// scheduler and the taint manager alike.
import { isObject, type ApiObject } from '../../../registry/object.js';

export interface Taint {
  readonly key: string;
  readonly value?: string;
  readonly effect: string;
  readonly timeAdded?: string;
}

const KUBE_PREFIX = 'node.kubernetes.io/';
const OUR_PREFIX = 'node.svc.io/';

/** A taint key in this repo's spelling (kube's node.kubernetes.io/ keys map to node.svc.io/). */
export function canonicalTaintKey(key: string): string {
  return key.startsWith(KUBE_PREFIX) ? OUR_PREFIX + key.slice(KUBE_PREFIX.length) : key;
}

/** Whether a toleration tolerates a taint (kube's Toleration.ToleratesTaint), both spellings of node taints alike. */
export function toleratesTaint(t: { readonly key?: unknown; readonly operator?: unknown; readonly value?: unknown; readonly effect?: unknown }, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  const key = typeof t.key === 'string' ? t.key : '';
  if (key && canonicalTaintKey(key) !== canonicalTaintKey(taint.key)) return false;
  const op = t.operator || 'Equal';
  if (op === 'Exists') return true;
  if (op === 'Equal') return (t.value ?? '') === (taint.value ?? '');
  return false;
}

/** A node's spec.taints. */
export function taintsOf(node: ApiObject): Taint[] {
  const spec = isObject(node.spec) ? node.spec : {};
  return (Array.isArray(spec.taints) ? spec.taints : []).filter(isObject) as unknown as Taint[];
}
