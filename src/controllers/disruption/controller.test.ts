import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scaled } from './controller.js';
import { withDisruptionAllowed } from '../../registry/eviction.js';

describe('disruption budget arithmetic', () => {
  const cases: [unknown, number, boolean, number | string][] = [
    [2, 10, true, 2],
    ['50%', 3, true, 2],
    ['50%', 3, false, 1],
    ['0%', 7, true, 0],
    ['100%', 7, true, 7],
    ['33%', 10, true, 4],
    ['x%', 10, true, 'invalid value for IntOrString: invalid value "x%"'],
  ];
  for (const [v, total, up, want] of cases) {
    it(`${JSON.stringify(v)} of ${total}, ${up ? 'up' : 'down'}`, () => {
      if (typeof want === 'string') assert.throws(() => scaled(v, total, up), { message: want });
      else assert.equal(scaled(v, total, up), want);
    });
  }

  it('DisruptionAllowed follows disruptionsAllowed and keeps its transition time while unchanged', () => {
    const first = withDisruptionAllowed({ disruptionsAllowed: 1, observedGeneration: 3 });
    assert.deepEqual({ ...first[0], lastTransitionTime: undefined }, { type: 'DisruptionAllowed', status: 'True', reason: 'SufficientPods', message: '', observedGeneration: 3, lastTransitionTime: undefined });
    const stamped = [{ ...first[0], lastTransitionTime: '2020-01-01T00:00:00Z' }];
    assert.equal(withDisruptionAllowed({ disruptionsAllowed: 2, observedGeneration: 3, conditions: stamped })[0]!.lastTransitionTime, '2020-01-01T00:00:00Z');
    const flipped = withDisruptionAllowed({ disruptionsAllowed: 0, observedGeneration: 4, conditions: stamped })[0]!;
    assert.deepEqual([flipped.status, flipped.reason, flipped.observedGeneration], ['False', 'InsufficientPods', 4]);
    assert.notEqual(flipped.lastTransitionTime, '2020-01-01T00:00:00Z');
  });
});
