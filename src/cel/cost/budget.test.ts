import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CostBudget } from './budget.js';
import { RUNTIME_CEL_COST_BUDGET } from './limits.js';

test('a budget is charged until an evaluation does not fit', () => {
  const b = new CostBudget(50);
  assert.equal(b.canEvaluate, true);
  // kube's TestMessageExpression: `"str1 " + self.str` costs 4 of 50
  assert.equal(b.charge(4), true);
  assert.equal(b.remaining, 46);
  assert.equal(b.charge(46), true);
  assert.equal(b.remaining, 0);
  // nothing left: no further evaluation starts, but a free one still fits
  assert.equal(b.canEvaluate, false);
  assert.equal(b.charge(0), true);
  assert.equal(b.exhausted, false);
  assert.equal(b.charge(1), false);
  assert.equal(b.exhausted, true);
  assert.equal(b.remaining, -1);
});

test('a zero budget stops before the first rule (TestCELValidationLimit)', () => {
  const b = new CostBudget(0);
  assert.equal(b.canEvaluate, false);
  const full = new CostBudget(RUNTIME_CEL_COST_BUDGET);
  assert.equal(full.charge(RUNTIME_CEL_COST_BUDGET + 1), false);
});
