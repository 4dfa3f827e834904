// Kubernetes' static cost check of a CRD's x-kubernetes-validations
// (apiextensions pkg/apis/apiextensions/validation: cel_validation.go,
// validation.go; v1.27). A rule's estimated cost is multiplied by how many
// times its schema node can occur in one object (its cardinality): the
// product of maxItems/maxProperties on the way from the root, or — when
// some list or map on the way is unbounded — the number of values of the
// node's minimum JSON size a request can hold. One rule over
// STATIC_ESTIMATED_COST_LIMIT is rejected; so is the CRD when the sum over
// all rules passes STATIC_ESTIMATED_CRD_COST_LIMIT, naming the (up to 4)
// most expensive rules.
//
//   root (cardinality 1) ─ object: ×1 ─ array maxItems n: ×n ─ map maxProperties m: ×m
//                         └ array/map without a maximum: unbounded from there on

import { MAX_UINT64 } from './arith.js';
import {
  CONTRIBUTED_TO_TOTAL,
  ESTIMATED_TOTAL_COST,
  STATIC_ESTIMATED_CRD_COST_LIMIT,
  costErrorMessage,
  expressionCost,
  maxCardinality,
} from './limits.js';

/** What the cardinality of a schema's children depends on. */
export interface CardinalitySchema {
  type?: string;
  additionalProperties?: unknown;
  maxProperties?: number;
  maxItems?: number;
}

/** The root schema's cardinality. */
export const ROOT_CARDINALITY = 1;

/** The cardinality of a child (property, items, additionalProperties) of a
 * schema node whose own cardinality is `parent` (undefined = unbounded). */
export function childCardinality(parent: number | undefined, parentSchema: CardinalitySchema): number | undefined {
  if (parent === undefined) return undefined;
  const factor = maxElementsOf(parentSchema);
  return factor === undefined ? undefined : expressionCost(parent, factor);
}

/** kube's extractMaxElements: the factor by which a schema multiplies its
 * children's cardinality; undefined when unbounded. */
function maxElementsOf(s: CardinalitySchema): number | undefined {
  switch (s.type) {
    case 'object':
      if (s.additionalProperties !== undefined) return s.maxProperties === undefined ? undefined : Math.max(0, s.maxProperties);
      return 1;
    case 'array':
      return s.maxItems === undefined ? undefined : Math.max(0, s.maxItems);
    default:
      return 1;
  }
}

/** A rule's cost as checked against STATIC_ESTIMATED_COST_LIMIT
 * (getExpressionCost): its estimated max cost × its node's cardinality, or
 * × the request-size bound on the node's occurrences when unbounded. */
export function ruleCost(maxCost: number, cardinality: number | undefined, nodeMinSerializedSize: number): number {
  return expressionCost(maxCost, cardinality ?? maxCardinality(nodeMinSerializedSize));
}

export interface RuleCost {
  /** Field path of the rule (…x-kubernetes-validations[i].rule). */
  path: string;
  cost: number;
}

/** The running total over a CRD's rules (kube's TotalCost). */
export class TotalCost {
  total = 0;
  /** The 4 most expensive rules costing at least 1% of the CRD limit, most
   * expensive first. */
  readonly mostExpensive: RuleCost[] = [];

  observe(path: string, cost: number): void {
    this.total = this.total + cost >= MAX_UINT64 ? MAX_UINT64 : this.total + cost;
    if (cost < STATIC_ESTIMATED_CRD_COST_LIMIT / 100) return;
    const list = this.mostExpensive;
    let i = list.length;
    // stable: a later rule of equal cost goes after the earlier one
    while (i > 0 && list[i - 1].cost < cost) i--;
    list.splice(i, 0, { path, cost });
    if (list.length > 4) list.length = 4;
  }

  /** The Forbidden errors when the total is over the CRD limit: one per
   * most expensive rule, then one on the schema (at schemaPath, e.g.
   * `spec.validation.openAPIV3Schema`). */
  errors(schemaPath: string): { path: string; detail: string }[] {
    if (this.total <= STATIC_ESTIMATED_CRD_COST_LIMIT) return [];
    const out = this.mostExpensive.map((r) => ({ path: r.path, detail: CONTRIBUTED_TO_TOTAL }));
    out.push({ path: schemaPath, detail: costErrorMessage(ESTIMATED_TOTAL_COST, this.total, STATIC_ESTIMATED_CRD_COST_LIMIT) });
    return out;
  }
}
