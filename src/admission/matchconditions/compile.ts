// Compiling admission expressions (kube's plugin/cel CompileCELExpression):
// parse and check in the environment of the optional variables, then require
// one of the expression's return types exactly (a `dyn` result is refused:
// "must evaluate to bool"). Errors are kube's apiservercel.Error: a type
// (Invalid, Internal) and a detail, which registration-time validation turns
// into field errors and evaluation into "compilation error: <detail>".
import type { AdmissionCelEngine, CelProgram, VariableDeclarations } from './engine.js';

export interface CelErrorDetail {
  readonly type: 'Invalid' | 'Internal';
  readonly detail: string;
}

/** cel-go's printed types an expression kind may produce (kube's ExpressionAccessor.ReturnTypes). */
export type ReturnTypes = readonly string[];
export const BOOL: ReturnTypes = ['bool'];
export const STRING: ReturnTypes = ['string'];
export const STRING_OR_NULL: ReturnTypes = ['string', 'null_type'];

export interface Compiled {
  readonly expression: string;
  readonly program?: CelProgram;
  readonly error?: CelErrorDetail;
}

export function compileExpression(engine: AdmissionCelEngine, expression: string, returns: ReturnTypes, vars: VariableDeclarations): Compiled {
  let outcome;
  try {
    outcome = engine.compile(expression, vars);
  } catch (err) {
    return { expression, error: { type: 'Internal', detail: `unexpected compilation error: ${err instanceof Error ? err.message : String(err)}` } };
  }
  if (!outcome.ok) return { expression, error: { type: 'Invalid', detail: `compilation failed: ${outcome.issues}` } };
  if (!returns.includes(outcome.outputType)) {
    const detail = returns.length === 1 ? `must evaluate to ${returns[0]}` : `must evaluate to one of [${returns.join(' ')}]`;
    return { expression, error: { type: 'Invalid', detail } };
  }
  return { expression, program: outcome.program };
}
