// The bootstrap configuration: v1.27's objects with their exact specs (in the
// project's spellings), the autoupdate annotations, and defaulting that
// changes nothing (kube checks the same of its objects).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaulters } from '../api/flowcontrol/v1beta3/defaults.js';
import type { Json } from '../api/core/v1/defaults.js';
import { MANDATORY_FLOW_SCHEMAS, MANDATORY_PRIORITY_LEVELS, SUGGESTED_FLOW_SCHEMAS, SUGGESTED_PRIORITY_LEVELS } from './bootstrap.js';
import type { ApiObject } from '../registry/object.js';

const all = [...MANDATORY_PRIORITY_LEVELS, ...SUGGESTED_PRIORITY_LEVELS, ...MANDATORY_FLOW_SCHEMAS, ...SUGGESTED_FLOW_SCHEMAS];
const specOf = (list: readonly ApiObject[], name: string) => (list.find((o) => o.metadata.name === name) as unknown as { spec: unknown }).spec;
const ALL_RES = [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true, namespaces: ['*'] }];
const ALL_NONRES = [{ verbs: ['*'], nonResourceURLs: ['*'] }];
const group = (name: string) => ({ kind: 'Group', group: { name } });
const user = (name: string) => ({ kind: 'User', user: { name } });
const sa = (name: string) => ({ kind: 'ServiceAccount', serviceAccount: { namespace: 'svc-system', name } });
const queue = (nominalConcurrencyShares: number, lendablePercent: number, queues: number, handSize: number) =>
  ({ type: 'Limited', limited: { nominalConcurrencyShares, lendablePercent, limitResponse: { type: 'Queue', queuing: { queues, handSize, queueLengthLimit: 50 } } } });

describe('bootstrap configuration', () => {
  const levels: [string, unknown][] = [
    ['exempt', { type: 'Exempt' }],
    ['catch-all', { type: 'Limited', limited: { nominalConcurrencyShares: 5, lendablePercent: 0, limitResponse: { type: 'Reject' } } }],
    ['system', queue(30, 33, 64, 6)],
    ['node-high', queue(40, 25, 64, 6)],
    ['leader-election', queue(10, 0, 16, 4)],
    ['workload-high', queue(40, 50, 128, 6)],
    ['workload-low', queue(100, 90, 128, 6)],
    ['global-default', queue(20, 50, 128, 6)],
  ];
  for (const [name, spec] of levels) it(`priority level ${name}`, () => assert.deepEqual(specOf([...MANDATORY_PRIORITY_LEVELS, ...SUGGESTED_PRIORITY_LEVELS], name), spec));

  const fs = (pl: string, matchingPrecedence: number, dm: string | undefined, rule: Record<string, unknown>) =>
    ({ priorityLevelConfiguration: { name: pl }, matchingPrecedence, ...(dm ? { distinguisherMethod: { type: dm } } : {}), rules: [rule] });
  const leases = (verbs: string[]) => ({ verbs, apiGroups: ['coordination.svc.io'], resources: ['leases'], clusterScope: false, namespaces: ['*'] });
  const gcu = ['get', 'create', 'update'];
  const schemas: [string, unknown][] = [
    ['exempt', fs('exempt', 1, undefined, { subjects: [group('system:masters')], resourceRules: ALL_RES, nonResourceRules: ALL_NONRES })],
    ['catch-all', fs('catch-all', 10000, 'ByUser', { subjects: [group('system:unauthenticated'), group('system:authenticated')], resourceRules: ALL_RES, nonResourceRules: ALL_NONRES })],
    ['probes', fs('exempt', 2, undefined, { subjects: [group('system:unauthenticated'), group('system:authenticated')], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz', '/livez'] }] })],
    ['system-leader-election', fs('leader-election', 100, 'ByUser', { subjects: [user('system:svc-controller-manager'), user('system:svc-scheduler'), sa('*')], resourceRules: [leases(gcu)] })],
    ['endpoint-controller', fs('workload-high', 150, 'ByUser', {
      subjects: [user('system:svc-controller-manager'), sa('endpoint-controller'), sa('endpointslicemirroring-controller')],
      resourceRules: [{ verbs: gcu, apiGroups: [''], resources: ['endpoints'], clusterScope: false, namespaces: ['*'] }],
    })],
    ['workload-leader-election', fs('leader-election', 200, 'ByUser', {
      subjects: [sa('*')], resourceRules: [{ verbs: gcu, apiGroups: [''], resources: ['endpoints', 'configmaps'], clusterScope: false, namespaces: ['*'] }, leases(gcu)],
    })],
    ['system-node-high', fs('node-high', 400, 'ByUser', {
      subjects: [group('system:nodes')], resourceRules: [{ verbs: ['*'], apiGroups: [''], resources: ['nodes', 'nodes/status'], clusterScope: true, namespaces: ['*'] }, leases(['*'])],
    })],
    ['system-nodes', fs('system', 500, 'ByUser', { subjects: [group('system:nodes')], resourceRules: ALL_RES, nonResourceRules: ALL_NONRES })],
    ['svc-controller-manager', fs('workload-high', 800, 'ByNamespace', { subjects: [user('system:svc-controller-manager')], resourceRules: ALL_RES, nonResourceRules: ALL_NONRES })],
    ['svc-scheduler', fs('workload-high', 800, 'ByNamespace', { subjects: [user('system:svc-scheduler')], resourceRules: ALL_RES, nonResourceRules: ALL_NONRES })],
    ['svc-system-service-accounts', fs('workload-high', 900, 'ByNamespace', { subjects: [sa('*')], resourceRules: ALL_RES, nonResourceRules: ALL_NONRES })],
    ['service-accounts', fs('workload-low', 9000, 'ByUser', { subjects: [group('system:serviceaccounts')], resourceRules: ALL_RES, nonResourceRules: ALL_NONRES })],
    ['global-default', fs('global-default', 9900, 'ByUser', { subjects: [group('system:unauthenticated'), group('system:authenticated')], resourceRules: ALL_RES, nonResourceRules: ALL_NONRES })],
  ];
  for (const [name, spec] of schemas) it(`flow schema ${name}`, () => assert.deepEqual(specOf([...MANDATORY_FLOW_SCHEMAS, ...SUGGESTED_FLOW_SCHEMAS], name), spec));

  it('has exactly these objects', () => {
    assert.equal(MANDATORY_PRIORITY_LEVELS.length + SUGGESTED_PRIORITY_LEVELS.length, levels.length);
    assert.equal(MANDATORY_FLOW_SCHEMAS.length + SUGGESTED_FLOW_SCHEMAS.length, schemas.length);
  });

  it('every object says autoupdate "true" under both keys', () => {
    for (const o of all) assert.deepEqual(o.metadata.annotations, { 'apf.kubernetes.io/autoupdate-spec': 'true', 'apf.svc.io/autoupdate-spec': 'true' }, o.metadata.name);
  });

  it('defaulting changes none of them', () => {
    for (const o of all) {
      const copy = structuredClone(o) as unknown as Json;
      defaulters[o.kind!]!(copy, { enabled: () => false });
      assert.deepEqual(copy, o, o.metadata.name);
    }
  });
});
