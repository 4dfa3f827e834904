// Namespaces: cluster-scoped, DNS-label names, the svc.io/metadata.name and
// kubernetes.io/metadata.name labels kept equal to the name, the `kubernetes` finalizer in spec.finalizers,
// status.phase Active, then Terminating once deletion starts.
import { baseStrategy, type Strategy } from '../strategy.js';
import type { ApiObject } from '../object.js';
import { isObject } from '../object.js';
import { labelName } from './names.js';
import { NAMESPACE_NAME_LABELS } from '../../api/core/v1/defaults.js';

export const NAMESPACE_FINALIZER = 'kubernetes';

function spec(obj: ApiObject): Record<string, unknown> {
  if (!isObject(obj.spec)) obj.spec = {};
  return obj.spec as Record<string, unknown>;
}

function ensureNameLabel(obj: ApiObject): void {
  const labels: Record<string, string> = { ...(obj.metadata.labels ?? {}) };
  for (const l of NAMESPACE_NAME_LABELS) labels[l] = obj.metadata.name!;
  obj.metadata.labels = labels;
}

export const namespaces: Strategy = baseStrategy({
  namespaced: false,
  validateName: labelName,
  hasStatus: true,
  returnDeletedObject: true,
  deletionMarksFirst: true,
  prepareForCreate(obj) {
    ensureNameLabel(obj);
    const s = spec(obj);
    const finalizers = Array.isArray(s.finalizers) ? (s.finalizers as string[]) : [];
    if (!finalizers.includes(NAMESPACE_FINALIZER)) finalizers.push(NAMESPACE_FINALIZER);
    s.finalizers = finalizers;
    obj.status = { phase: 'Active' };
  },
  prepareForUpdate(obj, old, subresource) {
    ensureNameLabel(obj);
    // spec.finalizers change only through /finalize.
    if (subresource !== 'finalize') obj.spec = structuredClone(old.spec ?? {});
    if (obj.metadata.deletionTimestamp) obj.status = { ...(isObject(obj.status) ? obj.status : {}), phase: 'Terminating' };
  },
  onDeletionStarted(obj) {
    obj.status = { ...(isObject(obj.status) ? obj.status : {}), phase: 'Terminating' };
  },
  pendingFinalizers(obj) {
    const s = isObject(obj.spec) ? obj.spec : {};
    return [...(obj.metadata.finalizers ?? []), ...(Array.isArray(s.finalizers) ? (s.finalizers as string[]) : [])];
  },
});

/** /finalize: only spec.finalizers change (an empty list is left out, as Go writes it). */
export function applyFinalize(current: ApiObject, input: ApiObject): ApiObject {
  const s = isObject(input.spec) ? input.spec : {};
  const next = structuredClone(current);
  const finalizers = Array.isArray(s.finalizers) ? s.finalizers : [];
  if (finalizers.length > 0) spec(next).finalizers = finalizers;
  else delete spec(next).finalizers;
  return next;
}
