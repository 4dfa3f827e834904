// Macros: calls the parser rewrites into other expressions, as cel-go does
// (parser/macro.go, ext/bindings.go, ext/comprehensions.go, cel/library.go).
// Each expansion allocates its node ids in cel-go's order (Go evaluates
// arguments left to right, then the constructor), all at the call's
// position, so debug strings with ids match cel-go's.
//
//   has(a.b)             → a.b~test-only~
//   e.all(x, p)          → fold: accu = true;  cond @not_strictly_false(accu); step accu && p
//   e.exists(x, p)       → fold: accu = false; cond @not_strictly_false(!accu); step accu || p
//   e.exists_one(x, p)   → fold: accu = 0; step p ? accu + 1 : accu; result accu == 1
//   e.map(x, [p,] f)     → fold: accu = []; step [p ?] accu + [f] [: accu]
//   e.filter(x, p)       → fold: accu = []; step p ? accu + [x] : accu
//   cel.bind(v, i, r)    → fold over [] with accu v = i, result r
//   e.all(k, v, p) …     → two-variable folds (ext comprehensions)
//   o.optMap(v, f)       → o.hasValue() ? optional.of(bind v = o.value() in f) : optional.none()

import { ACCU_VAR } from '../ast.js';
import type { Expr, ListExpr, MapExpr, MapEntry, StructField, ComprehensionExpr } from '../ast.js';

/** cel-go's legacy accumulator name, also refused as an iteration variable. */
export const LEGACY_ACCU_VAR = '__result__';
/** The iteration variable of single-variable folds that do not iterate. */
export const UNUSED_ITER_VAR = '#unused';

export class MacroError {
  constructor(
    readonly exprId: number,
    readonly message: string,
  ) {}
}

/** What an expander gets from the parser: ids at the call's position, copies, errors. */
export interface MacroHelper {
  /** The accumulator variable's name: `@result`, or `__result__` when the hidden name is off. */
  readonly accuName: string;
  nextId(): number;
  /** A deep copy with fresh ids (positions of the originals). */
  copy(e: Expr): Expr;
}

export type Expander = (h: MacroHelper, target: Expr | undefined, args: Expr[]) => Expr | MacroError | null;

export interface Macro {
  name: string;
  /** Number of arguments, or -1 for any number. */
  argCount: number;
  receiver: boolean;
  expand: Expander;
}

export function macroKey(name: string, argCount: number, receiver: boolean): string {
  return `${name}:${argCount}:${receiver ? 'r' : 'g'}`;
}

// ---- constructors that allocate ids in cel-go's order -------------------------------------

function call(h: MacroHelper, fn: string, ...args: Expr[]): Expr {
  return { kind: 'call', id: h.nextId(), fn, args };
}
function member(h: MacroHelper, fn: string, target: Expr, ...args: Expr[]): Expr {
  return { kind: 'call', id: h.nextId(), fn, target, args };
}
function accu(h: MacroHelper): Expr {
  return { kind: 'ident', id: h.nextId(), name: h.accuName };
}
function ident(h: MacroHelper, name: string): Expr {
  return { kind: 'ident', id: h.nextId(), name };
}
function bool(h: MacroHelper, value: boolean): Expr {
  return { kind: 'const', id: h.nextId(), value: { type: 'bool', value } };
}
function int(h: MacroHelper, value: number): Expr {
  return { kind: 'const', id: h.nextId(), value: { type: 'int', value: BigInt(value) } };
}
function list(h: MacroHelper, ...elements: Expr[]): ListExpr {
  return { kind: 'list', id: h.nextId(), elements, optionalIndices: [] };
}
function emptyMap(h: MacroHelper): MapExpr {
  return { kind: 'map', id: h.nextId(), entries: [] };
}
function fold(
  h: MacroHelper,
  iterRange: Expr,
  iterVar: string,
  iterVar2: string | undefined,
  accuVar: string,
  accuInit: Expr,
  loopCondition: Expr,
  loopStep: Expr,
  result: Expr,
): ComprehensionExpr {
  const c: ComprehensionExpr = {
    kind: 'comprehension', id: h.nextId(), iterVar, iterRange, accuVar, accuInit, loopCondition, loopStep, result,
  };
  if (iterVar2 !== undefined) c.iterVar2 = iterVar2;
  return c;
}

function isAccuName(v: string): boolean {
  return v === ACCU_VAR || v === LEGACY_ACCU_VAR;
}

// ---- the standard macros ---------------------------------------------------------------------

const has: Expander = (h, _target, args) => {
  const a = args[0];
  if (a.kind === 'select') {
    return { kind: 'select', id: h.nextId(), operand: a.operand, field: a.field, testOnly: true };
  }
  return new MacroError(a.id, 'invalid argument to has() macro');
};

type Quantifier = 'all' | 'exists' | 'existsOne';

function quantifier(kind: Quantifier): Expander {
  return (h, target, args) => {
    const v = args[0];
    if (v.kind !== 'ident') return new MacroError(v.id, 'argument must be a simple name');
    if (isAccuName(v.name)) return new MacroError(v.id, 'iteration variable overwrites accumulator variable');
    return quantifierFold(h, kind, target as Expr, v.name, undefined, args[1]);
  };
}

function quantifierFold(h: MacroHelper, kind: Quantifier, target: Expr, v1: string, v2: string | undefined, p: Expr): Expr {
  if (kind === 'all') {
    const init = bool(h, true);
    const cond = call(h, '@not_strictly_false', accu(h));
    const step = call(h, '_&&_', accu(h), p);
    return fold(h, target, v1, v2, h.accuName, init, cond, step, accu(h));
  }
  if (kind === 'exists') {
    const init = bool(h, false);
    const cond = call(h, '@not_strictly_false', call(h, '!_', accu(h)));
    const step = call(h, '_||_', accu(h), p);
    return fold(h, target, v1, v2, h.accuName, init, cond, step, accu(h));
  }
  const init = int(h, 0);
  const cond = bool(h, true);
  const step = call(h, '_?_:_', p, call(h, '_+_', accu(h), int(h, 1)), accu(h));
  const result = call(h, '_==_', accu(h), int(h, 1));
  return fold(h, target, v1, v2, h.accuName, init, cond, step, result);
}

const map: Expander = (h, target, args) => {
  const v = args[0];
  if (v.kind !== 'ident') return new MacroError(v.id, 'argument is not an identifier');
  if (isAccuName(v.name)) return new MacroError(v.id, 'iteration variable overwrites accumulator variable');
  const filter = args.length === 3 ? args[1] : undefined;
  const fn = args.length === 3 ? args[2] : args[1];
  const init = list(h);
  const cond = bool(h, true);
  let step = call(h, '_+_', accu(h), list(h, fn));
  if (filter) step = call(h, '_?_:_', filter, step, accu(h));
  return fold(h, target as Expr, v.name, undefined, h.accuName, init, cond, step, accu(h));
};

const filter: Expander = (h, target, args) => {
  const v = args[0];
  if (v.kind !== 'ident') return new MacroError(v.id, 'argument is not an identifier');
  if (isAccuName(v.name)) return new MacroError(v.id, 'iteration variable overwrites accumulator variable');
  const init = list(h);
  const cond = bool(h, true);
  let step = call(h, '_+_', accu(h), list(h, v));
  step = call(h, '_?_:_', args[1], step, accu(h));
  return fold(h, target as Expr, v.name, undefined, h.accuName, init, cond, step, accu(h));
};

/** cel-go parser.AllMacros: has, all, exists, exists_one, existsOne, map (2 and 3), filter. */
export const STANDARD_MACROS: readonly Macro[] = [
  { name: 'has', argCount: 1, receiver: false, expand: has },
  { name: 'all', argCount: 2, receiver: true, expand: quantifier('all') },
  { name: 'exists', argCount: 2, receiver: true, expand: quantifier('exists') },
  { name: 'exists_one', argCount: 2, receiver: true, expand: quantifier('existsOne') },
  { name: 'existsOne', argCount: 2, receiver: true, expand: quantifier('existsOne') },
  { name: 'map', argCount: 2, receiver: true, expand: map },
  { name: 'map', argCount: 3, receiver: true, expand: map },
  { name: 'filter', argCount: 2, receiver: true, expand: filter },
];

// ---- cel.bind (ext bindings) -----------------------------------------------------------------

const bind: Expander = (h, target, args) => {
  if (!target || target.kind !== 'ident' || target.name !== 'cel') return null;
  const v = args[0];
  if (v.kind !== 'ident') return new MacroError(v.id, 'cel.bind() variable names must be simple identifiers');
  const range = list(h);
  const cond = bool(h, false);
  const step = ident(h, v.name);
  return fold(h, range, UNUSED_ITER_VAR, undefined, v.name, args[1], cond, step, args[2]);
};

/** cel-go ext.Bindings(): cel.bind(name, init, expr). */
export const BINDINGS_MACROS: readonly Macro[] = [{ name: 'bind', argCount: 3, receiver: true, expand: bind }];

// ---- two-variable comprehensions (ext comprehensions) ----------------------------------------

function iterVars(a0: Expr, a1: Expr): [string, string] | MacroError {
  if (a0.kind !== 'ident') return new MacroError(a0.id, 'argument must be a simple name');
  if (a1.kind !== 'ident') return new MacroError(a1.id, 'argument must be a simple name');
  if (a0.name === a1.name) return new MacroError(a1.id, `duplicate variable name: ${a0.name}`);
  if (isAccuName(a0.name)) return new MacroError(a0.id, 'iteration variable overwrites accumulator variable');
  if (isAccuName(a1.name)) return new MacroError(a1.id, 'iteration variable overwrites accumulator variable');
  return [a0.name, a1.name];
}

function quantifier2(kind: Quantifier): Expander {
  return (h, target, args) => {
    const vs = iterVars(args[0], args[1]);
    if (vs instanceof MacroError) return vs;
    return quantifierFold(h, kind, target as Expr, vs[0], vs[1], args[2]);
  };
}

type Transform = 'list' | 'map' | 'mapEntry';

function transform(kind: Transform): Expander {
  return (h, target, args) => {
    const vs = iterVars(args[0], args[1]);
    if (vs instanceof MacroError) return vs;
    const filterExpr = args.length === 4 ? args[2] : undefined;
    const fn = args.length === 4 ? args[3] : args[2];
    let step: Expr;
    if (kind === 'list') step = call(h, '_+_', accu(h), list(h, fn));
    else if (kind === 'map') step = call(h, 'cel.@mapInsert', accu(h), ident(h, vs[0]), fn);
    else step = call(h, 'cel.@mapInsert', accu(h), fn);
    if (filterExpr) step = call(h, '_?_:_', filterExpr, step, accu(h));
    const init = kind === 'list' ? list(h) : emptyMap(h);
    const cond = bool(h, true);
    return fold(h, target as Expr, vs[0], vs[1], h.accuName, init, cond, step, accu(h));
  };
}

/** cel-go ext.TwoVarComprehensions(). */
export const TWO_VAR_COMPREHENSION_MACROS: readonly Macro[] = [
  { name: 'all', argCount: 3, receiver: true, expand: quantifier2('all') },
  { name: 'exists', argCount: 3, receiver: true, expand: quantifier2('exists') },
  { name: 'existsOne', argCount: 3, receiver: true, expand: quantifier2('existsOne') },
  { name: 'exists_one', argCount: 3, receiver: true, expand: quantifier2('existsOne') },
  { name: 'transformList', argCount: 3, receiver: true, expand: transform('list') },
  { name: 'transformList', argCount: 4, receiver: true, expand: transform('list') },
  { name: 'transformMap', argCount: 3, receiver: true, expand: transform('map') },
  { name: 'transformMap', argCount: 4, receiver: true, expand: transform('map') },
  { name: 'transformMapEntry', argCount: 3, receiver: true, expand: transform('mapEntry') },
  { name: 'transformMapEntry', argCount: 4, receiver: true, expand: transform('mapEntry') },
];

// ---- optional macros (cel.OptionalTypes) -----------------------------------------------------

function optMacro(flat: boolean): Expander {
  const what = flat ? 'optFlatMap' : 'optMap';
  return (h, target, args) => {
    const v = args[0];
    if (v.kind !== 'ident') return new MacroError(v.id, `${what}() variable name must be a simple identifier`);
    const t = target as Expr;
    const test = member(h, 'hasValue', t);
    const range = list(h);
    const init = member(h, 'value', h.copy(t));
    const cond = bool(h, false);
    const step = ident(h, v.name);
    const bound = fold(h, range, UNUSED_ITER_VAR, undefined, v.name, init, cond, step, args[1]);
    const then = flat ? bound : call(h, 'optional.of', bound);
    return call(h, '_?_:_', test, then, call(h, 'optional.none'));
  };
}

/** optMap and optFlatMap (cel-go's optional library). */
export const OPTIONAL_MACROS: readonly Macro[] = [
  { name: 'optMap', argCount: 2, receiver: true, expand: optMacro(false) },
  { name: 'optFlatMap', argCount: 2, receiver: true, expand: optMacro(true) },
];

/**
 * The call a macro expansion replaced, as SourceInfo.macroCalls records it
 * (cel-go addMacroCall): id 0, arguments as written, except that nested
 * expansions become references — an ident with an empty name and the
 * nested expansion's id (cel-go's unspecified expression).
 */
export function macroCallOf(recorded: ReadonlyMap<number, Expr>, fn: string, target: Expr | undefined, args: Expr[]): Expr {
  const arg = (e: Expr): Expr => {
    if (recorded.has(e.id)) return { kind: 'ident', id: e.id, name: '' };
    if (e.kind === 'call') {
      const a = e.args.map(arg);
      if (!e.target) return { kind: 'call', id: e.id, fn: e.fn, args: a };
      return { kind: 'call', id: e.id, fn: e.fn, target: arg(e.target), args: a };
    }
    if (e.kind === 'list') return { kind: 'list', id: e.id, elements: e.elements.map(arg), optionalIndices: e.optionalIndices };
    return e;
  };
  const margs = args.map(arg);
  if (!target) return { kind: 'call', id: 0, fn, args: margs };
  return { kind: 'call', id: 0, fn, target: arg(target), args: margs };
}

/** A deep copy with ids from next(): the copy's id first, then its children's (cel-go exprHelper.Copy). */
export function copyExpr(e: Expr, newId: (orig: number) => number, entryId: () => number): Expr {
  const id = newId(e.id);
  const c = (x: Expr) => copyExpr(x, newId, entryId);
  switch (e.kind) {
    case 'const':
      return { kind: 'const', id, value: e.value };
    case 'ident':
      return { kind: 'ident', id, name: e.name };
    case 'select': {
      const s: Expr = { kind: 'select', id, operand: c(e.operand), field: e.field, testOnly: e.testOnly };
      if (e.optional) s.optional = true;
      return s;
    }
    case 'call': {
      const args = e.args.map(c);
      if (e.target === undefined) return { kind: 'call', id, fn: e.fn, args };
      return { kind: 'call', id, fn: e.fn, target: c(e.target), args };
    }
    case 'list':
      return { kind: 'list', id, elements: e.elements.map(c), optionalIndices: [...e.optionalIndices] };
    case 'map': {
      const entries: MapEntry[] = e.entries.map((en) => {
        const eid = entryId();
        return { id: eid, key: c(en.key), value: c(en.value), optional: en.optional };
      });
      return { kind: 'map', id, entries };
    }
    case 'struct': {
      const fields: StructField[] = e.fields.map((f) => {
        const fid = entryId();
        return { id: fid, name: f.name, value: c(f.value), optional: f.optional };
      });
      return { kind: 'struct', id, typeName: e.typeName, fields };
    }
    case 'comprehension': {
      const iterRange = c(e.iterRange);
      const accuInit = c(e.accuInit);
      const loopCondition = c(e.loopCondition);
      const loopStep = c(e.loopStep);
      const result = c(e.result);
      const out: ComprehensionExpr = {
        kind: 'comprehension', id, iterVar: e.iterVar, iterRange, accuVar: e.accuVar, accuInit, loopCondition, loopStep, result,
      };
      if (e.iterVar2 !== undefined) out.iterVar2 = e.iterVar2;
      return out;
    }
  }
}
