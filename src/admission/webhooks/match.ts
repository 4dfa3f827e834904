// Whether a webhook is called for a request, and as what (kube's
// ShouldCallHook): namespaceSelector, then objectSelector, then the rules
// against the request's own resource; with matchPolicy Equivalent, when no
// rule matched, the rules (in order) against each equivalent resource, the
// webhook then being called with the object converted to that version.
// Selector errors (a missing namespace) only count for a webhook whose rules
// match. matchConditions: see matchConditionsError.
import type { AdmissionAttributes } from '../../registry/admission.js';
import { ruleMatches, type RuleTarget } from './rules.js';
import { matchesNamespaceSelector, matchesObjectSelector, type NamespaceLabels } from './selectors.js';
import type { EquivalentResources, GroupVersionKind, GroupVersionResource } from './equivalence.js';
import type { Webhook } from './types.js';

/** A request as webhooks see it: the resource and kind it was made through (kube's admission attributes). */
export interface RequestView {
  readonly resource: GroupVersionResource;
  readonly subresource: string;
  readonly kind: GroupVersionKind;
}

/** A webhook to call, and the resource and kind it is called with (differing from the request's after an Equivalent match). */
export interface Invocation {
  readonly webhook: Webhook;
  readonly resource: GroupVersionResource;
  readonly subresource: string;
  readonly kind: GroupVersionKind;
}

export interface MatchDeps {
  readonly namespaceLabels: NamespaceLabels;
  readonly equivalents: EquivalentResources;
}

/** The request's resource and kind: as the client addressed it, else (the server's own writes, CONNECT) the storage identity. */
export function requestView(a: AdmissionAttributes, equivalents: EquivalentResources): RequestView {
  const info = a.requestInfo;
  const subresource = a.subresource ?? '';
  const resource = info
    ? { group: info.apiGroup, version: info.apiVersion, resource: info.resource }
    : { group: a.resource.group, version: a.resource.version, resource: a.resource.resource };
  const kind = equivalents.kindFor(resource, subresource) ?? { group: a.resource.group, version: a.resource.version, kind: a.resource.kind };
  return { resource, subresource, kind };
}

/** What a rule is matched against: the request (or an equivalent resource) with its operation and namespace. */
export function target(a: AdmissionAttributes, resource: GroupVersionResource, subresource: string): RuleTarget {
  const isNamespace = resource.group === '' && resource.resource === 'namespaces';
  // kube's attributes carry a Namespace's own name as its namespace
  return { operation: a.operation, group: resource.group, version: resource.version, resource: resource.resource, subresource, namespace: isNamespace ? a.name : a.namespace };
}

export async function shouldCall(w: Webhook, a: AdmissionAttributes, req: RequestView, deps: MatchDeps): Promise<Invocation | undefined> {
  let selectorError: unknown;
  let selected = true;
  try {
    selected = await matchesNamespaceSelector(w.namespaceSelector, a, deps.namespaceLabels);
  } catch (err) {
    selectorError = err;
  }
  if (!selected && selectorError === undefined) return undefined;
  if (!matchesObjectSelector(w.objectSelector, a)) return undefined;

  let invocation: Invocation | undefined;
  const own = target(a, req.resource, req.subresource);
  if (w.rules.some((r) => ruleMatches(r, own))) invocation = { webhook: w, resource: req.resource, subresource: req.subresource, kind: req.kind };
  if (!invocation && w.matchPolicy === 'Equivalent') {
    const equivalents = deps.equivalents.equivalentsOf(req.resource, req.subresource);
    outer: for (const rule of w.rules) {
      for (const e of equivalents) {
        if (e.resource.group === req.resource.group && e.resource.version === req.resource.version && e.resource.resource === req.resource.resource) continue;
        if (ruleMatches(rule, target(a, e.resource, req.subresource))) {
          invocation = { webhook: w, resource: e.resource, subresource: req.subresource, kind: e.kind };
          break outer;
        }
      }
    }
  }
  if (!invocation) return undefined;
  if (selectorError !== undefined) throw selectorError;
  return invocation;
}
