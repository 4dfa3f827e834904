// What a StatefulSet revision holds (kube's getPatch / newRevision /
// ApplyRevision): a strategic merge patch that replaces spec.template,
// `{"spec":{"template":{…,"$patch":"replace"}}}`, labelled as the template and
// annotated as the set; applying it gives the set with that template.
import type { ApiObject, OwnerReference } from '../../registry/object.js';
import { newControllerRevision, revisionData } from '../history/index.js';
import { specOf } from './identity.js';

/** The revision data for the set's current template. */
export function revisionPatch(set: ApiObject): Record<string, unknown> {
  const template = structuredClone(specOf(set).template ?? {}) as Record<string, unknown>;
  return { spec: { template: { ...template, $patch: 'replace' } } };
}

export function newRevision(set: ApiObject, ref: OwnerReference, revision: number, collisionCount: number): ApiObject {
  const cr = newControllerRevision({
    parent: set, ownerRef: ref, templateLabels: specOf(set).template?.metadata?.labels ?? {}, data: revisionPatch(set), revision, collisionCount,
  });
  const annotations = set.metadata.annotations ?? {};
  cr.metadata.annotations = { ...annotations };
  return cr;
}

/** The set with the revision's template (kube's ApplyRevision of a replace patch). */
export function applyRevision(set: ApiObject, revision: ApiObject): ApiObject {
  const clone = structuredClone(set) as ApiObject;
  const data = revisionData(revision) as { spec?: { template?: Record<string, unknown> } } | undefined;
  const template = data?.spec?.template;
  if (template) {
    const { $patch: _patch, ...rest } = template;
    clone.spec = { ...(clone.spec as object), template: structuredClone(rest) };
  }
  return clone;
}
