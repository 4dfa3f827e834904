// Escalation prevention: kube v1.27's policy_comparator_test cases as facts,
// svc's group spellings, CompactRules, CompactString and ConfirmNoEscalation's
// message (checked against the golden rbac-04-escalation-prevention texts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  breakdownRule, compactRules, compactString, confirmNoEscalation, covers, escalationMessage, nonResourceURLCovers,
  type Rule, type RuleResolver,
} from './escalation.js';
import { RbacAuthorizer, staticRbac } from './authorizer.js';
import type { PolicyRule } from './rules.js';

const r = (p: Partial<Rule>): Rule => ({ verbs: [], apiGroups: [], resources: [], resourceNames: [], nonResourceURLs: [], ...p });

describe('covers (kube policy_comparator_test)', () => {
  const rows: { name: string; owner: PolicyRule[]; servant: PolicyRule[]; missing: Rule[] }[] = [
    {
      name: 'exact match',
      owner: [{ apiGroups: ['v1'], verbs: ['get'], resources: ['builds'] }],
      servant: [{ apiGroups: ['v1'], verbs: ['get'], resources: ['builds'] }],
      missing: [],
    },
    {
      name: 'several owner rules cover one servant rule',
      owner: [
        { apiGroups: ['v1'], verbs: ['delete'], resources: ['deployments'] },
        { apiGroups: ['v1'], verbs: ['delete'], resources: ['builds'] },
        { apiGroups: ['v1'], verbs: ['update'], resources: ['builds', 'deployments'] },
      ],
      servant: [{ apiGroups: ['v1'], verbs: ['delete', 'update'], resources: ['builds', 'deployments'] }],
      missing: [],
    },
    {
      name: 'one owner rule with two groups covers per-group rules',
      owner: [{ apiGroups: ['group1', 'group2'], verbs: ['delete', 'update'], resources: ['builds', 'deployments'] }],
      servant: [
        { apiGroups: ['group1'], verbs: ['delete'], resources: ['deployments'] },
        { apiGroups: ['group2'], verbs: ['update'], resources: ['builds', 'deployments'] },
      ],
      missing: [],
    },
    {
      name: 'a single verb/resource combination is missing',
      owner: [
        { apiGroups: ['v1'], verbs: ['delete', 'update'], resources: ['builds', 'deployments'] },
        { apiGroups: ['v1'], verbs: ['delete'], resources: ['pods'] },
      ],
      servant: [{ apiGroups: ['v1'], verbs: ['delete', 'update'], resources: ['builds', 'deployments', 'pods'] }],
      missing: [r({ apiGroups: ['v1'], verbs: ['update'], resources: ['pods'] })],
    },
    {
      name: 'group * covers any groups',
      owner: [{ apiGroups: ['*'], verbs: ['get'], resources: ['roles'] }],
      servant: [{ apiGroups: ['group1', 'group2'], verbs: ['get'], resources: ['roles'] }],
      missing: [],
    },
    {
      name: 'an enumerated group does not cover group *',
      owner: [{ apiGroups: ['dummy-group'], verbs: ['get'], resources: ['roles'] }],
      servant: [{ apiGroups: ['*'], verbs: ['get'], resources: ['roles'] }],
      missing: [r({ apiGroups: ['*'], verbs: ['get'], resources: ['roles'] })],
    },
    {
      name: 'verb * covers verbs and *',
      owner: [{ apiGroups: ['v1'], verbs: ['*'], resources: ['roles'] }],
      servant: [{ apiGroups: ['v1'], verbs: ['watch', 'list', '*'], resources: ['roles'] }],
      missing: [],
    },
    {
      name: 'enumerated verbs do not cover verb *',
      owner: [{ apiGroups: ['v1'], verbs: ['get', 'list', 'watch', 'create', 'update', 'delete', 'exec'], resources: ['roles'] }],
      servant: [{ apiGroups: ['v1'], verbs: ['*'], resources: ['roles'] }],
      missing: [r({ apiGroups: ['v1'], verbs: ['*'], resources: ['roles'] })],
    },
    {
      name: 'resource * covers any resource and *',
      owner: [{ apiGroups: ['v1'], verbs: ['get'], resources: ['*'] }],
      servant: [{ apiGroups: ['v1'], verbs: ['get'], resources: ['resourcegroup:deployments', '*'] }],
      missing: [],
    },
    {
      name: 'enumerated resources do not cover resource *',
      owner: [{ apiGroups: ['v1'], verbs: ['get'], resources: ['roles', 'resourcegroup:deployments'] }],
      servant: [{ apiGroups: ['v1'], verbs: ['get'], resources: ['*'] }],
      missing: [r({ apiGroups: ['v1'], verbs: ['get'], resources: ['*'] })],
    },
    {
      name: 'no resourceNames covers named rules',
      owner: [{ apiGroups: ['v1'], verbs: ['get'], resources: ['pods'], resourceNames: [] }],
      servant: [{ apiGroups: ['v1'], verbs: ['get'], resources: ['pods'], resourceNames: ['foo', 'bar'] }],
      missing: [],
    },
    {
      name: 'named rules do not cover an unnamed rule',
      owner: [{ apiGroups: ['v1'], verbs: ['get'], resources: ['pods'], resourceNames: ['foo', 'bar'] }],
      servant: [{ apiGroups: ['v1'], verbs: ['get'], resources: ['pods'], resourceNames: [] }],
      missing: [r({ apiGroups: ['v1'], verbs: ['get'], resources: ['pods'] })],
    },
    {
      name: 'named rules cover the names they list, not others',
      owner: [{ apiGroups: [''], verbs: ['get'], resources: ['secrets'], resourceNames: ['a'] }],
      servant: [{ apiGroups: [''], verbs: ['get'], resources: ['secrets'], resourceNames: ['a', 'b'] }],
      missing: [r({ apiGroups: [''], verbs: ['get'], resources: ['secrets'], resourceNames: ['b'] })],
    },
    {
      name: 'pods does not cover pods/log',
      owner: [{ apiGroups: [''], verbs: ['get'], resources: ['pods'] }],
      servant: [{ apiGroups: [''], verbs: ['get'], resources: ['pods/log'] }],
      missing: [r({ apiGroups: [''], verbs: ['get'], resources: ['pods/log'] })],
    },
    {
      name: '*/scale covers deployments/scale, not deployments',
      owner: [{ apiGroups: ['apps'], verbs: ['get'], resources: ['*/scale'] }],
      servant: [{ apiGroups: ['apps'], verbs: ['get'], resources: ['deployments/scale', 'deployments'] }],
      missing: [r({ apiGroups: ['apps'], verbs: ['get'], resources: ['deployments'] })],
    },
    {
      name: 'non-resource URLs: exact',
      owner: [{ nonResourceURLs: ['/apis'], verbs: ['*'] }],
      servant: [{ nonResourceURLs: ['/apis'], verbs: ['*'] }],
      missing: [],
    },
    {
      name: 'non-resource URLs: * covers all',
      owner: [{ nonResourceURLs: ['*'], verbs: ['*'] }],
      servant: [{ nonResourceURLs: ['/apis', '/apis/v1', '/'], verbs: ['*'] }],
      missing: [],
    },
    {
      name: 'non-resource URLs: /apis/* does not cover /apis',
      owner: [{ nonResourceURLs: ['/apis/*'], verbs: ['*'] }],
      servant: [{ nonResourceURLs: ['/apis', '/apis/v1'], verbs: ['get'] }],
      missing: [r({ nonResourceURLs: ['/apis'], verbs: ['get'] })],
    },
    {
      name: 'non-resource URLs: /apis/* covers deeper paths',
      owner: [{ nonResourceURLs: ['/apis/*'], verbs: ['*'] }],
      servant: [{ nonResourceURLs: ['/apis/v1/foo', '/apis/v1'], verbs: ['get'] }],
      missing: [],
    },
    {
      name: 'a rule with resources and URLs, covered by the same',
      owner: [{ apiGroups: ['v1'], verbs: ['get'], resources: ['builds'], nonResourceURLs: ['/apis'] }],
      servant: [{ apiGroups: ['v1'], verbs: ['get'], resources: ['builds'], nonResourceURLs: ['/apis'] }],
      missing: [],
    },
    {
      name: 'a rule with resources and URLs: the URL part is missing',
      owner: [{ apiGroups: ['v1'], verbs: ['get'], resources: ['builds'] }],
      servant: [{ apiGroups: ['v1'], verbs: ['get'], resources: ['builds'], nonResourceURLs: ['/apis'] }],
      missing: [r({ nonResourceURLs: ['/apis'], verbs: ['get'] })],
    },
    {
      name: 'svc: a k8s.io group covers its svc.io spelling',
      owner: [{ apiGroups: ['rbac.authorization.k8s.io'], verbs: ['get'], resources: ['roles'] }],
      servant: [{ apiGroups: ['rbac.authorization.svc.io'], verbs: ['get'], resources: ['roles'] }],
      missing: [],
    },
    {
      name: 'svc: a svc.io group covers its k8s.io spelling',
      owner: [{ apiGroups: ['storage.svc.io'], verbs: ['get'], resources: ['storageclasses'] }],
      servant: [{ apiGroups: ['storage.k8s.io'], verbs: ['get'], resources: ['storageclasses'] }],
      missing: [],
    },
    {
      name: 'svc: cluster.x-k8s.io is not a k8s.io spelling',
      owner: [{ apiGroups: ['cluster.x-svc.io'], verbs: ['get'], resources: ['machines'] }],
      servant: [{ apiGroups: ['cluster.x-k8s.io'], verbs: ['get'], resources: ['machines'] }],
      missing: [r({ apiGroups: ['cluster.x-k8s.io'], verbs: ['get'], resources: ['machines'] })],
    },
    {
      name: 'absent lists (null from a decoded object) grant nothing and need nothing',
      owner: [],
      servant: [{ apiGroups: null, verbs: ['get'], resources: ['pods'] }],
      missing: [],
    },
  ];
  for (const row of rows) it(row.name, () => assert.deepEqual(covers(row.owner, row.servant), row.missing));

  const urls: [string, string, boolean][] = [
    ['*', '/api', true], ['/api', '/api', true], ['/apis', '/api', false], ['/api/v1', '/api', false],
    ['/api/v1', '/api/v1', true], ['/api/*', '/api/v1', true], ['/api/*', '/api', false],
    ['/api/*/*', '/api/v1', false], ['/*/v1/*', '/api/v1', false],
  ];
  for (const [owner, path, want] of urls) it(`nonResourceURLCovers(${owner}, ${path}) = ${want}`, () => assert.equal(nonResourceURLCovers(owner, path), want));
});

describe('breakdownRule', () => {
  it('one rule per group, resource, verb and name, then per URL and verb', () => {
    assert.deepEqual(breakdownRule({ apiGroups: ['', 'apps'], resources: ['pods'], verbs: ['get', 'list'], resourceNames: ['a'] }), [
      r({ apiGroups: [''], resources: ['pods'], verbs: ['get'], resourceNames: ['a'] }),
      r({ apiGroups: [''], resources: ['pods'], verbs: ['list'], resourceNames: ['a'] }),
      r({ apiGroups: ['apps'], resources: ['pods'], verbs: ['get'], resourceNames: ['a'] }),
      r({ apiGroups: ['apps'], resources: ['pods'], verbs: ['list'], resourceNames: ['a'] }),
    ]);
    assert.deepEqual(breakdownRule({ nonResourceURLs: ['/a', '/b'], verbs: ['get'] }), [
      r({ nonResourceURLs: ['/a'], verbs: ['get'] }), r({ nonResourceURLs: ['/b'], verbs: ['get'] }),
    ]);
  });
});

describe('compactRules and compactString', () => {
  it('merges simple rules per group and resource, verbs in order (duplicates kept, as kube)', () => {
    const out = compactRules([
      r({ apiGroups: [''], resources: ['configmaps'], verbs: ['delete'] }),
      r({ apiGroups: [''], resources: ['secrets'], verbs: ['get'], resourceNames: ['s'] }),
      r({ apiGroups: [''], resources: ['configmaps'], verbs: ['watch'] }),
      r({ apiGroups: [''], resources: ['configmaps'], verbs: ['watch'] }),
      r({ nonResourceURLs: ['*'], verbs: ['*'] }),
    ]);
    assert.deepEqual(out, [
      r({ apiGroups: [''], resources: ['secrets'], verbs: ['get'], resourceNames: ['s'] }),
      r({ nonResourceURLs: ['*'], verbs: ['*'] }),
      r({ apiGroups: [''], resources: ['configmaps'], verbs: ['delete', 'watch', 'watch'] }),
    ]);
  });
  const rows: [Rule, string][] = [
    [r({ apiGroups: ['apps'], resources: ['deployments'], verbs: ['get'] }), '{APIGroups:["apps"], Resources:["deployments"], Verbs:["get"]}'],
    [r({ apiGroups: [''], resources: ['secrets'], resourceNames: ['s'], verbs: ['get'] }), '{APIGroups:[""], Resources:["secrets"], ResourceNames:["s"], Verbs:["get"]}'],
    [r({ nonResourceURLs: ['*'], verbs: ['*'] }), '{NonResourceURLs:["*"], Verbs:["*"]}'],
    [r({ apiGroups: [''], resources: ['a"b'], verbs: ['get', 'list'] }), '{APIGroups:[""], Resources:["a\\"b"], Verbs:["get" "list"]}'],
    [r({}), '{}'],
  ];
  for (const [rule, want] of rows) it(want, () => assert.equal(compactString(rule), want));
});

describe('escalationMessage (golden rbac-04 texts)', () => {
  const bob = { name: 'bob', groups: ['devs', 'system:authenticated'] };
  it('lists the compacted missing rules, sorted', () => {
    const missing = covers(
      [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }],
      [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'delete'] }, { apiGroups: [''], resources: ['secrets'], verbs: ['get'], resourceNames: ['s'] }],
    );
    assert.equal(escalationMessage(bob, missing, []),
      'user "bob" (groups=["devs" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
      '{APIGroups:[""], Resources:["configmaps"], Verbs:["delete"]}\n{APIGroups:[""], Resources:["secrets"], ResourceNames:["s"], Verbs:["get"]}');
  });
  it('cluster-admin: resources and URLs', () => {
    const missing = covers([], [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }, { nonResourceURLs: ['*'], verbs: ['*'] }]);
    assert.equal(escalationMessage(bob, missing, []),
      'user "bob" (groups=["devs" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
      '{APIGroups:["*"], Resources:["*"], Verbs:["*"]}\n{NonResourceURLs:["*"], Verbs:["*"]}');
  });
  it('the same missing rule twice is listed once', () => {
    const missing = covers([], [{ apiGroups: [''], resources: ['pods'], resourceNames: ['a'], verbs: ['get'] }, { apiGroups: [''], resources: ['pods'], resourceNames: ['a'], verbs: ['get'] }]);
    assert.equal(escalationMessage({ name: 'u', groups: [] }, missing, []),
      'user "u" (groups=[]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["pods"], ResourceNames:["a"], Verbs:["get"]}');
  });
  it('resolution errors: one, and several (an aggregate inside the list)', () => {
    const missing = [r({ apiGroups: [''], resources: ['pods'], verbs: ['get'] })];
    const head = 'user "u" (groups=[]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["pods"], Verbs:["get"]}';
    assert.equal(escalationMessage({ name: 'u', groups: [] }, missing, ['e1']), `${head}; resolution errors: [e1]`);
    assert.equal(escalationMessage({ name: 'u', groups: [] }, missing, ['e1', 'e2', 'e1']), `${head}; resolution errors: [[e1, e2]]`);
  });
});

describe('confirmNoEscalation', () => {
  const reader = staticRbac({
    roles: { ns: { pods: { rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] } } },
    clusterRoles: { apps: { rules: [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['*'] }] } },
    clusterRoleBindings: [
      { metadata: { name: 'c' }, subjects: [{ kind: 'Group', name: 'devs' }], roleRef: { kind: 'ClusterRole', name: 'apps' } },
      { metadata: { name: 'gone' }, subjects: [{ kind: 'Group', name: 'devs' }], roleRef: { kind: 'ClusterRole', name: 'missing' } },
    ],
    roleBindings: [{ metadata: { name: 'b', namespace: 'ns' }, subjects: [{ kind: 'User', name: 'alice' }], roleRef: { kind: 'Role', name: 'pods' } }],
  });
  const resolver: RuleResolver = new RbacAuthorizer(reader);
  const alice = { name: 'alice', groups: ['devs'] };
  it('holds the rules of cluster and namespace bindings in the namespace', async () => {
    assert.equal(await confirmNoEscalation(resolver, alice, 'ns', [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }, { apiGroups: ['apps'], resources: ['deployments'], verbs: ['delete'] }]), undefined);
  });
  it('outside the namespace only the cluster bindings count; the resolver errors follow', async () => {
    assert.equal(await confirmNoEscalation(resolver, alice, 'other', [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }]),
      'user "alice" (groups=["devs"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["pods"], Verbs:["get"]}' +
      '; resolution errors: [clusterrole.rbac.authorization.k8s.io "missing" not found]');
  });
  it('an async resolver works the same', async () => {
    const async: RuleResolver = { visitRulesFor: async (_u, _ns, visit) => { await Promise.resolve(); visit('', { apiGroups: ['*'], resources: ['*'], verbs: ['*'] }, undefined); } };
    assert.equal(await confirmNoEscalation(async, alice, '', [{ apiGroups: ['x'], resources: ['y'], verbs: ['z'] }]), undefined);
  });
});
