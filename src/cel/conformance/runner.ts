// Runs the conformance suite through the public API: parse → check (unless
// the test disables it) → plan → eval, and compares the value, the error or
// the deduced type. Every extension the suite exercises is enabled (strings,
// math, encoders, optionals, cel.bind, two-variable comprehensions).

import { typeFromPb, declsFromPb, UnsupportedTypeError } from '../checker/exprpb.js';
import { formatType } from '../checker/index.js';
import { Env } from '../index.js';
import { formatIssues } from '../issues.js';
import { celEquals } from '../runtime/equality.js';
import { mapForEach, mapFind, mapSize } from '../runtime/maps.js';
import { typeOfValue } from '../runtime/typeof.js';
import { CelError, CelMap, Double, TypeValue } from '../values.js';
import { conformanceTests, needsProtobuf, UnrepresentableValue, valueFromPb, type ConformanceTest } from './suite.js';

export interface Outcome {
  path: string;
  /** checkOnly: a type-only test, not run when evaluating unchecked. */
  status: 'pass' | 'fail' | 'protobuf' | 'checkOnly';
  reason?: string;
}

const envs = new Map<string, Env>();

function envFor(t: ConformanceTest): Env {
  const key = `${t.container}\u0000${t.disableMacros}\u0000${JSON.stringify(t.typeEnv, (_k, v) => (typeof v === 'bigint' ? String(v) : v))}`;
  let env = envs.get(key);
  if (env === undefined) {
    const { variables, functions } = declsFromPb(t.typeEnv);
    env = new Env({
      libraries: ['strings', 'math', 'encoders', 'optional', ...(functions.length ? [{ name: 'test', functions, impls: [] }] : [])],
      variables,
      container: t.container || undefined,
      macros: !t.disableMacros,
      bindings: true,
      block: true,
      twoVarComprehensions: true,
      optionalSyntax: true,
      crossTypeNumericComparisons: true,
    });
    envs.set(key, env);
  }
  return env;
}

/** Values equal as the suite means it: same runtime type, equal by CEL
 * equality (NaN equal to NaN), element-wise for lists and maps. */
export function sameValue(a: unknown, b: unknown): boolean {
  const ta = typeOfValue(a).name;
  const tb = typeOfValue(b).name;
  if (ta !== tb) return false;
  if (ta === 'double') {
    const x = a instanceof Double ? a.v : (a as number);
    const y = b instanceof Double ? b.v : (b as number);
    return (Number.isNaN(x) && Number.isNaN(y)) || x === y;
  }
  if (Array.isArray(a)) {
    const bl = b as unknown[];
    return a.length === bl.length && a.every((x, i) => sameValue(x, bl[i]));
  }
  if (ta === 'map') {
    if (mapSize(a as object) !== mapSize(b as object)) return false;
    let ok = true;
    mapForEach(a as object, (k, v) => {
      const w = mapFind(b as object, k);
      if (w === undefined || !sameValue(v, w)) ok = false;
    });
    return ok;
  }
  if (a instanceof TypeValue) return (b as TypeValue).name === a.name;
  return celEquals(a, b);
}

const show = (v: unknown): string => {
  if (v instanceof CelMap) return `{${[...v.entries.values()].map(([k, x]) => `${show(k)}: ${show(x)}`).join(', ')}}`;
  if (Array.isArray(v)) return `[${v.map(show).join(', ')}]`;
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'bigint') return String(v);
  if (v instanceof Uint8Array) return `b${JSON.stringify(Buffer.from(v).toString('latin1'))}`;
  if (v instanceof TypeValue) return `type(${v.name})`;
  if (v !== null && typeof v === 'object') return `${v.constructor.name}${JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? String(x) : x))}`;
  return String(v);
};

export interface RunOptions {
  /** Evaluate without checking, whatever the test says (exercises runtime dispatch). */
  unchecked?: boolean;
}

export function runTest(t: ConformanceTest, opts: RunOptions = {}): Outcome {
  const out = (status: Outcome['status'], reason?: string): Outcome => ({ path: t.path, status, reason });
  let env: Env;
  try {
    env = envFor(t);
  } catch (e) {
    if (e instanceof UnsupportedTypeError) return out('fail', `environment: ${e.message}`);
    throw e;
  }
  const parsed = env.parseOnly(t.expr);
  if (needsProtobuf(t, parsed.ast?.expr)) return out('protobuf');
  if (parsed.ast === undefined) return out('fail', `parse: ${formatIssues(parsed.issues, t.expr)}`);
  let program;
  let type;
  if (t.disableCheck || opts.unchecked) {
    if (opts.unchecked && t.checkOnly) return out('checkOnly');
    program = env.program(parsed.ast);
  } else {
    const c = env.compile(t.expr);
    if (c.ast === undefined) return out('fail', `check: ${formatIssues(c.issues, t.expr)}`);
    type = c.type;
    if (t.expect.kind === 'typed') {
      const want = formatType(typeFromPb(t.expect.type));
      const got = formatType(c.ast.type);
      if (want !== got) return out('fail', `type: got ${got}, want ${want}`);
    }
    if (t.checkOnly) return out('pass');
    program = env.program(c.ast);
  }
  void type;
  let bindings: Record<string, unknown>;
  try {
    bindings = {};
    for (const [k, v] of Object.entries(t.bindings)) bindings[k] = valueFromPb(v);
  } catch (e) {
    if (e instanceof UnrepresentableValue) return out('fail', `binding: ${e.message}`);
    throw e;
  }
  let value: unknown;
  try {
    value = program.eval(bindings);
  } catch (e) {
    if (!(e instanceof CelError)) return out('fail', `crash: ${(e as Error)?.stack ?? String(e)}`);
    if (t.expect.kind === 'error') return out('pass');
    return out('fail', `error: ${e.message}`);
  }
  if (t.expect.kind === 'error') return out('fail', `got ${show(value)}, want an error`);
  if (t.expect.kind === 'none') return out('fail', 'unsupported result matcher');
  if (t.expect.kind === 'typed' && t.expect.value.kind.case === undefined) return out('pass');
  let want: unknown;
  try {
    want = valueFromPb(t.expect.value);
  } catch (e) {
    if (e instanceof UnrepresentableValue) return out('fail', `expected value: ${e.message}`);
    throw e;
  }
  if (!sameValue(value, want)) return out('fail', `got ${show(value)}, want ${show(want)}`);
  return out('pass');
}

/** Runs every test of the suite. */
export function runConformance(opts: RunOptions = {}): Outcome[] {
  return conformanceTests().map((t) => runTest(t, opts));
}
