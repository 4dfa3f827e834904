// The environment a check runs against: declared variables (incl. type
// identifiers such as `int`), functions by name, the container for name
// resolution, and a hook resolving type names (object types of a schema).
// Overload tables are prepared once per function declaration and cached, so
// a check never rebuilds them.

import type { FunctionDecl, Library, OverloadDecl } from '../decls.js';
import type { Type } from '../types.js';
import { typeOf } from '../types.js';
import { isExactType } from './assign.js';

export interface CheckEnv {
  variables: ReadonlyMap<string, Type>;
  functions: ReadonlyMap<string, FunctionDecl>;
  /** Namespace for resolving names (cel-go container), '' or absent for none. */
  container?: string;
  /** Resolves a (fully qualified) type name, for `Name{…}` and type identifiers. */
  findType?(name: string): Type | undefined;
  /** `1 < 1.5`, `1u <= 2`…: the mixed int/uint/double ordering overloads
   * (cel-go CrossTypeNumericComparisons; off by default as in cel-go, and in
   * Kubernetes before 1.28). */
  crossTypeNumericComparisons?: boolean;
  /** List and map literals must have elements of one type (cel-go
   * HomogeneousAggregateLiterals, which Kubernetes enables); otherwise mixed
   * elements give `dyn`. */
  homogeneousAggregateLiterals?: boolean;
}

export interface BuildEnvOptions {
  libraries: readonly Library[];
  variables?: Iterable<readonly [string, Type]> | Record<string, Type>;
  container?: string;
  findType?(name: string): Type | undefined;
  crossTypeNumericComparisons?: boolean;
  homogeneousAggregateLiterals?: boolean;
}

/** A library declares an overload id again with another signature. */
export class OverloadConflictError extends Error {}

function sameSignature(a: OverloadDecl, b: OverloadDecl): boolean {
  return (
    a.receiver === b.receiver &&
    a.params.length === b.params.length &&
    a.params.every((p, i) => isExactType(p, b.params[i]!)) &&
    isExactType(a.result, b.result)
  );
}

/** Joins libraries (functions of the same name merge their overloads, as
 * cel-go does; an overload declared again identically is kept once, with
 * another signature it is an OverloadConflictError) and variables into a
 * CheckEnv. Build it once per environment. */
export function buildCheckEnv(opts: BuildEnvOptions): CheckEnv {
  const functions = new Map<string, FunctionDecl>();
  const variables = new Map<string, Type>();
  for (const lib of opts.libraries) {
    for (const f of lib.functions) {
      const prev = functions.get(f.name);
      if (!prev) {
        functions.set(f.name, f);
        continue;
      }
      const merged = [...prev.overloads];
      for (const o of f.overloads) {
        const same = merged.find((m) => m.id === o.id);
        if (!same) merged.push(o);
        else if (!sameSignature(same, o)) {
          throw new OverloadConflictError(`overload '${o.id}' of '${f.name}' is declared twice with different signatures (library '${lib.name}')`);
        }
      }
      functions.set(f.name, { name: f.name, overloads: merged });
    }
    for (const v of lib.variables ?? []) variables.set(v.name, v.type);
  }
  const vars = opts.variables;
  if (vars) {
    const entries = Symbol.iterator in vars ? (vars as Iterable<readonly [string, Type]>) : Object.entries(vars);
    for (const [name, type] of entries) variables.set(name, type);
  }
  const env: CheckEnv = { variables, functions };
  if (opts.container) env.container = opts.container;
  if (opts.findType) env.findType = opts.findType;
  if (opts.crossTypeNumericComparisons) env.crossTypeNumericComparisons = true;
  if (opts.homogeneousAggregateLiterals) env.homogeneousAggregateLiterals = true;
  return env;
}

/** A function's overloads split by call style, and indexed by the kind of
 * the first argument they can accept, computed once per declaration. */
export interface PreparedFunction {
  name: string;
  global: OverloadIndex;
  member: OverloadIndex;
}

/** Overloads that may accept a first argument of a given type kind: an
 * argument of a concrete kind only meets overloads whose first parameter has
 * that kind or is generic (dyn, a type parameter); others get every overload. */
export class OverloadIndex {
  private readonly byKind = new Map<string, readonly OverloadDecl[]>();
  constructor(readonly all: readonly OverloadDecl[]) {}

  candidates(first: Type | undefined): readonly OverloadDecl[] {
    if (first === undefined) return this.all;
    const kind = first.kind;
    switch (kind) {
      case 'dyn':
      case 'any':
      case 'error':
      case 'typeParam':
      case 'null':
        return this.all;
      default:
    }
    let list = this.byKind.get(kind);
    if (!list) {
      list = this.all.filter((o) => {
        const p = o.params[0];
        if (!p) return true;
        switch (p.kind) {
          case 'dyn':
          case 'any':
          case 'error':
          case 'typeParam':
            return true;
          default:
            return p.kind === kind;
        }
      });
      this.byKind.set(kind, list);
    }
    return list;
  }
}

/** The ordering overloads across int, uint and double, which cel-go's
 * checker filters out unless cross-type numeric comparisons are enabled. */
export const CROSS_TYPE_NUMERIC_OVERLOADS: ReadonlySet<string> = new Set(
  ['less', 'less_equals', 'greater', 'greater_equals'].flatMap((op) =>
    ['int64_double', 'int64_uint64', 'uint64_double', 'uint64_int64', 'double_int64', 'double_uint64'].map(
      (pair) => `${op}_${pair}`,
    ),
  ),
);

const prepared = new WeakMap<FunctionDecl, PreparedFunction>();
const preparedCross = new WeakMap<FunctionDecl, PreparedFunction>();

/** The prepared form of a declaration, with or without the cross-type numeric comparisons. */
export function prepare(f: FunctionDecl, crossTypeNumeric: boolean): PreparedFunction {
  const cache = crossTypeNumeric ? preparedCross : prepared;
  let p = cache.get(f);
  if (!p) {
    const overloads = crossTypeNumeric ? f.overloads : f.overloads.filter((o) => !CROSS_TYPE_NUMERIC_OVERLOADS.has(o.id));
    p = {
      name: f.name,
      global: new OverloadIndex(overloads.filter((o) => !o.receiver)),
      member: new OverloadIndex(overloads.filter((o) => o.receiver)),
    };
    cache.set(f, p);
  }
  return p;
}

/** cel-go ResolveCandidateNames without aliases: a leading `.` makes the name
 * absolute; otherwise the container's prefixes are tried, longest first. */
export function candidateNames(container: string | undefined, name: string): string[] {
  if (name.charCodeAt(0) === 46 /* . */) return [name.slice(1)];
  if (!container) return [name];
  const out: string[] = [];
  let prefix = container;
  for (;;) {
    out.push(`${prefix}.${name}`);
    const i = prefix.lastIndexOf('.');
    if (i < 0) break;
    prefix = prefix.slice(0, i);
  }
  out.push(name);
  return out;
}

/** A global identifier: a declared variable, else a type name the env
 * resolves (its value has type `type(T)`). */
export function lookupGlobal(env: CheckEnv, name: string): Type | undefined {
  const v = env.variables.get(name);
  if (v !== undefined) return v;
  const t = env.findType?.(name);
  return t === undefined ? undefined : typeOf(t);
}
