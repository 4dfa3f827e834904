// The issues of a failed parse, in cel-go's order and within its limits.
//
// cel-go's ANTLR lexer runs lazily: a token recognition error is reported
// when the parser first reads past it, interleaved with the parser's own
// syntax errors. After the reporting limit, "More than N syntax errors" ends
// the parse; an aborted parse (that limit, the recovery limits, the rule
// nesting limit) builds no AST, so the errors of that phase (reserved
// identifiers, literals, macros, unsupported syntax) do not appear.

import type { Issue } from '../issues.js';

export interface LexIssue {
  /** UTF-16 index of the bad text. */
  at: number;
  /** Code point offset of the bad text. */
  offset: number;
  text: string;
}

export interface ParseIssues {
  lexErrors: readonly LexIssue[];
  /** The parser's syntax and internal errors, in report order. */
  syntax: readonly Issue[];
  /** For each of `syntax`, how far the lexer had read (UTF-16) when it was reported. */
  syntaxTimes: readonly number[];
  /** Errors of the AST-building phase. */
  semantic: readonly Issue[];
  depthExceeded: boolean;
  aborted: boolean;
  /** How far the lexer got (UTF-16); lexer errors beyond were never seen. */
  readUpTo: number;
  reportingLimit: number;
}

export function lexIssue(e: LexIssue): Issue {
  return { message: `Syntax error: token recognition error at: '${e.text}'`, offset: e.offset, exprId: 0 };
}

export function assembleIssues(p: ParseIssues): Issue[] {
  type Timed = { issue: Issue; time: number; listener: boolean };
  const timed: Timed[] = [];
  for (const e of p.lexErrors) if (e.at < p.readUpTo) timed.push({ issue: lexIssue(e), time: e.at, listener: true });
  for (let k = 0; k < p.syntax.length; k++) {
    const issue = p.syntax[k];
    // Internal errors (limits) do not go through the error listener and are not counted.
    timed.push({ issue, time: p.syntaxTimes[k] + 0.5, listener: issue.message.startsWith('Syntax error:') });
  }
  if (p.lexErrors.length > 0) timed.sort((a, b) => a.time - b.time);
  let out = timed.map((t) => t.issue);
  let aborted = p.aborted;
  let count = 0;
  for (let k = 0; k < timed.length; k++) {
    if (!timed[k].listener) continue;
    if (++count > p.reportingLimit) {
      out = out.slice(0, k);
      out.push({ message: `Syntax error: More than ${p.reportingLimit} syntax errors`, offset: timed[k].issue.offset, exprId: 0 });
      aborted = true;
      break;
    }
  }
  if (aborted) return out;
  out = out.concat(p.semantic);
  if (p.depthExceeded) out.push({ message: 'max recursion depth exceeded', offset: -1, exprId: 0 });
  return out;
}
