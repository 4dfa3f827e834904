// The math extension's macros (cel-go ext/math.go): `math.greatest(…)` and
// `math.least(…)` expand onto the internal functions `math.@max` and
// `math.@min` (declared in math_decls.ts): one numeric argument or a list
// literal of them is passed as is, two arguments as two, more as a list.
// Pass MATH_MACROS as the parser's extraMacros.

import type { Expr } from '../ast.js';
import { MacroError } from '../parser/index.js';
import type { Expander, Macro } from '../parser/index.js';

/** cel-go isNumericArgType: a numeric literal, or any non-literal that is not an aggregate. */
function numeric(e: Expr): boolean {
  switch (e.kind) {
    case 'const':
      return e.value.type === 'int' || e.value.type === 'uint' || e.value.type === 'double';
    case 'list':
    case 'map':
    case 'struct':
      return false;
    default:
      return true;
  }
}

const numericList = (e: Expr): boolean => e.kind === 'list' && e.elements.length > 0 && e.elements.every(numeric);

function extremum(name: string, fn: string): Expander {
  return (h, target, args) => {
    if (!target || target.kind !== 'ident' || target.name !== 'math') return null;
    if (args.length === 0) return new MacroError(target.id, `${name}() requires at least one argument`);
    if (args.length === 1) {
      if (numericList(args[0]!) || numeric(args[0]!)) return { kind: 'call', id: h.nextId(), fn, args };
      return new MacroError(args[0]!.id, `${name}() invalid single argument value`);
    }
    for (const a of args) {
      if (!numeric(a)) return new MacroError(a.id, `${name}() simple literal arguments must be numeric`);
    }
    if (args.length === 2) return { kind: 'call', id: h.nextId(), fn, args };
    const list: Expr = { kind: 'list', id: h.nextId(), elements: args, optionalIndices: [] };
    return { kind: 'call', id: h.nextId(), fn, args: [list] };
  };
}

export const MATH_MACROS: readonly Macro[] = [
  { name: 'greatest', argCount: -1, receiver: true, expand: extremum('math.greatest', 'math.@max') },
  { name: 'least', argCount: -1, receiver: true, expand: extremum('math.least', 'math.@min') },
];
