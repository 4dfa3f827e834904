// Toleration merging and whitelists, the cases kube's pkg/util/tolerations tests describe.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isSuperset, mergeTolerations, verifyAgainstWhitelist } from './tolerations.js';

const eq = (key: string, value: string, effect = '') => ({ key, operator: 'Equal', value, ...(effect ? { effect } : {}) });
const ex = (key: string, effect = '', tolerationSeconds?: number) => ({ key, operator: 'Exists', ...(effect ? { effect } : {}), ...(tolerationSeconds !== undefined ? { tolerationSeconds } : {}) });

describe('tolerations', () => {
  const supersets: [string, Record<string, unknown>, Record<string, unknown>, boolean][] = [
    ['equal', eq('a', 'b', 'NoSchedule'), eq('a', 'b', 'NoSchedule'), true],
    ['Exists covers Equal of the key', ex('a'), eq('a', 'b', 'NoSchedule'), true],
    ['empty key Exists covers all', ex(''), eq('z', 'b', 'NoSchedule'), true],
    ['another key', ex('a'), eq('b', 'b'), false],
    ['another effect', ex('a', 'NoSchedule'), eq('a', 'b', 'NoExecute'), false],
    ['shorter NoExecute time does not cover longer', ex('a', 'NoExecute', 10), ex('a', 'NoExecute', 20), false],
    ['longer NoExecute time covers shorter', ex('a', 'NoExecute', 30), ex('a', 'NoExecute', 20), true],
    ['bounded does not cover unbounded', ex('a', 'NoExecute', 30), ex('a', 'NoExecute'), false],
    ['Equal does not cover another value', eq('a', 'b'), eq('a', 'c'), false],
    ['Equal does not cover Exists', eq('a', 'b'), ex('a'), false],
  ];
  for (const [what, ss, t, want] of supersets) it(`superset: ${what}`, () => assert.equal(isSuperset(ss, t), want));

  it('merge keeps the broadest, in order', () => {
    assert.deepEqual(mergeTolerations([eq('a', 'b', 'NoSchedule'), eq('c', 'd')], [ex('a'), eq('c', 'd')]), [eq('c', 'd'), ex('a')]);
  });
  it('merge of nothing is nothing', () => assert.deepEqual(mergeTolerations([], []), []));
  it('merge keeps the first of equal ones', () => assert.deepEqual(mergeTolerations([eq('a', 'b')], [eq('a', 'b')]), [eq('a', 'b')]));

  it('whitelist', () => {
    assert.equal(verifyAgainstWhitelist([eq('a', 'b')], []), true);
    assert.equal(verifyAgainstWhitelist([], [eq('a', 'b')]), true);
    assert.equal(verifyAgainstWhitelist([eq('a', 'b', 'NoSchedule')], [ex('a')]), true);
    assert.equal(verifyAgainstWhitelist([eq('a', 'b'), eq('z', 'b')], [ex('a')]), false);
  });
});
