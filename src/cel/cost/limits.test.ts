import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  COST_LIMIT_EXCEEDED,
  ESTIMATED_RULE_COST,
  ESTIMATED_TOTAL_COST,
  OUT_OF_BUDGET,
  PER_CALL_LIMIT,
  RUNTIME_CEL_COST_BUDGET,
  STATIC_ESTIMATED_COST_LIMIT,
  STATIC_ESTIMATED_CRD_COST_LIMIT,
  costErrorMessage,
  expressionCost,
  goQuote,
  maxCardinality,
  messageExpressionCostLimitMessage,
  ruleCostLimitMessage,
} from './limits.js';
import { MAX_UINT64 } from './arith.js';

const HINT =
  '(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)';

test('budgets and limits are kube v1.27’s', () => {
  assert.equal(PER_CALL_LIMIT, 1000000);
  assert.equal(RUNTIME_CEL_COST_BUDGET, 10000000);
  assert.equal(STATIC_ESTIMATED_COST_LIMIT, 10000000);
  assert.equal(STATIC_ESTIMATED_CRD_COST_LIMIT, 100000000);
});

test('costErrorMessage formats the factor as kube does', () => {
  const table: [number, number, string][] = [
    // below 1.5: Go's %f
    [10000001, 10000000, '1.000000x'],
    [12000000, 10000000, '1.200000x'],
    // from 1.5 to 100: one decimal
    [15000000, 10000000, '1.5x'],
    [25000000, 10000000, '2.5x'],
    [1000000000, 10000000, '100.0x'],
    // above 100
    [1000000001, 10000000, 'more than 100x'],
    [MAX_UINT64, 10000000, 'more than 100x'],
  ];
  for (const [cost, limit, factor] of table) {
    assert.equal(costErrorMessage(ESTIMATED_RULE_COST, cost, limit), `estimated rule cost exceeds budget by factor of ${factor} ${HINT}`);
  }
  assert.equal(
    costErrorMessage(ESTIMATED_TOTAL_COST, 2 * STATIC_ESTIMATED_CRD_COST_LIMIT, STATIC_ESTIMATED_CRD_COST_LIMIT),
    `x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of 2.0x ${HINT}`,
  );
});

test('runtime halt messages', () => {
  assert.equal(COST_LIMIT_EXCEEDED, 'operation cancelled: actual cost limit exceeded');
  assert.equal(OUT_OF_BUDGET, 'validation failed due to running out of cost budget, no further validation rules will be run');
  assert.equal(
    ruleCostLimitMessage('self.all(x, x > 0)'),
    "'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: self.all(x, x > 0)",
  );
  assert.equal(
    messageExpressionCostLimitMessage('"bad: " + self.name'),
    'no further validation rules will be run due to call cost exceeds limit for messageExpression: "\\"bad: \\" + self.name"',
  );
});

test('goQuote is Go’s %q', () => {
  const table: [string, string][] = [
    ['plain', '"plain"'],
    ['a"b\\c', '"a\\"b\\\\c"'],
    ['tab\tnl\n', '"tab\\tnl\\n"'],
    ['\x01\x7f', '"\\x01\\x7f"'],
    ['héllo 😀', '"héllo 😀"'],
  ];
  for (const [s, want] of table) assert.equal(goQuote(s), want, s);
});

test('cardinality and overflow-guarded expression cost', () => {
  // a list of objects whose min size is 2 ({}) can occur 3 MiB / 3 times
  assert.equal(maxCardinality(2), 1048576);
  assert.equal(expressionCost(0, 1e12), 0);
  assert.equal(expressionCost(7, 3), 21);
  assert.equal(expressionCost(1e10, 1e10), MAX_UINT64);
});
