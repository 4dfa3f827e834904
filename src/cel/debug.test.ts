import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toDebugString, formatGoFloat, goQuote, goQuoteBytes, idAdorner, kindAdorner } from './debug.js';
import type { Expr } from './ast.js';

test('doubles print as Go %v', () => {
  const cases: [number, string][] = [
    [2, '2'], [23.39, '23.39'], [0.5, '0.5'], [123456, '123456'], [1e6, '1e+06'], [1.23456789e8, '1.23456789e+08'],
    [0.0001, '0.0001'], [1.5e-5, '1.5e-05'], [1e21, '1e+21'], [1e100, '1e+100'], [-2.5, '-2.5'], [-0, '-0'],
    [Infinity, '+Inf'], [-Infinity, '-Inf'], [NaN, 'NaN'],
  ];
  for (const [v, want] of cases) assert.equal(formatGoFloat(v), want, String(v));
});

test('strings and bytes print as Go strconv.Quote', () => {
  const cases: [string, string][] = [
    ['a"b\\', '"a\\"b\\\\"'], ["it's", '"it\'s"'], ['\0', '"\\x00"'], ['\x7f', '"\\x7f"'], ['\x07\b\f\n\r\t\v', '"\\a\\b\\f\\n\\r\\t\\v"'],
    ['é❤😁', '"é❤😁"'], ['\u200b', '"\\u200b"'], ['\u{e0001}', '"\\U000e0001"'], ['\u00a0', '"\\u00a0"'],
  ];
  for (const [s, want] of cases) assert.equal(goQuote(s), want, JSON.stringify(s));
  assert.equal(goQuoteBytes(new Uint8Array([0xff, 0x61, 0xc3, 0xa9, 0xe2, 0x82])), '"\\xffaé\\xe2\\x82"');
});

test('debug rendering of every node kind, with adorners', () => {
  const lit = (id: number, value: bigint): Expr => ({ kind: 'const', id, value: { type: 'int', value } });
  const e: Expr = {
    kind: 'comprehension', id: 9, iterVar: 'k', iterVar2: 'v',
    iterRange: { kind: 'map', id: 1, entries: [{ id: 2, key: lit(3, 1n), value: lit(4, 2n), optional: true }] },
    accuVar: '@result',
    accuInit: { kind: 'struct', id: 5, typeName: 'T', fields: [{ id: 6, name: 'f', value: lit(7, 3n), optional: false }] },
    loopCondition: { kind: 'const', id: 8, value: { type: 'bytes', value: new Uint8Array([0x61]) } },
    loopStep: { kind: 'select', id: 10, operand: { kind: 'ident', id: 11, name: 'x' }, field: 'y', testOnly: true },
    result: { kind: 'call', id: 12, fn: 'f', target: { kind: 'list', id: 13, elements: [], optionalIndices: [] }, args: [] },
  };
  assert.equal(toDebugString(e), [
    '__comprehension__(',
    '  // Variable',
    '  k,',
    '  v,',
    '  // Target',
    '  {',
    '    ?1:2',
    '  },',
    '  // Accumulator',
    '  @result,',
    '  // Init',
    '  T{',
    '    f:3',
    '  },',
    '  // LoopCondition',
    '  b"a",',
    '  // LoopStep',
    '  x.y~test-only~,',
    '  // Result',
    '  [].f())',
  ].join('\n'));
  assert.equal(toDebugString(e.iterRange, idAdorner), '{\n  ?1@id:3 :2@id:4 \n}@id:1 ');
  assert.equal(toDebugString(e.accuInit, kindAdorner), 'T{\n  f:3^#*expr.Constant_Int64Value#^#*expr.Expr_CreateStruct_Entry#\n}^#*expr.Expr_StructExpr#');
});
