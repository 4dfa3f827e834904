// A quota's scopes as selector requirements; object-count names.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { objectCountNames, quotaScopeSelectors } from './common.js';
import { quota } from './testutil.js';

describe('quotaScopeSelectors', () => {
  it('spec.scopes as Exists, then scopeSelector.matchExpressions', () => {
    assert.deepEqual(quotaScopeSelectors(quota({ scopes: ['BestEffort'], scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }] } })), [
      { scopeName: 'BestEffort', operator: 'Exists' },
      { scopeName: 'PriorityClass', operator: 'In', values: ['high'] },
    ]);
    assert.deepEqual(quotaScopeSelectors(quota({ hard: { pods: '1' } })), []);
  });
});

describe('objectCountNames', () => {
  const rows: [string, string, string[]][] = [
    ['', 'pods', ['count/pods']],
    ['apps', 'deployments', ['count/deployments.apps']],
    ['storage.k8s.io', 'storageclasses', ['count/storageclasses.storage.svc.io', 'count/storageclasses.storage.k8s.io']],
    ['x-k8s.io', 'things', ['count/things.x-k8s.io']],
  ];
  for (const [g, r, want] of rows) it(`${g}/${r}`, () => assert.deepEqual(objectCountNames(g, r), want));
});
