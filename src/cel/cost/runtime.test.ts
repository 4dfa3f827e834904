import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CelMap, Double, Duration, Optional, Timestamp, Uint } from '../values.js';
import { callCost, constantCallCost, kubeFunctionOf, sizeCallCost, type CostModel } from './runtime.js';
import { actualSize, codePoints, traversalCost, utf8Length } from './size.js';

// Expected per-call costs are the call's share of cel-go's
// interpreter/runtimecost_test.go and Kubernetes' library/cost_test.go
// totals (the rest of each total being identifiers and literals).

const s = (n: number, ch = 'a'): string => ch.repeat(n);
const bytes = (n: number): Uint8Array => new Uint8Array(n);
const celMap = (n: number): CelMap => {
  const m = new CelMap();
  for (let i = 0; i < n; i++) m.entries.set(i, [i, 'v']);
  return m;
};

interface Case {
  name: string;
  id: string;
  args: unknown[];
  result?: unknown;
  want: number;
  model?: CostModel;
}

const cases: Case[] = [
  // cel-go: matches over 500 chars with '[0-9]' (total 103 = 1 ident + 102)
  { name: 'matches', id: 'matches_string', args: [s(500), '[0-9]'], want: 102 },
  { name: 'matches on a constant (total 2)', id: 'matches_string', args: ['123', '[0-9]'], want: 2 },
  { name: 'matches empty input still pays the pattern', id: 'matches_string', args: ['', s(40)], want: 10 },
  // the global matches(s, re) overload is not size-dependent in cel-go
  { name: 'global matches', id: 'matches', args: [s(500), '[0-9]'], want: 1 },
  { name: 'contains 500 in 500 (total 2502)', id: 'contains_string', args: [s(500), s(500)], want: 2500 },
  { name: 'startsWith charges the receiver (total 3)', id: 'starts_with_string', args: ['idc', s(500)], want: 1 },
  { name: 'endsWith', id: 'ends_with_string', args: [s(95), 'x'], want: 10 },
  { name: 'string to bytes (total 51)', id: 'string_to_bytes', args: [s(500)], want: 50 },
  { name: 'bytes to string (total 51)', id: 'bytes_to_string', args: [bytes(500)], want: 50 },
  { name: 'in list (total 13)', id: 'in_list', args: [2, [1, 2, 3]], want: 3 },
  { name: 'in map is constant', id: 'in_map', args: ['a', { a: 1, b: 2 }], want: 1 },
  { name: 'string equality by the shorter (total 2)', id: 'equals', args: [s(20), s(30)], want: 2 },
  { name: 'scalar equality', id: 'equals', args: [1, 2], want: 1 },
  { name: 'empty strings compare for free', id: 'equals', args: ['', ''], want: 0 },
  { name: 'an empty string against a scalar', id: 'equals', args: ['', 5], want: 0 },
  { name: 'a string against a scalar', id: 'not_equals', args: [true, 'abc'], want: 1 },
  { name: 'null against a list', id: 'equals', args: [null, []], want: 0 },
  { name: 'long vs short strings', id: 'equals', args: [s(1000), '😀'.repeat(15)], want: 2 },
  { name: 'surrogate-heavy longer string is the smaller', id: 'equals', args: ['😀'.repeat(30), s(35)], want: 3 },
  { name: 'list equality', id: 'not_equals', args: [[1, 2], [1, 2, 3]], want: 1 },
  { name: 'object equality counts keys', id: 'equals', args: [{ a: 1, b: 2, c: 3 }, celMap(25)], want: 1 },
  { name: 'less_string', id: 'less_string', args: [s(100), s(200)], want: 10 },
  { name: 'greater_equals_bytes', id: 'greater_equals_bytes', args: [bytes(31), bytes(40)], want: 4 },
  { name: 'less_int64 is constant', id: 'less_int64', args: [1, 2], want: 1 },
  { name: 'string concatenation (str concat total 6)', id: 'add_string', args: ['val1', 'val2222222'], want: 2 },
  { name: 'bytes concatenation', id: 'add_bytes', args: [bytes(10), bytes(11)], want: 3 },
  { name: 'list concatenation is constant', id: 'add_list', args: [[1], [2]], want: 1 },
  { name: 'size is constant', id: 'size_string', args: [s(1000)], want: 1 },
  // code points, not UTF-16 units
  { name: 'size by code points', id: 'equals', args: ['😀'.repeat(20), '😀'.repeat(20)], want: 2 },
  // Kubernetes' library (CRD rules)
  { name: 'list sum traverses', id: 'list_int_sum_int', args: [[1, 2, 3, 4, 5]], want: 5 },
  { name: 'isSorted over 12-char strings', id: 'list_string_is_sorted_bool', args: [Array(5).fill('012345678901')], want: 5 },
  { name: 'max over bytes', id: 'list_bytes_max_bytes', args: [Array(5).fill(bytes(12))], want: 5 },
  { name: 'min over durations', id: 'list_duration_min_duration', args: [[new Duration(1n), new Duration(2n)]], want: 2 },
  { name: 'list indexOf', id: 'list_a_index_of_int', args: [[new Uint(1), new Uint(2), new Uint(3)], new Uint(3)], want: 3 },
  { name: 'string indexOf truncates', id: 'string_index_of_string', args: [s(50), '123'], want: 5 },
  { name: 'string lastIndexOf by UTF-8 bytes', id: 'string_last_index_of_string_int', args: [s(20, 'ä'), 'x', 0], want: 4 },
  { name: 'url', id: 'string_to_url', args: ['https:://kubernetes.io/'], want: 3 },
  { name: 'url accessors are constant', id: 'url_get_scheme', args: [{}], want: 1 },
  { name: 'lowerAscii', id: 'string_lower_ascii', args: ['ABCDEFGHIJ abcdefghij'], want: 3 },
  { name: 'upperAscii', id: 'string_upper_ascii', args: ['ABCDEFGHIJ abcdefghij'], want: 3 },
  { name: 'replace', id: 'string_replace_string_string', args: ['abc 123 def 123', '123', '456'], want: 3 },
  { name: 'replace with limit', id: 'string_replace_string_string_int', args: ['abc 123 def 123', '123', '456', 1], want: 3 },
  { name: 'split', id: 'string_split_string', args: ['abc 123 def 123', ' '], want: 3 },
  { name: 'substring', id: 'string_substring_int', args: ['abc 123 def 123', 5], want: 2 },
  { name: 'substring with end', id: 'string_substring_int_int', args: ['abc 123 def 123', 5, 8], want: 2 },
  { name: 'trim', id: 'string_trim', args: ['  abc 123 def 123  '], want: 2 },
  { name: 'join charges the result', id: 'list_join_string', args: [['aa', 'bb'], ' '], result: 'aa bb cc d e f g h i j', want: 5 },
  { name: 'join without separator', id: 'list_join', args: [['aa']], result: 'aabbccdefghij', want: 3 },
  { name: 'find', id: 'string_find_string', args: ['abc 123 def 123', '123'], want: 2 },
  { name: 'findAll with limit', id: 'string_find_all_string_int', args: ['abc 123 def 123', '123', 1], want: 2 },
  { name: 'charAt is not in kube’s table', id: 'string_char_at_int', args: [s(1000), 1], want: 1 },
  { name: 'authorizer check', id: 'resourcecheck_check', args: [{}, 'create'], want: 350000 },
  { name: 'authorizer path check', id: 'pathcheck_check', args: [{}, 'get'], want: 350000 },
  { name: 'authorizer builder', id: 'authorizer_group', args: [{}, 'apps'], want: 1 },
  { name: 'decision', id: 'decision_allowed', args: [{}], want: 1 },
  // cel-go alone (admission policies in v1.27 install no kube estimator)
  { name: 'cel model: lowerAscii is constant', id: 'string_lower_ascii', args: [s(1000)], want: 1, model: 'cel' },
  { name: 'cel model: authorizer check is constant', id: 'resourcecheck_check', args: [{}, 'create'], want: 1, model: 'cel' },
  { name: 'cel model: list sum is constant', id: 'list_int_sum_int', args: [[1, 2, 3]], want: 1, model: 'cel' },
  { name: 'cel model: contains still scales', id: 'contains_string', args: [s(100), s(100)], want: 100, model: 'cel' },
];

test('callCost of each overload', () => {
  for (const c of cases) {
    assert.equal(callCost(c.id, c.args, c.result, c.model), c.want, c.name);
  }
});

test('plan-time resolution agrees with callCost', () => {
  for (const c of cases) {
    const constant = constantCallCost(c.id, c.model);
    const fn = sizeCallCost(c.id, c.model);
    // exactly one of the two applies
    assert.equal(constant === undefined, fn !== undefined, c.name);
    const got = constant ?? (fn as NonNullable<typeof fn>)(c.args, c.result);
    assert.equal(got, c.want, c.name);
  }
});

test('constantCallCost: 1 for fixed-cost and unknown overloads, undefined for size-dependent ones', () => {
  const table: [string, number | undefined][] = [
    ['add_int64', 1],
    ['timestamp_to_year_with_tz', 1],
    ['some_unknown_overload', 1],
    ['index_list', 1],
    ['contains_string', undefined],
    ['equals', undefined],
    ['list_double_sum_double', undefined],
    ['resourcecheck_check', 350000],
    ['logical_and', 0],
    ['logical_or', 0],
    ['conditional', 0],
    ['logical_not', 1],
    ['not_strictly_false', 1],
  ];
  for (const [id, want] of table) assert.equal(constantCallCost(id), want, id);
});

test('kubeFunctionOf names the functions of kube’s cost switch', () => {
  const table: [string, string | undefined][] = [
    ['list_timestamp_is_sorted_bool', 'isSorted'],
    ['list_uint_sum_uint', 'sum'],
    ['list_string_max_string', 'max'],
    ['list_int_min_int', 'min'],
    ['list_int_min_string', undefined],
    ['list_join_string', 'join'],
    ['string_index_of_string_int', 'indexOf'],
    ['authorizer_serviceaccount', 'serviceAccount'],
    ['add_list', undefined],
    ['index_list', undefined],
  ];
  for (const [id, want] of table) assert.equal(kubeFunctionOf(id), want, id);
});

test('sizes: code points, UTF-8 lengths, sizes of values, traversal cost', () => {
  assert.equal(codePoints('abc'), 3);
  assert.equal(codePoints('😀a'), 2);
  assert.equal(codePoints('\ud800x'), 2); // a lone surrogate counts once
  assert.equal(utf8Length('aä€😀'), 1 + 2 + 3 + 4);
  const sizes: [unknown, number][] = [
    ['héllo', 5],
    [bytes(7), 7],
    [[1, 2, 3], 3],
    [{ a: 1, b: 2 }, 2],
    [celMap(4), 4],
    [42, 1],
    [new Double(1.5), 1],
    [new Timestamp(0, 0), 1],
    [null, 1],
    [Optional.none, 1],
  ];
  for (const [v, want] of sizes) assert.equal(actualSize(v), want, String(v));
  const traversals: [unknown, number][] = [
    [s(19), 1],
    [s(20), 2],
    [bytes(35), 3],
    [[s(10), s(10), 5], 3],
    [{ abcdefghij: s(30), k: 1 }, 1 + 3 + 0 + 1],
    [celMap(2), 1 + 0 + 1 + 0],
    [new Duration(5n), 1],
    [[[1, 2], [3]], 3],
  ];
  for (const [v, want] of traversals) assert.equal(traversalCost(v), want, JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? String(x) : x)));
});
