// RBAC rule matching, one row per kube v1.27 behaviour (rbac/v1 evaluation
// helpers and RuleAllows), plus svc's group spellings.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Attributes } from '../authorizer.js';
import {
  apiGroupMatches, nonResourceURLMatches, resourceMatches, resourceNameMatches, ruleAllows, rulesAllow, verbMatches,
  type PolicyRule,
} from './rules.js';

const user = { name: 'alice', groups: [] };
function res(verb: string, apiGroup: string, resource: string, o: { sub?: string; name?: string; ns?: string } = {}): Attributes {
  return {
    user, isResourceRequest: true, path: '/x', verb, apiGroup, apiVersion: 'v1',
    namespace: o.ns ?? 'default', resource, subresource: o.sub ?? '', name: o.name ?? '',
  };
}
const nonRes = (verb: string, path: string): Attributes => ({ user, isResourceRequest: false, verb, path });

describe('rbac rule helpers', () => {
  const rows: [string, boolean, boolean][] = [
    ['verb: exact', verbMatches({ verbs: ['get'] }, 'get'), true],
    ['verb: * matches any verb', verbMatches({ verbs: ['*'] }, 'deletecollection'), true],
    ['verb: other verb does not match', verbMatches({ verbs: ['get', 'list'] }, 'watch'), false],
    ['verb: no verbs match nothing', verbMatches({}, 'get'), false],
    ['verb: case-sensitive', verbMatches({ verbs: ['GET'] }, 'get'), false],
    ['group: "" is the core group', apiGroupMatches({ apiGroups: [''] }, ''), true],
    ['group: core rule does not match apps', apiGroupMatches({ apiGroups: [''] }, 'apps'), false],
    ['group: * matches any group', apiGroupMatches({ apiGroups: ['*'] }, 'batch'), true],
    ['group: k8s.io rule matches svc.io request', apiGroupMatches({ apiGroups: ['rbac.authorization.k8s.io'] }, 'rbac.authorization.svc.io'), true],
    ['group: svc.io rule matches k8s.io request', apiGroupMatches({ apiGroups: ['rbac.authorization.svc.io'] }, 'rbac.authorization.k8s.io'), true],
    ['group: any X.k8s.io ≡ X.svc.io pair', apiGroupMatches({ apiGroups: ['storage.k8s.io'] }, 'storage.svc.io'), true],
    ['group: different X is not the same group', apiGroupMatches({ apiGroups: ['storage.k8s.io'] }, 'rbac.authorization.svc.io'), false],
    ['group: x-k8s.io is not a k8s.io spelling', apiGroupMatches({ apiGroups: ['cluster.x-k8s.io'] }, 'cluster.x-svc.io'), false],
    ['resource: exact', resourceMatches({ resources: ['pods'] }, 'pods', ''), true],
    ['resource: * matches any', resourceMatches({ resources: ['*'] }, 'pods/log', 'log'), true],
    ['resource: pods does not cover pods/log', resourceMatches({ resources: ['pods'] }, 'pods/log', 'log'), false],
    ['resource: pods/log exact subresource', resourceMatches({ resources: ['pods/log'] }, 'pods/log', 'log'), true],
    ['resource: pods/log does not cover pods', resourceMatches({ resources: ['pods/log'] }, 'pods', ''), false],
    ['resource: */scale covers deployments/scale', resourceMatches({ resources: ['*/scale'] }, 'deployments/scale', 'scale'), true],
    ['resource: */scale does not cover deployments', resourceMatches({ resources: ['*/scale'] }, 'deployments', ''), false],
    ['resource: */scale does not cover x/status', resourceMatches({ resources: ['*/scale'] }, 'deployments/status', 'status'), false],
    ['resource: */xscale is not */scale', resourceMatches({ resources: ['*/xscale'] }, 'deployments/scale', 'scale'), false],
    ['resourceNames: empty list allows every name', resourceNameMatches({ resourceNames: [] }, 'a'), true],
    ['resourceNames: absent allows a nameless request', resourceNameMatches({}, ''), true],
    ['resourceNames: listed name', resourceNameMatches({ resourceNames: ['a', 'b'] }, 'b'), true],
    ['resourceNames: unlisted name', resourceNameMatches({ resourceNames: ['a'] }, 'c'), false],
    ['resourceNames: nameless request (list/create) is not covered', resourceNameMatches({ resourceNames: ['a'] }, ''), false],
    ['url: exact', nonResourceURLMatches({ nonResourceURLs: ['/healthz'] }, '/healthz'), true],
    ['url: exact does not prefix', nonResourceURLMatches({ nonResourceURLs: ['/healthz'] }, '/healthz/ping'), false],
    ['url: * matches any path', nonResourceURLMatches({ nonResourceURLs: ['*'] }, '/metrics'), true],
    ['url: trailing * is a prefix', nonResourceURLMatches({ nonResourceURLs: ['/healthz/*'] }, '/healthz/etcd'), true],
    ['url: trailing * stem without its slash', nonResourceURLMatches({ nonResourceURLs: ['/healthz/*'] }, '/healthz'), false],
    ['url: /api* is a raw string prefix', nonResourceURLMatches({ nonResourceURLs: ['/api*'] }, '/apis/apps'), true],
    ['url: * only at the end is special', nonResourceURLMatches({ nonResourceURLs: ['/*/x'] }, '/a/x'), false],
  ];
  for (const [name, got, want] of rows) it(name, () => assert.equal(got, want));
});

describe('ruleAllows (kube RuleAllows)', () => {
  const podsRead: PolicyRule = { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods'] };
  const named: PolicyRule = { verbs: ['get', 'list', 'create', 'update'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['cfg'] };
  const scale: PolicyRule = { verbs: ['update'], apiGroups: ['apps'], resources: ['*/scale'] };
  const health: PolicyRule = { verbs: ['get'], nonResourceURLs: ['/healthz', '/livez/*'] };
  const roles: PolicyRule = { verbs: ['*'], apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'] };
  const rows: [string, PolicyRule, Attributes, boolean][] = [
    ['resource rule: matching verb, group, resource', podsRead, res('list', '', 'pods'), true],
    ['resource rule: wrong verb', podsRead, res('delete', '', 'pods', { name: 'p' }), false],
    ['resource rule: wrong group', podsRead, res('get', 'apps', 'pods', { name: 'p' }), false],
    ['resource rule: subresource not covered by the resource', podsRead, res('get', '', 'pods', { name: 'p', sub: 'log' }), false],
    ['resourceNames: get of the listed name', named, res('get', '', 'configmaps', { name: 'cfg' }), true],
    ['resourceNames: get of another name', named, res('get', '', 'configmaps', { name: 'other' }), false],
    ['resourceNames: list has no name, not allowed', named, res('list', '', 'configmaps'), false],
    ['resourceNames: create has no name, not allowed', named, res('create', '', 'configmaps'), false],
    ['resourceNames: update of the listed name', named, res('update', '', 'configmaps', { name: 'cfg' }), true],
    ['*/scale: deployments/scale', scale, res('update', 'apps', 'deployments', { name: 'd', sub: 'scale' }), true],
    ['*/scale: not the deployment itself', scale, res('update', 'apps', 'deployments', { name: 'd' }), false],
    ['group spelling: k8s.io rule, svc.io request', roles, res('create', 'rbac.authorization.svc.io', 'roles'), true],
    ['non-resource rule: exact URL', health, nonRes('get', '/healthz'), true],
    ['non-resource rule: prefix URL', health, nonRes('get', '/livez/ping'), true],
    ['non-resource rule: wrong verb', health, nonRes('post', '/healthz'), false],
    ['non-resource rule never allows a resource request', health, res('get', '', 'pods'), false],
    ['resource rule never allows a non-resource request', { verbs: ['*'], apiGroups: ['*'], resources: ['*'] }, nonRes('get', '/healthz'), false],
    ['star rule allows any resource request', { verbs: ['*'], apiGroups: ['*'], resources: ['*'] }, res('deletecollection', 'batch', 'jobs'), true],
  ];
  for (const [name, rule, a, want] of rows) it(name, () => assert.equal(ruleAllows(a, rule), want));
  it('rulesAllow: any rule of the list', () => {
    assert.equal(rulesAllow(res('get', '', 'configmaps', { name: 'x' }), [podsRead, named]), false);
    assert.equal(rulesAllow(res('get', '', 'pods', { name: 'x' }), [named, podsRead]), true);
  });
});
