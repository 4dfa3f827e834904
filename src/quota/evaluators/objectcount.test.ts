// The generic object-count evaluator: count/<resource>[.<group>] in both
// group spellings, legacy names, creates only.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { objectCountEvaluator } from './objectcount.js';
import { obj, quota, texts } from './testutil.js';

describe('object count names', () => {
  const rows: [string, string, string | undefined, Record<string, string>][] = [
    ['', 'secrets', 'secrets', { 'count/secrets': '1', secrets: '1' }],
    ['', 'serviceaccounts', undefined, { 'count/serviceaccounts': '1' }],
    ['apps', 'deployments', undefined, { 'count/deployments.apps': '1' }],
    ['networking.svc.io', 'ingresses', undefined, { 'count/ingresses.networking.k8s.io': '1', 'count/ingresses.networking.svc.io': '1' }],
    ['networking.k8s.io', 'ingresses', undefined, { 'count/ingresses.networking.k8s.io': '1', 'count/ingresses.networking.svc.io': '1' }],
    ['example.com', 'widgets', undefined, { 'count/widgets.example.com': '1' }],
  ];
  for (const [group, resource, legacy, want] of rows) {
    it(`${group}/${resource}`, () => {
      const ev = objectCountEvaluator(group, resource, legacy);
      assert.deepEqual(texts(ev.usage(obj({}))), want);
      assert.deepEqual(ev.matchingResources([...Object.keys(want), 'pods', 'count/other']).sort(), Object.keys(want).sort());
    });
  }
  it('group is kept in the svc.io spelling', () => assert.equal(objectCountEvaluator('networking.k8s.io', 'ingresses').group, 'networking.svc.io'));
  it('handles creates only; no scopes', () => {
    const ev = objectCountEvaluator('', 'configmaps', 'configmaps');
    assert.deepEqual(['CREATE', 'UPDATE', 'DELETE'].map((op) => ev.handles(op as 'CREATE', '')), [true, false, false]);
    assert.equal(ev.matchesScopes(quota({ hard: { configmaps: '1' } }), obj({})), true);
    assert.equal(ev.matchesScopes(quota({ scopes: ['BestEffort'] }), obj({})), false);
    assert.equal(ev.counts(obj({}), 0), true);
  });
});
