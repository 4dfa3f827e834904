// Overload resolution, as cel-go's checker resolveOverload: every overload of
// the call style whose parameters accept the argument types matches; the
// call's type is the matches' common result type, or dyn when they differ;
// `_&&_`/`_||_` only need boolean-assignable operands. Type parameters of an
// overload are renamed to fresh variables before unification, except when
// the arguments are ground (the common case), where they are bound in place
// and unbound again.

import type { FunctionDecl, OverloadDecl } from '../decls.js';
import type { Type } from '../types.js';
import { T, listOf, mapOf } from '../types.js';
import type { Substitution } from './assign.js';
import { hasTypeParam, isAssignable, isAssignableList, isDyn, isExactType, substitute } from './assign.js';
import { prepare } from './env.js';
import { formatArgs, formatType } from './format.js';

/** What resolution needs from the checker. */
export interface ResolutionContext {
  readonly subst: Substitution;
  newTypeVar(): Type;
  report(id: number, message: string): void;
}

export interface Resolution {
  type: Type;
  overloadIds: string[];
}

export interface Call {
  id: number;
  fn: FunctionDecl;
  /** Argument types, the receiver's first for a receiver call. */
  argTypes: Type[];
  /** Node ids of argTypes' expressions (for errors on one operand). */
  argIds: number[];
  receiver: boolean;
  crossTypeNumeric: boolean;
}

/** The resolution, or undefined once the error is reported. */
export function resolveOverload(ctx: ResolutionContext, call: Call): Resolution | undefined {
  const { argTypes, fn: f } = call;
  const p = prepare(f, call.crossTypeNumeric);
  const index = call.receiver ? p.member : p.global;

  if ((f.name === '_&&_' || f.name === '_||_') && index.all.length > 0) {
    let ok = true;
    for (let i = 0; i < argTypes.length; i++) {
      if (!isAssignable(ctx.subst, argTypes[i]!, T.bool)) {
        ctx.report(call.argIds[i]!, `expected type 'bool' but found '${formatType(argTypes[i]!)}'`);
        ok = false;
      }
    }
    return ok ? { type: T.bool, overloadIds: [index.all[0]!.id] } : undefined;
  }

  let ground = true;
  for (const t of argTypes) {
    if (hasTypeParam(t)) {
      ground = false;
      break;
    }
  }
  let result: Type | undefined;
  let ids: string[] | undefined;
  for (const o of index.candidates(argTypes[0])) {
    if (o.params.length !== argTypes.length) continue;
    let r: Type = o.result;
    let done = false;
    if (o.typeParams && ground && unbound(ctx.subst, o.typeParams)) {
      const mark = ctx.subst.mark();
      if (!isAssignableList(ctx.subst, argTypes, o.params)) continue;
      r = substitute(ctx.subst, o.result, false);
      ctx.subst.rollback(mark);
      // a result still generic (optional.none()) needs variables of its own
      done = !hasTypeParam(r);
    }
    if (!done) {
      const [params, res] = o.typeParams ? instantiate(ctx, o) : [o.params, o.result];
      if (!isAssignableList(ctx.subst, argTypes, params)) continue;
      r = substitute(ctx.subst, res, false);
    }
    if (ids) ids.push(o.id);
    else ids = [o.id];
    if (result === undefined) result = r;
    else if (!isDyn(result) && !isExactType(r, result)) result = T.dyn;
  }
  if (result === undefined) {
    const shown = argTypes.map((t) => substitute(ctx.subst, t, true));
    ctx.report(call.id, `found no matching overload for '${f.name}' applied to '${formatArgs(shown, call.receiver)}'`);
    return undefined;
  }
  return { type: result, overloadIds: ids! };
}

/** None of these names is bound (a generic declared identifier may use an overload's parameter name). */
function unbound(subst: Substitution, names: readonly string[]): boolean {
  for (const n of names) if (subst.find(n) !== undefined) return false;
  return true;
}

/** An overload's parameter and result types with its type parameters renamed to fresh variables. */
function instantiate(ctx: ResolutionContext, o: OverloadDecl): [readonly Type[], Type] {
  const names = o.typeParams!;
  const fresh = names.map(() => ctx.newTypeVar());
  const rename = (t: Type): Type => {
    switch (t.kind) {
      case 'typeParam': {
        const i = names.indexOf(t.name);
        return i >= 0 ? fresh[i]! : t;
      }
      case 'list':
        return listOf(rename(t.elem));
      case 'map':
        return mapOf(rename(t.key), rename(t.value));
      case 'type':
        return t.param ? { kind: 'type', param: rename(t.param) } : t;
      case 'opaque':
        return { kind: 'opaque', name: t.name, params: t.params.map(rename) };
      default:
        return t;
    }
  };
  return [o.params.map(rename), rename(o.result)];
}
