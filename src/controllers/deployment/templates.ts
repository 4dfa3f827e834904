// Which ReplicaSet is a Deployment's new one: the one whose pod template is
// the Deployment's once the pod-template-hash label is set aside (kube's
// EqualIgnoreHash over Semantic.DeepEqual, where nil and empty are equal).
import { deepEqual } from '../../registry/object.js';

export const POD_TEMPLATE_HASH = 'pod-template-hash';

/** A copy without nulls and empty maps or lists: kube's Semantic.DeepEqual holds nil and empty as equal. */
function withoutEmpty(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutEmpty);
  if (v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    const y = withoutEmpty(x);
    if (y === null || y === undefined || (Array.isArray(y) && y.length === 0) || (typeof y === 'object' && !Array.isArray(y) && Object.keys(y as object).length === 0)) continue;
    out[k] = y;
  }
  return out;
}

/** Two templates equal once the pod-template-hash label is set aside (kube's EqualIgnoreHash, nil and empty alike). */
export function equalIgnoreHash(a: unknown, b: unknown): boolean {
  const strip = (t: unknown) => {
    const c = structuredClone((t ?? {}) as { metadata?: { labels?: Record<string, string> } });
    if (c.metadata?.labels) delete c.metadata.labels[POD_TEMPLATE_HASH];
    return withoutEmpty(c);
  };
  return deepEqual(strip(a), strip(b));
}

