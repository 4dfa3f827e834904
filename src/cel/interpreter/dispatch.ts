// Runtime overload selection: when the checker left several overloads (or
// none, unchecked), the call picks the first whose parameter types the
// argument values match, as cel-go's dispatcher does.

import type { OverloadDecl, OverloadImpl } from '../decls.js';
import type { Type } from '../types.js';
import { CelMap, Double, Duration, Optional, Timestamp, TypeValue, Uint } from '../values.js';
import { isPlainObject } from './access.js';

export type Pred = (v: unknown) => boolean;

const any: Pred = () => true;
const isMapValue: Pred = (v) => v instanceof CelMap || isPlainObject(v);
const KNOWN = [Uint, Double, Timestamp, Duration, TypeValue, Optional, CelMap, Uint8Array];

/** A predicate for runtime values of a declared parameter type. */
export function predicateOf(t: Type): Pred {
  switch (t.kind) {
    case 'dyn':
    case 'any':
    case 'error':
    case 'typeParam':
      return any;
    case 'null':
      return (v) => v === null;
    case 'bool':
      return (v) => typeof v === 'boolean';
    case 'int':
      return (v) => (typeof v === 'number' && Number.isInteger(v)) || typeof v === 'bigint';
    case 'uint':
      return (v) => v instanceof Uint;
    case 'double':
      return (v) => v instanceof Double || (typeof v === 'number' && !Number.isInteger(v));
    case 'string':
      return (v) => typeof v === 'string';
    case 'bytes':
      return (v) => v instanceof Uint8Array;
    case 'timestamp':
      return (v) => v instanceof Timestamp;
    case 'duration':
      return (v) => v instanceof Duration;
    case 'list': {
      // cel-go (IsAssignableRuntimeType) judges a list by its first element.
      const ep = predicateOf(t.elem);
      if (ep === any) return Array.isArray;
      return (v) => Array.isArray(v) && (v.length === 0 || ep(v[0]));
    }
    case 'map': {
      // … and a map by its first entry.
      const kp = predicateOf(t.key);
      const vp = predicateOf(t.value);
      if (kp === any && vp === any) return isMapValue;
      return (v) => {
        if (v instanceof CelMap) {
          for (const [k, x] of v.entries.values()) return kp(k) && vp(x);
          return true;
        }
        if (!isPlainObject(v)) return false;
        for (const k in v) return kp(k) && vp((v as Record<string, unknown>)[k]);
        return true;
      };
    }
    case 'object':
      return isMapValue;
    case 'type':
      return (v) => v instanceof TypeValue;
    case 'opaque':
      if (t.name === 'optional_type') return (v) => v instanceof Optional;
      // Extension types (e.g. kubernetes.URL): any value of a class this
      // representation does not define.
      return (v) =>
        typeof v === 'object' && v !== null && !Array.isArray(v) && !isPlainObject(v) && !KNOWN.some((c) => v instanceof c);
  }
}

/** Whether a static type admits values outside what its overload expects,
 * so a call resolved by the checker must still check its arguments. */
export function needsGuard(t: Type | undefined): boolean {
  if (t === undefined) return true;
  switch (t.kind) {
    case 'dyn':
    case 'any':
    case 'error':
    case 'typeParam':
      return true;
    default:
      return false;
  }
}

export interface Candidate {
  decl: OverloadDecl;
  impl: OverloadImpl;
  preds: Pred[];
}

const candidates = new WeakMap<OverloadDecl, Candidate>();

/** An overload with its implementation and argument predicates (built once
 * per declaration: planning a call reuses them). */
export function candidate(decl: OverloadDecl, impl: OverloadImpl): Candidate {
  let c = candidates.get(decl);
  if (c === undefined || c.impl !== impl) {
    c = { decl, impl, preds: decl.params.map(predicateOf) };
    candidates.set(decl, c);
  }
  return c;
}

/** The first candidate whose parameters match the arguments. */
export function select(cands: readonly Candidate[], args: readonly unknown[]): Candidate | undefined {
  outer: for (let i = 0; i < cands.length; i++) {
    const c = cands[i];
    const p = c.preds;
    if (p.length !== args.length) continue;
    for (let j = 0; j < p.length; j++) if (!p[j](args[j])) continue outer;
    return c;
  }
  return undefined;
}
