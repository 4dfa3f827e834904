// Kubernetes' authorizer library for admission policies
// (apiserver/pkg/cel/library/authz.go, v1.27):
//
//   authorizer.path('/healthz').check('get')                          → Decision
//   authorizer.group('apps').resource('deployments')
//     [.subresource('scale')][.namespace('ns')][.name('web')].check('update')
//   authorizer.serviceAccount('ns', 'sa')…                            → Authorizer for that user
//   <Decision>.allowed()  <Decision>.reason()
//
// Checks ask the server's authorizer through an AuthzSession (authzsession.ts),
// which bridges synchronous evaluation and asynchronous authorizers.

import type { FunctionDecl, Library, OverloadImpl } from '../../decls.js';
import type { Type } from '../../types.js';
import { T, opaque } from '../../types.js';
import { CelError } from '../../values.js';
import { errNoSuchOverload } from '../../runtime/errors.js';
import type { Decision } from '../../../authz/authorizer.js';
import type { UserInfo } from '../../../authn/user.js';
import { serviceAccountUser } from '../../../authn/serviceaccount/jwt.js';
import { isDns1123Label, isDns1123Subdomain } from '../../../api/meta/validation.js';
import type { AuthzSession } from './authzsession.js';

export { AuthzPending, AuthzSession, evaluateWithAuthorizer } from './authzsession.js';

export const AUTHORIZER_TYPE = opaque('kubernetes.authorization.Authorizer');
export const PATH_CHECK_TYPE = opaque('kubernetes.authorization.PathCheck');
export const GROUP_CHECK_TYPE = opaque('kubernetes.authorization.GroupCheck');
export const RESOURCE_CHECK_TYPE = opaque('kubernetes.authorization.ResourceCheck');
export const DECISION_TYPE = opaque('kubernetes.authorization.Decision');

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
