// ABAC policy files and decisions, with kube's abac_test cases as facts.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { UserInfo } from '../authn/user.js';
import { AbacAuthorizer, AbacPolicyError, parsePolicyFile, parsePolicyLine } from './abac.js';
import type { Attributes } from './authorizer.js';
import { tempDir } from '../testing/tempdir.js';

const authed = ['system:authenticated'];
const u = (name: string, groups: string[] = authed): UserInfo => ({ name, uid: `uid-${name}`, groups });

/** kube's test attributes: a resource request when a namespace or resource is given. */
function attr(user: UserInfo, verb: string, o: { resource?: string; ns?: string; group?: string; path?: string } = {}): Attributes {
  const resource = o.resource ?? '';
  const ns = o.ns ?? '';
  if (resource || ns) return { user, verb, isResourceRequest: true, path: o.path ?? '', apiGroup: o.group ?? '', apiVersion: 'v1', namespace: ns, resource, subresource: '', name: '' };
  return { user, verb, isResourceRequest: false, path: o.path ?? '' };
}

const load = (text: string) => new AbacAuthorizer(parsePolicyFile(text, 'policy.jsonl'));
const allowed = (z: AbacAuthorizer, a: Attributes) => z.authorize(a).decision === 'allow';

describe('ABAC policy file', () => {
  it('reads empty files, one line without a newline, blank lines and comments', () => {
    assert.deepEqual(load('').policies, []);
    assert.equal(load('{"user":"scheduler",  "readonly": true, "resource": "pods", "namespace":"ns1"}').policies.length, 1);
    assert.equal(load('\n   # a comment\n\n{"user":"a"}\r\n  \t\n{"user":"b"}\n').policies.length, 2);
  });

  it('reads the file named by --authorization-policy-file, and says when it is missing', () => {
    const dir = tempDir('svc-abac-');
    const f = join(dir, 'policy.jsonl');
    writeFileSync(f, '{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"alice","namespace":"*","resource":"*","apiGroup":"*"}}\n');
    assert.equal(allowed(AbacAuthorizer.fromFile(f), attr(u('alice'), 'delete', { resource: 'pods', ns: 'x' })), true);
    assert.throws(() => AbacAuthorizer.fromFile(join(dir, 'none')), (e: unknown) => e instanceof AbacPolicyError && e.message === `open ${join(dir, 'none')}: no such file or directory`);
  });

  // Bad lines fail with kube's text: the file, the line number (blank and comment lines count) and the line.
  const bad: [string, string, string][] = [
    ['a type error in v1beta1', '{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"a","readonly":"yes"}}',
      'json: cannot unmarshal string into Go struct field PolicySpec.spec.readonly of type bool'],
    ['a type error in a legacy line', '{"user":7}', 'json: cannot unmarshal number into Go struct field Policy.user of type string'],
    ['spec not an object', '{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":"x"}',
      'json: cannot unmarshal string into Go struct field Policy.spec of type v1beta1.PolicySpec'],
    ['a truncated line', '{"user":"a"', "couldn't get version/kind; json parse error: unexpected end of JSON input"],
  ];
  for (const [name, line, why] of bad) {
    it(`fails start-up on ${name}`, () => {
      assert.throws(() => parsePolicyFile(`# policies\n\n${line}\n`, '/etc/abac.jsonl'), (e: unknown) =>
        e instanceof AbacPolicyError && e.message === `error reading policy file /etc/abac.jsonl, line 3: ${line}: ${why}`);
    });
  }

  it('converts legacy lines as kube\'s v0 conversion does', () => {
    assert.deepEqual(parsePolicyLine('{"readonly": true, "resource": "events"}'), { user: '', group: 'system:authenticated', readonly: true, apiGroup: '*', namespace: '*', resource: 'events', nonResourcePath: '' });
    assert.deepEqual(parsePolicyLine('{"user":"alice"}'), { user: 'alice', group: '', readonly: false, apiGroup: '*', namespace: '*', resource: '*', nonResourcePath: '*' });
    assert.deepEqual(parsePolicyLine('{"user":"*","namespace":"ns"}'), { user: '', group: 'system:authenticated', readonly: false, apiGroup: '*', namespace: 'ns', resource: '*', nonResourcePath: '' });
    // v0 has no nonResourcePath: it is ignored (and neither namespace nor resource gives "*").
    assert.equal(parsePolicyLine('{"group":"b","nonResourcePath":"/x"}').nonResourcePath, '*');
    // An unregistered version or a missing kind is read as a legacy line.
    assert.equal(parsePolicyLine('{"apiVersion":"abac.authorization.kubernetes.io/v2","kind":"Policy","user":"x"}').user, 'x');
  });

  it('reads v1beta1 in both spellings; `*` user or group is every authenticated subject', () => {
    for (const g of ['abac.authorization.kubernetes.io', 'abac.authorization.svc.io']) {
      assert.deepEqual(parsePolicyLine(`{"apiVersion":"${g}/v1beta1","kind":"Policy","spec":{"user":"*","nonResourcePath":"/api","readonly":true}}`),
        { user: '', group: 'system:authenticated', readonly: true, apiGroup: '', namespace: '', resource: '', nonResourcePath: '/api' });
    }
  });
});

describe('ABAC decisions', () => {
  // kube's TestAuthorizeV0.
  const v0 = load(`{                    "readonly": true, "resource": "events"   }
{"user":"scheduler", "readonly": true, "resource": "pods"     }
{"user":"scheduler",                   "resource": "bindings" }
{"user":"kubelet",   "readonly": true, "resource": "bindings" }
{"user":"kubelet",                     "resource": "events"   }
{"user":"alice",                                              "namespace": "projectCaribou"}
{"user":"bob",       "readonly": true,                        "namespace": "projectCaribou"}
`);
  const scheduler = u('scheduler');
  const alice = u('alice');
  const chuck = u('chuck');
  const v0Cases: [UserInfo, string, { resource?: string; ns?: string; group?: string; path?: string }, boolean][] = [
    [scheduler, 'list', { resource: 'pods', ns: 'ns1' }, true],
    [scheduler, 'list', { resource: 'pods' }, true],
    [scheduler, 'create', { resource: 'pods', ns: 'ns1' }, false],
    [scheduler, 'create', { resource: 'pods' }, false],
    [scheduler, 'get', { resource: 'bindings', ns: 'ns1' }, true],
    [scheduler, 'get', { resource: 'bindings' }, true],
    [alice, 'get', { resource: 'pods', ns: 'projectCaribou' }, true],
    [alice, 'get', { resource: 'widgets', ns: 'projectCaribou' }, true],
    [alice, 'get', { ns: 'projectCaribou' }, true],
    [alice, 'update', { resource: 'pods', ns: 'projectCaribou' }, true],
    [alice, 'update', { resource: 'widgets', ns: 'projectCaribou' }, true],
    [alice, 'update', { ns: 'projectCaribou' }, true],
    [alice, 'update', { resource: 'foo', ns: 'projectCaribou', group: 'bar' }, true],
    [alice, 'get', { resource: 'pods', ns: 'ns1' }, false],
    [alice, 'get', { resource: 'widgets', ns: 'ns1' }, false],
    [alice, 'get', { ns: 'ns1' }, false],
    [chuck, 'get', { resource: 'events', ns: 'ns1' }, true],
    [chuck, 'get', { resource: 'events' }, true],
    [chuck, 'update', { resource: 'events', ns: 'ns1' }, false],
    [chuck, 'get', { resource: 'pods', ns: 'ns1' }, false],
    [chuck, 'get', { resource: 'floop', ns: 'ns1' }, false],
    [chuck, 'get', { path: '/' }, false],
  ];
  v0Cases.forEach(([user, verb, o, want], i) => {
    it(`v0 #${i}: ${user.name} ${verb} ${JSON.stringify(o)} → ${want ? 'allow' : 'no opinion'}`, () => assert.equal(allowed(v0, attr(user, verb, o)), want));
  });

  it('answers "No policy matched." when nothing matches', () => {
    assert.deepEqual(v0.authorize(attr(chuck, 'get', { path: '/' })), { decision: 'noOpinion', reason: 'No policy matched.' });
  });

  // kube's TestAuthorizeV1beta1.
  const v1 = load(`
		 # Comment line, after a blank line
		 {"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"*",         "readonly": true,                                                        "nonResourcePath": "/api"}}
		 {"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"*",                                                                                  "nonResourcePath": "/custom"}}
		 {"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"*",                                                                                  "nonResourcePath": "/root/*"}}
		 {"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"noresource",                                                                         "nonResourcePath": "*"}}
		 {"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"*",         "readonly": true, "resource": "events",   "namespace": "*"}}
		 {"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"scheduler", "readonly": true, "resource": "pods",     "namespace": "*"}}
		 {"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"scheduler",                   "resource": "bindings", "namespace": "*"}}
		 {"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"kubelet",   "readonly": true, "resource": "bindings", "namespace": "*"}}
		 {"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"kubelet",                     "resource": "events",   "namespace": "*"}}
		 {"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"alice",                       "resource": "*",        "namespace": "projectCaribou"}}
		 {"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"bob",       "readonly": true, "resource": "*",        "namespace": "projectCaribou"}}
		 {"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"debbie",                      "resource": "pods",     "namespace": "projectCaribou"}}
		 {"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"apigroupuser",                "resource": "*",        "namespace": "projectAnyGroup",   "apiGroup": "*"}}
		 {"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"apigroupuser",                "resource": "*",        "namespace": "projectEmptyGroup", "apiGroup": "" }}
		 {"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"apigroupuser",                "resource": "*",        "namespace": "projectXGroup",     "apiGroup": "x"}}
		 {"apiVersion":"abac.authorization.svc.io/v1beta1","kind":"Policy","spec":{"user":"rbacuser", "resource": "roles", "namespace": "*", "apiGroup": "rbac.authorization.k8s.io"}}`);
  const debbie = u('debbie');
  const noresource = u('noresource');
  const apigroupuser = u('apigroupuser');
  const rbacuser = u('rbacuser');
  const v1Cases: [UserInfo, string, { resource?: string; ns?: string; group?: string; path?: string }, boolean][] = [
    [scheduler, 'list', { resource: 'pods', ns: 'ns1' }, true],
    [scheduler, 'list', { resource: 'pods' }, true],
    [scheduler, 'create', { resource: 'pods', ns: 'ns1' }, false],
    [scheduler, 'create', { resource: 'pods' }, false],
    [scheduler, 'get', { resource: 'bindings', ns: 'ns1' }, true],
    [scheduler, 'get', { resource: 'bindings' }, true],
    [alice, 'get', { resource: 'pods', ns: 'projectCaribou' }, true],
    [alice, 'get', { resource: 'widgets', ns: 'projectCaribou' }, true],
    [alice, 'get', { ns: 'projectCaribou' }, true],
    [alice, 'update', { resource: 'pods', ns: 'projectCaribou' }, true],
    [alice, 'update', { resource: 'widgets', ns: 'projectCaribou' }, true],
    [alice, 'update', { ns: 'projectCaribou' }, true],
    [alice, 'get', { resource: 'pods', ns: 'ns1' }, false],
    [alice, 'get', { resource: 'widgets', ns: 'ns1' }, false],
    [alice, 'get', { ns: 'ns1' }, false],
    [debbie, 'update', { resource: 'pods', ns: 'projectCaribou' }, true],
    [chuck, 'get', { resource: 'events', ns: 'ns1' }, true],
    [chuck, 'get', { resource: 'events' }, true],
    [chuck, 'update', { resource: 'events', ns: 'ns1' }, false],
    [chuck, 'get', { resource: 'pods', ns: 'ns1' }, false],
    [chuck, 'get', { resource: 'floop', ns: 'ns1' }, false],
    [chuck, 'get', { path: '/' }, false],
    [chuck, 'get', { path: '/api' }, true],
    [chuck, 'create', { path: '/api' }, false],
    [chuck, 'update', { path: '/custom' }, true],
    [chuck, 'get', { path: '/root' }, false],
    [chuck, 'get', { path: '/root/' }, true],
    [chuck, 'get', { path: '/root/test/1/2/3' }, true],
    [noresource, 'get', { path: '' }, true],
    [noresource, 'get', { path: '/' }, true],
    [noresource, 'get', { path: '/foo/bar/baz' }, true],
    [noresource, 'get', { path: '/', ns: 'bar' }, false],
    [noresource, 'get', { path: '/foo/bar/baz', resource: 'foo', ns: 'bar' }, false],
    [apigroupuser, 'get', { group: 'x', resource: 'foo', ns: 'projectAnyGroup' }, true],
    [apigroupuser, 'get', { group: 'x', resource: 'foo', ns: 'projectEmptyGroup' }, false],
    [apigroupuser, 'get', { group: 'x', resource: 'foo', ns: 'projectXGroup' }, true],
    // ours: a group matches in either spelling
    [rbacuser, 'create', { group: 'rbac.authorization.svc.io', resource: 'roles', ns: 'n' }, true],
    [rbacuser, 'create', { group: 'rbac.authorization.k8s.io', resource: 'roles', ns: 'n' }, true],
    // `*` is every authenticated subject, not the anonymous user
    [u('system:anonymous', ['system:unauthenticated']), 'get', { path: '/api' }, false],
  ];
  v1Cases.forEach(([user, verb, o, want], i) => {
    it(`v1beta1 #${i}: ${user.name} ${verb} ${JSON.stringify(o)} → ${want ? 'allow' : 'no opinion'}`, () => assert.equal(allowed(v1, attr(user, verb, o)), want));
  });

  // kube's TestSubjectMatches, through whole policies that match every request.
  const anon = u('system:anonymous', ['system:unauthenticated']);
  const subjects: [string, string, UserInfo, boolean][] = [
    ['v0 empty policy does not match unauthed user', '{}', anon, false],
    ['v0 * user policy does not match unauthed user', '{"user":"*"}', anon, false],
    ['v0 * group policy does not match unauthed user', '{"group":"*"}', anon, false],
    ['v0 empty policy matches authed user', '{}', u('Foo'), true],
    ['v0 empty policy matches authed user with groups', '{}', u('Foo', ['a', 'b', ...authed]), true],
    ['v0 user policy does not match unauthed user', '{"user":"Foo"}', anon, false],
    ['v0 user policy does not match different user', '{"user":"Foo"}', u('Bar'), false],
    ['v0 user policy is case-sensitive', '{"user":"Foo"}', u('foo'), false],
    ['v0 user policy does not match substring', '{"user":"Foo"}', u('FooBar'), false],
    ['v0 user policy matches username', '{"user":"Foo"}', u('Foo'), true],
    ['v0 group policy does not match unauthed user', '{"group":"Foo"}', anon, false],
    ['v0 group policy does not match user in different group', '{"group":"A"}', u('FooBar', ['B', ...authed]), false],
    ['v0 group policy is case-sensitive', '{"group":"b"}', u('Foo', ['A', 'B', 'C', ...authed]), false],
    ['v0 group policy does not match substring', '{"group":"B"}', u('Foo', ['A', 'BBB', 'C', ...authed]), false],
    ['v0 group policy matches user in group', '{"group":"B"}', u('Foo', ['A', 'B', 'C', ...authed]), true],
    ['v0 user and group policy requires user match', '{"user":"Foo","group":"B"}', u('Bar', ['A', 'B', 'C', ...authed]), false],
    ['v0 user and group policy requires group match', '{"user":"Foo","group":"D"}', u('Foo', ['A', 'B', 'C', ...authed]), false],
    ['v0 user and group policy matches', '{"user":"Foo","group":"B"}', u('Foo', ['A', 'B', 'C', ...authed]), true],
    ['v1 empty policy does not match unauthed user', v1spec({}), anon, false],
    ['v1 * user policy does not match unauthed user', v1spec({ user: '*' }), anon, false],
    ['v1 * group policy does not match unauthed user', v1spec({ group: '*' }), anon, false],
    ['v1 empty policy does not match authed user', v1spec({}), u('Foo'), false],
    ['v1 empty policy does not match authed user with groups', v1spec({}), u('Foo', ['a', 'b', ...authed]), false],
    ['v1 user policy does not match unauthed user', v1spec({ user: 'Foo' }), anon, false],
    ['v1 user policy does not match different user', v1spec({ user: 'Foo' }), u('Bar'), false],
    ['v1 user policy is case-sensitive', v1spec({ user: 'Foo' }), u('foo'), false],
    ['v1 user policy does not match substring', v1spec({ user: 'Foo' }), u('FooBar'), false],
    ['v1 user policy matches username', v1spec({ user: 'Foo' }), u('Foo'), true],
    ['v1 group policy does not match unauthed user', v1spec({ group: 'Foo' }), anon, false],
    ['v1 group policy does not match user in different group', v1spec({ group: 'A' }), u('FooBar', ['B', ...authed]), false],
    ['v1 group policy is case-sensitive', v1spec({ group: 'b' }), u('Foo', ['A', 'B', 'C', ...authed]), false],
    ['v1 group policy does not match substring', v1spec({ group: 'B' }), u('Foo', ['A', 'BBB', 'C', ...authed]), false],
    ['v1 group policy matches user in group', v1spec({ group: 'B' }), u('Foo', ['A', 'B', 'C', ...authed]), true],
    ['v1 user and group policy requires user match', v1spec({ user: 'Foo', group: 'B' }), u('Bar', ['A', 'B', 'C', ...authed]), false],
    ['v1 user and group policy requires group match', v1spec({ user: 'Foo', group: 'D' }), u('Foo', ['A', 'B', 'C', ...authed]), false],
    ['v1 user and group policy matches', v1spec({ user: 'Foo', group: 'B' }), u('Foo', ['A', 'B', 'C', ...authed]), true],
    ['v1 system:unauthenticated group matches the anonymous user', v1spec({ group: 'system:unauthenticated' }), anon, true],
  ];
  for (const [name, line, user, want] of subjects) {
    it(name, () => assert.equal(allowed(load(line), attr(user, 'delete', { resource: 'pods', ns: 'ns' })), want));
  }
});

/** A v1beta1 policy of the given subject that allows everything else. */
function v1spec(subject: { user?: string; group?: string }): string {
  return JSON.stringify({ apiVersion: 'abac.authorization.kubernetes.io/v1beta1', kind: 'Policy', spec: { ...subject, namespace: '*', resource: '*', apiGroup: '*', nonResourcePath: '*' } });
}

describe('ABAC rulesFor', () => {
  // kube's TestRulesFor.
  const z = load(`
{                    "readonly": true, "resource": "events"   }
{"user":"scheduler", "readonly": true, "resource": "pods"     }
{"user":"scheduler",                   "resource": "bindings" }
{"user":"kubelet",   "readonly": true, "resource": "pods"     }
{"user":"kubelet",                     "resource": "events"   }
{"user":"alice",                                              "namespace": "projectCaribou"}
{"user":"bob",       "readonly": true,                        "namespace": "projectCaribou"}
{"user":"bob",       "readonly": true,                                                     "nonResourcePath": "*"}
{"group":"a",                          "resource": "bindings" }
{"group":"b",        "readonly": true,                                                     "nonResourcePath": "*"}
`);
  const ro = ['get', 'list', 'watch'];
  const all = ['*'];
  const r = (verbs: string[], resource: string) => ({ verbs, apiGroups: ['*'], resources: [resource] });
  const nr = { verbs: ro, nonResourceURLs: ['*'] };
  const cases: [UserInfo, string, ReturnType<typeof r>[], (typeof nr)[]][] = [
    [u('scheduler'), 'ns1', [r(ro, 'events'), r(ro, 'pods'), r(all, 'bindings')], []],
    [u('kubelet', ['a', 'b']), 'ns1', [r(ro, 'pods'), r(all, 'events'), r(all, 'bindings'), r(ro, '*')], [nr]],
    [u('alice'), 'projectCaribou', [r(ro, 'events'), r(all, '*')], []],
    [u('bob'), 'projectCaribou', [r(ro, 'events'), r(ro, '*'), r(ro, '*')], [nr]],
    [u('chuck', ['a', 'b']), 'ns1', [r(all, 'bindings'), r(ro, '*')], [nr]],
  ];
  for (const [user, ns, resourceRules, nonResourceRules] of cases) {
    it(`${user.name} in ${ns}`, () => assert.deepEqual(z.rulesFor(user, ns), { resourceRules, nonResourceRules, incomplete: false }));
  }
});
