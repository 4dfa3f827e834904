// The strings extension's `format` (cel-go ext/formatting_v2.go): clauses
// %s %d %f %e %b %o %x %X with optional `.N` precision and `%%`; errors as
// `could not parse formatting clause: …` / `error during formatting: …`.

import { CelError, CelMap, Double, Duration, Timestamp, TypeValue, Uint } from '../values.js';
import { utf8Encode } from './bytes.js';
import { mapForEach } from './maps.js';
import { formatFloatE, formatFloatF, formatFloatFixed } from './numfmt.js';
import { formatDuration, formatTimestamp } from './time.js';
import { typeOfValue } from './typeof.js';

const DEFAULT_PRECISION = 6;
/** %s of bytes appends them as they are; invalid UTF-8 shows as U+FFFD. */
const lenientUtf8 = new TextDecoder();

class FormatError {
  constructor(readonly message: string) {}
}

function doubleOrNonFinite(x: number): string | undefined {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  return undefined;
}

/** A numeric argument: its kind and JavaScript value. */
function numeric(v: unknown): { kind: 'int' | 'uint' | 'double'; n: number | bigint } | undefined {
  if (typeof v === 'number') return { kind: Number.isInteger(v) ? 'int' : 'double', n: v };
  if (typeof v === 'bigint') return { kind: 'int', n: v };
  if (v instanceof Uint) return { kind: 'uint', n: v.v };
  if (v instanceof Double) return { kind: 'double', n: v.v };
  return undefined;
}

const typeName = (v: unknown): string => typeOfValue(v).name;

/** %s: any value but messages and optionals; lists and maps recursively, map
 * entries sorted by their formatted key. */
export function formatValue(v: unknown): string {
  switch (typeof v) {
    case 'string':
      return v;
    case 'boolean':
      return v ? 'true' : 'false';
    case 'bigint':
      return String(v);
    case 'number':
      return Number.isInteger(v) ? String(v) : (doubleOrNonFinite(v) ?? formatFloatF(v));
  }
  if (v === null) return 'null';
  if (v instanceof Double) return doubleOrNonFinite(v.v) ?? formatFloatF(v.v);
  if (v instanceof Uint) return String(v.v);
  if (v instanceof Uint8Array) return lenientUtf8.decode(v);
  if (v instanceof Timestamp) return formatTimestamp(v);
  if (v instanceof Duration) return formatDuration(v);
  if (v instanceof TypeValue) return v.name;
  if (Array.isArray(v)) return '[' + v.map(formatValue).join(', ') + ']';
  if (v instanceof CelMap || (typeof v === 'object' && isPlainObject(v))) {
    const ents: [string, string][] = [];
    mapForEach(v as object, (k, val) => ents.push([formatValue(k), formatValue(val)]));
    ents.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return '{' + ents.map(([k, val]) => `${k}: ${val}`).join(', ') + '}';
  }
  throw new FormatError(
    `string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given ${typeName(v)}`,
  );
}

function isPlainObject(v: object): boolean {
  const p = Object.getPrototypeOf(v);
  return p === Object.prototype || p === null;
}

function decimal(v: unknown): string {
  const n = numeric(v);
  if (n === undefined) throw new FormatError(`decimal clause can only be used on ints, uints, and doubles, was given ${typeName(v)}`);
  if (n.kind !== 'double') return String(n.n);
  return doubleOrNonFinite(n.n as number) ?? formatFloatF(n.n as number);
}

function fixed(v: unknown, prec: number): string {
  const n = numeric(v);
  if (n === undefined) throw new FormatError(`fixed-point clause can only be used on ints, uints, and doubles, was given ${typeName(v)}`);
  const x = Number(n.n);
  return doubleOrNonFinite(x) ?? formatFloatFixed(x, prec);
}

function scientific(v: unknown, prec: number): string {
  const n = numeric(v);
  if (n === undefined) throw new FormatError(`scientific clause can only be used on ints, uints, and doubles, was given ${typeName(v)}`);
  const x = Number(n.n);
  return doubleOrNonFinite(x) ?? formatFloatE(x, prec);
}

function binary(v: unknown): string {
  if (typeof v === 'boolean') return v ? '1' : '0';
  const n = numeric(v);
  if (n === undefined || n.kind === 'double') throw new FormatError(`only ints, uints, and bools can be formatted as binary, was given ${typeName(v)}`);
  return n.n.toString(2);
}

function octal(v: unknown): string {
  const n = numeric(v);
  if (n === undefined || n.kind === 'double') throw new FormatError(`octal clause can only be used on ints and uints, was given ${typeName(v)}`);
  return n.n.toString(8);
}

function hex(v: unknown, upper: boolean): string {
  let out: string;
  if (typeof v === 'string' || v instanceof Uint8Array) {
    const b = typeof v === 'string' ? utf8Encode(v) : v;
    out = '';
    for (let i = 0; i < b.length; i++) out += (b[i] < 16 ? '0' : '') + b[i].toString(16);
  } else {
    const n = numeric(v);
    if (n === undefined || n.kind === 'double') throw new FormatError(`only ints, uints, bytes, and strings can be formatted as hex, was given ${typeName(v)}`);
    out = n.n.toString(16);
  }
  return upper ? out.toUpperCase() : out;
}

/** `"…".format([args])`. */
export function stringFormat(fmt: string, args: readonly unknown[]): string {
  let out = '';
  let argIndex = 0;
  let i = 0;
  while (i < fmt.length) {
    const c = fmt[i];
    if (c !== '%') {
      out += c;
      i++;
      continue;
    }
    if (fmt[i + 1] === '%') {
      out += '%';
      i += 2;
      continue;
    }
    if (i + 1 >= fmt.length) throw new CelError('unexpected end of string');
    if (argIndex >= args.length) throw new CelError(`index ${argIndex} out of range`);
    i++;
    let prec = DEFAULT_PRECISION;
    if (fmt[i] === '.') {
      i++;
      const start = i;
      while (i < fmt.length && fmt.charCodeAt(i) >= 48 && fmt.charCodeAt(i) <= 57) i++;
      if (i >= fmt.length) {
        throw new CelError('could not parse formatting clause: error while parsing precision: could not find end of precision specifier');
      }
      prec = Number(fmt.slice(start, i));
    }
    const verb = fmt[i++];
    const arg = args[argIndex++];
    try {
      switch (verb) {
        case 's':
          out += formatValue(arg);
          break;
        case 'd':
          out += decimal(arg);
          break;
        case 'f':
          out += fixed(arg, prec);
          break;
        case 'e':
          out += scientific(arg, prec);
          break;
        case 'b':
          out += binary(arg);
          break;
        case 'o':
          out += octal(arg);
          break;
        case 'x':
        case 'X':
          out += hex(arg, verb === 'X');
          break;
        default: {
          const ch = String.fromCodePoint(fmt.codePointAt(i - 1) ?? 0);
          throw new CelError(`could not parse formatting clause: unrecognized formatting clause "${ch}"`);
        }
      }
    } catch (e) {
      if (e instanceof FormatError) throw new CelError(`error during formatting: ${e.message}`);
      throw e;
    }
  }
  return out;
}
