// What an expression looks like, as the planner asks: attributes as cel-go
// v0.12 plans them, the quantifier macros' expansions (all, exists,
// exists_one) recognised in a comprehension, and literal values.
import type { CallExpr, ComprehensionExpr, Constant, Expr } from '../ast.js';
import { Double, Uint, intOf } from '../values.js';

export type Quantifier = 'all' | 'exists' | 'existsOne';

/** Whether cel-go v0.12 plans e as an attribute: a name, a selection, an
 * index (over an attribute or, relative, over any value) or a `?:`. */
export function isAttribute(e: Expr): boolean {
  if (e.kind === 'ident') return true;
  if (e.kind === 'select') return !e.testOnly;
  if (e.kind !== 'call' || e.target !== undefined) return false;
  return ((e.fn === '_[_]' || e.fn === '_[?_]' || e.fn === '_?._') && e.args.length === 2) || (e.fn === '_?_:_' && e.args.length === 3);
}

export const isIdent = (e: Expr, name: string): boolean => e.kind === 'ident' && e.name === name;
export const isCall = (e: Expr, fn: string, n: number): e is CallExpr =>
  e.kind === 'call' && e.fn === fn && e.target === undefined && e.args.length === n;
export const isConst = (e: Expr, type: string, value: unknown): boolean =>
  e.kind === 'const' && e.value.type === type && (e.value as { value?: unknown }).value === value;

export function mentions(e: Expr, name: string): boolean {
  switch (e.kind) {
    case 'ident':
      return e.name === name;
    case 'select':
      return mentions(e.operand, name);
    case 'call':
      return (e.target !== undefined && mentions(e.target, name)) || e.args.some((a) => mentions(a, name));
    case 'list':
      return e.elements.some((x) => mentions(x, name));
    case 'map':
      return e.entries.some((x) => mentions(x.key, name) || mentions(x.value, name));
    case 'struct':
      return e.fields.some((x) => mentions(x.value, name));
    case 'comprehension':
      return [e.iterRange, e.accuInit, e.loopCondition, e.loopStep, e.result].some((x) => mentions(x, name));
    default:
      return false;
  }
}

/** The all/exists/exists_one expansions (as cel-go's macros write them). */
export function quantifierOf(e: ComprehensionExpr): { kind: Quantifier; pred: Expr } | undefined {
  const a = e.accuVar;
  const { accuInit: init, loopCondition: cond, loopStep: step, result } = e;
  let kind: Quantifier | undefined;
  let pred: Expr | undefined;
  if (
    isConst(init, 'bool', true) &&
    isCall(cond, '@not_strictly_false', 1) &&
    isIdent(cond.args[0], a) &&
    isCall(step, '_&&_', 2) &&
    isIdent(step.args[0], a) &&
    isIdent(result, a)
  ) {
    kind = 'all';
    pred = step.args[1];
  } else if (
    isConst(init, 'bool', false) &&
    isCall(cond, '@not_strictly_false', 1) &&
    isCall(cond.args[0], '!_', 1) &&
    isIdent(cond.args[0].args[0], a) &&
    isCall(step, '_||_', 2) &&
    isIdent(step.args[0], a) &&
    isIdent(result, a)
  ) {
    kind = 'exists';
    pred = step.args[1];
  } else if (
    isConst(init, 'int', 0n) &&
    isConst(cond, 'bool', true) &&
    isCall(step, '_?_:_', 3) &&
    isCall(step.args[1], '_+_', 2) &&
    isIdent(step.args[1].args[0], a) &&
    isConst(step.args[1].args[1], 'int', 1n) &&
    isIdent(step.args[2], a) &&
    isCall(result, '_==_', 2) &&
    isIdent(result.args[0], a) &&
    isConst(result.args[1], 'int', 1n)
  ) {
    kind = 'existsOne';
    pred = step.args[0];
  }
  if (kind === undefined || pred === undefined || mentions(pred, a)) return undefined;
  if (e.iterVar === a || e.iterVar2 === a) return undefined;
  return { kind, pred };
}

export function isTrueConst(e: Expr): boolean {
  return e.kind === 'const' && e.value.type === 'bool' && e.value.value === true;
}

/** The runtime value of a literal. */
export function constantValue(c: Constant): unknown {
  switch (c.type) {
    case 'null':
      return null;
    case 'bool':
    case 'string':
    case 'bytes':
      return c.value;
    case 'int':
      return intOf(c.value);
    case 'uint':
      return new Uint(intOf(c.value));
    case 'double':
      return new Double(c.value);
  }
}
