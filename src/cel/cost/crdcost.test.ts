import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_UINT64 } from './arith.js';
import { ROOT_CARDINALITY, TotalCost, childCardinality, ruleCost } from './crdcost.js';
import { CONTRIBUTED_TO_TOTAL, ESTIMATED_RULE_COST, STATIC_ESTIMATED_COST_LIMIT, costErrorMessage } from './limits.js';
import { schemaType, type Schema } from '../k8s/schema.js';
import { estimateCost } from './estimate.js';
import { compile } from './testenv.js';

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

// ---- Whole CRDs (apiextensions validation_test.go, v1.27): each rule
// compiled against its schema node's type, estimated, multiplied by the
// node's cardinality, checked against the per-rule and per-CRD limits ----

interface RuleSite {
  path: string;
  node: Schema;
  rule: string;
  cardinality: number | undefined;
}

/** kube's errors for a CRD's rules: per-rule Forbidden, then the total's. */
function crdCostErrors(sites: RuleSite[]): { path: string; detail: string }[] {
  const errs: { path: string; detail: string }[] = [];
  const total = new TotalCost();
  for (const s of sites) {
    const t = schemaType(s.node, { name: 'self' });
    assert.ok(t, s.path);
    const est = estimateCost(compile(s.rule, { self: t, oldSelf: t }).checked);
    const cost = ruleCost(est.max, s.cardinality, 2);
    if (cost > STATIC_ESTIMATED_COST_LIMIT) errs.push({ path: s.path, detail: costErrorMessage(ESTIMATED_RULE_COST, cost, STATIC_ESTIMATED_COST_LIMIT) });
    total.observe(s.path, cost);
  }
  return [...errs, ...total.errors('spec.validation.openAPIV3Schema')];
}

const root = { type: 'object', properties: {} };
const P = 'spec.validation.openAPIV3Schema.properties';
const nested = (value: Schema): RuleSite => ({
  path: `${P}[value].x-kubernetes-validations[0].rule`,
  node: value,
  rule: 'self.all(x, x.all(y, x[y].key == x[y].key))',
  cardinality: childCardinality(ROOT_CARDINALITY, root),
});
const keyed = (key: Schema, maxItems?: number, maxProperties?: number): Schema => ({
  type: 'array',
  ...(maxItems === undefined ? {} : { maxItems }),
  items: {
    type: 'object',
    ...(maxProperties === undefined ? {} : { maxProperties }),
    additionalProperties: { type: 'object', required: ['key'], properties: { key } },
  },
});

test('whole CRDs: per-rule and total estimated cost errors as kube reports them', () => {
  const paths = (sites: RuleSite[]) => crdCostErrors(sites).map((e) => e.path);
  const rule = `${P}[value].x-kubernetes-validations[0].rule`;
  // forbid double-nested rule with no limit set / with one limit set
  assert.deepEqual(paths([nested(keyed({ type: 'string' }))]), [rule, rule, 'spec.validation.openAPIV3Schema']);
  assert.deepEqual(paths([nested(keyed({ type: 'string', maxLength: 10 }))]), [rule, rule, 'spec.validation.openAPIV3Schema']);
  // allow double-nested rule with three limits set / with one limit set on the outermost array
  assert.deepEqual(paths([nested(keyed({ type: 'string', maxLength: 10 }, 10, 10))]), []);
  assert.deepEqual(paths([nested(keyed({ type: 'number' }, 4))]), []);
  // check for cardinality of 1 under root object
  assert.deepEqual(paths([{ path: rule, node: { type: 'integer' }, rule: 'self < 1024', cardinality: 1 }]), []);

  // forbid validation rules where cost total exceeds total limit
  const list = { type: 'array', maxItems: 100000, items: { type: 'string', maxLength: 5000 } };
  const map = { type: 'object', maxProperties: 1000, additionalProperties: { type: 'string', maxLength: 5000 } };
  const errs = crdCostErrors([
    { path: `${P}[list].items.x-kubernetes-validations[0].rule`, node: list.items, rule: "self.contains('keyword')", cardinality: childCardinality(childCardinality(1, root), list) },
    { path: `${P}[map].additionalProperties.x-kubernetes-validations[0].rule`, node: map.additionalProperties, rule: "self.contains('keyword')", cardinality: childCardinality(childCardinality(1, root), map) },
    { path: `${P}[field].x-kubernetes-validations[0].rule`, node: { type: 'integer' }, rule: 'self > 50 && self < 100', cardinality: childCardinality(1, root) },
  ]);
  assert.deepEqual(
    errs.map((e) => e.path),
    [
      `${P}[list].items.x-kubernetes-validations[0].rule`,
      `${P}[list].items.x-kubernetes-validations[0].rule`,
      `${P}[map].additionalProperties.x-kubernetes-validations[0].rule`,
      'spec.validation.openAPIV3Schema',
    ],
  );
  // 2001 per string of up to 5000 code points (20000 bytes), × 100000 items
  assert.match(errs[0].detail, /^estimated rule cost exceeds budget by factor of 20\.0x \(try simplifying/);
  assert.equal(errs[1].detail, CONTRIBUTED_TO_TOTAL);
  assert.match(errs[3].detail, /^x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of 2\.0x/);
});
