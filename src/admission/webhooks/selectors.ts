// The two label selectors of a webhook (kube's predicates/namespace and
// predicates/object):
// - namespaceSelector: the labels of the request's namespace; of the object
//   itself for a create or update of a Namespace; other cluster-scoped
//   requests always match. A namespace that does not exist answers 404.
// - objectSelector: the new or the old object's labels; an absent object, or
//   one without metadata (a connect options object), never matches.
// An empty selector matches everything.
import { selectorIsEmpty, selectorMatches } from '../../api/meta/checks.js';
import type { AdmissionAttributes } from '../../registry/admission.js';
import type { ApiObject } from '../../registry/object.js';

/** A namespace's labels; rejects with the NotFound StatusError when there is none. */
export type NamespaceLabels = (name: string) => Promise<Readonly<Record<string, string>>>;

const labelsOf = (o: ApiObject | undefined): Record<string, string> | undefined => {
  const meta = (o as { metadata?: unknown } | undefined)?.metadata;
  if (meta === null || typeof meta !== 'object') return undefined;
  const labels = (meta as { labels?: unknown }).labels;
  return labels !== null && typeof labels === 'object' ? (labels as Record<string, string>) : {};
};

const isNamespace = (a: AdmissionAttributes) => a.resource.group === '' && a.resource.resource === 'namespaces';

/** The namespaceSelector's answer when it needs no lookup; else the namespace whose labels decide. */
export function namespaceSelectorDecision(selector: unknown, a: AdmissionAttributes): boolean | { readonly lookup: string } {
  const namespace = isNamespace(a) ? a.name : a.namespace;
  if (namespace === '' && !isNamespace(a)) return true;
  if (selectorIsEmpty(selector)) return true;
  if (isNamespace(a) && !a.subresource && (a.operation === 'CREATE' || a.operation === 'UPDATE')) {
    return selectorMatches(selector, labelsOf(a.object) ?? {});
  }
  return { lookup: namespace };
}

export async function matchesNamespaceSelector(selector: unknown, a: AdmissionAttributes, namespaceLabels: NamespaceLabels): Promise<boolean> {
  const d = namespaceSelectorDecision(selector, a);
  if (typeof d === 'boolean') return d;
  // read, not copied: selectorMatches only looks (own members, as on a copy)
  return selectorMatches(selector, (await namespaceLabels(d.lookup)) as Record<string, string>);
}

export function matchesObjectSelector(selector: unknown, a: AdmissionAttributes): boolean {
  if (selectorIsEmpty(selector)) return true;
  const matches = (o: ApiObject | undefined) => {
    const labels = labelsOf(o);
    return labels !== undefined && selectorMatches(selector, labels);
  };
  return matches(a.object) || matches(a.oldObject);
}
