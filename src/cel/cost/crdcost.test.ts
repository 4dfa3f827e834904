import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_UINT64 } from './arith.js';
import { ROOT_CARDINALITY, TotalCost, childCardinality, ruleCost } from './crdcost.js';
import { CONTRIBUTED_TO_TOTAL } from './limits.js';

test('cardinality of schema children (cel_validation.go childContext)', () => {
  const table: [string, number | undefined, object, number | undefined][] = [
    ['object property', ROOT_CARDINALITY, { type: 'object', properties: {} }, 1],
    ['array with maxItems', 1, { type: 'array', maxItems: 10 }, 10],
    ['array without maxItems', 1, { type: 'array' }, undefined],
    ['negative maxItems', 3, { type: 'array', maxItems: -1 }, 0],
    ['map with maxProperties', 10, { type: 'object', additionalProperties: {}, maxProperties: 5 }, 50],
    ['map without maxProperties', 10, { type: 'object', additionalProperties: {} }, undefined],
    ['additionalProperties false still counts as a map', 2, { type: 'object', additionalProperties: false }, undefined],
    ['under an unbounded parent', undefined, { type: 'array', maxItems: 1 }, undefined],
    ['overflow saturates', 2 ** 40, { type: 'array', maxItems: 2 ** 30 }, MAX_UINT64],
  ];
  for (const [name, parent, schema, want] of table) assert.equal(childCardinality(parent, schema), want, name);
});

test('rule cost: estimate × cardinality, or × the request bound when unbounded', () => {
  assert.equal(ruleCost(100, 50, 2), 5000);
  // 3 MiB / (2 + 1) occurrences of an object of min size 2
  assert.equal(ruleCost(100, undefined, 2), 100 * 1048576);
  assert.equal(ruleCost(0, undefined, 2), 0);
});

test('TotalCost keeps the 4 most expensive rules over 1% of the CRD limit', () => {
  const t = new TotalCost();
  t.observe('r[0]', 999_999); // under 1%: counted, not listed
  t.observe('r[1]', 30_000_000);
  t.observe('r[2]', 5_000_000);
  t.observe('r[3]', 30_000_000);
  t.observe('r[4]', 40_000_000);
  t.observe('r[5]', 1_000_000);
  assert.equal(t.total, 106_999_999);
  assert.deepEqual(
    t.mostExpensive.map((r) => r.path),
    ['r[4]', 'r[1]', 'r[3]', 'r[2]'],
  );
  assert.deepEqual(t.errors('spec.validation.openAPIV3Schema'), [
    { path: 'r[4]', detail: CONTRIBUTED_TO_TOTAL },
    { path: 'r[1]', detail: CONTRIBUTED_TO_TOTAL },
    { path: 'r[3]', detail: CONTRIBUTED_TO_TOTAL },
    { path: 'r[2]', detail: CONTRIBUTED_TO_TOTAL },
    {
      path: 'spec.validation.openAPIV3Schema',
      detail:
        'x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of 1.070000x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)',
    },
  ]);
  const small = new TotalCost();
  small.observe('r', 100_000_000);
  assert.deepEqual(small.errors('x'), []);
  small.observe('r2', MAX_UINT64);
  assert.equal(small.total, MAX_UINT64);
});

test("cardinality down a chain of schemas (kube's TestCostInfo)", () => {
  const obj = { type: 'object', properties: {} };
  const arr = (maxItems?: number) => ({ type: 'array', ...(maxItems === undefined ? {} : { maxItems }) });
  const map = (maxProperties?: number) => ({ type: 'object', additionalProperties: {}, ...(maxProperties === undefined ? {} : { maxProperties }) });
  const table: [string, object[], number | undefined][] = [
    ['object', [obj], 1],
    ['array', [arr(5)], 5],
    ['unbounded array', [arr()], undefined],
    ['map', [map(10)], 10],
    ['unbounded map', [map()], undefined],
    ['array inside map', [map(5), arr(5)], 25],
    ['unbounded array inside bounded map', [map(5), arr()], undefined],
    ['object inside array', [arr(3), obj], 3],
    ['map inside object inside array', [arr(2), obj, map(4)], 8],
  ];
  for (const [name, chain, want] of table) {
    // the cardinality of a leaf under the chain: each schema multiplies its children's
    let c: number | undefined = ROOT_CARDINALITY;
    for (const s of chain) c = childCardinality(c, s);
    assert.equal(c, want, name);
  }
  // 'integer overflow bounds check': math.MaxInt items, then 100: saturates at uint64's maximum
  assert.equal(childCardinality(childCardinality(1, arr(2 ** 63 - 1)), arr(100)), MAX_UINT64);
});
