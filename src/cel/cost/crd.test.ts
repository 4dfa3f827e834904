import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Expr } from '../ast.js';
import type { FieldType, ObjectType, Type } from '../types.js';
import { T, listOf, mapOf } from '../types.js';
import { estimateCost } from './estimate.js';
import {
  MIN_SERIALIZED_SIZE,
  declaredBound,
  declaredStringBound,
  estimateMaxAdditionalProperties,
  estimateMaxArrayItems,
  estimateMaxStringLength,
  objectMinSerializedSize,
} from './schemabounds.js';
import { PER_CALL_LIMIT } from './limits.js';
import { all, bool, call, checked, eq, gt, has, ident, index, int, mcall, plus, sel, str } from './testast.js';

// Kubernetes' CRD rule estimates (apiextensions-apiserver
// pkg/apiserver/schema/cel/compilation_test.go TestCostEstimation, v1.27):
// the rule's max cost against a schema without bounds ("calc": kube's
// per-request estimates) and with maxItems/maxProperties/maxLength set.
// A minimal schema → Type mapping stands in for the schema mapping module,
// using kube's bounds (schemabounds.ts).

interface Schema {
  type?: 'array' | 'object' | 'string' | 'number' | 'integer' | 'boolean';
  format?: string;
  intOrString?: boolean;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: Schema;
  maxItems?: number;
  maxProperties?: number;
  maxLength?: number;
}

function declType(s: Schema): { type: Type; minSize: number } {
  if (s.intOrString) return { type: { kind: 'dyn', maxLength: estimateMaxStringLength(undefined, true) }, minSize: MIN_SERIALIZED_SIZE.intOrString };
  switch (s.type) {
    case 'array': {
      const it = declType(s.items as Schema);
      const maxElements = s.maxItems !== undefined ? declaredBound(s.maxItems) : estimateMaxArrayItems(it.minSize);
      return { type: { ...listOf(it.type), maxElements }, minSize: MIN_SERIALIZED_SIZE.list };
    }
    case 'object': {
      if (s.additionalProperties) {
        const v = declType(s.additionalProperties);
        const maxElements = s.maxProperties !== undefined ? declaredBound(s.maxProperties) : estimateMaxAdditionalProperties(v.minSize);
        return { type: { ...mapOf(T.string, v.type), maxElements }, minSize: MIN_SERIALIZED_SIZE.map };
      }
      const fields = new Map<string, FieldType>();
      const req: { name: string; minSize: number }[] = [];
      for (const [name, p] of Object.entries(s.properties ?? {})) {
        const f = declType(p);
        fields.set(name, { type: f.type, wireName: name });
        if (s.required?.includes(name)) req.push({ name, minSize: f.minSize });
      }
      const o: ObjectType = { kind: 'object', name: 'object', fields };
      return { type: o, minSize: objectMinSerializedSize(req) };
    }
    case 'string':
      switch (s.format) {
        case 'byte':
          return { type: { kind: 'bytes', maxLength: s.maxLength !== undefined ? declaredBound(s.maxLength) : estimateMaxStringLength('byte') }, minSize: MIN_SERIALIZED_SIZE.bytes };
        case 'duration':
          return { type: { kind: 'duration', maxLength: estimateMaxStringLength('duration') }, minSize: MIN_SERIALIZED_SIZE.duration };
        case 'date':
          return { type: { kind: 'timestamp', maxLength: estimateMaxStringLength('date') }, minSize: MIN_SERIALIZED_SIZE.date };
        case 'date-time':
          return { type: { kind: 'timestamp', maxLength: estimateMaxStringLength('date-time') }, minSize: MIN_SERIALIZED_SIZE.dateTime };
      }
      return {
        type: { kind: 'string', maxLength: s.maxLength !== undefined ? declaredStringBound(s.maxLength) : estimateMaxStringLength(s.format) },
        minSize: MIN_SERIALIZED_SIZE.string,
      };
    case 'boolean':
      return { type: T.bool, minSize: MIN_SERIALIZED_SIZE.bool };
    case 'number':
      return { type: T.double, minSize: MIN_SERIALIZED_SIZE.number };
    case 'integer':
      return { type: T.int, minSize: MIN_SERIALIZED_SIZE.integer };
  }
  throw new Error(`unsupported schema ${JSON.stringify(s)}`);
}

/** The rule's estimated max cost with self (and oldSelf) of the schema's type. */
function maxCost(schema: Schema, rule: () => Expr): number {
  const t = declType(schema).type;
  return estimateCost(checked(rule(), { self: t, oldSelf: t })).max;
}

const dbl = (v: number): Expr => ({ kind: 'const', id: 0, value: { type: 'double', value: v } });
const nul = (): Expr => ({ kind: 'const', id: 0, value: { type: 'null' } });
const bytes = (s: string): Expr => ({ kind: 'const', id: 0, value: { type: 'bytes', value: new TextEncoder().encode(s) } });
// ids must be unique: give literals made here fresh ids through a call-free wrapper
let extraId = 1_000_000;
const fresh = (e: Expr): Expr => ({ ...e, id: extraId++ });

type Elem = 'number' | 'string' | 'boolean' | 'int-or-string' | 'duration' | 'date' | 'date-time';
const item = (e: Elem): Schema =>
  e === 'int-or-string' ? { intOrString: true } : e === 'duration' || e === 'date' || e === 'date-time' ? { type: 'string', format: e } : { type: e };
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

const selfAllTrue = () => all(ident('self'), 'x', bool(true));

interface Case {
  name: string;
  schema: (max?: number) => Schema;
  rule: () => Expr;
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
  { name: 'map of numbers with has', schema: mapOfElem('number'), rule: () => has(ident('self'), 'x'), calc: 0, max: 100, set: 0 },
  { name: 'map of strings with all', schema: mapOfElem('string'), rule: selfAllTrue, calc: 1179647, max: 3, set: 11 },
  { name: 'map of booleans with all', schema: mapOfElem('boolean'), rule: selfAllTrue, calc: 943718, max: 100, set: 302 },
  { name: 'string with contains', schema: stringS, rule: () => mcall(ident('self'), 'contains', str('test')), calc: 314574, max: 10, set: 5 },
  { name: 'string with startsWith', schema: stringS, rule: () => mcall(ident('self'), 'startsWith', str('test')), calc: 2, max: 15, set: 2 },
  { name: 'string with endsWith', schema: stringS, rule: () => mcall(ident('self'), 'endsWith', str('test')), calc: 2, max: 30, set: 2 },
  {
    name: 'concat string',
    schema: stringS,
    rule: () => gt(call('size', plus(ident('self'), str('hello'))), call('size', str('hello'))),
    calc: 314578,
    max: 4,
    set: 7,
  },
  { name: 'index of array with numbers', schema: arrayOf('number'), rule: () => eq(index(ident('self'), int(1)), fresh(dbl(0))), calc: 2, max: 5000, set: 2 },
  {
    name: 'index of array with strings',
    schema: arrayOf('string'),
    rule: () => eq(index(ident('self'), int(1)), index(ident('self'), int(1))),
    calc: 314577,
    max: 8,
    set: 314577,
  },
  {
    name: 'O(n^2) loop with numbers',
    schema: arrayOf('number'),
    rule: () => all(ident('self'), 'x', all(ident('self'), 'y', bool(true))),
    calcOverLimit: true,
    max: 10,
    set: 352,
  },
  {
    name: 'O(n^3) loop with numbers',
    schema: arrayOf('number'),
    rule: () => all(ident('self'), 'x', all(ident('self'), 'y', all(ident('self'), 'z', bool(true)))),
    calcOverLimit: true,
    max: 10,
    set: 3552,
  },
  { name: 'regex matches simple', schema: stringS, rule: () => mcall(ident('self'), 'matches', str('x')), calc: 314574, max: 50, set: 22 },
  { name: 'regex matches empty string', schema: stringS, rule: () => mcall(str(''), 'matches', str('(((((((((())))))))))[0-9]')), calc: 7, max: 10, set: 7 },
  { name: 'regex matches empty regex', schema: stringS, rule: () => mcall(ident('self'), 'matches', str('')), calc: 1, max: 100, set: 1 },
  { name: 'set array maxLength to zero', schema: arrayOf('number'), rule: () => eq(index(ident('self'), int(3)), fresh(dbl(0))), calc: 2, max: 0, set: 2 },
  { name: 'set map maxLength to zero', schema: mapOfElem('number'), rule: () => eq(index(ident('self'), str('x')), fresh(dbl(0))), calc: 2, max: 0, set: 2 },
  { name: 'set string maxLength to zero', schema: stringS, rule: () => eq(ident('self'), str('x')), calc: 2, max: 0, set: 1 },
  { name: 'set bytes maxLength to zero', schema: bytesS, rule: () => eq(ident('self'), fresh(bytes('x'))), calc: 2, max: 0, set: 1 },
  {
    name: 'set maxLength greater than estimated maxLength',
    schema: arrayOf('number'),
    rule: () => all(ident('self'), 'x', eq(ident('x'), fresh(dbl(0)))),
    calc: 6291454,
    max: 3 * 1024 * 2048,
    set: 25165826,
  },
  { name: 'int-or-string array with all', schema: arrayOf('int-or-string'), rule: selfAllTrue, calc: 4718591, max: 10, set: 32 },
  { name: 'index of array with int-or-strings', schema: arrayOf('int-or-string'), rule: () => eq(index(ident('self'), int(0)), int(5)), calc: 3, max: 10, set: 3 },
  { name: 'index of array with booleans', schema: arrayOf('boolean'), rule: () => eq(index(ident('self'), int(0)), bool(false)), calc: 2, max: 25, set: 2 },
  { name: 'index of array of objects', schema: objectArray, rule: () => eq(index(ident('self'), int(0)), fresh(nul())), calc: 2, max: 422, set: 2 },
  {
    name: 'index of array of array of numbers',
    schema: arrayOfArrays,
    rule: () => eq(index(index(ident('self'), int(0)), int(0)), fresh(dbl(-1))),
    calc: 3,
    max: 51,
    set: 3,
  },
  {
    name: 'array of number maps with all',
    schema: mapArray,
    rule: () => all(ident('self'), 'x', eq(sel(ident('x'), 'y'), fresh(dbl(25.2)))),
    calc: 6291452,
    max: 12,
    set: 74,
  },
  { name: 'index of array of number maps', schema: mapArray, rule: () => gt(sel(index(ident('self'), int(0)), 'x'), fresh(dbl(2))), calc: 4, max: 3000, set: 4 },
  { name: 'duration array with all', schema: arrayOf('duration'), rule: selfAllTrue, calc: 2359295, max: 5, set: 17 },
  {
    name: 'index of duration array',
    schema: arrayOf('duration'),
    rule: () => eq(mcall(index(ident('self'), int(0)), 'getHours'), int(2)),
    calc: 4,
    max: 525,
    set: 4,
  },
  { name: 'date array with all', schema: arrayOf('date'), rule: selfAllTrue, calc: 725936, max: 15, set: 47 },
  {
    name: 'index of date array',
    schema: arrayOf('date'),
    rule: () => eq(mcall(index(ident('self'), int(2)), 'getDayOfMonth'), int(13)),
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
    rule: () => eq(mcall(ident('self'), 'find', str('[0-9]+')), str('')),
    calc: 629147,
    max: 10,
    set: 11,
  },
  {
    name: 'extended library join',
    schema: stringArray,
    rule: () => eq(mcall(ident('self'), 'join', str(' ')), str('aa bb')),
    calc: 329853068905,
    max: 10,
    set: 43,
  },
  {
    name: 'extended library isSorted',
    schema: stringArray,
    rule: () => eq(mcall(ident('self'), 'isSorted'), bool(true)),
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
    rule: () => eq(mcall(sel(ident('self'), 'str'), 'replace', sel(ident('self'), 'before'), sel(ident('self'), 'after')), str('does not matter')),
    calc: 629154,
    max: 4,
    set: 12,
  },
  {
    name: 'extended library split',
    schema: (max) => ({ type: 'object', properties: { str: { type: 'string', maxLength: max }, separator: { type: 'string', maxLength: max } } }),
    rule: () => eq(mcall(sel(ident('self'), 'str'), 'split', sel(ident('self'), 'separator')), { kind: 'list', id: extraId++, elements: [], optionalIndices: [] }),
    calc: 629160,
    max: 10,
    set: 22,
  },
  { name: 'extended library lowerAscii', schema: stringS, rule: () => eq(mcall(ident('self'), 'lowerAscii'), str('lower!')), calc: 314575, max: 10, set: 6 },
  {
    name: 'check cost of size call',
    schema: mapOfElem('number'),
    rule: () => eq(mcall(ident('oldSelf'), 'size'), mcall(ident('self'), 'size')),
    calc: 5,
    max: 10,
    set: 5,
  },
  {
    name: 'check cost of timestamp comparison',
    schema: mapOfElem('date-time'),
    rule: () => eq(index(ident('self'), str('a')), index(ident('self'), str('b'))),
    calc: 8,
    max: 7,
    set: 8,
  },
  {
    name: 'check cost of duration comparison',
    schema: mapOfElem('duration'),
    rule: () => eq(index(ident('self'), str('c')), index(ident('self'), str('d'))),
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
