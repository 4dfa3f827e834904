// A runtime cost budget shared by several evaluations, as Kubernetes keeps
// it: over all x-kubernetes-validations rules of one custom resource
// (schema/cel/validation.go, RUNTIME_CEL_COST_BUDGET), over the validations
// of one admission policy binding (admission/plugin/cel/filter.go, the same
// budget) and over matchConditions (RUNTIME_CEL_COST_BUDGET_MATCH_CONDITIONS).
// Each evaluation is also limited on its own by PER_CALL_LIMIT (the
// program's cost limit), whatever the budget has left.
//
//   remaining ──charge(actual)──▶ remaining − actual
//                    └─ actual > remaining: exhausted (remaining −1), OUT_OF_BUDGET (limits.ts),
//                       no further expression is evaluated

export class CostBudget {
  constructor(
    /** What is left; negative once exhausted. */
    public remaining: number,
  ) {}

  /** Whether another evaluation may start (kube checks `remaining <= 0`
   * before each CRD rule node). */
  get canEvaluate(): boolean {
    return this.remaining > 0;
  }

  get exhausted(): boolean {
    return this.remaining < 0;
  }

  /** Charges an evaluation's actual cost. Returns false, and exhausts the
   * budget, when the cost does not fit: the caller reports OUT_OF_BUDGET
   * and evaluates nothing more. */
  charge(actualCost: number): boolean {
    if (actualCost > this.remaining) {
      this.remaining = -1;
      return false;
    }
    this.remaining -= actualCost;
    return true;
  }
}

