// The admission expression engine over src/cel (kube's plugin/cel
// environments, v1.27): the standard library, the strings extension and
// Kubernetes' URL, regex, list and authorizer libraries; homogeneous
// aggregate literals; `object` and `oldObject` dyn, `request` typed as kube's
// kubernetes.AdmissionRequest, `params` dyn when the policy has a paramKind,
// `authorizer` and `authorizer.requestResource` where the expression kind
// allows them. One environment per combination of the optional variables,
// built once. Programs track cost and halt past the per-call limit.
//
// Authorizer checks go through cel/k8s's AuthzSession, one per
// AuthorizerInput (one per request): an authorizer that answers
// synchronously decides inline; one that waits makes the evaluation
// `pending` until its decision is in (the caller evaluates again).
import { Env, formatIssues, formatType, CelError, type Program } from '../../cel/index.js';
import {
  AUTHORIZER_TYPE, RESOURCE_CHECK_TYPE, AuthzSession, authorizerFor, authzLibrary, k8sLibraries, requestResourceCheck, schemaType,
  type Schema,
} from '../../cel/k8s/index.js';
import { T, listOf, mapOf, type FieldType, type ObjectType, type Type } from '../../cel/types.js';
import { kubernetesGroup } from '../../endpoints/requestinfo.js';
import type { AdmissionActivation, AdmissionCelEngine, AuthorizerInput, CompileOutcome, EvalOutcome, OpenAPISchema, VariableDeclarations } from './engine.js';
import { PER_CALL_LIMIT } from './limits.js';

const field = (type: Type, wireName: string, required = false): FieldType => ({ type, wireName, required });
const object = (name: string, fields: Record<string, [Type, boolean]>): ObjectType => ({
  kind: 'object', name, fields: new Map(Object.entries(fields).map(([k, [t, r]]) => [k, field(t, k, r)])),
});

/** kube's BuildRequestType. */
export const ADMISSION_REQUEST_TYPE: ObjectType = (() => {
  const gvk = object('kubernetes.GroupVersionKind', { group: [T.string, true], version: [T.string, true], kind: [T.string, true] });
  const gvr = object('kubernetes.GroupVersionResource', { group: [T.string, true], version: [T.string, true], resource: [T.string, true] });
  const userInfo = object('kubernetes.UserInfo', {
    username: [T.string, false], uid: [T.string, false], groups: [listOf(T.string), false], extra: [mapOf(T.string, listOf(T.string)), false],
  });
  return object('kubernetes.AdmissionRequest', {
    kind: [gvk, true], resource: [gvr, true], subResource: [T.string, false], requestKind: [gvk, true], requestResource: [gvr, true],
    requestSubResource: [T.string, false], name: [T.string, true], namespace: [T.string, false], operation: [T.string, true],
    userInfo: [userInfo, true], dryRun: [T.bool, false], options: [T.dyn, false],
  });
})();

const LIBRARIES = ['strings', ...k8sLibraries, authzLibrary] as const;

function buildEnv(variables: Record<string, Type>): Env {
  return new Env({ libraries: LIBRARIES, variables, homogeneousAggregateLiterals: true });
}

const printedType = (t: Type | undefined): string => (t === undefined ? 'dyn' : t.kind === 'null' ? 'null_type' : formatType(t));

interface Bound { readonly session: AuthzSession; readonly values: { readonly authorizer: unknown; readonly requestResource: unknown } }

/**
 * What an AdmissionActivation carries for this engine: its activation record
 * and, once an expression that names the authorizer runs, its session.
 */
interface State { readonly record: Record<string, unknown>; bound: Bound | undefined }

/** The outcome of a successful evaluation, reused (engine.ts: read before the next evaluation). */
interface Ok { ok: true; value: unknown; cost: number }

class CelProgramOver {
  private readonly ok: Ok = { ok: true, value: undefined, cost: 0 };
  constructor(
    private readonly program: Program,
    private readonly bind: (input: AuthorizerInput) => Bound,
    /** Whether the expression can name the authorizer variables (its text mentions them). */
    private readonly usesAuthorizer: boolean,
  ) {}

  eval(v: AdmissionActivation, costLimit: number): EvalOutcome {
    if (costLimit !== this.program.costLimit) throw new Error(`admission programs are planned for the per-call limit ${this.program.costLimit}`);
    let state = v.engineState as State | undefined;
    if (state === undefined) v.engineState = state = { record: { object: v.object, oldObject: v.oldObject, params: v.params, request: v.request }, bound: undefined };
    if (this.usesAuthorizer && state.bound === undefined && v.authorizer) {
      const bound = (state.bound = this.bind(v.authorizer));
      state.record.authorizer = bound.values.authorizer;
      state.record['authorizer.requestResource'] = bound.values.requestResource;
    }
    const activation = state.record;
    const bound = this.usesAuthorizer ? state.bound : undefined;
    try {
      const value = this.program.eval(activation);
      if (bound?.session.pending) return { ok: 'pending', settled: bound.session.settle() };
      const ok = this.ok;
      ok.value = value;
      ok.cost = this.program.actualCost;
      return ok;
    } catch (err) {
      if (bound?.session.pending) return { ok: 'pending', settled: bound.session.settle() };
      if (err instanceof CelError) return { ok: false, error: err.message, cost: this.program.actualCost };
      throw err;
    }
  }
}

export class CelAdmissionEngine implements AdmissionCelEngine {
  private readonly envs = new Map<string, Env>();
  private readonly sessions = new WeakMap<AuthorizerInput, Bound>();
  private readonly bind = (input: AuthorizerInput): Bound => {
    let b = this.sessions.get(input);
    if (!b) {
      const session = new AuthzSession(input.authorizer);
      const authorizer = authorizerFor(session, input.user);
      const r = input.resource;
      const requestResource = requestResourceCheck(authorizer, { group: kubernetesGroup(r.group), resource: r.resource, subresource: r.subresource, namespace: r.namespace, name: r.name });
      this.sessions.set(input, (b = { session, values: { authorizer, requestResource } }));
    }
    return b;
  };

  private env(vars: VariableDeclarations): Env {
    const key = `${vars.hasParams}/${vars.hasAuthorizer}`;
    let env = this.envs.get(key);
    if (!env) {
      const variables: Record<string, Type> = { object: T.dyn, oldObject: T.dyn, request: ADMISSION_REQUEST_TYPE };
      if (vars.hasParams) variables.params = T.dyn;
      if (vars.hasAuthorizer) {
        variables.authorizer = AUTHORIZER_TYPE;
        variables['authorizer.requestResource'] = RESOURCE_CHECK_TYPE;
      }
      this.envs.set(key, (env = buildEnv(variables)));
    }
    return env;
  }

  compile(expression: string, vars: VariableDeclarations): CompileOutcome {
    const env = this.env(vars);
    const c = env.compile(expression);
    if (!c.ast || c.issues.length > 0) return { ok: false, issues: formatIssues(c.issues, expression) };
    const program = env.program(c.ast, { costLimit: PER_CALL_LIMIT, optimize: true });
    return { ok: true, outputType: printedType(c.type), program: new CelProgramOver(program, this.bind, vars.hasAuthorizer && expression.includes('authorizer')) };
  }

  typeCheck(expression: string, hasParams: boolean, schemas: { object?: OpenAPISchema; params?: OpenAPISchema }): string | undefined {
    const objectType = schemas.object ? schemaType(schemas.object as Schema, { name: 'Object', resourceRoot: true }) : undefined;
    const variables: Record<string, Type> = { object: objectType ?? T.dyn, oldObject: objectType ?? T.dyn, request: ADMISSION_REQUEST_TYPE };
    if (hasParams) variables.params = (schemas.params ? schemaType(schemas.params as Schema, { name: 'Params', resourceRoot: true }) : undefined) ?? T.dyn;
    const c = buildEnv(variables).compile(expression);
    return c.issues.length > 0 ? formatIssues(c.issues, expression) : undefined;
  }
}

let shared: CelAdmissionEngine | undefined;
/** The server's engine (its environments are built at the first use). */
export const admissionCelEngine = (): CelAdmissionEngine => (shared ??= new CelAdmissionEngine());
