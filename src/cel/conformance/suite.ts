// The CEL conformance suite (cel-spec's SimpleTest files, as @bufbuild/cel-spec
// ships them) as plain test records, with the rule that sets aside the tests
// needing protobuf messages, and cel.expr.Value → runtime value conversion.
//
// A test needs protobuf messages — and is not run — when any of:
//   1. its expected value or a binding holds an objectValue other than
//      google.protobuf.Timestamp/Duration, or an enumValue (at any depth);
//   2. its type environment or expected deduced type names a message type;
//   3. its expression names a message, enum or wrapper type: TestAllTypes,
//      NestedTestAllTypes, GlobalEnum, NestedEnum, cel.expr.conformance.*,
//      google.protobuf.* other than Timestamp and Duration;
//   4. its expression builds a message (a `Name{…}` literal in the parsed AST).
// Everything else runs, including the sections we have no support for yet.

import { getConformanceSuite } from '@bufbuild/cel-spec/testdata/tests.js';
import type { Expr } from '../ast.js';
import { CelMap, Double, Duration, Timestamp, TypeValue, Uint, intOf } from '../values.js';
import { celMapInsert } from '../runtime/maps.js';
import { TYPE_BY_NAME } from '../runtime/typeof.js';
import type { PbDecl, PbType } from '../checker/exprpb.js';

/** cel.expr.Value, structurally. */
export interface PbValue {
  kind: { case: string | undefined; value?: unknown };
}

export interface ConformanceTest {
  /** section/subsection/name */
  path: string;
  expr: string;
  disableMacros: boolean;
  disableCheck: boolean;
  checkOnly: boolean;
  typeEnv: PbDecl[];
  container: string;
  bindings: Record<string, PbValue>;
  expect:
    | { kind: 'value'; value: PbValue }
    | { kind: 'error' }
    | { kind: 'typed'; value: PbValue; type: PbType }
    | { kind: 'none' };
}

interface RawTest {
  name: string;
  original: {
    expr: string;
    disableMacros: boolean;
    disableCheck: boolean;
    checkOnly: boolean;
    typeEnv: PbDecl[];
    container: string;
    bindings: Record<string, { kind: { case: string | undefined; value?: unknown } }>;
    resultMatcher: { case: string | undefined; value?: unknown };
  };
}
interface RawSuite {
  name: string;
  suites?: RawSuite[];
  tests?: RawTest[];
}

let cached: ConformanceTest[] | undefined;

/** Every test of the conformance suite, in file order. */
export function conformanceTests(): ConformanceTest[] {
  if (cached) return cached;
  const out: ConformanceTest[] = [];
  const walk = (s: RawSuite, path: string): void => {
    for (const t of s.tests ?? []) out.push(toTest(t, `${path}/${t.name}`));
    for (const c of s.suites ?? []) walk(c, path === '' ? c.name : `${path}/${c.name}`);
  };
  walk(getConformanceSuite() as unknown as RawSuite, '');
  cached = out;
  return out;
}

function toTest(t: RawTest, path: string): ConformanceTest {
  const o = t.original;
  const bindings: Record<string, PbValue> = {};
  for (const [k, b] of Object.entries(o.bindings)) {
    if (b.kind.case === 'value') bindings[k] = b.kind.value as PbValue;
  }
  const m = o.resultMatcher;
  let expect: ConformanceTest['expect'];
  switch (m.case) {
    case 'value':
      expect = { kind: 'value', value: m.value as PbValue };
      break;
    case 'evalError':
    case 'anyEvalErrors':
      expect = { kind: 'error' };
      break;
    case 'typedResult': {
      const v = m.value as { result?: PbValue; deducedType: PbType };
      expect = v.result
        ? { kind: 'typed', value: v.result, type: v.deducedType }
        : { kind: 'typed', value: { kind: { case: undefined } }, type: v.deducedType };
      break;
    }
    case undefined:
      // cel-spec: no matcher means the expression evaluates to true.
      expect = { kind: 'value', value: { kind: { case: 'boolValue', value: true } } };
      break;
    default:
      expect = { kind: 'none' };
  }
  return {
    path,
    expr: o.expr,
    disableMacros: o.disableMacros,
    disableCheck: o.disableCheck,
    checkOnly: o.checkOnly,
    typeEnv: o.typeEnv,
    container: o.container,
    bindings,
    expect,
  };
}

const PROTO_NAMES =
  /TestAllTypes|NestedTestAllTypes|GlobalEnum|NestedEnum|cel\.expr\.conformance|google\.protobuf\.(?!Timestamp\b|Duration\b)[A-Za-z]/;
const WELL_KNOWN_OBJECTS = /google\.protobuf\.(Timestamp|Duration)$/;

function protoValue(v: PbValue | undefined): boolean {
  if (v === undefined) return false;
  const k = v.kind;
  switch (k.case) {
    case 'objectValue':
      return !WELL_KNOWN_OBJECTS.test((k.value as { typeUrl: string }).typeUrl);
    case 'enumValue':
      return true;
    case 'listValue':
      return (k.value as { values: PbValue[] }).values.some(protoValue);
    case 'mapValue':
      return (k.value as { entries: { key: PbValue; value: PbValue }[] }).entries.some(
        (e) => protoValue(e.key) || protoValue(e.value),
      );
    default:
      return false;
  }
}

function namesMessageType(t: unknown): boolean {
  if (t === null || typeof t !== 'object') return false;
  const o = t as Record<string, unknown>;
  if ((o.typeKind as { case?: string } | undefined)?.case === 'messageType') return true;
  return Object.values(o).some((x) => typeof x === 'object' && namesMessageType(x));
}

function buildsMessage(e: Expr): boolean {
  switch (e.kind) {
    case 'struct':
      return true;
    case 'select':
      return buildsMessage(e.operand);
    case 'call':
      return (e.target !== undefined && buildsMessage(e.target)) || e.args.some(buildsMessage);
    case 'list':
      return e.elements.some(buildsMessage);
    case 'map':
      return e.entries.some((x) => buildsMessage(x.key) || buildsMessage(x.value));
    case 'comprehension':
      return [e.iterRange, e.accuInit, e.loopCondition, e.loopStep, e.result].some(buildsMessage);
    default:
      return false;
  }
}

/** Whether the test needs protobuf messages (see the rule above); parsed is
 * the test's AST when it parses. */
export function needsProtobuf(t: ConformanceTest, parsed: Expr | undefined): boolean {
  if (PROTO_NAMES.test(t.expr)) return true;
  if (t.typeEnv.some(namesMessageType)) return true;
  if (Object.values(t.bindings).some(protoValue)) return true;
  if ((t.expect.kind === 'value' || t.expect.kind === 'typed') && protoValue(t.expect.value)) return true;
  if (t.expect.kind === 'typed' && namesMessageType(t.expect.type)) return true;
  return parsed !== undefined && buildsMessage(parsed);
}

export class UnrepresentableValue {
  constructor(readonly message: string) {}
}

/** A cel.expr.Value as a runtime value. */
export function valueFromPb(v: PbValue): unknown {
  const k = v.kind;
  switch (k.case) {
    case 'nullValue':
      return null;
    case 'boolValue':
    case 'stringValue':
      return k.value;
    case 'int64Value':
      return intOf(k.value as bigint);
    case 'uint64Value':
      return new Uint(intOf(k.value as bigint));
    case 'doubleValue':
      return new Double(k.value as number);
    case 'bytesValue':
      return k.value as Uint8Array;
    case 'listValue':
      return (k.value as { values: PbValue[] }).values.map(valueFromPb);
    case 'mapValue': {
      const m = new CelMap();
      for (const e of (k.value as { entries: { key: PbValue; value: PbValue }[] }).entries) {
        celMapInsert(m, valueFromPb(e.key), valueFromPb(e.value));
      }
      return m;
    }
    case 'typeValue': {
      const name = k.value as string;
      return TYPE_BY_NAME.get(name) ?? new TypeValue(name);
    }
    case 'objectValue': {
      const any = k.value as { typeUrl: string; value: Uint8Array };
      const [a, b] = secondsNanos(any.value);
      if (any.typeUrl.endsWith('google.protobuf.Timestamp')) return new Timestamp(Number(a), b);
      if (any.typeUrl.endsWith('google.protobuf.Duration')) return new Duration(a * 1_000_000_000n + BigInt(b));
      throw new UnrepresentableValue(`object value ${any.typeUrl}`);
    }
    default:
      throw new UnrepresentableValue(`value kind ${k.case}`);
  }
}

/** Fields 1 (int64 seconds) and 2 (int32 nanos) of a Timestamp/Duration message. */
function secondsNanos(buf: Uint8Array): [bigint, number] {
  let seconds = 0n;
  let nanos = 0;
  let i = 0;
  const varint = (): bigint => {
    let r = 0n;
    let shift = 0n;
    for (;;) {
      const b = buf[i++];
      r |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) break;
      shift += 7n;
    }
    return r;
  };
  while (i < buf.length) {
    const tag = Number(varint());
    const v = BigInt.asIntN(64, varint());
    if (tag >> 3 === 1) seconds = v;
    else if (tag >> 3 === 2) nanos = Number(BigInt.asIntN(32, v));
  }
  return [seconds, nanos];
}
