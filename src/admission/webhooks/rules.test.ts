import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ruleMatches, type RuleTarget } from './rules.js';
import type { WebhookRule } from './types.js';

const rule = (r: Partial<WebhookRule>): WebhookRule => ({ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'], scope: '*', ...r });
const req = (t: Partial<RuleTarget>): RuleTarget => ({ operation: 'CREATE', group: '', version: 'v1', resource: 'pods', subresource: '', namespace: 'ns', ...t });

describe('webhook rules (kube rules_test in spirit)', () => {
  const cases: [string, Partial<WebhookRule>, Partial<RuleTarget>, boolean][] = [
    ['all wildcards', {}, {}, true],
    ['operation listed', { operations: ['CREATE'] }, {}, true],
    ['operation not listed', { operations: ['UPDATE', 'DELETE'] }, {}, false],
    ['core group', { apiGroups: [''] }, {}, true],
    ['other group', { apiGroups: ['apps'] }, {}, false],
    ['k8s.io rule, svc.io request', { apiGroups: ['networking.k8s.io'] }, { group: 'networking.svc.io', resource: 'ingresses' }, true],
    ['svc.io rule, k8s.io request', { apiGroups: ['networking.svc.io'] }, { group: 'networking.k8s.io', resource: 'ingresses' }, true],
    ['version listed', { apiVersions: ['v1'] }, {}, true],
    ['version not listed', { apiVersions: ['v2'] }, {}, false],
    ['* does not cover subresources', { resources: ['*'] }, { subresource: 'status' }, false],
    ['*/* covers subresources', { resources: ['*/*'] }, { subresource: 'status' }, true],
    ['*/* covers the main resource too (sub "*" matches "")', { resources: ['*/*'] }, {}, true],
    ['pods/* covers pods/exec', { resources: ['pods/*'] }, { subresource: 'exec' }, true],
    ['pods/* vs configmaps', { resources: ['pods/*'] }, { resource: 'configmaps', subresource: 'x' }, false],
    ['*/status covers deployments/status', { resources: ['*/status'] }, { resource: 'deployments', subresource: 'status' }, true],
    ['*/status not the main resource', { resources: ['*/status'] }, {}, false],
    ['pods/status exact', { resources: ['pods/status'] }, { subresource: 'status' }, true],
    ['pods does not cover pods/status', { resources: ['pods'] }, { subresource: 'status' }, false],
    ['Namespaced scope, namespaced request', { scope: 'Namespaced' }, {}, true],
    ['Namespaced scope, cluster request', { scope: 'Namespaced' }, { resource: 'nodes', namespace: '' }, false],
    ['Cluster scope, cluster request', { scope: 'Cluster' }, { resource: 'nodes', namespace: '' }, true],
    ['Cluster scope, namespaced request', { scope: 'Cluster' }, {}, false],
    ['a Namespace is cluster-scoped although it carries its name', { scope: 'Cluster' }, { resource: 'namespaces', namespace: 'ns' }, true],
    ['a Namespace is not Namespaced', { scope: 'Namespaced' }, { resource: 'namespaces', namespace: 'ns' }, false],
    ['no resources', { resources: [] }, {}, false],
  ];
  for (const [name, r, t, want] of cases) it(name, () => assert.equal(ruleMatches(rule(r), req(t)), want));
});
