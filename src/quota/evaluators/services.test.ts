// The service evaluator: node ports and load balancers by type, updates.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../registry/object.js';
import { serviceEvaluator } from './services.js';
import { obj, quota, texts } from './testutil.js';

const ev = serviceEvaluator();
const ports = (n: number, nodePorts: number[] = []) => Array.from({ length: n }, (_, i) => ({ port: 80 + i, ...(nodePorts[i] ? { nodePort: nodePorts[i] } : {}) }));
const svc = (spec: Record<string, unknown>) => obj(spec);
const usage = (nodeports: string, lbs: string) => ({ 'count/services': '1', services: '1', 'services.loadbalancers': lbs, 'services.nodeports': nodeports });

describe('service usage', () => {
  const rows: [string, ApiObject, Record<string, string>][] = [
    ['ClusterIP', svc({ type: 'ClusterIP', ports: ports(3) }), usage('0', '0')],
    ['no type (ClusterIP by default)', svc({ ports: ports(1) }), usage('0', '0')],
    ['ExternalName', svc({ type: 'ExternalName', externalName: 'x.example.com' }), usage('0', '0')],
    ['NodePort: one per port', svc({ type: 'NodePort', ports: ports(2) }), usage('2', '0')],
    ['LoadBalancer: one balancer, a node port per port', svc({ type: 'LoadBalancer', ports: ports(3) }), usage('3', '1')],
    ['LoadBalancer allocating node ports explicitly', svc({ type: 'LoadBalancer', allocateLoadBalancerNodePorts: true, ports: ports(2) }), usage('2', '1')],
    ['LoadBalancer without node port allocation: only named node ports', svc({ type: 'LoadBalancer', allocateLoadBalancerNodePorts: false, ports: ports(3, [30001, 0, 30003]) }), usage('2', '1')],
  ];
  for (const [name, s, want] of rows) it(name, () => assert.deepEqual(texts(ev.usage(s)), want));
});

describe('service evaluator', () => {
  it('matchingResources: the four service names', () => {
    assert.deepEqual(ev.matchingResources(['services', 'count/services', 'services.nodeports', 'services.loadbalancers', 'pods', 'count/services.svc.io']),
      ['services', 'count/services', 'services.nodeports', 'services.loadbalancers']);
  });
  it('handles creates and updates (a type change), not deletes or status', () => {
    assert.deepEqual(['CREATE', 'UPDATE', 'DELETE', 'CONNECT'].map((op) => ev.handles(op as 'CREATE', '')), [true, true, false, false]);
    assert.equal(ev.handles('UPDATE', 'status'), false);
  });
  it('knows no scopes: matches only quotas without any', () => {
    const s = svc({ type: 'NodePort', ports: ports(1) });
    assert.equal(ev.matchesScopes(quota({ hard: { services: '1' } }), s), true);
    assert.equal(ev.matchesScopes(quota({ scopes: ['NotBestEffort'] }), s), false);
    assert.equal(ev.matchesScopes(quota({ scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'Exists' }] } }), s), false);
    assert.deepEqual(ev.matchingScopes(s, [{ scopeName: 'BestEffort', operator: 'Exists' }]), []);
    assert.deepEqual(ev.uncoveredScopes([{ scopeName: 'BestEffort', operator: 'Exists' }], []), []);
    assert.equal(ev.constraints(['services'], s), undefined);
  });
});
