// The RBAC authorizer over fixed roles and bindings: subjects, binding scope,
// kube v1.27's allow reason texts, no reason when nothing matched, and the
// rules lists SelfSubjectRulesReview shows.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { UserInfo } from '../../authn/user.js';
import type { Attributes } from '../authorizer.js';
import { RbacAuthorizer, staticRbac, subjectMatches, type Binding } from './authorizer.js';

const alice: UserInfo = { name: 'alice', groups: ['system:authenticated'] };
const bob: UserInfo = { name: 'bob', groups: ['devs', 'system:authenticated'] };
const sa: UserInfo = { name: 'system:serviceaccount:team:builder', groups: ['system:serviceaccounts', 'system:serviceaccounts:team'] };
const nobody: UserInfo = { name: 'mallory', groups: ['system:authenticated'] };
const stranger: UserInfo = { name: 'eve', groups: ['system:authenticated'] };

function res(user: UserInfo, verb: string, resource: string, o: { ns?: string; group?: string; name?: string; sub?: string } = {}): Attributes {
  return {
    user, isResourceRequest: true, path: '/x', verb, apiGroup: o.group ?? '', apiVersion: 'v1',
    namespace: o.ns ?? '', resource, subresource: o.sub ?? '', name: o.name ?? '',
  };
}
const nonRes = (user: UserInfo, verb: string, path: string): Attributes => ({ user, isResourceRequest: false, verb, path });

const crb = (name: string, roleName: string, subjects: Binding['subjects']): Binding =>
  ({ metadata: { name }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: roleName }, subjects });
const rb = (ns: string, name: string, kind: 'Role' | 'ClusterRole' | 'Bogus', roleName: string, subjects: Binding['subjects']): Binding =>
  ({ metadata: { name, namespace: ns }, roleRef: { apiGroup: 'rbac.authorization.svc.io', kind, name: roleName }, subjects });

const reader = staticRbac({
  clusterRoles: {
    'node-reader': { rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['nodes'] }] },
    'pod-reader': { rules: [{ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods'] }] },
    health: { rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz/*'] }] },
    scaler: { rules: [{ verbs: ['update'], apiGroups: ['apps'], resources: ['*/scale'] }] },
    empty: { rules: null },
  },
  roles: {
    team: {
      deployer: { rules: [{ verbs: ['create', 'update'], apiGroups: ['apps'], resources: ['deployments'] }] },
      cfg: { rules: [{ verbs: ['get', 'update'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['app-config'] }] },
    },
  },
  clusterRoleBindings: [
    crb('alice-nodes', 'node-reader', [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' }]),
    crb('devs-health', 'health', [{ kind: 'Group', name: 'devs' }]),
    // A ServiceAccount subject needs a namespace in a ClusterRoleBinding: without one it matches nobody.
    crb('sa-no-ns', 'pod-reader', [{ kind: 'ServiceAccount', name: 'builder' }]),
    crb('sa-scaler', 'scaler', [{ kind: 'User', name: 'nobody' }, { kind: 'ServiceAccount', name: 'builder', namespace: 'team' }]),
    crb('dangling', 'missing', [{ kind: 'User', name: 'mallory' }]),
  ],
  roleBindings: [
    rb('team', 'devs-deploy', 'Role', 'deployer', [{ kind: 'Group', name: 'devs' }]),
    rb('team', 'pods', 'ClusterRole', 'pod-reader', [{ kind: 'User', name: 'alice' }]),
    // No namespace on the subject: the RoleBinding's own namespace.
    rb('team', 'sa-cfg', 'Role', 'cfg', [{ kind: 'ServiceAccount', name: 'builder' }]),
    rb('other', 'sa-elsewhere', 'ClusterRole', 'node-reader', [{ kind: 'ServiceAccount', name: 'builder' }]),
    rb('team', 'bogus', 'Bogus', 'x', [{ kind: 'User', name: 'mallory' }]),
  ],
});
const rbac = new RbacAuthorizer(reader);

describe('rbac subjects', () => {
  const rows: [string, UserInfo, Binding['subjects'] & object, string, boolean][] = [
    ['User by exact name', alice, [{ kind: 'User', name: 'alice' }], '', true],
    ['User is not a group', bob, [{ kind: 'User', name: 'devs' }], '', false],
    ['Group by membership', bob, [{ kind: 'Group', name: 'devs' }], '', true],
    ['Group is not a user name', alice, [{ kind: 'Group', name: 'alice' }], '', false],
    ['ServiceAccount with namespace → system:serviceaccount:<ns>:<name>', sa, [{ kind: 'ServiceAccount', name: 'builder', namespace: 'team' }], '', true],
    ['ServiceAccount in another namespace', sa, [{ kind: 'ServiceAccount', name: 'builder', namespace: 'other' }], '', false],
    ['ServiceAccount without namespace takes the RoleBinding namespace', sa, [{ kind: 'ServiceAccount', name: 'builder' }], 'team', true],
    ['ServiceAccount without namespace in a ClusterRoleBinding matches nobody', sa, [{ kind: 'ServiceAccount', name: 'builder' }], '', false],
    ['a User named like a service account is the service account', { name: 'system:serviceaccount:team:builder', groups: [] }, [{ kind: 'ServiceAccount', name: 'builder', namespace: 'team' }], '', true],
    ['unknown subject kind matches nobody', alice, [{ kind: 'Robot', name: 'alice' }], '', false],
  ];
  for (const [name, user, subjects, ns, want] of rows) {
    it(name, () => assert.equal(subjects.some((s) => subjectMatches(user, s, ns)), want));
  }
});

describe('rbac authorizer decisions', () => {
  const rows: [string, Attributes, 'allow' | 'noOpinion', string][] = [
    ['ClusterRoleBinding to a User: allowed cluster-wide, kube reason text', res(alice, 'list', 'nodes'),
      'allow', 'RBAC: allowed by ClusterRoleBinding "alice-nodes" of ClusterRole "node-reader" to User "alice"'],
    ['ClusterRoleBinding rules apply in every namespace too', res(alice, 'get', 'nodes', { ns: 'anywhere', name: 'n1' }),
      'allow', 'RBAC: allowed by ClusterRoleBinding "alice-nodes" of ClusterRole "node-reader" to User "alice"'],
    ['ClusterRoleBinding to a Group, non-resource URL', nonRes(bob, 'get', '/readyz/etcd'),
      'allow', 'RBAC: allowed by ClusterRoleBinding "devs-health" of ClusterRole "health" to Group "devs"'],
    ['non-resource URL with the wrong verb: no opinion, no reason', nonRes(bob, 'post', '/healthz'), 'noOpinion', ''],
    ['RoleBinding to a Role: kube reason "name/namespace"', res(bob, 'create', 'deployments', { ns: 'team', group: 'apps' }),
      'allow', 'RBAC: allowed by RoleBinding "devs-deploy/team" of Role "deployer" to Group "devs"'],
    ['RoleBinding to a Role: not in another namespace', res(bob, 'create', 'deployments', { ns: 'prod', group: 'apps' }), 'noOpinion', ''],
    ['RoleBinding to a Role: not cluster-wide', res(bob, 'create', 'deployments', { group: 'apps' }), 'noOpinion', ''],
    ['RoleBinding to a ClusterRole: allowed in its namespace', res(alice, 'watch', 'pods', { ns: 'team' }),
      'allow', 'RBAC: allowed by RoleBinding "pods/team" of ClusterRole "pod-reader" to User "alice"'],
    ['RoleBinding to a ClusterRole: limited to its namespace', res(alice, 'watch', 'pods', { ns: 'default' }), 'noOpinion', ''],
    ['RoleBinding to a ClusterRole: not cluster-wide (all-namespaces list)', res(alice, 'list', 'pods'), 'noOpinion', ''],
    ['ServiceAccount subject of a ClusterRoleBinding, reason "name/namespace"', res(sa, 'update', 'statefulsets', { ns: 'x', group: 'apps', name: 's', sub: 'scale' }),
      'allow', 'RBAC: allowed by ClusterRoleBinding "sa-scaler" of ClusterRole "scaler" to ServiceAccount "builder/team"'],
    ['ServiceAccount without namespace: the binding namespace in the reason', res(sa, 'get', 'configmaps', { ns: 'team', name: 'app-config' }),
      'allow', 'RBAC: allowed by RoleBinding "sa-cfg/team" of Role "cfg" to ServiceAccount "builder/team"'],
    ['ServiceAccount without namespace in a ClusterRoleBinding grants nothing', res(sa, 'get', 'pods', { ns: 'team', name: 'p' }), 'noOpinion', ''],
    ['ServiceAccount without namespace in another namespace\'s RoleBinding: not this SA', res(sa, 'get', 'nodes', { ns: 'other', name: 'n' }), 'noOpinion', ''],
    ['resourceNames: get of the named object', res(sa, 'update', 'configmaps', { ns: 'team', name: 'app-config' }),
      'allow', 'RBAC: allowed by RoleBinding "sa-cfg/team" of Role "cfg" to ServiceAccount "builder/team"'],
    ['resourceNames: list (no name) is not allowed', res(sa, 'list', 'configmaps', { ns: 'team' }), 'noOpinion', ''],
    ['resourceNames: create (no name) is not allowed', res(sa, 'create', 'configmaps', { ns: 'team' }), 'noOpinion', ''],
    ['a user with no bindings: no opinion and no reason', res(stranger, 'get', 'pods', { ns: 'team', name: 'p' }), 'noOpinion', ''],
  ];
  for (const [name, a, decision, reason] of rows) {
    it(name, () => assert.deepEqual(rbac.authorize(a), { decision, reason }));
  }

  it('a bound role that does not exist: no opinion, reason lists the resolution errors as kube aggregates them', () => {
    assert.deepEqual(rbac.authorize(res(nobody, 'get', 'secrets', { ns: 'team', name: 's' })), {
      decision: 'noOpinion',
      reason: 'RBAC: [clusterrole.rbac.authorization.k8s.io "missing" not found, unsupported role reference kind: "Bogus"]',
    });
    assert.deepEqual(rbac.authorize(res(nobody, 'get', 'secrets', { name: 's' })), {
      decision: 'noOpinion', reason: 'RBAC: clusterrole.rbac.authorization.k8s.io "missing" not found',
    });
  });

  it('the first matching binding gives the reason (ClusterRoleBindings before RoleBindings)', () => {
    const both = new RbacAuthorizer(staticRbac({
      clusterRoles: { r: { rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }] } },
      clusterRoleBindings: [crb('c', 'r', [{ kind: 'User', name: 'alice' }])],
      roleBindings: [rb('team', 'b', 'ClusterRole', 'r', [{ kind: 'User', name: 'alice' }])],
    }));
    assert.equal(both.authorize(res(alice, 'get', 'pods', { ns: 'team', name: 'p' })).reason,
      'RBAC: allowed by ClusterRoleBinding "c" of ClusterRole "r" to User "alice"');
  });

  it('a cluster-wide request reads no RoleBindings (a reader returning every namespace\'s would otherwise leak them)', () => {
    const asked: string[] = [];
    const leaky = new RbacAuthorizer({
      ...reader,
      roleBindingsFor: (_user, ns) => { asked.push(ns); return [rb('team', 'pods', 'ClusterRole', 'pod-reader', [{ kind: 'User', name: 'alice' }])]; },
    });
    assert.deepEqual(leaky.authorize(res(alice, 'list', 'pods')), { decision: 'noOpinion', reason: '' });
    assert.deepEqual(leaky.authorize(nonRes(alice, 'get', '/healthz')), { decision: 'noOpinion', reason: '' });
    assert.deepEqual(asked, []);
  });

  it('a ClusterRole with null rules grants nothing', () => {
    const z = new RbacAuthorizer(staticRbac({ clusterRoles: { empty: { rules: null } }, clusterRoleBindings: [crb('e', 'empty', [{ kind: 'User', name: 'alice' }])] }));
    assert.deepEqual(z.authorize(res(alice, 'get', 'pods', { name: 'p' })), { decision: 'noOpinion', reason: '' });
  });
});

describe('rbac rulesFor (SelfSubjectRulesReview)', () => {
  it('cluster-wide and namespace rules, split into resource and non-resource lists', () => {
    assert.deepEqual(rbac.rulesFor(bob, 'team'), {
      resourceRules: [{ verbs: ['create', 'update'], apiGroups: ['apps'], resources: ['deployments'] }],
      nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz/*'] }],
      incomplete: false,
    });
  });
  it('a RoleBinding\'s rules only in its namespace; resourceNames kept', () => {
    assert.deepEqual(rbac.rulesFor(sa, 'team').resourceRules, [
      { verbs: ['update'], apiGroups: ['apps'], resources: ['*/scale'] },
      { verbs: ['get', 'update'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['app-config'] },
    ]);
    assert.deepEqual(rbac.rulesFor(sa, 'default').resourceRules, [{ verbs: ['update'], apiGroups: ['apps'], resources: ['*/scale'] }]);
  });
  it('a user with no bindings: empty lists, no evaluationError', () => {
    assert.deepEqual(rbac.rulesFor(stranger, 'team'), { resourceRules: [], nonResourceRules: [], incomplete: false });
  });
  it('resolution errors become evaluationError; the rules found are still listed', () => {
    const r = rbac.rulesFor(nobody, 'team');
    assert.deepEqual(r.resourceRules, []);
    assert.equal(r.evaluationError, '[clusterrole.rbac.authorization.k8s.io "missing" not found, unsupported role reference kind: "Bogus"]');
  });
  it('a rule with both resources and nonResourceURLs appears in both lists', () => {
    const z = new RbacAuthorizer(staticRbac({
      clusterRoles: { mixed: { rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], nonResourceURLs: ['/metrics'] }] } },
      clusterRoleBindings: [crb('m', 'mixed', [{ kind: 'User', name: 'alice' }])],
    }));
    const r = z.rulesFor(alice, '');
    assert.equal(r.resourceRules.length, 1);
    assert.equal(r.nonResourceRules.length, 1);
  });
});
