import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { OverloadImpl } from '../decls.js';
import { comprehensionsImpls } from '../ext/comprehensions_impls.js';
import { encodersImpls } from '../ext/encoders_impls.js';
import { mathImpls } from '../ext/math_impls.js';
import { optionalImpls } from '../ext/optional_impls.js';
import { stringsImpls } from '../ext/strings_impls.js';
import { throwsCel } from '../runtime/testutil.js';
import { CelError, Double, Duration, Optional, Timestamp, TypeValue, Uint } from '../values.js';
import { standardImpls } from './impls.js';

// Overload ids of cel-go's standard library (common/stdlib/standard.go).
const STANDARD_IDS = `add_bytes add_double add_duration_duration add_duration_timestamp add_int64 add_list add_string
add_timestamp_duration add_uint64 bool_to_bool bool_to_string bytes_size bytes_to_bytes bytes_to_string conditional
contains_string divide_double divide_int64 divide_uint64 double_to_double double_to_int64 double_to_string
double_to_uint64 duration_to_duration duration_to_hours duration_to_int64 duration_to_milliseconds
duration_to_minutes duration_to_seconds duration_to_string ends_with_string equals greater_bool greater_bytes
greater_double greater_double_int64 greater_double_uint64 greater_duration greater_equals_bool greater_equals_bytes
greater_equals_double greater_equals_double_int64 greater_equals_double_uint64 greater_equals_duration
greater_equals_int64 greater_equals_int64_double greater_equals_int64_uint64 greater_equals_string
greater_equals_timestamp greater_equals_uint64 greater_equals_uint64_double greater_equals_uint64_int64
greater_int64 greater_int64_double greater_int64_uint64 greater_string greater_timestamp greater_uint64
greater_uint64_double greater_uint64_int64 in_list in_map index_list index_map int64_to_double int64_to_int64
int64_to_string int64_to_timestamp int64_to_uint64 less_bool less_bytes less_double less_double_int64
less_double_uint64 less_duration less_equals_bool less_equals_bytes less_equals_double less_equals_double_int64
less_equals_double_uint64 less_equals_duration less_equals_int64 less_equals_int64_double less_equals_int64_uint64
less_equals_string less_equals_timestamp less_equals_uint64 less_equals_uint64_double less_equals_uint64_int64
less_int64 less_int64_double less_int64_uint64 less_string less_timestamp less_uint64 less_uint64_double
less_uint64_int64 list_size logical_and logical_not logical_or map_size matches matches_string modulo_int64
modulo_uint64 multiply_double multiply_int64 multiply_uint64 negate_double negate_int64 not_equals
not_strictly_false size_bytes size_list size_map size_string starts_with_string string_size string_to_bool
string_to_bytes string_to_double string_to_duration string_to_int64 string_to_string string_to_timestamp
string_to_uint64 subtract_double subtract_duration_duration subtract_int64 subtract_timestamp_duration
subtract_timestamp_timestamp subtract_uint64 timestamp_to_day_of_month timestamp_to_day_of_month_1_based
timestamp_to_day_of_month_1_based_with_tz timestamp_to_day_of_month_with_tz timestamp_to_day_of_week
timestamp_to_day_of_week_with_tz timestamp_to_day_of_year timestamp_to_day_of_year_with_tz timestamp_to_hours
timestamp_to_hours_with_tz timestamp_to_int64 timestamp_to_milliseconds timestamp_to_milliseconds_with_tz
timestamp_to_minutes timestamp_to_minutes_with_tz timestamp_to_month timestamp_to_month_with_tz
timestamp_to_seconds timestamp_to_seconds_tz timestamp_to_string timestamp_to_timestamp timestamp_to_year
timestamp_to_year_with_tz to_dyn type uint64_to_double uint64_to_int64 uint64_to_string uint64_to_uint64`.split(/\s+/);

// Overload ids of cel-go's extensions (ext/strings.go, ext/math.go, ext/encoders.go, cel/library.go).
const STRINGS_IDS = `list_join list_join_string string_char_at_int string_format string_index_of_string
string_index_of_string_int string_last_index_of_string string_last_index_of_string_int string_lower_ascii
string_replace_string_string string_replace_string_string_int string_reverse string_split_string
string_split_string_int string_substring_int string_substring_int_int string_trim string_upper_ascii
strings_quote`.split(/\s+/);
const MATH_IDS = [
  ...['max', 'min'].flatMap((f) =>
    ['double', 'int', 'uint', 'double_double', 'int_int', 'uint_uint', 'int_uint', 'int_double', 'double_int', 'double_uint', 'uint_int', 'uint_double', 'list_double', 'list_int', 'list_uint'].map(
      (s) => `math_@${f}_${s}`,
    ),
  ),
  ...`math_abs_double math_abs_int math_abs_uint math_bitAnd_int_int math_bitAnd_uint_uint math_bitNot_int_int
math_bitNot_uint_uint math_bitOr_int_int math_bitOr_uint_uint math_bitShiftLeft_int_int math_bitShiftLeft_uint_int
math_bitShiftRight_int_int math_bitShiftRight_uint_int math_bitXor_int_int math_bitXor_uint_uint math_ceil_double
math_floor_double math_isFinite_double math_isInf_double math_isNaN_double math_round_double math_sign_double
math_sign_int math_sign_uint math_sqrt_double math_sqrt_int math_sqrt_uint math_trunc_double`.split(/\s+/),
];
const ENCODERS_IDS = ['base64_decode_string', 'base64_encode_bytes'];
const OPTIONAL_IDS = `list_first list_last optional_hasValue optional_orValue_value optional_or_optional
optional_unwrapOpt optional_value list_optindex_optional_int map_optindex_optional_value optional_list_index_int
optional_list_optindex_optional_int optional_map_index_value optional_map_optindex_optional_value optional_none
optional_of optional_ofNonZeroValue optional_unwrap select_optional_field`.split(/\s+/);

const tables: [string, OverloadImpl[], string[]][] = [
  ['standard', standardImpls, STANDARD_IDS],
  ['strings', stringsImpls, STRINGS_IDS],
  ['math', mathImpls, MATH_IDS],
  ['encoders', encodersImpls, ENCODERS_IDS],
  ['optional', optionalImpls, OPTIONAL_IDS],
  ['comprehensions', comprehensionsImpls, ['@mapInsert_map_key_value', '@mapInsert_map_map']],
];

test("every cel-go overload id has exactly one implementation, with a callable form", () => {
  for (const [name, impls, ids] of tables) {
    const have = impls.map((i) => i.id);
    assert.equal(new Set(have).size, have.length, `${name}: duplicate ids`);
    assert.deepEqual([...have].sort(), [...ids].sort(), `${name}: ids differ from cel-go's`);
    for (const i of impls) assert.ok(i.unary || i.binary || i.call, `${name}: ${i.id} has no implementation`);
  }
});

const all = new Map(tables.flatMap(([, impls]) => impls.map((i) => [i.id, i] as const)));
function call(id: string, ...args: unknown[]): unknown {
  const impl = all.get(id);
  assert.ok(impl, id);
  if (args.length === 1 && impl.unary) return impl.unary(args[0]);
  if (args.length === 2 && impl.binary) return impl.binary(args[0], args[1]);
  assert.ok(impl.call, `${id} has no ${args.length}-ary form`);
  return impl.call(args);
}

test('implementations through the table', () => {
  const ts = call('string_to_timestamp', '2009-02-13T23:31:30Z') as Timestamp;
  const rows: [string, unknown[], unknown][] = [
    ['add_int64', [1, 2], 3],
    ['less_int64_uint64', [-1, new Uint(0)], true],
    ['greater_equals_double_int64', [new Double(2), 2], true],
    ['equals', [1, new Double(1)], true],
    ['not_equals', ['a', 'a'], false],
    ['size_string', ['a😀'], 2],
    ['string_size', ['abc'], 3],
    ['index_map', [{ a: 1 }, 'a'], 1],
    ['in_list', [2, [1, 2]], true],
    ['type', [ts], new TypeValue('google.protobuf.Timestamp')],
    ['timestamp_to_year', [ts], 2009],
    ['timestamp_to_month_with_tz', [ts, 'Australia/Sydney'], 1],
    ['timestamp_to_day_of_month_1_based_with_tz', [ts, 'Australia/Sydney'], 14],
    ['timestamp_to_milliseconds', [call('string_to_timestamp', '2009-02-13T23:31:20.123456789Z')], 123],
    ['timestamp_to_seconds_tz', [ts, '-00:00'], 30],
    ['duration_to_minutes', [new Duration(3730_000_000_000n)], 62],
    ['add_duration_timestamp', [new Duration(60_000_000_000n), ts], new Timestamp(1234567950, 0)],
    ['matches', ['hubba', 'ubb'], true],
    ['contains_string', ['hello', 'ell'], true],
    ['starts_with_string', ['hello', 'he'], true],
    ['ends_with_string', ['hello', 'lo'], true],
    ['not_strictly_false', [new CelError('x')], true],
    ['logical_and', [new CelError('x'), false], false],
    ['logical_or', [true, new CelError('x')], true],
    ['conditional', [false, new CelError('unused'), 2], 2],
    ['string_replace_string_string_int', ['aaa', 'a', 'b', 2], 'bba'],
    ['string_index_of_string_int', ['tacocat', 'a', 3], 5],
    ['string_substring_int_int', ['tacocat', 0, 4], 'taco'],
    ['string_format', ['%s-%d', ['a', 1]], 'a-1'],
    ['math_@max_int_double', [1, new Double(1.5)], new Double(1.5)],
    ['math_@min_list_int', [[3, 1, 2]], 1],
    ['math_@max_uint', [new Uint(7)], new Uint(7)],
    ['base64_encode_bytes', [new Uint8Array([104, 105])], 'aGk='],
    ['optional_none', [], Optional.none],
    ['optional_or_optional', [Optional.none, Optional.of(1)], Optional.of(1)],
    ['@mapInsert_map_key_value', [{}, 'k', 1], call('@mapInsert_map_map', {}, { k: 1 })],
  ];
  for (const [id, args, want] of rows) assert.deepEqual(call(id, ...args), want, id);
  throwsCel(() => call('logical_and', new CelError('boom'), true), 'boom');
  throwsCel(() => call('logical_or', 1, false), 'no such overload');
  throwsCel(() => call('conditional', 'x', 1, 2), 'no such overload');
  throwsCel(() => call('divide_int64', 1, 0), 'division by zero');
  throwsCel(() => call('timestamp_to_year_with_tz', ts, 'Nowhere/Land'), 'unknown time zone Nowhere/Land');
});
