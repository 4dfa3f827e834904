// The seam between admission and the expression language (src/cel): what
// the admission code needs of an engine, in its own terms, so the plugin and
// the webhooks' matchConditions do not depend on the engine's internals.
// celengine.ts implements it over src/cel/index.ts (kube's plugin/cel
// environments: object, oldObject, request typed as kube's AdmissionRequest,
// params, authorizer and authorizer.requestResource; the Kubernetes libraries;
// cost tracking under a per-call limit).
import type { Authorizer } from '../../authz/authorizer.js';
import type { UserInfo } from '../../authn/user.js';

/** kube's OptionalVariableDeclarations: which optional variables an expression may use. */
export interface VariableDeclarations {
  readonly hasParams: boolean;
  readonly hasAuthorizer: boolean;
}

/**
 * What the authorizer variables check against: the request's user, the
 * server's authorizer, the request's resource. One object per request: the
 * engine keeps the request's decisions with it.
 */
export interface AuthorizerInput {
  readonly user: UserInfo;
  readonly authorizer: Authorizer;
  readonly resource: {
    readonly group: string; readonly version: string; readonly resource: string;
    readonly subresource: string; readonly namespace: string; readonly name: string;
  };
}

/** The variables of one evaluation (JSON values as admission holds them; null when absent). */
export interface AdmissionActivation {
  readonly object: unknown;
  readonly oldObject: unknown;
  readonly params: unknown;
  readonly request: unknown;
  /** Absent: no authorizer variables (messageExpression, audit annotations). */
  readonly authorizer?: AuthorizerInput;
  /** The engine's own state for these variables (set at the first evaluation; one object serves many programs). */
  engineState?: unknown;
}

export type EvalOutcome =
  | { readonly ok: true; readonly value: unknown; readonly cost: number }
  /** `error`: cel-go's text of the evaluation error (`no such key: missing`, `operation cancelled: actual cost limit exceeded`). */
  | { readonly ok: false; readonly error: string; readonly cost: number }
  /**
   * An authorizer check is waiting for an authorizer that answers
   * asynchronously (a webhook): once `settled`, the caller evaluates again
   * with the same AuthorizerInput, whose decisions are then known.
   */
  | { readonly ok: 'pending'; readonly settled: Promise<void> };

/**
 * A compiled expression: evaluated with runtime cost tracking, halting past
 * `costLimit`. Never throws for CEL errors. The outcome may be reused by the
 * program: read it before the program's next evaluation.
 */
export interface CelProgram {
  eval(activation: AdmissionActivation, costLimit: number): EvalOutcome;
}

export type CompileOutcome =
  /** `outputType`: the checked type as cel-go prints it (`bool`, `string`, `null_type`, `dyn`…). */
  | { readonly ok: true; readonly program: CelProgram; readonly outputType: string }
  /** `issues`: cel-go's Issues.String() (`ERROR: <input>:1:24: Syntax error: …\n | …\n | …^`). */
  | { readonly ok: false; readonly issues: string };

/** A structural OpenAPI v3 schema (JSON), inline (no $refs). */
export type OpenAPISchema = Readonly<Record<string, unknown>>;

/** Parses and checks an expression in the admission environment with the given optional variables. */
export interface AdmissionCelEngine {
  compile(expression: string, vars: VariableDeclarations): CompileOutcome;
  /**
   * kube's TypeChecker environment (status.typeChecking): `request`, and
   * `object`/`oldObject` typed by the resource's schema (dyn without one),
   * `params` by the paramKind's schema when declared; no authorizer. The
   * issues as cel-go prints them, or undefined when the expression checks.
   */
  typeCheck(expression: string, hasParams: boolean, schemas: { readonly object?: OpenAPISchema; readonly params?: OpenAPISchema }): string | undefined;
}
