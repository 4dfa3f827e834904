// The libraries a CEL environment is built from: declarations (checker) and
// implementations (runtime) joined by cel-go's overload ids.

import type { Expr } from '../ast.js';
import type { Library } from '../decls.js';
import { MacroError, type Macro } from '../parser/index.js';
import { comprehensionsImpls } from '../ext/comprehensions_impls.js';
import { mapOf, typeParam } from '../types.js';
import { encodersFunctions } from '../ext/encoders_decls.js';
import { encodersImpls } from '../ext/encoders_impls.js';
import { mathFunctions } from '../ext/math_decls.js';
import { mathImpls } from '../ext/math_impls.js';
import { optionalFunctions, optionalTypeIdents } from '../ext/optional_decls.js';
import { optionalImpls } from '../ext/optional_impls.js';
import { stringsFunctions } from '../ext/strings_decls.js';
import { stringsImpls } from '../ext/strings_impls.js';
import { listsLibrary } from '../k8s/lib/lists.js';
import { regexLibrary } from '../k8s/lib/regex.js';
import { urlsLibrary } from '../k8s/lib/urls.js';
import { stdlibFunctions, stdlibTypeIdents } from './decls.js';
import { standardImpls } from './impls.js';

/** The standard library (always part of an environment). */
export const standardLibrary: Library = {
  name: 'std',
  functions: stdlibFunctions,
  impls: standardImpls,
  variables: stdlibTypeIdents,
};

/** cel-go ext.Strings. */
export const stringsLibrary: Library = { name: 'strings', functions: stringsFunctions, impls: stringsImpls };

/** cel-go ext.Math. */
export const mathLibrary: Library = { name: 'math', functions: mathFunctions, impls: mathImpls };

/** cel-go ext.Encoders. */
export const encodersLibrary: Library = { name: 'encoders', functions: encodersFunctions, impls: encodersImpls };

/** cel-go cel.OptionalTypes. */
export const optionalLibrary: Library = {
  name: 'optional',
  functions: optionalFunctions,
  impls: optionalImpls,
  variables: optionalTypeIdents,
};

/** The extension libraries by the name an environment asks for them:
 * cel-go's (`strings`, `math`, `encoders`, `optional`) and Kubernetes'
 * (`k8s.lists`, `k8s.regex`, `k8s.urls`). */
export const extensionLibraries: ReadonlyMap<string, Library> = new Map(
  [stringsLibrary, mathLibrary, encodersLibrary, optionalLibrary, listsLibrary, regexLibrary, urlsLibrary].map((l) => [
    l.name,
    l,
  ]),
);

// ---- math.greatest / math.least (cel-go ext.Math macros) -----------------------

/** A literal that is not a number, or a list/map/message literal. */
function nonNumericArg(a: Expr): boolean {
  if (a.kind === 'const') return a.value.type !== 'int' && a.value.type !== 'uint' && a.value.type !== 'double';
  return a.kind === 'list' || a.kind === 'map' || a.kind === 'struct';
}

function numericList(a: Expr): boolean {
  return a.kind === 'list' && a.elements.length > 0 && a.elements.every((e) => !nonNumericArg(e));
}

function extremum(name: 'greatest' | 'least', fn: string): Macro {
  const what = `math.${name}()`;
  return {
    name,
    argCount: -1,
    receiver: true,
    expand: (h, target, args) => {
      if (target?.kind !== 'ident' || target.name !== 'math') return null;
      const call = (...a: Expr[]): Expr => ({ kind: 'call', id: h.nextId(), fn, args: a });
      if (args.length === 0) return new MacroError(target.id, `${what} requires at least one argument`);
      if (args.length === 1) {
        if (numericList(args[0]) || !nonNumericArg(args[0])) return call(args[0]);
        return new MacroError(args[0].id, `${what} invalid single argument value`);
      }
      for (const a of args) {
        if (nonNumericArg(a)) return new MacroError(a.id, `${what} simple literal arguments must be numeric`);
      }
      if (args.length === 2) return call(...args);
      return call({ kind: 'list', id: h.nextId(), elements: args, optionalIndices: [] });
    },
  };
}

/** The macros of the math extension. */
export const mathMacros: readonly Macro[] = [extremum('greatest', 'math.@max'), extremum('least', 'math.@min')];

// ---- cel.@mapInsert (the two-variable comprehensions' map builder) -----------

const K = typeParam('K');
const V = typeParam('V');
const mapKV = mapOf(K, V);

/** cel-go ext.TwoVarComprehensions' runtime helper for transformMap and
 * transformMapEntry. */
export const comprehensionsLibrary: Library = {
  name: 'comprehensions',
  functions: [
    {
      name: 'cel.@mapInsert',
      overloads: [
        { id: '@mapInsert_map_key_value', params: [mapKV, K, V], result: mapKV, receiver: false, typeParams: ['K', 'V'] },
        { id: '@mapInsert_map_map', params: [mapKV, mapKV], result: mapKV, receiver: false, typeParams: ['K', 'V'] },
      ],
    },
  ],
  impls: comprehensionsImpls,
};

// ---- cel.block (cel-go's common-subexpression form, ext.Bindings) ------------

const celTarget = (t: Expr | undefined): boolean => t?.kind === 'ident' && t.name === 'cel';

function intArg(e: Expr): number | undefined {
  return e.kind === 'const' && e.value.type === 'int' ? Number(e.value.value) : undefined;
}

/** cel.block([e0, …, en], result): each slot is bound in order, so a slot
 * sees the earlier ones — expanded as nested cel.bind folds over `@index<i>`
 * (slots are evaluated when bound, cel-go evaluates them on first use: the
 * results agree unless an unused slot fails). cel.index(i), cel.iterVar(i, j)
 * and cel.accuVar(i, j) are the names cel-go's optimizer writes. */
export const blockMacros: readonly Macro[] = [
  {
    name: 'block',
    argCount: 2,
    receiver: true,
    expand: (h, target, args) => {
      if (!celTarget(target)) return null;
      const [slots, result] = args;
      if (slots.kind !== 'list') return new MacroError(slots.id, 'cel.block requires the list of slot expressions as its first argument');
      let body = result;
      for (let i = slots.elements.length - 1; i >= 0; i--) {
        const name = `@index${i}`;
        body = {
          kind: 'comprehension',
          id: h.nextId(),
          iterVar: '#unused',
          iterRange: { kind: 'list', id: h.nextId(), elements: [], optionalIndices: [] },
          accuVar: name,
          accuInit: slots.elements[i],
          loopCondition: { kind: 'const', id: h.nextId(), value: { type: 'bool', value: false } },
          loopStep: { kind: 'ident', id: h.nextId(), name },
          result: body,
        };
      }
      return body;
    },
  },
  {
    name: 'index',
    argCount: 1,
    receiver: true,
    expand: (h, target, args) => {
      if (!celTarget(target)) return null;
      const i = intArg(args[0]);
      if (i === undefined) return new MacroError(args[0].id, 'cel.index requires an int literal');
      return { kind: 'ident', id: h.nextId(), name: `@index${i}` };
    },
  },
  ...(['iterVar', 'accuVar'] as const).map(
    (name): Macro => ({
      name,
      argCount: 2,
      receiver: true,
      expand: (h, target, args) => {
        if (!celTarget(target)) return null;
        const i = intArg(args[0]);
        const j = intArg(args[1]);
        if (i === undefined || j === undefined) return new MacroError(args[0].id, `cel.${name} requires int literals`);
        return { kind: 'ident', id: h.nextId(), name: `@${name === 'iterVar' ? 'it' : 'ac'}:${i}:${j}` };
      },
    }),
  ),
];
