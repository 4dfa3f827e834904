// Kubernetes' authorizer library for admission policies
// (apiserver/pkg/cel/library/authz.go, v1.27):
//
//   authorizer.path('/healthz').check('get')                          → Decision
//   authorizer.group('apps').resource('deployments')
//     [.subresource('scale')][.namespace('ns')][.name('web')].check('update')
//   authorizer.serviceAccount('ns', 'sa')…                            → Authorizer for that user
//   <Decision>.allowed()  <Decision>.reason()
//
// Checks ask the server's authorizer (src/authz Authorizer: a Decision, or a
// Promise of one for authorizers that wait, e.g. a webhook). CEL evaluation is
// synchronous, so an AuthzSession stands between them:
//
//   evaluate ──check──▶ session cache ──hit──▶ Decision
//                          │ miss: authorize(attributes)
//                          ├─ Decision ─▶ cached, returned (RBAC, Node, ABAC…)
//                          └─ Promise ─▶ recorded as pending; the check throws
//                                         AuthzPending (a CelError)
//   evaluateWithAuthorizer: after an evaluation that left checks pending, await
//   them (cached), evaluate again; repeat until no check is pending.
//
// An evaluation is deterministic over the same inputs and decisions, so the
// re-run asks the same checks and finds them answered; the final run is a
// plain synchronous evaluation (its result and runtime cost are exact). A
// caller that knows its checks can also settle them ahead (session.prefetch).

import type { FunctionDecl, Library, OverloadImpl } from '../../decls.js';
import type { Type } from '../../types.js';
import { T, opaque } from '../../types.js';
import { CelError } from '../../values.js';
import { errNoSuchOverload } from '../../runtime/errors.js';
import type { Attributes, Authorizer, Decision } from '../../../authz/authorizer.js';
import type { UserInfo } from '../../../authn/user.js';
import { serviceAccountUser } from '../../../authn/serviceaccount/jwt.js';
import { isDns1123Label, isDns1123Subdomain } from '../../../api/meta/validation.js';

export const AUTHORIZER_TYPE = opaque('kubernetes.authorization.Authorizer');
export const PATH_CHECK_TYPE = opaque('kubernetes.authorization.PathCheck');
export const GROUP_CHECK_TYPE = opaque('kubernetes.authorization.GroupCheck');
export const RESOURCE_CHECK_TYPE = opaque('kubernetes.authorization.ResourceCheck');
export const DECISION_TYPE = opaque('kubernetes.authorization.Decision');

/** Thrown by a check whose decision is still being awaited. */
export class AuthzPending extends CelError {
  constructor() {
    super('authorization check pending');
  }
}

type Settled = { decision: Decision } | { error: string };

/** The decisions of one admission evaluation (one request): cached by attributes. */
export class AuthzSession {
  private readonly decided = new Map<string, Settled>();
  private readonly waiting = new Map<string, Promise<void>>();

  constructor(readonly authorizer: Authorizer) {}

  /** Whether some check of the last evaluation is waiting for its decision. */
  get pending(): boolean {
    return this.waiting.size > 0;
  }

  /** The decision for attributes (synchronous), or AuthzPending. */
  decide(a: Attributes): Decision {
    const key = attributesKey(a);
    let s = this.decided.get(key);
    if (s === undefined) {
      if (this.waiting.has(key)) throw new AuthzPending();
      let d: Decision | Promise<Decision>;
      try {
        d = this.authorizer.authorize(a);
      } catch (e) {
        d = Promise.reject(e);
      }
      if (d instanceof Promise) {
        this.waiting.set(key, this.await(key, d));
        throw new AuthzPending();
      }
      s = { decision: d };
      this.decided.set(key, s);
    }
    if ('error' in s) throw new CelError(`error in authorization check: ${s.error}`);
    if (s.decision.error !== undefined) throw new CelError(`error in authorization check: ${s.decision.error}`);
    return s.decision;
  }

  private async await(key: string, p: Promise<Decision>): Promise<void> {
    try {
      this.decided.set(key, { decision: await p });
    } catch (e) {
      this.decided.set(key, { error: e instanceof Error ? e.message : String(e) });
    }
  }

  /** Waits for every pending decision. */
  async settle(): Promise<void> {
    const all = [...this.waiting.values()];
    this.waiting.clear();
    await Promise.all(all);
  }

  /** Asks for decisions ahead of evaluation (e.g. the request's own resource). */
  async prefetch(attrs: readonly Attributes[]): Promise<void> {
    for (const a of attrs) {
      try {
        this.decide(a);
      } catch {
        // pending or an error: settled below / reported when the rule asks
      }
    }
    await this.settle();
  }
}

/** Runs `evaluate` until no authorization check is left pending (at most maxRounds re-runs). */
export async function evaluateWithAuthorizer<R>(session: AuthzSession, evaluate: () => R, maxRounds = 32): Promise<R> {
  for (let round = 0; ; round++) {
    let result: R | undefined;
    let error: unknown;
    let threw = false;
    try {
      result = evaluate();
    } catch (e) {
      error = e;
      threw = true;
    }
    if (!session.pending) {
      if (threw) throw error;
      return result as R;
    }
    if (round >= maxRounds) throw new CelError('error in authorization check: too many rounds of pending checks');
    await session.settle();
  }
}

function attributesKey(a: Attributes): string {
  const u = a.user;
  const who = JSON.stringify([u.name, u.uid ?? '', u.groups, u.extra ?? null]);
  if (a.isResourceRequest) {
    return `${who}\u0000r\u0000${a.verb}\u0000${a.apiGroup}\u0000${a.apiVersion}\u0000${a.resource}\u0000${a.subresource}\u0000${a.namespace}\u0000${a.name}`;
  }
  return `${who}\u0000p\u0000${a.verb}\u0000${a.path}`;
}

// --- values -------------------------------------------------------------------

export class AuthorizerValue {
  readonly celTypeName = 'kubernetes.authorization.Authorizer';
  constructor(
    readonly session: AuthzSession,
    readonly user: UserInfo,
  ) {}
}

export class PathCheckValue {
  readonly celTypeName = 'kubernetes.authorization.PathCheck';
  constructor(
    readonly authorizer: AuthorizerValue,
    readonly path: string,
  ) {}
}

export class GroupCheckValue {
  readonly celTypeName = 'kubernetes.authorization.GroupCheck';
  constructor(
    readonly authorizer: AuthorizerValue,
    readonly group: string,
  ) {}
}

export class ResourceCheckValue {
  readonly celTypeName = 'kubernetes.authorization.ResourceCheck';
  constructor(
    readonly authorizer: AuthorizerValue,
    readonly group: string,
    readonly resource: string,
    readonly subresource = '',
    readonly namespace = '',
    readonly name = '',
  ) {}
  with(part: { subresource?: string; namespace?: string; name?: string }): ResourceCheckValue {
    return new ResourceCheckValue(
      this.authorizer,
      this.group,
      this.resource,
      part.subresource ?? this.subresource,
      part.namespace ?? this.namespace,
      part.name ?? this.name,
    );
  }
}

export class DecisionValue {
  readonly celTypeName = 'kubernetes.authorization.Decision';
  constructor(
    readonly decision: Decision['decision'],
    readonly reason: string,
  ) {}
}

/** The `authorizer` variable of an admission policy: checks as `user`. */
export const authorizerFor = (session: AuthzSession, user: UserInfo): AuthorizerValue => new AuthorizerValue(session, user);

/** The `authorizer.requestResource` variable: a ResourceCheck for the request's own resource (kube's NewResourceAuthorizerVal). */
export function requestResourceCheck(
  a: AuthorizerValue,
  r: { group: string; resource: string; subresource?: string; namespace?: string; name?: string },
): ResourceCheckValue {
  return new ResourceCheckValue(a, r.group, r.resource, r.subresource ?? '', r.namespace ?? '', r.name ?? '');
}

// --- implementations --------------------------------------------------------------

const str = (v: unknown): string => {
  if (typeof v !== 'string') throw errNoSuchOverload;
  return v;
};

function path(a: unknown, p: unknown): PathCheckValue {
  if (!(a instanceof AuthorizerValue)) throw errNoSuchOverload;
  if (str(p).trim().length === 0) throw new CelError('path must not be empty');
  return new PathCheckValue(a, p as string);
}

function group(a: unknown, g: unknown): GroupCheckValue {
  if (!(a instanceof AuthorizerValue)) throw errNoSuchOverload;
  return new GroupCheckValue(a, str(g));
}

function serviceAccount(args: unknown[]): AuthorizerValue {
  const [a, namespace, name] = args;
  if (!(a instanceof AuthorizerValue)) throw errNoSuchOverload;
  if (!isDns1123Subdomain(str(name))) throw new CelError('Invalid service account name');
  if (!isDns1123Label(str(namespace))) throw new CelError('Invalid service account namespace');
  return new AuthorizerValue(a.session, serviceAccountUser({ namespace: namespace as string, name: name as string, uid: '' }));
}

function resource(g: unknown, r: unknown): ResourceCheckValue {
  if (!(g instanceof GroupCheckValue)) throw errNoSuchOverload;
  if (str(r).trim().length === 0) throw new CelError('resource must not be empty');
  return new ResourceCheckValue(g.authorizer, g.group, r as string);
}

const resourcePart = (part: 'subresource' | 'namespace' | 'name') => (r: unknown, v: unknown): ResourceCheckValue => {
  if (!(r instanceof ResourceCheckValue)) throw errNoSuchOverload;
  return r.with({ [part]: str(v) });
};

/** check(verb) on a PathCheck or a ResourceCheck (either overload takes either,
 * so dispatch without type information cannot pick the wrong one). */
function check(c: unknown, verb: unknown): DecisionValue {
  const v = str(verb);
  let d: Decision;
  if (c instanceof ResourceCheckValue) {
    d = c.authorizer.session.decide({
      user: c.authorizer.user,
      isResourceRequest: true,
      path: '',
      verb: v,
      apiGroup: c.group,
      apiVersion: '*',
      resource: c.resource,
      subresource: c.subresource,
      namespace: c.namespace,
      name: c.name,
    });
  } else if (c instanceof PathCheckValue) {
    d = c.authorizer.session.decide({ user: c.authorizer.user, isResourceRequest: false, path: c.path, verb: v });
  } else throw errNoSuchOverload;
  return new DecisionValue(d.decision, d.reason);
}

const decisionOf = (d: unknown): DecisionValue => {
  if (!(d instanceof DecisionValue)) throw errNoSuchOverload;
  return d;
};

const member = (name: string, ...overloads: [id: string, params: Type[], result: Type][]): FunctionDecl => ({
  name,
  overloads: overloads.map(([id, params, result]) => ({ id, params, result, receiver: true })),
});

const functions: FunctionDecl[] = [
  member('path', ['authorizer_path', [AUTHORIZER_TYPE, T.string], PATH_CHECK_TYPE]),
  member('group', ['authorizer_group', [AUTHORIZER_TYPE, T.string], GROUP_CHECK_TYPE]),
  member('serviceAccount', ['authorizer_serviceaccount', [AUTHORIZER_TYPE, T.string, T.string], AUTHORIZER_TYPE]),
  member('resource', ['groupcheck_resource', [GROUP_CHECK_TYPE, T.string], RESOURCE_CHECK_TYPE]),
  member('subresource', ['resourcecheck_subresource', [RESOURCE_CHECK_TYPE, T.string], RESOURCE_CHECK_TYPE]),
  member('namespace', ['resourcecheck_namespace', [RESOURCE_CHECK_TYPE, T.string], RESOURCE_CHECK_TYPE]),
  member('name', ['resourcecheck_name', [RESOURCE_CHECK_TYPE, T.string], RESOURCE_CHECK_TYPE]),
  member(
    'check',
    ['pathcheck_check', [PATH_CHECK_TYPE, T.string], DECISION_TYPE],
    ['resourcecheck_check', [RESOURCE_CHECK_TYPE, T.string], DECISION_TYPE],
  ),
  member('allowed', ['decision_allowed', [DECISION_TYPE], T.bool]),
  member('reason', ['decision_reason', [DECISION_TYPE], T.string]),
];

const impls: OverloadImpl[] = [
  { id: 'authorizer_path', binary: path },
  { id: 'authorizer_group', binary: group },
  { id: 'authorizer_serviceaccount', call: serviceAccount },
  { id: 'groupcheck_resource', binary: resource },
  { id: 'resourcecheck_subresource', binary: resourcePart('subresource') },
  { id: 'resourcecheck_namespace', binary: resourcePart('namespace') },
  { id: 'resourcecheck_name', binary: resourcePart('name') },
  { id: 'pathcheck_check', binary: check },
  { id: 'resourcecheck_check', binary: check },
  { id: 'decision_allowed', unary: (d) => decisionOf(d).decision === 'allow' },
  { id: 'decision_reason', unary: (d) => decisionOf(d).reason },
];

export const authzLibrary: Library = { name: 'k8s.authz', functions, impls };
