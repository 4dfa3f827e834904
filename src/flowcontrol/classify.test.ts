// Classification tables: subjects (User, Group, ServiceAccount with "*"),
// resource rules (verbs, groups in either spelling, resource/subresource,
// cluster scope, namespaces), non-resource rules (exact, prefix "/*", "*"),
// precedence then name, and the flow distinguishers — over the bootstrap
// configuration as well.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { UserInfo } from '../authn/user.js';
import type { RequestInfo } from '../endpoints/requestinfo.js';
import type { ApiObject } from '../registry/object.js';
import { byPrecedence, candidatesFor, classify, compileFlowSchema, firstCandidate, flowDistinguisher } from './classify.js';
import { MANDATORY_FLOW_SCHEMAS, SUGGESTED_FLOW_SCHEMAS } from './bootstrap.js';

const user = (name: string, ...groups: string[]): UserInfo => ({ name, groups: [...groups, 'system:authenticated'] });
const res = (verb: string, apiGroup: string, resource: string, namespace = '', subresource = ''): RequestInfo => ({
  isResourceRequest: true, verb: verb as never, apiPrefix: apiGroup ? 'apis' : 'api', apiGroup, apiVersion: 'v1', namespace, resource, subresource, name: '', parts: [resource], path: '/x',
});
const nonRes = (verb: string, path: string): RequestInfo => ({ isResourceRequest: false, verb, path });

const schema = (name: string, precedence: number, rule: Record<string, unknown>, dm?: string): ApiObject =>
  ({ metadata: { name, uid: `uid-${name}` }, spec: { priorityLevelConfiguration: { name: 'pl' }, matchingPrecedence: precedence, ...(dm ? { distinguisherMethod: { type: dm } } : {}), rules: [rule] } }) as ApiObject;

describe('classification: one schema', () => {
  const rows: [string, Record<string, unknown>, UserInfo, RequestInfo, boolean][] = [
    ['user by name', { subjects: [{ kind: 'User', user: { name: 'alice' } }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] }, user('alice'), nonRes('get', '/x'), true],
    ['another user', { subjects: [{ kind: 'User', user: { name: 'alice' } }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] }, user('bob'), nonRes('get', '/x'), false],
    ['user "*"', { subjects: [{ kind: 'User', user: { name: '*' } }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] }, user('bob'), nonRes('get', '/x'), true],
    ['group', { subjects: [{ kind: 'Group', group: { name: 'dev' } }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] }, user('bob', 'dev'), nonRes('get', '/x'), true],
    ['service account by name', { subjects: [{ kind: 'ServiceAccount', serviceAccount: { namespace: 'ns', name: 'sa' } }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] },
      user('system:serviceaccount:ns:sa'), nonRes('get', '/x'), true],
    ['service account "*" in its namespace', { subjects: [{ kind: 'ServiceAccount', serviceAccount: { namespace: 'ns', name: '*' } }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] },
      user('system:serviceaccount:ns:other'), nonRes('get', '/x'), true],
    ['service account of another namespace', { subjects: [{ kind: 'ServiceAccount', serviceAccount: { namespace: 'ns', name: '*' } }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] },
      user('system:serviceaccount:ns2:sa'), nonRes('get', '/x'), false],
    ['verb and group (k8s.io spelling in the rule)', { subjects: [{ kind: 'Group', group: { name: '*' } }], resourceRules: [{ verbs: ['get'], apiGroups: ['coordination.k8s.io'], resources: ['leases'], namespaces: ['*'] }] },
      user('a'), res('get', 'coordination.svc.io', 'leases', 'ns'), true],
    ['another verb', { subjects: [{ kind: 'Group', group: { name: '*' } }], resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], namespaces: ['*'] }] },
      user('a'), res('list', '', 'pods', 'ns'), false],
    ['subresource named', { subjects: [{ kind: 'Group', group: { name: '*' } }], resourceRules: [{ verbs: ['*'], apiGroups: [''], resources: ['nodes/status'], clusterScope: true }] },
      user('a'), res('update', '', 'nodes', '', 'status'), true],
    ['the resource alone does not cover a subresource', { subjects: [{ kind: 'Group', group: { name: '*' } }], resourceRules: [{ verbs: ['*'], apiGroups: [''], resources: ['nodes'], clusterScope: true }] },
      user('a'), res('update', '', 'nodes', '', 'status'), false],
    ['cluster-scoped request needs clusterScope', { subjects: [{ kind: 'Group', group: { name: '*' } }], resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'] }] },
      user('a'), res('list', '', 'nodes'), false],
    ['namespace listed', { subjects: [{ kind: 'Group', group: { name: '*' } }], resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['svc-system'] }] },
      user('a'), res('get', '', 'configmaps', 'svc-system'), true],
    ['namespace not listed', { subjects: [{ kind: 'Group', group: { name: '*' } }], resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['svc-system'] }] },
      user('a'), res('get', '', 'configmaps', 'default'), false],
    ['resource rules do not match non-resource requests', { subjects: [{ kind: 'Group', group: { name: '*' } }], resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'], clusterScope: true }] },
      user('a'), nonRes('get', '/healthz'), false],
    ['non-resource exact path', { subjects: [{ kind: 'Group', group: { name: '*' } }], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }] }, user('a'), nonRes('get', '/healthz'), true],
    ['non-resource prefix', { subjects: [{ kind: 'Group', group: { name: '*' } }], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/metrics/*'] }] }, user('a'), nonRes('get', '/metrics/x'), true],
    ['non-resource other path', { subjects: [{ kind: 'Group', group: { name: '*' } }], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }] }, user('a'), nonRes('get', '/livez'), false],
  ];
  for (const [name, rule, u, info, want] of rows) {
    it(name, () => {
      const compiled = [compileFlowSchema(schema('s', 100, rule))];
      assert.equal(classify(compiled, u, info)?.name, want ? 's' : undefined);
      // the per-user candidates (subjects checked once per user) agree
      assert.equal(firstCandidate(candidatesFor(compiled, (x) => x, u), info)?.name, want ? 's' : undefined);
    });
  }
});

describe('classification: order and distinguishers', () => {
  const any = { subjects: [{ kind: 'Group', group: { name: '*' } }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }], resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'], clusterScope: true }] };
  it('lowest matchingPrecedence first, then name', () => {
    const ordered = [schema('b', 10, any), schema('a', 10, any), schema('c', 5, any)].map(compileFlowSchema).sort(byPrecedence);
    assert.deepEqual(ordered.map((s) => s.name), ['c', 'a', 'b']);
  });
  it('ByUser, ByNamespace, none', () => {
    const info = res('get', '', 'pods', 'ns1');
    assert.equal(flowDistinguisher(compileFlowSchema(schema('s', 1, any, 'ByUser')), user('alice'), info), 'alice');
    assert.equal(flowDistinguisher(compileFlowSchema(schema('s', 1, any, 'ByNamespace')), user('alice'), info), 'ns1');
    assert.equal(flowDistinguisher(compileFlowSchema(schema('s', 1, any)), user('alice'), info), '');
  });

  const bootstrap = [...MANDATORY_FLOW_SCHEMAS, ...SUGGESTED_FLOW_SCHEMAS].map(compileFlowSchema).sort(byPrecedence);
  const rows: [string, UserInfo, RequestInfo, string][] = [
    ['system:masters → exempt', user('admin', 'system:masters'), res('delete', '', 'pods', 'x'), 'exempt'],
    ['probes are exempt', user('system:anonymous', 'system:unauthenticated'), nonRes('get', '/readyz'), 'probes'],
    ['a node agent\'s node status → system-node-high', user('system:node:n1', 'system:nodes'), res('patch', '', 'nodes', '', 'status'), 'system-node-high'],
    ['a node agent\'s pods → system-nodes', user('system:node:n1', 'system:nodes'), res('list', '', 'pods'), 'system-nodes'],
    ['controller manager leases → system-leader-election', user('system:svc-controller-manager'), res('update', 'coordination.svc.io', 'leases', 'svc-system'), 'system-leader-election'],
    ['endpoint controller → endpoint-controller', user('system:serviceaccount:svc-system:endpoint-controller', 'system:serviceaccounts'), res('update', '', 'endpoints', 'default'), 'endpoint-controller'],
    ['a system service account\'s configmap → workload-leader-election', user('system:serviceaccount:svc-system:x', 'system:serviceaccounts'), res('get', '', 'configmaps', 'default'), 'workload-leader-election'],
    ['controller manager → svc-controller-manager', user('system:svc-controller-manager'), res('list', 'apps', 'deployments'), 'svc-controller-manager'],
    ['a system service account → svc-system-service-accounts', user('system:serviceaccount:svc-system:x', 'system:serviceaccounts'), res('list', '', 'pods'), 'svc-system-service-accounts'],
    ['other service accounts → service-accounts', user('system:serviceaccount:default:x', 'system:serviceaccounts'), res('list', '', 'pods'), 'service-accounts'],
    ['everyone else → global-default', user('alice'), res('list', '', 'pods', 'default'), 'global-default'],
    ['anonymous → global-default', { name: 'system:anonymous', groups: ['system:unauthenticated'] }, nonRes('get', '/version'), 'global-default'],
  ];
  for (const [name, u, info, want] of rows) it(`bootstrap: ${name}`, () => assert.equal(classify(bootstrap, u, info)?.name, want));
});
