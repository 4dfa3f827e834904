// matchConditions (kube's webhook/matchconditions Matcher), shared by the
// admission webhooks and ValidatingAdmissionPolicy: every condition is
// evaluated in order under one budget; the first false one skips the webhook
// or policy (errors before it do not count); otherwise any error decides by
// failurePolicy — Fail: the errors (aggregated as Go prints them), Ignore:
// no match.
import { aggregateErrors } from '../../api/meta/index.js';
import { BOOL, compileExpression, type Compiled } from './compile.js';
import type { AdmissionActivation, AdmissionCelEngine, VariableDeclarations } from './engine.js';
import { evaluateAll } from './filter.js';
import { RUNTIME_CEL_COST_BUDGET_MATCH_CONDITIONS } from './limits.js';

export interface MatchCondition {
  readonly name: string;
  readonly expression: string;
}

export type MatchResult =
  | { readonly matches: true }
  | { readonly matches: false; readonly failedCondition?: string }
  | { readonly error: string }
  /** An authorizer check waits: match again once settled. */
  | { readonly pending: Promise<void> };

export class MatchConditionMatcher {
  private readonly compiled: readonly Compiled[];
  constructor(
    engine: AdmissionCelEngine,
    private readonly conditions: readonly MatchCondition[],
    private readonly failurePolicy: 'Fail' | 'Ignore',
    vars: VariableDeclarations,
  ) {
    this.compiled = conditions.map((c) => compileExpression(engine, c.expression, BOOL, vars));
  }

  match(activation: AdmissionActivation): MatchResult {
    const out = evaluateAll(this.compiled, activation, RUNTIME_CEL_COST_BUDGET_MATCH_CONDITIONS);
    if (out.pending) return { pending: out.pending };
    if (out.error !== undefined) return this.failurePolicy === 'Fail' ? { error: out.error } : { matches: false };
    const errors: string[] = [];
    for (let i = 0; i < out.results.length; i++) {
      const r = out.results[i]!;
      if (r.error !== undefined) errors.push(r.error);
      else if (r.value === false) return { matches: false, failedCondition: this.conditions[i]!.name };
    }
    if (errors.length > 0) return this.failurePolicy === 'Fail' ? { error: aggregateErrors(errors) } : { matches: false };
    return { matches: true };
  }
}

/** A webhook's or policy's conditions as stored (name, expression), in order. */
export function matchConditionsOf(list: readonly unknown[]): MatchCondition[] {
  return list.map((v) => {
    const o = v !== null && typeof v === 'object' ? (v as Record<string, unknown>) : {};
    return { name: typeof o.name === 'string' ? o.name : '', expression: typeof o.expression === 'string' ? o.expression : '' };
  });
}
