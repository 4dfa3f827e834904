import { test } from 'node:test';
import assert from 'node:assert/strict';
import { schemaType, type Schema } from '../k8s/schema.js';
import { estimateCost } from './estimate.js';
import { PER_CALL_LIMIT } from './limits.js';
import { compile } from './testenv.js';

// Kubernetes' CRD rule estimates (apiextensions-apiserver
// pkg/apiserver/schema/cel/compilation_test.go TestCostEstimation, v1.27):
// the rule's max cost against a schema without bounds ("calc": kube's
// per-request estimates) and with maxItems/maxProperties/maxLength set.
// Through the whole pipeline: the schema mapping (k8s/schema.ts) puts the
// bounds on the Types, the parser and checker compile the rule, the
// estimator reads the bounds.

/** The rule's estimated max cost with self (and oldSelf) of the schema's type. */
function maxCost(schema: Schema, rule: string): number {
  const t = schemaType(schema, { name: 'self' });
  assert.ok(t, `schema ${JSON.stringify(schema)} has no CEL type`);
  return estimateCost(compile(rule, { self: t, oldSelf: t }).checked).max;
}

type Elem = 'number' | 'string' | 'boolean' | 'int-or-string' | 'duration' | 'date' | 'date-time';
const item = (e: Elem): Schema =>
  e === 'int-or-string' ? { 'x-kubernetes-int-or-string': true } : e === 'duration' || e === 'date' || e === 'date-time' ? { type: 'string', format: e } : { type: e };
const arrayOf = (e: Elem) => (max?: number): Schema => ({ type: 'array', items: item(e), maxItems: max });
const mapOfElem = (e: Elem) => (max?: number): Schema => ({ type: 'object', additionalProperties: item(e), maxProperties: max });
const stringS = (max?: number): Schema => ({ type: 'string', maxLength: max });
const bytesS = (max?: number): Schema => ({ type: 'string', format: 'byte', maxLength: max });
const arrayOfArrays = (max?: number): Schema => ({ type: 'array', items: { type: 'array', items: { type: 'number' } }, maxItems: max });
const objectArray = (max?: number): Schema => ({
  type: 'array',
  items: { type: 'object', properties: { required: { type: 'string' }, optional: { type: 'string' } }, required: ['required'] },
  maxItems: max,
});
const mapArray = (max?: number): Schema => ({ type: 'array', items: { type: 'object', additionalProperties: { type: 'number' } }, maxItems: max });
const stringArray = (max?: number): Schema => ({ type: 'array', items: { type: 'string', maxLength: max }, maxItems: max });

const objectForMap: Schema = { type: 'object', properties: { required: { type: 'string' }, optional: { type: 'string' } }, required: ['required'] };
const mapOfItem = (item: Schema) => (max?: number): Schema => ({ type: 'object', additionalProperties: item, maxProperties: max });
const nestedSpec = (max?: number): Schema => ({ type: 'object', additionalProperties: { type: 'string', maxLength: max }, maxProperties: max });
const allMaxNested = (max?: number): Schema => ({
  type: 'array',
  items: { type: 'object', additionalProperties: { ...objectForMap, maxProperties: max }, maxProperties: max },
  maxItems: max,
});
const oneMaxNested = (max?: number): Schema => ({
  type: 'array',
  items: { type: 'object', additionalProperties: objectForMap, maxProperties: max },
});

const selfAllTrue = 'self.all(x, true)';
const selfHasX = 'has(self.x)';

interface Case {
  name: string;
  schema: (max?: number) => Schema;
  rule: string;
  calc?: number;
  /** calc estimate is over the per-call limit */
  calcOverLimit?: true;
  max: number;
  set: number;
}

const cases: Case[] = [
  { name: 'number array with all', schema: arrayOf('number'), rule: selfAllTrue, calc: 4718591, max: 10, set: 32 },
  { name: 'string array with all', schema: arrayOf('string'), rule: selfAllTrue, calc: 3145727, max: 20, set: 62 },
  { name: 'boolean array with all', schema: arrayOf('boolean'), rule: selfAllTrue, calc: 1887437, max: 5, set: 17 },
  { name: 'array of number arrays with all', schema: arrayOfArrays, rule: selfAllTrue, calc: 3145727, max: 100, set: 302 },
  { name: 'array of objects with all', schema: objectArray, rule: selfAllTrue, calc: 555128, max: 50, set: 152 },
  { name: 'map of numbers with all', schema: mapOfElem('number'), rule: selfAllTrue, calc: 1348169, max: 10, set: 32 },
  { name: 'map of strings with value length', schema: nestedSpec, rule: `self.all(x, x.contains(self[x]))`, calc: 2752507, max: 10, set: 72 },
  {
    name: 'nested types with root rule with all supporting maxLength',
    schema: allMaxNested,
    rule: `self.all(x, x["y"].required == "z")`,
    calc: 7340027,
    max: 10,
    set: 72,
  },
  {
    name: 'nested types with root rule with one supporting maxLength',
    schema: oneMaxNested,
    rule: `self.all(x, x["y"].required == "z")`,
    calc: 7340027,
    max: 10,
    set: 7340027,
  },
  { name: 'map of objects with all', schema: mapOfItem(objectForMap), rule: selfAllTrue, calc: 428963, max: 20, set: 62 },
  { name: 'map of objects with has', schema: mapOfItem(objectForMap), rule: selfHasX, calc: 0, max: 9001, set: 0 },
  { name: 'map of number maps with all', schema: mapOfItem({ type: 'object', additionalProperties: { type: 'number' } }), rule: selfAllTrue, calc: 1179647, max: 10, set: 32 },
  { name: 'map of number maps with has', schema: mapOfItem({ type: 'object', additionalProperties: { type: 'number' } }), rule: selfHasX, calc: 0, max: 101, set: 0 },
  { name: 'map of number arrays with all', schema: mapOfItem({ type: 'array', items: { type: 'number' } }), rule: selfAllTrue, calc: 1179647, max: 25, set: 77 },
  { name: 'map of number arrays with has', schema: mapOfItem({ type: 'array', items: { type: 'number' } }), rule: selfHasX, calc: 0, max: 40000, set: 0 },
  { name: 'map of strings with has', schema: mapOfElem('string'), rule: selfHasX, calc: 0, max: 550, set: 0 },
  { name: 'map of booleans with has', schema: mapOfElem('boolean'), rule: selfHasX, calc: 0, max: 1024, set: 0 },
  { name: 'map of int-or-strings with has', schema: mapOfElem('int-or-string'), rule: selfHasX, calc: 0, max: 5000, set: 0 },
  { name: 'map of durations with has', schema: mapOfElem('duration'), rule: selfHasX, calc: 0, max: 256, set: 0 },
  { name: 'map of dates with has', schema: mapOfElem('date'), rule: selfHasX, calc: 0, max: 65536, set: 0 },
  { name: 'map of date-times with has', schema: mapOfElem('date-time'), rule: selfHasX, calc: 0, max: 490, set: 0 },
  { name: 'index of date-time array', schema: arrayOf('date-time'), rule: `self[2].getMinutes() == 45`, calc: 4, max: 99, set: 4 },
  { name: 'map of numbers with has', schema: mapOfElem('number'), rule: `has(self.x)`, calc: 0, max: 100, set: 0 },
  { name: 'map of strings with all', schema: mapOfElem('string'), rule: selfAllTrue, calc: 1179647, max: 3, set: 11 },
  { name: 'map of booleans with all', schema: mapOfElem('boolean'), rule: selfAllTrue, calc: 943718, max: 100, set: 302 },
  { name: 'string with contains', schema: stringS, rule: `self.contains('test')`, calc: 314574, max: 10, set: 5 },
  { name: 'string with startsWith', schema: stringS, rule: `self.startsWith('test')`, calc: 2, max: 15, set: 2 },
  { name: 'string with endsWith', schema: stringS, rule: `self.endsWith('test')`, calc: 2, max: 30, set: 2 },
  {
    name: 'concat string',
    schema: stringS,
    rule: `size(self + "hello") > size("hello")`,
    calc: 314578,
    max: 4,
    set: 7,
  },
  { name: 'index of array with numbers', schema: arrayOf('number'), rule: `self[1] == 0.0`, calc: 2, max: 5000, set: 2 },
  {
    name: 'index of array with strings',
    schema: arrayOf('string'),
    rule: `self[1] == self[1]`,
    calc: 314577,
    max: 8,
    set: 314577,
  },
  {
    name: 'O(n^2) loop with numbers',
    schema: arrayOf('number'),
    rule: `self.all(x, self.all(y, true))`,
    calcOverLimit: true,
    max: 10,
    set: 352,
  },
  {
    name: 'O(n^3) loop with numbers',
    schema: arrayOf('number'),
    rule: `self.all(x, self.all(y, self.all(z, true)))`,
    calcOverLimit: true,
    max: 10,
    set: 3552,
  },
  { name: 'regex matches simple', schema: stringS, rule: `self.matches("x")`, calc: 314574, max: 50, set: 22 },
  { name: 'regex matches empty string', schema: stringS, rule: `"".matches("(((((((((())))))))))[0-9]")`, calc: 7, max: 10, set: 7 },
  { name: 'regex matches empty regex', schema: stringS, rule: `self.matches("")`, calc: 1, max: 100, set: 1 },
  { name: 'set array maxLength to zero', schema: arrayOf('number'), rule: `self[3] == 0.0`, calc: 2, max: 0, set: 2 },
  { name: 'set map maxLength to zero', schema: mapOfElem('number'), rule: `self["x"] == 0.0`, calc: 2, max: 0, set: 2 },
  { name: 'set string maxLength to zero', schema: stringS, rule: `self == "x"`, calc: 2, max: 0, set: 1 },
  { name: 'set bytes maxLength to zero', schema: bytesS, rule: `self == b"x"`, calc: 2, max: 0, set: 1 },
  {
    name: 'set maxLength greater than estimated maxLength',
    schema: arrayOf('number'),
    rule: `self.all(x, x == 0.0)`,
    calc: 6291454,
    max: 3 * 1024 * 2048,
    set: 25165826,
  },
  { name: 'int-or-string array with all', schema: arrayOf('int-or-string'), rule: selfAllTrue, calc: 4718591, max: 10, set: 32 },
  { name: 'index of array with int-or-strings', schema: arrayOf('int-or-string'), rule: `self[0] == 5`, calc: 3, max: 10, set: 3 },
  { name: 'index of array with booleans', schema: arrayOf('boolean'), rule: `self[0] == false`, calc: 2, max: 25, set: 2 },
  { name: 'index of array of objects', schema: objectArray, rule: `self[0] == null`, calc: 2, max: 422, set: 2 },
  {
    name: 'index of array of array of numbers',
    schema: arrayOfArrays,
    rule: `self[0][0] == -1.0`,
    calc: 3,
    max: 51,
    set: 3,
  },
  {
    name: 'array of number maps with all',
    schema: mapArray,
    rule: `self.all(x, x.y == 25.2)`,
    calc: 6291452,
    max: 12,
    set: 74,
  },
  { name: 'index of array of number maps', schema: mapArray, rule: `self[0].x > 2.0`, calc: 4, max: 3000, set: 4 },
  { name: 'duration array with all', schema: arrayOf('duration'), rule: selfAllTrue, calc: 2359295, max: 5, set: 17 },
  {
    name: 'index of duration array',
    schema: arrayOf('duration'),
    rule: `self[0].getHours() == 2`,
    calc: 4,
    max: 525,
    set: 4,
  },
  { name: 'date array with all', schema: arrayOf('date'), rule: selfAllTrue, calc: 725936, max: 15, set: 47 },
  {
    name: 'index of date array',
    schema: arrayOf('date'),
    rule: `self[2].getDayOfMonth() == 13`,
    calc: 4,
    max: 42,
    set: 4,
  },
  { name: 'date-time array with all', schema: arrayOf('date-time'), rule: selfAllTrue, calc: 428963, max: 25, set: 77 },
  { name: 'map of int-or-strings with all', schema: mapOfElem('int-or-string'), rule: selfAllTrue, calc: 1348169, max: 15, set: 47 },
  { name: 'map of durations with all', schema: mapOfElem('duration'), rule: selfAllTrue, calc: 1048577, max: 5, set: 17 },
  { name: 'map of dates with all', schema: mapOfElem('date'), rule: selfAllTrue, calc: 524288, max: 10, set: 32 },
  { name: 'map of date-times with all', schema: mapOfElem('date-time'), rule: selfAllTrue, calc: 349526, max: 25, set: 77 },
  {
    name: 'extended library regex find',
    schema: stringS,
    rule: `self.find('[0-9]+') == ''`,
    calc: 629147,
    max: 10,
    set: 11,
  },
  {
    name: 'extended library join',
    schema: stringArray,
    rule: `self.join(' ') == 'aa bb'`,
    calc: 329853068905,
    max: 10,
    set: 43,
  },
  {
    name: 'extended library isSorted',
    schema: stringArray,
    rule: `self.isSorted() == true`,
    calc: 329854432052,
    max: 10,
    set: 52,
  },
  {
    name: 'extended library replace',
    schema: (max) => ({
      type: 'object',
      properties: { str: { type: 'string', maxLength: max }, before: { type: 'string', maxLength: 2 }, after: { type: 'string', maxLength: 4 } },
    }),
    rule: `self.str.replace(self.before, self.after) == 'does not matter'`,
    calc: 629154,
    max: 4,
    set: 12,
  },
  {
    name: 'extended library split',
    schema: (max) => ({ type: 'object', properties: { str: { type: 'string', maxLength: max }, separator: { type: 'string', maxLength: max } } }),
    rule: `self.str.split(self.separator) == []`,
    calc: 629160,
    max: 10,
    set: 22,
  },
  { name: 'extended library lowerAscii', schema: stringS, rule: `self.lowerAscii() == 'lower!'`, calc: 314575, max: 10, set: 6 },
  {
    name: 'check cost of size call',
    schema: mapOfElem('number'),
    rule: `oldSelf.size() == self.size()`,
    calc: 5,
    max: 10,
    set: 5,
  },
  {
    name: 'check cost of timestamp comparison',
    schema: mapOfElem('date-time'),
    rule: `self["a"] == self["b"]`,
    calc: 8,
    max: 7,
    set: 8,
  },
  {
    name: 'check cost of duration comparison',
    schema: mapOfElem('duration'),
    rule: `self["c"] == self["d"]`,
    calc: 8,
    max: 42,
    set: 8,
  },
];

test("CRD rule estimates over schema bounds match Kubernetes' (TestCostEstimation)", () => {
  for (const c of cases) {
    const calc = maxCost(c.schema(undefined), c.rule);
    if (c.calcOverLimit) assert.ok(calc > PER_CALL_LIMIT, `${c.name} (calc): ${calc}`);
    else assert.equal(calc, c.calc, `${c.name} (calc)`);
    assert.equal(maxCost(c.schema(c.max), c.rule), c.set, `${c.name} (set maxLength ${c.max})`);
  }
});
