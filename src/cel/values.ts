// CEL runtime values over plain JavaScript values, so that JSON objects from
// storage are evaluated without wrapping or copying.
//
//   CEL type   runtime value
//   null       null
//   bool       boolean
//   int        number when Number.isSafeInteger, else bigint (always within
//              int64). The split is normalised: a bigint int is never within
//              the safe range, so `===` compares ints of either form.
//   uint       Uint (value normalised the same way, 0 ≤ v < 2^64)
//   double     Double; a JavaScript number that is not an integer (it can
//              only come from JSON data) is also read as a double
//   string     string (size and indexing by code points)
//   bytes      Uint8Array
//   list       readonly array
//   map        plain object (string keys: JSON data, objects of a schema) or
//              CelMap (any key type: literals, results)
//   timestamp  Timestamp (seconds since the epoch + nanos)
//   duration   Duration (nanoseconds, int64)
//   type       TypeValue
//   optional   Optional
//
// Runtime errors are thrown as CelError (not an Error subclass: no stack is
// captured). `&&`, `||`, `?:` and the macros catch them where CEL's
// semantics absorb errors.

export class Uint {
  constructor(readonly v: number | bigint) {}
}

export class Double {
  constructor(readonly v: number) {}
}

export class Timestamp {
  constructor(
    readonly seconds: number,
    readonly nanos: number,
  ) {}
}

export class Duration {
  constructor(readonly nanos: bigint) {}
}

export class TypeValue {
  constructor(readonly name: string) {}
}

export class Optional {
  static readonly none = new Optional(false, undefined);
  constructor(
    readonly hasValue: boolean,
    readonly value: unknown,
  ) {}
  static of(v: unknown): Optional {
    return new Optional(true, v);
  }
}

/** A map with keys of any CEL key type (int, uint, bool, string). Keys are
 * normalised so numerically equal int/uint/double keys find each other:
 * ints and uints become their number/bigint value, strings and bools stay. */
export class CelMap {
  readonly entries = new Map<unknown, [unknown, unknown]>();
  get size(): number {
    return this.entries.size;
  }
}

export class CelError {
  constructor(readonly message: string) {}
  toString(): string {
    return this.message;
  }
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** The normalised int for a bigint known to be within int64. */
export function intOf(v: bigint): number | bigint {
  return v >= -MAX_SAFE && v <= MAX_SAFE ? Number(v) : v;
}

export const isInt = (v: unknown): v is number | bigint =>
  (typeof v === 'number' && Number.isInteger(v)) || typeof v === 'bigint';

export const isDouble = (v: unknown): boolean =>
  v instanceof Double || (typeof v === 'number' && !Number.isInteger(v));

/** A double's JavaScript number (Double or a non-integral JSON number). */
export const doubleOf = (v: Double | number): number => (typeof v === 'number' ? v : v.v);

export const isMap = (v: unknown): boolean =>
  v instanceof CelMap ||
  (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype) ||
  (typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === null);
