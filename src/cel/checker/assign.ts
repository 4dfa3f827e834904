// Assignability and unification of checker types with type parameters, as
// cel-go's checker/types.go: a substitution maps type-parameter names to
// types; assignability may extend it; a failed attempt leaves it unchanged.
// Instead of copying the substitution per attempt (cel-go), additions are
// logged on a trail and rolled back on failure.

import type { Type } from '../types.js';
import { T } from '../types.js';

export class Substitution {
  private readonly map = new Map<string, Type>();
  private readonly trail: [string, Type | undefined][] = [];

  find(name: string): Type | undefined {
    return this.map.get(name);
  }

  add(name: string, t: Type): void {
    this.trail.push([name, this.map.get(name)]);
    this.map.set(name, t);
  }

  mark(): number {
    return this.trail.length;
  }

  rollback(mark: number): void {
    while (this.trail.length > mark) {
      const [name, prev] = this.trail.pop()!;
      if (prev === undefined) this.map.delete(name);
      else this.map.set(name, prev);
    }
  }
}

export const isDyn = (t: Type): boolean => t.kind === 'dyn' || t.kind === 'any';
export const isDynOrError = (t: Type): boolean => t.kind === 'dyn' || t.kind === 'any' || t.kind === 'error';

export const isOptional = (t: Type): boolean => t.kind === 'opaque' && t.name === 'optional_type';

/** The element of `optional_type(T)`, or undefined for any other type. */
export const optionalElem = (t: Type): Type | undefined =>
  t.kind === 'opaque' && t.name === 'optional_type' ? t.params[0] : undefined;

/** Structural type equality (bounds and schema details ignored). */
export function isExactType(a: Type, b: Type): boolean {
  if (a === b) return true;
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case 'list':
      return isExactType(a.elem, (b as typeof a).elem);
    case 'map':
      return isExactType(a.key, (b as typeof a).key) && isExactType(a.value, (b as typeof a).value);
    case 'type': {
      const bp = (b as typeof a).param;
      if (!a.param || !bp) return a.param === bp;
      return isExactType(a.param, bp);
    }
    case 'opaque': {
      const bo = b as typeof a;
      if (a.name !== bo.name || a.params.length !== bo.params.length) return false;
      for (let i = 0; i < a.params.length; i++) if (!isExactType(a.params[i]!, bo.params[i]!)) return false;
      return true;
    }
    case 'typeParam':
    case 'object':
      return a.name === (b as typeof a).name;
    default:
      return true;
  }
}

function isEqualOrLessSpecific(t1: Type, t2: Type): boolean {
  if (isDyn(t1) || t1.kind === 'typeParam') return true;
  if (isDyn(t2) || t2.kind === 'typeParam') return false;
  // null is more specific than the types it may be assigned to (the
  // conformance suite's legacy_nullable_types; cel-go itself skips those)
  if (t2.kind === 'null' && t1.kind !== 'null') return isNullable(t1);
  if (t1.kind !== t2.kind) return false;
  switch (t1.kind) {
    case 'opaque': {
      const o2 = t2 as typeof t1;
      if (t1.name !== o2.name || t1.params.length !== o2.params.length) return false;
      for (let i = 0; i < t1.params.length; i++) if (!isEqualOrLessSpecific(t1.params[i]!, o2.params[i]!)) return false;
      return true;
    }
    case 'list':
      return isEqualOrLessSpecific(t1.elem, (t2 as typeof t1).elem);
    case 'map':
      return (
        isEqualOrLessSpecific(t1.key, (t2 as typeof t1).key) &&
        isEqualOrLessSpecific(t1.value, (t2 as typeof t1).value)
      );
    case 'type':
      return true;
    default:
      return isExactType(t1, t2);
  }
}

/** The less specific of two assignable types. */
export const mostGeneral = (t1: Type, t2: Type): Type => (isEqualOrLessSpecific(t1, t2) ? t1 : t2);

/** Types a `null` may be assigned to (cel-go keeps the legacy nullability
 * of messages, opaques, any, durations and timestamps). */
function isNullable(t: Type): boolean {
  switch (t.kind) {
    case 'null':
    case 'opaque':
    case 'object':
    case 'any':
    case 'duration':
    case 'timestamp':
      return true;
    default:
      return false;
  }
}

function notReferencedIn(s: Substitution, name: string, within: Type): boolean {
  switch (within.kind) {
    case 'typeParam': {
      if (within.name === name) return false;
      const sub = s.find(within.name);
      return sub === undefined || notReferencedIn(s, name, sub);
    }
    case 'list':
      return notReferencedIn(s, name, within.elem);
    case 'map':
      return notReferencedIn(s, name, within.key) && notReferencedIn(s, name, within.value);
    case 'type':
      return within.param === undefined || notReferencedIn(s, name, within.param);
    case 'opaque':
      for (const p of within.params) if (!notReferencedIn(s, name, p)) return false;
      return true;
    default:
      return true;
  }
}

/** cel-go isValidTypeSubstitution: can t1 stand for the parameter t2? */
function validSubstitution(s: Substitution, t1: Type, t2: { kind: 'typeParam'; name: string }): [boolean, boolean] {
  if (t1.kind === 'typeParam' && t1.name === t2.name) return [true, true];
  const sub = s.find(t2.name);
  if (sub !== undefined) {
    if (isExactType(t1, sub)) return [true, true];
    if (assignable(s, t1, sub)) {
      const general = mostGeneral(t1, sub);
      if (notReferencedIn(s, t2.name, general)) s.add(t2.name, general);
      return [true, true];
    }
    return [false, true];
  }
  if (notReferencedIn(s, t2.name, t1)) {
    s.add(t2.name, t1);
    return [true, false];
  }
  return [false, false];
}

/** Can a value of type t2 be used where t1 is expected (either may hold
 * type parameters, which get bound)? Mutates s; callers roll back on false. */
function assignable(s: Substitution, t1: Type, t2: Type): boolean {
  if (t2.kind === 'typeParam') {
    const [valid, hasSub] = validSubstitution(s, t1, t2);
    if (valid) return true;
    if (hasSub) return false;
  }
  if (t1.kind === 'typeParam') return validSubstitution(s, t2, t1)[0];
  if (isDynOrError(t1) || isDynOrError(t2)) return true;
  if (t1.kind === 'null') return isNullable(t2);
  if (t2.kind === 'null') return isNullable(t1);
  switch (t1.kind) {
    case 'type':
      return t2.kind === 'type';
    case 'list':
      return t2.kind === 'list' && assignable(s, t1.elem, t2.elem);
    case 'map':
      return t2.kind === 'map' && assignable(s, t1.key, t2.key) && assignable(s, t1.value, t2.value);
    case 'opaque': {
      if (t2.kind !== 'opaque' || t1.name !== t2.name || t1.params.length !== t2.params.length) return false;
      for (let i = 0; i < t1.params.length; i++) if (!assignable(s, t1.params[i]!, t2.params[i]!)) return false;
      return true;
    }
    case 'object':
      return t2.kind === 'object' && t1.name === t2.name;
    default:
      return t1.kind === t2.kind;
  }
}

/** Is t2 assignable to t1? On success the substitution keeps the bindings. */
export function isAssignable(s: Substitution, t1: Type, t2: Type): boolean {
  const mark = s.mark();
  if (assignable(s, t1, t2)) return true;
  s.rollback(mark);
  return false;
}

/** Pairwise assignability of argument lists. */
export function isAssignableList(s: Substitution, expected: readonly Type[], actual: readonly Type[]): boolean {
  if (expected.length !== actual.length) return false;
  const mark = s.mark();
  for (let i = 0; i < expected.length; i++) {
    if (!assignable(s, expected[i]!, actual[i]!)) {
      s.rollback(mark);
      return false;
    }
  }
  return true;
}

/** Applies the substitution; unbound parameters become dyn when toDyn. The
 * same object is returned when nothing changes. */
export function substitute(s: Substitution, t: Type, toDyn: boolean): Type {
  switch (t.kind) {
    case 'typeParam': {
      const sub = s.find(t.name);
      if (sub !== undefined) return substitute(s, sub, toDyn);
      return toDyn ? T.dyn : t;
    }
    case 'list': {
      const elem = substitute(s, t.elem, toDyn);
      return elem === t.elem ? t : { kind: 'list', elem };
    }
    case 'map': {
      const key = substitute(s, t.key, toDyn);
      const value = substitute(s, t.value, toDyn);
      return key === t.key && value === t.value ? t : { kind: 'map', key, value };
    }
    case 'type': {
      if (!t.param) return t;
      const param = substitute(s, t.param, toDyn);
      return param === t.param ? t : { kind: 'type', param };
    }
    case 'opaque': {
      let params: Type[] | undefined;
      for (let i = 0; i < t.params.length; i++) {
        const p = substitute(s, t.params[i]!, toDyn);
        if (p !== t.params[i] && !params) params = t.params.slice(0, i);
        if (params) params.push(p);
      }
      return params ? { kind: 'opaque', name: t.name, params } : t;
    }
    default:
      return t;
  }
}

/** Does the type mention a type parameter? */
export function hasTypeParam(t: Type): boolean {
  switch (t.kind) {
    case 'typeParam':
      return true;
    case 'list':
      return hasTypeParam(t.elem);
    case 'map':
      return hasTypeParam(t.key) || hasTypeParam(t.value);
    case 'type':
      return t.param !== undefined && hasTypeParam(t.param);
    case 'opaque':
      return t.params.some(hasTypeParam);
    default:
      return false;
  }
}
