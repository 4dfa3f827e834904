// CRD status conditions as kube's apiextensions helpers set them: a
// condition replaces the one of its type in place (new types are appended),
// and lastTransitionTime changes only when the status does.
import { nowTimestamp } from '../registry/object.js';
import type { CustomResourceDefinition, CustomResourceDefinitionCondition } from './types.js';

type NewCondition = Omit<CustomResourceDefinitionCondition, 'lastTransitionTime'>;

export function setCondition(conditions: readonly CustomResourceDefinitionCondition[], c: NewCondition, now = Date.now()): CustomResourceDefinitionCondition[] {
  const out = [...conditions];
  const i = out.findIndex((x) => x.type === c.type);
  const old = i >= 0 ? out[i] : undefined;
  const lastTransitionTime = old && old.status === c.status ? old.lastTransitionTime : nowTimestamp(now);
  const next: CustomResourceDefinitionCondition = { type: c.type, status: c.status, lastTransitionTime, ...(c.reason ? { reason: c.reason } : {}), ...(c.message ? { message: c.message } : {}) };
  if (i >= 0) out[i] = next;
  else out.push(next);
  return out;
}

export function findCondition(crd: CustomResourceDefinition, type: string): CustomResourceDefinitionCondition | undefined {
  return (crd.status?.conditions ?? []).find((c) => c.type === type);
}

export function isConditionTrue(crd: CustomResourceDefinition, type: string): boolean {
  return findCondition(crd, type)?.status === 'True';
}

/** The CRD's Established condition is True: it is served (and published). */
export const isEstablished = (crd: CustomResourceDefinition): boolean => isConditionTrue(crd, 'Established');
