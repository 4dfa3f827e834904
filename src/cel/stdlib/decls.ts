// The CEL standard library's declarations, with cel-go's function names and
// overload ids (common/stdlib/standard.go, common/overloads). The runtime
// implementations (impls.ts) and the cost model join on these ids.

import type { FunctionDecl, OverloadDecl } from '../decls.js';
import type { Type } from '../types.js';
import { T, listOf, mapOf, typeOf } from '../types.js';
import { A, B, fn, global, member } from '../checker/declare.js';

const { bool, int, uint, double, string, bytes, timestamp, duration, dyn, null: nul } = T;
const listA = listOf(A);
const mapAB = mapOf(A, B);

/** Ordering overloads of one comparison operator (`less`, `less_equals`…). */
function ordering(name: string, prefix: string): FunctionDecl {
  const pairs: [string, Type, Type][] = [
    ['bool', bool, bool],
    ['int64', int, int],
    ['int64_double', int, double],
    ['int64_uint64', int, uint],
    ['uint64', uint, uint],
    ['uint64_double', uint, double],
    ['uint64_int64', uint, int],
    ['double', double, double],
    ['double_int64', double, int],
    ['double_uint64', double, uint],
    ['string', string, string],
    ['bytes', bytes, bytes],
    ['timestamp', timestamp, timestamp],
    ['duration', duration, duration],
  ];
  return fn(name, ...pairs.map(([suffix, l, r]) => global(`${prefix}_${suffix}`, [l, r], bool)));
}

/** A timestamp accessor with and without a time zone, and optionally its duration form. */
function timeAccessor(name: string, id: string, tzId: string, durationId?: string): FunctionDecl {
  const overloads: OverloadDecl[] = [member(id, [timestamp], int), member(tzId, [timestamp, string], int)];
  if (durationId) overloads.push(member(durationId, [duration], int));
  return fn(name, ...overloads);
}

export const stdlibFunctions: FunctionDecl[] = [
  fn('_?_:_', global('conditional', [bool, A, A], A)),
  fn('_&&_', global('logical_and', [bool, bool], bool)),
  fn('_||_', global('logical_or', [bool, bool], bool)),
  fn('!_', global('logical_not', [bool], bool)),
  fn('@not_strictly_false', global('not_strictly_false', [bool], bool)),
  fn('_==_', global('equals', [A, A], bool)),
  fn('_!=_', global('not_equals', [A, A], bool)),
  fn(
    '_+_',
    global('add_bytes', [bytes, bytes], bytes),
    global('add_double', [double, double], double),
    global('add_duration_duration', [duration, duration], duration),
    global('add_duration_timestamp', [duration, timestamp], timestamp),
    global('add_timestamp_duration', [timestamp, duration], timestamp),
    global('add_int64', [int, int], int),
    global('add_list', [listA, listA], listA),
    global('add_string', [string, string], string),
    global('add_uint64', [uint, uint], uint),
  ),
  fn(
    '_/_',
    global('divide_double', [double, double], double),
    global('divide_int64', [int, int], int),
    global('divide_uint64', [uint, uint], uint),
  ),
  fn('_%_', global('modulo_int64', [int, int], int), global('modulo_uint64', [uint, uint], uint)),
  fn(
    '_*_',
    global('multiply_double', [double, double], double),
    global('multiply_int64', [int, int], int),
    global('multiply_uint64', [uint, uint], uint),
  ),
  fn('-_', global('negate_double', [double], double), global('negate_int64', [int], int)),
  fn(
    '_-_',
    global('subtract_double', [double, double], double),
    global('subtract_duration_duration', [duration, duration], duration),
    global('subtract_int64', [int, int], int),
    global('subtract_timestamp_duration', [timestamp, duration], timestamp),
    global('subtract_timestamp_timestamp', [timestamp, timestamp], duration),
    global('subtract_uint64', [uint, uint], uint),
  ),
  ordering('_<_', 'less'),
  ordering('_<=_', 'less_equals'),
  ordering('_>_', 'greater'),
  ordering('_>=_', 'greater_equals'),
  fn('_[_]', global('index_list', [listA, int], A), global('index_map', [mapAB, A], B)),
  fn('@in', global('in_list', [A, listA], bool), global('in_map', [A, mapAB], bool)),
  fn(
    'size',
    global('size_bytes', [bytes], int),
    member('bytes_size', [bytes], int),
    global('size_list', [listA], int),
    member('list_size', [listA], int),
    global('size_map', [mapAB], int),
    member('map_size', [mapAB], int),
    global('size_string', [string], int),
    member('string_size', [string], int),
  ),
  fn('type', global('type', [A], typeOf(A))),
  fn('bool', global('bool_to_bool', [bool], bool), global('string_to_bool', [string], bool)),
  fn('bytes', global('bytes_to_bytes', [bytes], bytes), global('string_to_bytes', [string], bytes)),
  fn(
    'double',
    global('double_to_double', [double], double),
    global('int64_to_double', [int], double),
    global('string_to_double', [string], double),
    global('uint64_to_double', [uint], double),
  ),
  fn(
    'duration',
    global('duration_to_duration', [duration], duration),
    global('string_to_duration', [string], duration),
  ),
  fn('dyn', global('to_dyn', [A], dyn)),
  fn(
    'int',
    global('int64_to_int64', [int], int),
    global('double_to_int64', [double], int),
    global('duration_to_int64', [duration], int),
    global('string_to_int64', [string], int),
    global('timestamp_to_int64', [timestamp], int),
    global('uint64_to_int64', [uint], int),
  ),
  fn(
    'string',
    global('string_to_string', [string], string),
    global('bool_to_string', [bool], string),
    global('bytes_to_string', [bytes], string),
    global('double_to_string', [double], string),
    global('duration_to_string', [duration], string),
    global('int64_to_string', [int], string),
    global('timestamp_to_string', [timestamp], string),
    global('uint64_to_string', [uint], string),
  ),
  fn(
    'timestamp',
    global('timestamp_to_timestamp', [timestamp], timestamp),
    global('int64_to_timestamp', [int], timestamp),
    global('string_to_timestamp', [string], timestamp),
  ),
  fn(
    'uint',
    global('uint64_to_uint64', [uint], uint),
    global('double_to_uint64', [double], uint),
    global('int64_to_uint64', [int], uint),
    global('string_to_uint64', [string], uint),
  ),
  fn('contains', member('contains_string', [string, string], bool)),
  fn('endsWith', member('ends_with_string', [string, string], bool)),
  fn('startsWith', member('starts_with_string', [string, string], bool)),
  fn('matches', global('matches', [string, string], bool), member('matches_string', [string, string], bool)),
  timeAccessor('getFullYear', 'timestamp_to_year', 'timestamp_to_year_with_tz'),
  timeAccessor('getMonth', 'timestamp_to_month', 'timestamp_to_month_with_tz'),
  timeAccessor('getDayOfYear', 'timestamp_to_day_of_year', 'timestamp_to_day_of_year_with_tz'),
  timeAccessor('getDayOfMonth', 'timestamp_to_day_of_month', 'timestamp_to_day_of_month_with_tz'),
  timeAccessor('getDate', 'timestamp_to_day_of_month_1_based', 'timestamp_to_day_of_month_1_based_with_tz'),
  timeAccessor('getDayOfWeek', 'timestamp_to_day_of_week', 'timestamp_to_day_of_week_with_tz'),
  timeAccessor('getHours', 'timestamp_to_hours', 'timestamp_to_hours_with_tz', 'duration_to_hours'),
  timeAccessor('getMinutes', 'timestamp_to_minutes', 'timestamp_to_minutes_with_tz', 'duration_to_minutes'),
  timeAccessor('getSeconds', 'timestamp_to_seconds', 'timestamp_to_seconds_tz', 'duration_to_seconds'),
  timeAccessor(
    'getMilliseconds',
    'timestamp_to_milliseconds',
    'timestamp_to_milliseconds_with_tz',
    'duration_to_milliseconds',
  ),
];

/** The type identifiers the standard library declares (cel-go's stdTypes):
 * `int` is a value of type `type(int)`, and so on. */
export const stdlibTypeIdents: { name: string; type: Type }[] = [
  { name: 'bool', type: typeOf(bool) },
  { name: 'bytes', type: typeOf(bytes) },
  { name: 'double', type: typeOf(double) },
  { name: 'google.protobuf.Duration', type: typeOf(duration) },
  { name: 'int', type: typeOf(int) },
  { name: 'list', type: typeOf(listA) },
  { name: 'map', type: typeOf(mapAB) },
  { name: 'null_type', type: typeOf(nul) },
  { name: 'string', type: typeOf(string) },
  { name: 'google.protobuf.Timestamp', type: typeOf(timestamp) },
  { name: 'type', type: typeOf(typeOf()) },
  { name: 'uint', type: typeOf(uint) },
];
