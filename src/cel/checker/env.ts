// The environment a check runs against: declared variables (incl. type
// identifiers such as `int`), functions by name, the container for name
// resolution, and a hook resolving type names (object types of a schema).
// Overload tables are prepared once per function declaration and cached, so
// a check never rebuilds them.

import type { FunctionDecl, Library, OverloadDecl } from '../decls.js';
import type { Type } from '../types.js';
import { typeOf } from '../types.js';

export interface CheckEnv {
  variables: ReadonlyMap<string, Type>;
  functions: ReadonlyMap<string, FunctionDecl>;
  /** Namespace for resolving names (cel-go container), '' or absent for none. */
  container?: string;
  /** Resolves a (fully qualified) type name, for `Name{…}` and type identifiers. */
  findType?(name: string): Type | undefined;
}

export interface BuildEnvOptions {
  libraries: readonly Library[];
  variables?: Iterable<readonly [string, Type]> | Record<string, Type>;
  container?: string;
  findType?(name: string): Type | undefined;
}

/** Joins libraries (functions of the same name merge their overloads, as
 * cel-go does; a duplicate overload id with the same name is dropped) and
 * variables into a CheckEnv. Build it once per environment. */
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
      const ids = new Set(prev.overloads.map((o) => o.id));
      functions.set(f.name, { name: f.name, overloads: [...prev.overloads, ...f.overloads.filter((o) => !ids.has(o.id))] });
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
  return env;
}

/** A function's overloads split by call style, computed once per declaration. */
export interface PreparedFunction {
  name: string;
  global: readonly OverloadDecl[];
  member: readonly OverloadDecl[];
}

const prepared = new WeakMap<FunctionDecl, PreparedFunction>();

export function prepare(f: FunctionDecl): PreparedFunction {
  let p = prepared.get(f);
  if (!p) {
    p = {
      name: f.name,
      global: f.overloads.filter((o) => !o.receiver),
      member: f.overloads.filter((o) => o.receiver),
    };
    prepared.set(f, p);
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
