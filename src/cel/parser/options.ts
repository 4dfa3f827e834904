// Parser options and cel-go's defaults (parser/options.go, parser.NewParser).

import {
  STANDARD_MACROS, BINDINGS_MACROS, TWO_VAR_COMPREHENSION_MACROS, OPTIONAL_MACROS, macroKey, LEGACY_ACCU_VAR,
} from './macros.js';
import { ACCU_VAR } from '../ast.js';
import type { Macro } from './macros.js';

export interface ParseOptions {
  /** The standard macros (has, all, exists, exists_one, existsOne, map, filter); default true. */
  macros?: boolean;
  /** cel.bind(v, init, expr) (cel-go ext.Bindings); default false. */
  bindings?: boolean;
  /** all/exists/existsOne/exists_one(k, v, p), transformList/Map/MapEntry (cel-go ext.TwoVarComprehensions); default false. */
  twoVarComprehensions?: boolean;
  /** optMap / optFlatMap (cel-go cel.OptionalTypes); default false. */
  optionalMacros?: boolean;
  /** More macros; a later macro with the same name, arity and style replaces an earlier one. */
  extraMacros?: readonly Macro[];
  /** a.?b, a[?b], [?x], {?k: v}, T{?f: v}; default false. */
  optionalSyntax?: boolean;
  /** a.`b-c`, T{`in`: 1}; default true (cel-go's parser default). */
  identEscapeSyntax?: boolean;
  /** Name the macros' accumulator `@result` (cel-go's default since v0.22); false gives `__result__` (older cel-go, Kubernetes 1.27). Default true. */
  hiddenAccumulatorName?: boolean;
  /** && and || as one call over every term instead of a balanced tree; default false. */
  variadicLogicalOperators?: boolean;
  /** Record each macro call as written in SourceInfo.macroCalls; default true. */
  populateMacroCalls?: boolean;
  /** Nesting limit (cel-go default 250); -1 for none. */
  maxRecursionDepth?: number;
  /** Syntax error recoveries before giving up (cel-go default 30); -1 for none. */
  errorRecoveryLimit?: number;
  /** Tokens one recovery may skip (cel-go default 256). */
  errorRecoveryLookaheadLimit?: number;
  /** Syntax errors reported before giving up (cel-go default 100). */
  errorReportingLimit?: number;
  /** Longest expression, in code points (cel-go default 100000); -1 for none. */
  expressionSizeCodePointLimit?: number;
}

export interface ResolvedOptions {
  macros: Map<string, Macro>;
  /** Names of the macros, to skip the lookup for ordinary calls. */
  macroNames: Set<string>;
  optionalSyntax: boolean;
  identEscapeSyntax: boolean;
  variadicLogicalOperators: boolean;
  accuName: string;
  populateMacroCalls: boolean;
  maxRecursionDepth: number;
  errorRecoveryLimit: number;
  errorRecoveryLookaheadLimit: number;
  errorReportingLimit: number;
  expressionSizeCodePointLimit: number;
}

export class ParseOptionError extends Error {}

function limit(name: string, v: number | undefined, dflt: number, min: number): number {
  if (v === undefined || v === 0) return dflt;
  if (!Number.isInteger(v) || v < min) {
    // cel-go's wording (parser/options.go).
    const bound = min === 1 ? 'at least 1' : `greater than or equal to ${min}`;
    throw new ParseOptionError(`${name} must be ${bound}: ${v}`);
  }
  return v === -1 ? Infinity : v;
}

const cache = new WeakMap<ParseOptions, ResolvedOptions>();
let defaults: ResolvedOptions | undefined;

export function resolveOptions(opts?: ParseOptions): ResolvedOptions {
  if (!opts) return (defaults ??= build({}));
  let r = cache.get(opts);
  if (!r) {
    r = build(opts);
    cache.set(opts, r);
  }
  return r;
}

function build(o: ParseOptions): ResolvedOptions {
  const macros = new Map<string, Macro>();
  const add = (list: readonly Macro[]) => {
    for (const m of list) macros.set(macroKey(m.name, m.argCount, m.receiver), m);
  };
  if (o.macros !== false) add(STANDARD_MACROS);
  if (o.bindings) add(BINDINGS_MACROS);
  if (o.twoVarComprehensions) add(TWO_VAR_COMPREHENSION_MACROS);
  if (o.optionalMacros) add(OPTIONAL_MACROS);
  if (o.extraMacros) add(o.extraMacros);
  return {
    macros,
    macroNames: new Set([...macros.values()].map((m) => m.name)),
    optionalSyntax: o.optionalSyntax ?? false,
    identEscapeSyntax: o.identEscapeSyntax ?? true,
    variadicLogicalOperators: o.variadicLogicalOperators ?? false,
    accuName: o.hiddenAccumulatorName === false ? LEGACY_ACCU_VAR : ACCU_VAR,
    populateMacroCalls: o.populateMacroCalls ?? true,
    maxRecursionDepth: limit('max recursion depth', o.maxRecursionDepth, 250, -1),
    errorRecoveryLimit: limit('error recovery limit', o.errorRecoveryLimit, 30, -1),
    errorRecoveryLookaheadLimit: limit('error recovery lookahead token limit', o.errorRecoveryLookaheadLimit, 256, 1),
    errorReportingLimit: limit('error reporting limit', o.errorReportingLimit, 100, 1),
    expressionSizeCodePointLimit: limit('expression size code point limit', o.expressionSizeCodePointLimit, 100_000, -1),
  };
}
