// ExtendedResourceToleration (mutating, off by default): a pod requesting an
// extended resource (example.com/gpu) in a container or init container gets a
// toleration {key: <resource>, operator: Exists, effect: NoSchedule}, so nodes
// tainted for that resource accept it; on create and update.
import { isExtendedResourceName } from '../../api/core/v1/resourcenames.js';
import type { AdmissionPlugin } from '../../registry/admission.js';
import { isObject } from '../../registry/object.js';
import type { Json } from './common.js';
import { isCoreWrite, listOf, specOf } from './common.js';

const same = (x: Json, y: Json, k: string) => (x[k] ?? '') === (y[k] ?? '');

/** kube's AddOrUpdateTolerationInPod: a toleration matching key, operator, value and effect is replaced, else appended. */
export function addOrUpdateToleration(spec: Json, toleration: Json): void {
  const current = Array.isArray(spec.tolerations) ? (spec.tolerations as unknown[]) : [];
  let replaced = false;
  const next = current.map((t) => {
    if (!isObject(t) || !['key', 'operator', 'value', 'effect'].every((k) => same(t, toleration, k))) return t;
    replaced = true;
    return toleration;
  });
  if (!replaced) next.push(toleration);
  spec.tolerations = next;
}

export function extendedResourceToleration(): AdmissionPlugin {
  return {
    name: 'ExtendedResourceToleration',
    phase: 'mutating',
    admit(a) {
      if (!isCoreWrite(a, 'pods')) return;
      const spec = specOf(a.object);
      if (!spec) return;
      const names = new Set<string>();
      for (const c of [...listOf(spec, 'containers'), ...listOf(spec, 'initContainers')]) {
        const requests = isObject(c.resources) && isObject(c.resources.requests) ? c.resources.requests : {};
        for (const name of Object.keys(requests)) if (isExtendedResourceName(name)) names.add(name);
      }
      for (const key of [...names].sort()) addOrUpdateToleration(spec, { key, operator: 'Exists', effect: 'NoSchedule' });
    },
  };
}
