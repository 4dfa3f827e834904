// Node selector terms (core/v1 NodeSelector) as kube's
// component-helpers nodeaffinity matches them: terms are ORed, a term's
// matchExpressions (labels) and matchFields (metadata.name) are ANDed, an
// empty term matches nothing; In, NotIn, Exists, DoesNotExist, Gt, Lt.
import type { ApiObject } from '../registry/object.js';
import { isObject } from '../registry/object.js';
import type { Obj } from './pods.js';
import { spec } from './pods.js';

function requirementMatches(req: Obj, value: string | undefined): boolean {
  const values = Array.isArray(req.values) ? req.values.map(String) : [];
  const has = value !== undefined;
  switch (req.operator) {
    case 'In': return has && values.includes(value);
    case 'NotIn': return !has || !values.includes(value);
    case 'Exists': return has;
    case 'DoesNotExist': return !has;
    case 'Gt':
    case 'Lt': {
      if (!has || values.length !== 1) return false;
      const a = Number.parseInt(value, 10);
      const b = Number.parseInt(values[0]!, 10);
      if (!/^-?\d+$/.test(value) || !/^-?\d+$/.test(values[0]!)) return false;
      return req.operator === 'Gt' ? a > b : a < b;
    }
    default: return false;
  }
}

/** Whether one NodeSelectorTerm matches the node. */
export function termMatches(term: unknown, node: ApiObject): boolean {
  if (!isObject(term)) return false;
  const exprs = Array.isArray(term.matchExpressions) ? term.matchExpressions.filter(isObject) : [];
  const fields = Array.isArray(term.matchFields) ? term.matchFields.filter(isObject) : [];
  if (exprs.length === 0 && fields.length === 0) return false;
  const labels = node.metadata.labels ?? {};
  for (const e of exprs) if (!requirementMatches(e, Object.prototype.hasOwnProperty.call(labels, String(e.key)) ? labels[String(e.key)] : undefined)) return false;
  for (const f of fields) {
    if (f.key !== 'metadata.name') return false;
    if (!requirementMatches(f, node.metadata.name)) return false;
  }
  return true;
}

/** A NodeSelector (required terms): any term matching. */
export function nodeSelectorMatches(selector: unknown, node: ApiObject): boolean {
  const terms = isObject(selector) && Array.isArray(selector.nodeSelectorTerms) ? selector.nodeSelectorTerms : [];
  return terms.some((t) => termMatches(t, node));
}

/** The pod's spec.nodeSelector and required node affinity both hold (kube's GetRequiredNodeAffinity().Match). */
export function podMatchesNodeSelectorAndAffinity(pod: ApiObject, node: ApiObject): boolean {
  const s = spec(pod);
  const labels = node.metadata.labels ?? {};
  if (isObject(s.nodeSelector)) {
    for (const [k, v] of Object.entries(s.nodeSelector)) if (labels[k] !== v) return false;
  }
  const required = nodeAffinityOf(pod).requiredDuringSchedulingIgnoredDuringExecution;
  return required === undefined || required === null || nodeSelectorMatches(required, node);
}

export function nodeAffinityOf(pod: ApiObject): Obj {
  const affinity = spec(pod).affinity;
  return isObject(affinity) && isObject(affinity.nodeAffinity) ? affinity.nodeAffinity : {};
}
