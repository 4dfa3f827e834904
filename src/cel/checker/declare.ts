// Small builders for function declarations (decls.ts shapes), so the
// standard library and the extensions read as tables of cel-go overloads.

import type { FunctionDecl, OverloadDecl } from '../decls.js';
import type { Type } from '../types.js';
import { typeParam } from '../types.js';

/** The type parameters every library uses (cel-go's A, B, K, V). */
export const A = typeParam('A');
export const B = typeParam('B');
export const K = typeParam('K');
export const V = typeParam('V');

/** Names of the type parameters occurring in the given types. */
export function typeParamsIn(types: readonly Type[]): string[] | undefined {
  const names: string[] = [];
  const visit = (t: Type): void => {
    switch (t.kind) {
      case 'typeParam':
        if (!names.includes(t.name)) names.push(t.name);
        return;
      case 'list':
        return visit(t.elem);
      case 'map':
        visit(t.key);
        return visit(t.value);
      case 'type':
        if (t.param) visit(t.param);
        return;
      case 'opaque':
        for (const p of t.params) visit(p);
        return;
      default:
    }
  };
  for (const t of types) visit(t);
  return names.length > 0 ? names : undefined;
}

function overload(id: string, params: Type[], result: Type, receiver: boolean): OverloadDecl {
  const typeParams = typeParamsIn([...params, result]);
  return typeParams ? { id, params, result, receiver, typeParams } : { id, params, result, receiver };
}

/** A global overload: `f(params…)`. */
export const global = (id: string, params: Type[], result: Type): OverloadDecl =>
  overload(id, params, result, false);

/** A receiver overload: `params[0].f(params[1…])`. */
export const member = (id: string, params: Type[], result: Type): OverloadDecl =>
  overload(id, params, result, true);

export const fn = (name: string, ...overloads: OverloadDecl[]): FunctionDecl => ({ name, overloads });
