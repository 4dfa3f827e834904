// The conformance harness of cel-go for the block extension
// (conformance/conformance_test.go celBlockLib): macros that spell an
// optimized expression in source form — `cel.block([slots], e)` →
// `cel.@block([slots], e)`, `cel.index(n)` → `@index<n>`,
// `cel.iterVar(d, u)` → `@it:<d>:<u>`, `cel.accuVar(d, u)` → `@ac:<d>:<u>` —
// and the `@index0`…`@index29` slot variables, typed dyn. Test support for
// the suites' block_ext section; not part of any environment Kubernetes has.

import type { Expr } from '../ast.js';
import { MacroError } from '../parser/index.js';
import type { Expander, Macro } from '../parser/index.js';
import type { Type } from '../types.js';
import { T } from '../types.js';

const isCel = (target: Expr | undefined): boolean => target?.kind === 'ident' && target.name === 'cel';

function nonNegativeInt(e: Expr): bigint | undefined {
  return e.kind === 'const' && e.value.type === 'int' && e.value.value >= 0n ? e.value.value : undefined;
}

const block: Expander = (h, target, args) => {
  if (!isCel(target)) return null;
  if (args[0]!.kind !== 'list') return new MacroError(args[0]!.id, 'cel.block requires the first arg to be a list literal');
  return { kind: 'call', id: h.nextId(), fn: 'cel.@block', args };
};

const index: Expander = (h, target, args) => {
  if (!isCel(target)) return null;
  const n = nonNegativeInt(args[0]!);
  if (n === undefined) return new MacroError(args[0]!.id, 'cel.index requires a single non-negative int constant arg');
  return { kind: 'ident', id: h.nextId(), name: `@index${n}` };
};

function comprehensionVar(fnName: string, prefix: string): Expander {
  return (h, target, args) => {
    if (!isCel(target)) return null;
    const depth = nonNegativeInt(args[0]!);
    if (depth === undefined) return new MacroError(args[0]!.id, `${fnName} requires two non-negative int constant args`);
    const unique = nonNegativeInt(args[1]!);
    if (unique === undefined) return new MacroError(args[1]!.id, `${fnName} requires two non-negative int constant args`);
    return { kind: 'ident', id: h.nextId(), name: `${prefix}:${depth}:${unique}` };
  };
}

export const BLOCK_HARNESS_MACROS: readonly Macro[] = [
  { name: 'block', argCount: 2, receiver: true, expand: block },
  { name: 'index', argCount: 1, receiver: true, expand: index },
  { name: 'iterVar', argCount: 2, receiver: true, expand: comprehensionVar('cel.iterVar', '@it') },
  { name: 'accuVar', argCount: 2, receiver: true, expand: comprehensionVar('cel.accuVar', '@ac') },
];

/** `@index0`…`@index29`, dyn, as the harness declares them. */
export const blockIndexVariables: [string, Type][] = Array.from({ length: 30 }, (_, i) => [`@index${i}`, T.dyn]);
