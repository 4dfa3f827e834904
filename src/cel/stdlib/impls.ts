// Runtime implementations of CEL's standard library, keyed by cel-go's
// overload ids (common/overloads, common/stdlib/standard.go). The
// declarations live in stdlib/decls.ts; the interpreter joins both by id.

import type { OverloadImpl } from '../decls.js';
import * as A from '../runtime/arith.js';
import { celGreater, celGreaterEquals, celLess, celLessEquals } from '../runtime/compare.js';
import { inList, inMap, indexList, indexMap, size } from '../runtime/containers.js';
import * as C from '../runtime/convert.js';
import { celEquals } from '../runtime/equality.js';
import { errNoSuchOverload } from '../runtime/errors.js';
import { binaries, binary, unaries, unary } from '../runtime/impl.js';
import { matches } from '../runtime/strings.js';
import * as T from '../runtime/time.js';
import { CelError, type Duration, type Timestamp } from '../values.js';

const NUMERIC_PAIRS = [
  'int64',
  'int64_double',
  'int64_uint64',
  'uint64',
  'uint64_double',
  'uint64_int64',
  'double',
  'double_int64',
  'double_uint64',
];
const ORDERED = [...NUMERIC_PAIRS, 'bool', 'string', 'bytes', 'timestamp', 'duration'];
const ids = (prefix: string): string[] => ORDERED.map((s) => `${prefix}_${s}`);

/** The calendar accessors: overload id stems (UTC and `_with_tz` forms). */
const TIMESTAMP_GETTERS: ReadonlyArray<readonly [string, string, (c: T.Civil, t: Timestamp) => number]> = [
  ['timestamp_to_year', 'timestamp_to_year_with_tz', (c) => c.year],
  ['timestamp_to_month', 'timestamp_to_month_with_tz', (c) => c.month - 1],
  ['timestamp_to_day_of_year', 'timestamp_to_day_of_year_with_tz', (c) => c.dayOfYear],
  ['timestamp_to_day_of_month', 'timestamp_to_day_of_month_with_tz', (c) => c.day - 1],
  ['timestamp_to_day_of_month_1_based', 'timestamp_to_day_of_month_1_based_with_tz', (c) => c.day],
  ['timestamp_to_day_of_week', 'timestamp_to_day_of_week_with_tz', (c) => c.dayOfWeek],
  ['timestamp_to_hours', 'timestamp_to_hours_with_tz', (c) => c.hours],
  ['timestamp_to_minutes', 'timestamp_to_minutes_with_tz', (c) => c.minutes],
  ['timestamp_to_seconds', 'timestamp_to_seconds_tz', (c) => c.seconds],
  ['timestamp_to_milliseconds', 'timestamp_to_milliseconds_with_tz', (_c, t) => Math.floor(t.nanos / 1e6)],
];

const timestampGetters: OverloadImpl[] = TIMESTAMP_GETTERS.flatMap(([id, tzId, get]) => [
  unary(id, (t: Timestamp) => get(T.civilIn(t), t)),
  binary(tzId, (t: Timestamp, tz: string) => get(T.civilIn(t, tz), t)),
]);

const isBool = (v: unknown): v is boolean => v === true || v === false;

/** `&&` and `||` over already evaluated operands (errors arrive as values):
 * the interpreter short-circuits; these give the same answers. */
function logicalAnd(a: unknown, b: unknown): unknown {
  if (a === false || b === false) return false;
  if (a === true && b === true) return true;
  throw firstError(a, b);
}
function logicalOr(a: unknown, b: unknown): unknown {
  if (a === true || b === true) return true;
  if (a === false && b === false) return false;
  throw firstError(a, b);
}
/** The error an undecided `&&`/`||` yields: an operand's error, else no such overload. */
const firstError = (a: unknown, b: unknown): CelError =>
  a instanceof CelError ? a : b instanceof CelError ? b : errNoSuchOverload;

export const standardImpls: OverloadImpl[] = [
  // logic
  unary('logical_not', (a: boolean) => !a),
  { id: 'logical_and', binary: logicalAnd, nonStrict: true },
  { id: 'logical_or', binary: logicalOr, nonStrict: true },
  { id: 'not_strictly_false', unary: (a) => (isBool(a) ? a : true), nonStrict: true },
  {
    id: 'conditional',
    nonStrict: true,
    call: (args) => {
      const c = args[0];
      if (c instanceof CelError) throw c;
      if (!isBool(c)) throw errNoSuchOverload;
      const r = c ? args[1] : args[2];
      if (r instanceof CelError) throw r;
      return r;
    },
  },

  // equality and ordering
  binary('equals', celEquals),
  binary('not_equals', (a: unknown, b: unknown) => !celEquals(a, b)),
  ...binaries(ids('less'), celLess),
  ...binaries(ids('less_equals'), celLessEquals),
  ...binaries(ids('greater'), celGreater),
  ...binaries(ids('greater_equals'), celGreaterEquals),

  // arithmetic
  binary('add_int64', A.addInt),
  binary('add_uint64', A.addUint),
  binary('add_double', A.addDouble),
  binary('add_string', (a: string, b: string) => a + b),
  binary('add_bytes', A.concatBytes),
  binary('add_list', A.concatLists),
  binary('add_timestamp_duration', T.addTimestampDuration),
  binary('add_duration_timestamp', (d: Duration, t: Timestamp) => T.addTimestampDuration(t, d)),
  binary('add_duration_duration', T.addDurations),
  binary('subtract_int64', A.subInt),
  binary('subtract_uint64', A.subUint),
  binary('subtract_double', A.subDouble),
  binary('subtract_timestamp_timestamp', T.subTimestamps),
  binary('subtract_timestamp_duration', T.subTimestampDuration),
  binary('subtract_duration_duration', T.subDurations),
  binary('multiply_int64', A.mulInt),
  binary('multiply_uint64', A.mulUint),
  binary('multiply_double', A.mulDouble),
  binary('divide_int64', A.divInt),
  binary('divide_uint64', A.divUint),
  binary('divide_double', A.divDouble),
  binary('modulo_int64', A.modInt),
  binary('modulo_uint64', A.modUint),
  unary('negate_int64', A.negInt),
  unary('negate_double', A.negDouble),

  // containers
  binary('index_list', indexList),
  binary('index_map', indexMap),
  binary('in_list', inList),
  binary('in_map', inMap),
  ...unaries(['size_string', 'size_bytes', 'size_list', 'size_map', 'string_size', 'bytes_size', 'list_size', 'map_size'], size),

  // conversions
  unary('type', C.toType),
  unary('to_dyn', C.toDyn),
  ...unaries(['bool_to_bool', 'string_to_bool'], C.toBool),
  ...unaries(['bytes_to_bytes', 'string_to_bytes'], C.toBytes),
  ...unaries(['double_to_double', 'int64_to_double', 'uint64_to_double', 'string_to_double'], C.toDouble),
  ...unaries(['duration_to_duration', 'string_to_duration'], C.toDuration),
  ...unaries(
    ['int64_to_int64', 'uint64_to_int64', 'double_to_int64', 'string_to_int64', 'timestamp_to_int64', 'duration_to_int64'],
    C.toInt,
  ),
  ...unaries(['uint64_to_uint64', 'int64_to_uint64', 'double_to_uint64', 'string_to_uint64'], C.toUint),
  ...unaries(
    [
      'string_to_string',
      'bool_to_string',
      'int64_to_string',
      'uint64_to_string',
      'double_to_string',
      'bytes_to_string',
      'timestamp_to_string',
      'duration_to_string',
    ],
    C.toString,
  ),
  ...unaries(['timestamp_to_timestamp', 'string_to_timestamp', 'int64_to_timestamp'], C.toTimestamp),

  // strings
  binary('contains_string', (s: string, sub: string) => s.includes(sub)),
  binary('starts_with_string', (s: string, p: string) => s.startsWith(p)),
  binary('ends_with_string', (s: string, p: string) => s.endsWith(p)),
  ...binaries(['matches', 'matches_string'], matches),

  // timestamps and durations
  ...timestampGetters,
  unary('duration_to_hours', T.durationHours),
  unary('duration_to_minutes', T.durationMinutes),
  unary('duration_to_seconds', T.durationSeconds),
  unary('duration_to_milliseconds', T.durationMilliseconds),
];
