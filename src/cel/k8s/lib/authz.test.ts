import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Attributes, Authorizer, Decision } from '../../../authz/authorizer.js';
import { CelError } from '../../values.js';
import { typeOfValue } from '../../runtime/typeof.js';
import {
  authzLibrary, AuthzPending, AuthzSession, authorizerFor, DecisionValue, evaluateWithAuthorizer, requestResourceCheck,
} from './authz.js';

const impl = (id: string) => {
  const i = authzLibrary.impls.find((x) => x.id === id);
  assert.ok(i, id);
  return i;
};
const bin = (id: string, a: unknown, b: unknown): unknown => impl(id).binary!(a, b);
const un = (id: string, a: unknown): unknown => impl(id).unary!(a);
const celError = (message: string) => (e: unknown): boolean => {
  assert.ok(e instanceof CelError, String(e));
  assert.equal(e.message, message);
  return true;
};
const USER = { name: 'alice', groups: ['dev', 'system:authenticated'] };

/** An authorizer that allows `get` on deployments in ns1 and GET /healthz, and records what it was asked. */
function recording(answer: (a: Attributes) => Decision | Promise<Decision> = rule): Authorizer & { asked: Attributes[] } {
  const asked: Attributes[] = [];
  return { name: 'test', asked, authorize: (a) => (asked.push(a), answer(a)) };
}
function rule(a: Attributes): Decision {
  if (a.isResourceRequest) {
    const ok = a.verb === 'get' && a.resource === 'deployments' && a.namespace === 'ns1' && a.apiGroup === 'apps';
    return ok ? { decision: 'allow', reason: 'rbac: allowed' } : { decision: 'noOpinion', reason: 'no rule' };
  }
  return a.path === '/healthz' && a.verb === 'get' ? { decision: 'allow', reason: '' } : { decision: 'deny', reason: 'denied path' };
}

test('authz: declarations and implementations as kube names them', () => {
  const ids = authzLibrary.functions.flatMap((f) => f.overloads.map((o) => o.id)).sort();
  assert.deepEqual(ids, [
    'authorizer_group', 'authorizer_path', 'authorizer_serviceaccount', 'decision_allowed', 'decision_reason',
    'groupcheck_resource', 'pathcheck_check', 'resourcecheck_check', 'resourcecheck_name', 'resourcecheck_namespace', 'resourcecheck_subresource',
  ]);
  assert.deepEqual(authzLibrary.impls.map((i) => i.id).sort(), ids);
  const check = authzLibrary.functions.find((f) => f.name === 'check')!;
  assert.deepEqual(check.overloads.map((o) => [o.params[0]!.kind === 'opaque' && o.params[0]!.name, o.result.kind === 'opaque' && o.result.name]), [
    ['kubernetes.authorization.PathCheck', 'kubernetes.authorization.Decision'],
    ['kubernetes.authorization.ResourceCheck', 'kubernetes.authorization.Decision'],
  ]);
});

test('authz: resource and path checks ask the authorizer with kube attributes', () => {
  const z = recording();
  const authorizer = authorizerFor(new AuthzSession(z), USER);
  assert.equal(typeOfValue(authorizer).name, 'kubernetes.authorization.Authorizer');
  let r = bin('groupcheck_resource', bin('authorizer_group', authorizer, 'apps'), 'deployments');
  assert.equal(typeOfValue(r).name, 'kubernetes.authorization.ResourceCheck');
  r = bin('resourcecheck_name', bin('resourcecheck_namespace', bin('resourcecheck_subresource', r, 'scale'), 'ns1'), 'web');
  const d = bin('resourcecheck_check', r, 'get') as DecisionValue;
  assert.equal(typeOfValue(d).name, 'kubernetes.authorization.Decision');
  assert.equal(un('decision_allowed', d), true);
  assert.equal(un('decision_reason', d), 'rbac: allowed');
  assert.deepEqual(z.asked[0], {
    user: USER, isResourceRequest: true, path: '', verb: 'get', apiGroup: 'apps', apiVersion: '*',
    resource: 'deployments', subresource: 'scale', namespace: 'ns1', name: 'web',
  });
  const denied = bin('resourcecheck_check', r, 'delete');
  assert.equal(un('decision_allowed', denied), false);
  assert.equal(un('decision_reason', denied), 'no rule');
  const p = bin('authorizer_path', authorizer, '/healthz');
  assert.equal(un('decision_allowed', bin('pathcheck_check', p, 'get')), true);
  assert.deepEqual(z.asked[2], { user: USER, isResourceRequest: false, path: '/healthz', verb: 'get' });
  const other = bin('pathcheck_check', bin('authorizer_path', authorizer, '/metrics'), 'get');
  assert.deepEqual([un('decision_allowed', other), un('decision_reason', other)], [false, 'denied path']);
  // Either check overload takes either receiver (dispatch without types).
  assert.equal(un('decision_allowed', bin('pathcheck_check', r, 'get')), true);
  // The same check is asked once per session.
  bin('resourcecheck_check', r, 'get');
  assert.equal(z.asked.length, 4);
  // The request's own resource.
  const own = requestResourceCheck(authorizer, { group: 'apps', resource: 'deployments', namespace: 'ns1' });
  assert.equal(un('decision_allowed', bin('resourcecheck_check', own, 'get')), true);
});

test('authz: argument checks and errors worded as kube', () => {
  const z = recording(() => ({ decision: 'noOpinion', reason: '', error: 'webhook unreachable' }));
  const authorizer = authorizerFor(new AuthzSession(z), USER);
  assert.throws(() => bin('authorizer_path', authorizer, '  '), celError('path must not be empty'));
  assert.throws(() => bin('groupcheck_resource', bin('authorizer_group', authorizer, ''), ''), celError('resource must not be empty'));
  assert.throws(() => bin('resourcecheck_check', bin('groupcheck_resource', bin('authorizer_group', authorizer, ''), 'pods'), 'get'), celError('error in authorization check: webhook unreachable'));
  assert.throws(() => bin('authorizer_group', 'not an authorizer', 'apps'), celError('no such overload'));
  assert.throws(() => un('decision_allowed', 'x'), celError('no such overload'));
  const sa = impl('authorizer_serviceaccount').call!;
  assert.throws(() => sa([authorizer, 'default', 'Bad_Name']), celError('Invalid service account name'));
  assert.throws(() => sa([authorizer, 'bad.ns', 'robot']), celError('Invalid service account namespace'));
  const ok = recording();
  const asSa = sa([authorizerFor(new AuthzSession(ok), USER), 'kube-system', 'robot.v1']);
  bin('pathcheck_check', bin('authorizer_path', asSa, '/x'), 'get');
  assert.deepEqual(ok.asked[0]!.user, { name: 'system:serviceaccount:kube-system:robot.v1', uid: '', groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system'] });
});

test('authz: asynchronous authorizers are settled between evaluations', async () => {
  const z = recording(async (a) => rule(a));
  const session = new AuthzSession(z);
  const authorizer = authorizerFor(session, USER);
  let runs = 0;
  // The evaluation a rule would do: two checks, the second only when the first allows.
  const evaluate = (): boolean => {
    runs++;
    const r = bin('groupcheck_resource', bin('authorizer_group', authorizer, 'apps'), 'deployments');
    const first = un('decision_allowed', bin('resourcecheck_check', bin('resourcecheck_namespace', r, 'ns1'), 'get'));
    if (!first) return false;
    return un('decision_allowed', bin('pathcheck_check', bin('authorizer_path', authorizer, '/healthz'), 'get')) as boolean;
  };
  assert.throws(evaluate, (e: unknown) => e instanceof AuthzPending);
  assert.ok(session.pending);
  await session.settle();
  assert.ok(!session.pending);
  runs = 0;
  assert.equal(await evaluateWithAuthorizer(session, evaluate), true);
  assert.equal(runs, 2, 'one run to discover the path check, one to finish');
  assert.equal(z.asked.length, 2);
  // A rejected authorization becomes the check's error.
  const failing = new AuthzSession({ name: 'x', authorize: () => Promise.reject(new Error('connection refused')) });
  const fa = authorizerFor(failing, USER);
  await assert.rejects(
    evaluateWithAuthorizer(failing, () => bin('pathcheck_check', bin('authorizer_path', fa, '/x'), 'get')),
    celError('error in authorization check: connection refused'),
  );
  // Prefetching answers the evaluation's checks in advance.
  const pre = new AuthzSession(recording(async (a) => rule(a)));
  await pre.prefetch([{ user: USER, isResourceRequest: false, path: '/healthz', verb: 'get' }]);
  const d = bin('pathcheck_check', bin('authorizer_path', authorizerFor(pre, USER), '/healthz'), 'get');
  assert.equal(un('decision_allowed', d), true);
});
