import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { RbacCache, subjectKey } from './cache.js';
import { RbacAuthorizer } from './authorizer.js';
import type { ApiObject } from '../../registry/object.js';
import type { UserInfo } from '../../authn/user.js';

const user = (name: string, ...groups: string[]): UserInfo => ({ name, groups });
const binding = (name: string, ns: string | undefined, role: string, subjects: object[]): ApiObject =>
  ({ metadata: { name, ...(ns ? { namespace: ns } : {}) }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: ns ? 'Role' : 'ClusterRole', name: role }, subjects }) as unknown as ApiObject;
const names = (it: Iterable<{ metadata: { name: string } }>) => [...it].map((b) => b.metadata.name);

describe('subjectKey', () => {
  const cases: [object, string, string | undefined][] = [
    [{ kind: 'User', name: 'alice' }, '', 'u:alice'],
    [{ kind: 'Group', name: 'devs' }, 'ns', 'g:devs'],
    [{ kind: 'ServiceAccount', name: 'sa', namespace: 'a' }, '', 'u:system:serviceaccount:a:sa'],
    [{ kind: 'ServiceAccount', name: 'sa' }, 'b', 'u:system:serviceaccount:b:sa'],
    [{ kind: 'ServiceAccount', name: 'sa' }, '', undefined],
    [{ kind: 'Robot', name: 'r' }, '', undefined],
  ];
  for (const [s, ns, want] of cases) it(`${JSON.stringify(s)} in "${ns}" → ${want}`, () => assert.equal(subjectKey(s as never, ns), want));
});

describe('RbacCache', () => {
  it('finds only the bindings naming the user, a group of it, or its service account; each once', () => {
    const c = new RbacCache();
    c.put('clusterrolebindings', binding('by-user', undefined, 'r', [{ kind: 'User', name: 'alice' }]));
    c.put('clusterrolebindings', binding('by-group', undefined, 'r', [{ kind: 'Group', name: 'devs' }, { kind: 'User', name: 'alice' }]));
    c.put('clusterrolebindings', binding('other', undefined, 'r', [{ kind: 'User', name: 'bob' }]));
    c.put('rolebindings', binding('sa', 'team', 'r', [{ kind: 'ServiceAccount', name: 'builder' }]));
    assert.deepEqual(names(c.clusterRoleBindingsFor(user('alice', 'devs'))), ['by-user', 'by-group']);
    assert.deepEqual(names(c.clusterRoleBindingsFor(user('carol', 'devs'))), ['by-group']);
    assert.deepEqual(names(c.clusterRoleBindingsFor(user('dave'))), []);
    assert.deepEqual(names(c.roleBindingsFor(user('system:serviceaccount:team:builder'), 'team')), ['sa']);
    assert.deepEqual(names(c.roleBindingsFor(user('system:serviceaccount:team:builder'), 'other')), []);
  });

  it('an update re-indexes a binding; a delete forgets it', () => {
    const c = new RbacCache();
    c.put('rolebindings', binding('b', 'ns', 'r', [{ kind: 'User', name: 'alice' }]));
    c.put('rolebindings', binding('b', 'ns', 'r', [{ kind: 'User', name: 'bob' }]));
    assert.deepEqual(names(c.roleBindingsFor(user('alice'), 'ns')), []);
    assert.deepEqual(names(c.roleBindingsFor(user('bob'), 'ns')), ['b']);
    c.remove('rolebindings', binding('b', 'ns', 'r', []));
    assert.deepEqual(names(c.roleBindingsFor(user('bob'), 'ns')), []);
    assert.deepEqual(c.sizes, { clusterRoles: 0, roles: 0, clusterRoleBindings: 0, roleBindings: 0 });
  });

  it('a fresh list (a restarted watch) drops what was deleted meanwhile', () => {
    const c = new RbacCache();
    c.put('rolebindings', binding('gone', 'ns', 'r', [{ kind: 'User', name: 'alice' }]));
    c.put('rolebindings', binding('kept', 'ns', 'r', [{ kind: 'User', name: 'alice' }]));
    c.put('clusterroles', { metadata: { name: 'old' }, rules: [] } as unknown as ApiObject);
    c.pruneTo('rolebindings', [binding('kept', 'ns', 'r', [{ kind: 'User', name: 'alice' }])]);
    c.pruneTo('clusterroles', []);
    assert.deepEqual(names(c.roleBindingsFor(user('alice'), 'ns')), ['kept']);
    assert.equal(c.getClusterRole('old'), undefined);
  });

  it('answers the RBAC authorizer', () => {
    const c = new RbacCache();
    c.put('roles', { metadata: { name: 'reader', namespace: 'team' }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }] } as unknown as ApiObject);
    c.put('rolebindings', binding('readers', 'team', 'reader', [{ kind: 'Group', name: 'devs' }]));
    const z = new RbacAuthorizer(c);
    const a = (ns: string) => ({ user: user('alice', 'devs'), verb: 'get', isResourceRequest: true as const, path: '', apiGroup: '', apiVersion: 'v1', namespace: ns, resource: 'pods', subresource: '', name: 'p' });
    assert.deepEqual(z.authorize(a('team')), { decision: 'allow', reason: 'RBAC: allowed by RoleBinding "readers/team" of Role "reader" to Group "devs"' });
    assert.equal(z.authorize(a('other')).decision, 'noOpinion');
    c.remove('roles', { metadata: { name: 'reader', namespace: 'team' } } as unknown as ApiObject);
    assert.deepEqual(z.authorize(a('team')), { decision: 'noOpinion', reason: 'RBAC: role.rbac.authorization.k8s.io "reader" not found' });
  });
});
