import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../registry/object.js';
import { aggregatedRules } from './clusterroleaggregation.js';

const role = (name: string, labels: Record<string, string>, rules: unknown[], selectors?: unknown[]): ApiObject => ({
  metadata: { name, labels }, rules, ...(selectors ? { aggregationRule: { clusterRoleSelectors: selectors } } : {}),
});
const r = (verb: string, resource: string) => ({ verbs: [verb], apiGroups: [''], resources: [resource] });

describe('aggregatedRules', () => {
  it('unions the matching roles\' rules per selector, roles by name, without duplicates or itself', () => {
    const view = role('view', { 'agg/view': 'true' }, [r('x', 'self')], [{ matchLabels: { 'agg/view': 'true' } }, { matchLabels: { other: 'true' } }]);
    const all = [
      view,
      role('b', { 'agg/view': 'true' }, [r('get', 'pods'), r('get', 'secrets')]),
      role('a', { 'agg/view': 'true' }, [r('get', 'secrets')]),
      role('c', { other: 'true' }, [r('list', 'pods'), r('get', 'pods')]),
      role('d', {}, [r('delete', 'pods')]),
    ];
    assert.deepEqual(aggregatedRules(view, all), [r('get', 'secrets'), r('get', 'pods'), r('list', 'pods')]);
  });

  it('matches expressions as label selectors do', () => {
    const agg = role('agg', {}, [], [{ matchExpressions: [{ key: 'tier', operator: 'In', values: ['a', 'b'] }] }]);
    const all = [agg, role('one', { tier: 'b' }, [r('get', 'one')]), role('two', { tier: 'c' }, [r('get', 'two')])];
    assert.deepEqual(aggregatedRules(agg, all), [r('get', 'one')]);
  });
});
