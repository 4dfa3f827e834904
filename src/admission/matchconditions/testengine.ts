// For tests of the admission code around the expression language: an engine
// that knows a fixed table of expressions (text → output type and a JS
// function of the activation, with the cost each evaluation reports), and
// answers any other text with a compile error. It lets the tables of
// matcher, validator and plugin tests pin kube's decisions and texts
// independently of src/cel.
import type { AdmissionActivation, AdmissionCelEngine, CompileOutcome, EvalOutcome } from './engine.js';

export interface TestExpression {
  readonly type: string;
  /** Returns the value, or throws a string (the CEL error text). */
  readonly fn: (v: AdmissionActivation) => unknown;
  readonly cost?: number;
  /** Like an authorizer check on an asynchronous authorizer: the first evaluation per AuthorizerInput is pending. */
  readonly waitsOnce?: boolean;
  /** The issues of a type check against an object schema (given the schema's `title`); none: it checks. */
  readonly typeIssues?: (schemaTitle: string) => string | undefined;
}

export class TestEngine implements AdmissionCelEngine {
  /** Every compile: text and whether params/authorizer were declared. */
  readonly compiled: { expression: string; hasParams: boolean; hasAuthorizer: boolean }[] = [];
  /** Evaluations that were answered pending. */
  pendings = 0;
  private readonly settled = new WeakSet<object>();
  constructor(private readonly table: Readonly<Record<string, TestExpression>>) {}

  /** Type checks: the expression and whether each schema was given. */
  readonly typeChecked: { expression: string; hasParams: boolean; object: boolean; params: boolean }[] = [];

  /** Expressions the table marks `typeIssues` fail type checking against an object schema with that text. */
  typeCheck(expression: string, hasParams: boolean, schemas: { object?: unknown; params?: unknown }): string | undefined {
    this.typeChecked.push({ expression, hasParams, object: schemas.object !== undefined, params: schemas.params !== undefined });
    const e = this.table[expression];
    if (!e) return `ERROR: <input>:1:1: undeclared reference to '${expression}'`;
    return schemas.object !== undefined && e.typeIssues ? e.typeIssues((schemas.object as { title?: string }).title ?? '') : undefined;
  }

  compile(expression: string, vars: { hasParams: boolean; hasAuthorizer: boolean }): CompileOutcome {
    this.compiled.push({ expression, ...vars });
    const e = this.table[expression];
    const engine = this;
    if (!e) return { ok: false, issues: `ERROR: <input>:1:1: undeclared reference to '${expression}'\n | ${expression}\n | ^` };
    return {
      ok: true, outputType: e.type,
      program: {
        eval(v, limit): EvalOutcome {
          if (e.waitsOnce && v.authorizer && !engine.settled.has(v.authorizer)) {
            engine.pendings++;
            const input = v.authorizer;
            return { ok: 'pending', settled: Promise.resolve().then(() => { engine.settled.add(input); }) };
          }
          const cost = e.cost ?? 1;
          if (cost > limit) return { ok: false, error: 'operation cancelled: actual cost limit exceeded', cost };
          try {
            return { ok: true, value: e.fn(v), cost };
          } catch (err) {
            if (typeof err === 'string') return { ok: false, error: err, cost };
            throw err;
          }
        },
      },
    };
  }
}
