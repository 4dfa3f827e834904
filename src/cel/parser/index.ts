// The CEL parser (cel-go semantics): text → ParsedExpr (AST after macro
// expansion + SourceInfo) or issues with cel-go's messages and positions.
//
//   tokens.ts    token kinds (ANTLR's numbering and names for messages)
//   lexer.ts     tokens over char codes (ANTLR's lexical rules and errors)
//   parser.ts    recursive descent, ids in cel-go's order, error recovery
//   unescape.ts  string/bytes literal values
//   macros.ts    has/all/exists/…, cel.bind, two-variable folds, optMap
//   options.ts   options and cel-go's defaults
//   report.ts    the issues of a failed parse, in cel-go's order and limits
//
// `parsed` is present exactly when there are no issues.

import { parseWith, type ParseResult } from './parser.js';
import { resolveOptions, type ParseOptions } from './options.js';

export type { ParseResult } from './parser.js';
export type { ParseOptions } from './options.js';
export { ParseOptionError } from './options.js';
export {
  STANDARD_MACROS, BINDINGS_MACROS, TWO_VAR_COMPREHENSION_MACROS, OPTIONAL_MACROS, MacroError, macroKey,
  LEGACY_ACCU_VAR, UNUSED_ITER_VAR,
} from './macros.js';
export type { Macro, MacroHelper, Expander } from './macros.js';

/** Parses one CEL expression. Options objects are resolved once and cached: reuse them. */
export function parse(text: string, opts?: ParseOptions): ParseResult {
  return parseWith(text, resolveOptions(opts));
}
