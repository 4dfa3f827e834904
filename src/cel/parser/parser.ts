// The CEL parser: recursive descent over the lexer's tokens, building the
// AST directly, with node ids allocated in the order cel-go's visitor
// allocates them (so debug strings with ids match cel-go's), macros expanded
// in place, and cel-go's errors.
//
//   expr     = or ('?' or ':' expr)?
//   or       = and ('||' and)*                 balanced tree (cel-go logicManager)
//   and      = relation ('&&' relation)*
//   relation = calc (('<'|'<='|'>='|'>'|'=='|'!='|'in') calc)*
//   calc     = unary (('*'|'/'|'%') unary)* with ('+'|'-') below
//   unary    = member | '!'+ member | '-'+ member
//   member   = primary ('.' id | '.' id '(' args ')' | '[' expr ']')*   (+ '.?', '[?')
//   primary  = '.'? id | '.'? id '(' args ')' | '(' expr ')' | '[' list ']'
//            | '{' map '}' | '.'? id ('.' id)* '{' fields '}' | literal
//
// Syntax errors follow ANTLR's default error strategy as cel-go uses it:
// "extraneous input" when dropping one token resynchronises, "mismatched
// input … expecting …" otherwise (then tokens are skipped up to one that
// can follow), reports suppressed until a token is matched again, and the
// recovery, lookahead and reporting limits. Two depth limits, as in cel-go:
// nesting of grammar rules ("expression recursion limit exceeded: N") and
// nesting of operators/selections in the tree ("max recursion depth exceeded").

import type { Expr, ListExpr, MapEntry, StructField, SourceInfo, ParsedExpr } from '../ast.js';
import { lineOffsetsOf, hasSurrogates, codePointMapper, type Issue } from '../issues.js';
import { assembleIssues, type LexIssue } from './report.js';
import { lex } from './lexer.js';
import { T, expectingText, startsUnary, startsPrimary, UNARY_START } from './tokens.js';
import { unescapeString, unescapeBytes, UnescapeError } from './unescape.js';
import { MacroError, macroKey, copyExpr, macroCallOf, type Macro, type MacroHelper } from './macros.js';
import type { ResolvedOptions } from './options.js';

/** Identifiers the grammar accepts but cel-go rejects. */
const RESERVED = new Set([
  'as', 'break', 'const', 'continue', 'else', 'false', 'for', 'function', 'if', 'import', 'in', 'let',
  'loop', 'package', 'namespace', 'null', 'return', 'true', 'var', 'void', 'while',
]);

const LIST_START: readonly T[] = [...UNARY_START, T.RBRACKET, T.COMMA, T.QUESTIONMARK];
const MAP_START: readonly T[] = [...UNARY_START, T.RBRACE, T.COMMA, T.QUESTIONMARK];
const FIELDS_START: readonly T[] = [T.RBRACE, T.COMMA, T.QUESTIONMARK, T.IDENTIFIER, T.ESC_IDENTIFIER];
const ARGS_START: readonly T[] = [...UNARY_START, T.RPAREN];
const FIELD_NAME: readonly T[] = [T.IDENTIFIER, T.ESC_IDENTIFIER];

const RELATION_OPS: Record<number, string> = {
  [T.LESS]: '_<_', [T.LESS_EQUALS]: '_<=_', [T.GREATER_EQUALS]: '_>=_', [T.GREATER]: '_>_',
  [T.EQUALS]: '_==_', [T.NOT_EQUALS]: '_!=_', [T.IN]: '@in',
};

// Tokens that can follow a complete operand anywhere: where recovery stops.
const FOLLOW_ANY: readonly T[] = [
  T.EQUALS, T.NOT_EQUALS, T.IN, T.LESS, T.LESS_EQUALS, T.GREATER_EQUALS, T.GREATER, T.LOGICAL_AND,
  T.LOGICAL_OR, T.MINUS, T.QUESTIONMARK, T.PLUS, T.STAR, T.SLASH, T.PERCENT, T.DOT, T.LBRACKET,
];

/** Parse aborted (limits); the issues so far stand. */
class Abort {}
const ABORT = new Abort();

const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;
const UINT64_MAX = (1n << 64n) - 1n;

export interface ParseResult {
  parsed?: ParsedExpr;
  issues: Issue[];
}

export function parseWith(text: string, o: ResolvedOptions): ParseResult {
  if (text.length > o.expressionSizeCodePointLimit) {
    const size = Array.from(text).length;
    if (size > o.expressionSizeCodePointLimit) {
      return {
        issues: [{
          message: `expression code point size exceeds limit: size: ${size}, limit ${o.expressionSizeCodePointLimit}`,
          offset: -1,
          exprId: 0,
        }],
      };
    }
  }
  return new Parser(text, o).run();
}

class Parser implements MacroHelper {
  private readonly kinds: T[];
  private readonly starts: number[];
  private readonly ends: number[];
  /** Code point offsets of tokens, when the text has surrogate pairs. */
  private readonly cps: number[] | undefined;
  private readonly eofOffset: number;
  private pos = 0;

  private nextIdValue = 1;
  /** Node id → code point offset (-1: none); SourceInfo's Map is built from it on first use. */
  private readonly positions: number[] = [];
  private readonly macroCalls = new Map<number, Expr>();
  /** Syntax errors and internal errors (the ANTLR phase). */
  private readonly issues: Issue[] = [];
  /** For each of `issues`, how far the lexer had read (UTF-16) when it was reported. */
  private readonly issueTimes: number[] = [];
  /** Errors found while building the AST (cel-go's visitor phase; dropped when the parse aborts). */
  private readonly semantic: Issue[] = [];
  /** Lexer errors, reported as far as the parser has read (ANTLR lexes lazily). */
  private readonly lexErrors: LexIssue[] = [];
  /** The furthest token index the parser has looked at. */
  private seen = 0;

  // Error strategy state.
  private errorMode = false;
  private recoveries = 0;
  // How many enclosing constructs each closing token would end (part of the recovery set).
  private fParen = 0;
  private fBracket = 0;
  private fBrace = 0;
  private fComma = 0;
  private fColon = 0;

  // Depth limits: rule nesting (expr, relation, calc) and the tree's operator depth.
  private exprDepth = 0;
  private relDepth = 0;
  private calcDepth = 0;
  /** Operator depth of the expression last returned (cel-go's visitor recursion). */
  private vd = 0;
  private depthExceeded = false;

  /** Position of the macro call being expanded. */
  private macroOffset = 0;

  constructor(
    private readonly text: string,
    private readonly o: ResolvedOptions,
  ) {
    const toks = lex(text);
    this.kinds = toks.kinds;
    this.starts = toks.starts;
    this.ends = toks.ends;
    if (hasSurrogates(text)) {
      const map = codePointMapper(text);
      this.cps = toks.starts.map((s) => map(s));
      this.eofOffset = map(text.length);
      for (const e of toks.errors) this.lexErrors.push({ at: e.start, offset: map(e.start), text: e.text });
    } else {
      this.eofOffset = text.length;
      for (const e of toks.errors) this.lexErrors.push({ at: e.start, offset: e.start, text: e.text });
    }
  }

  run(): ParseResult {
    let expr: Expr | undefined;
    let aborted = false;
    try {
      expr = this.parseExpr();
      if (this.kinds.length > this.pos) this.matchEnd();
    } catch (e) {
      if (e instanceof RangeError && /call stack/i.test(e.message)) {
        // Only reachable with the recursion limit off: JavaScript's stack is the limit then.
        this.pushIssue({ message: 'max recursion depth exceeded', offset: -1, exprId: 0 });
      } else if (!(e instanceof Abort)) throw e;
      aborted = true;
    }
    if (!aborted && expr && this.issues.length === 0 && this.lexErrors.length === 0 && this.semantic.length === 0 && !this.depthExceeded) {
      const sourceInfo = new LazySourceInfo(this.text, this.cps !== undefined, this.positions, this.macroCalls);
      return { parsed: { expr, sourceInfo }, issues: [] };
    }
    return { issues: this.report(aborted) };
  }

  /** The issues of a failed parse. */
  private report(aborted: boolean): Issue[] {
    return assembleIssues({
      lexErrors: this.lexErrors,
      syntax: this.issues,
      syntaxTimes: this.issueTimes,
      semantic: this.semantic,
      depthExceeded: this.depthExceeded,
      aborted,
      readUpTo: aborted ? this.readUpTo() : this.text.length + 1,
      reportingLimit: this.o.errorReportingLimit,
    });
  }

  private pushIssue(issue: Issue): void {
    this.issues.push(issue);
    this.issueTimes.push(this.readUpTo());
  }

  /** UTF-16 index up to which the lexer has produced tokens for the parser. */
  private readUpTo(): number {
    return this.seen < this.kinds.length ? this.starts[this.seen] : this.text.length;
  }

  // ---- tokens ------------------------------------------------------------------------------

  private la(k = 0): T {
    const i = this.pos + k;
    if (i > this.seen) this.seen = i;
    return i < this.kinds.length ? this.kinds[i] : T.EOF;
  }
  private offset(i = this.pos): number {
    if (i >= this.kinds.length) return this.eofOffset;
    return this.cps ? this.cps[i] : this.starts[i];
  }
  private tokenText(i = this.pos): string {
    if (i >= this.kinds.length) return '<EOF>';
    return this.text.slice(this.starts[i], this.ends[i]);
  }
  /** A successful match: leaves error recovery mode. */
  private consume(): void {
    this.pos++;
    this.errorMode = false;
  }

  // ---- ids and errors ----------------------------------------------------------------------

  private newId(offset: number): number {
    const id = this.nextIdValue++;
    this.positions[id] = offset;
    return id;
  }
  private positionOf(id: number, otherwise: number): number {
    const p = this.positions[id];
    return p === undefined || p < 0 ? otherwise : p;
  }
  private deleteId(id: number): void {
    this.positions[id] = -1;
    if (id === this.nextIdValue - 1) this.nextIdValue--;
  }
  get accuName(): string {
    return this.o.accuName;
  }
  nextId(): number {
    return this.newId(this.macroOffset);
  }
  copy(e: Expr): Expr {
    return copyExpr(e, (orig) => this.newId(this.positionOf(orig, 0)), () => this.nextId());
  }

  /** A semantic error at an offset; returns a placeholder node. */
  private errorAt(offset: number, message: string): Expr {
    const id = this.newId(offset);
    this.semantic.push({ message, offset, exprId: id });
    return { kind: 'const', id, value: { type: 'null' } };
  }

  /** A syntax error from the error strategy: not reported again until a token is matched. */
  private syntaxError(offset: number, message: string): void {
    if (this.errorMode) return;
    this.errorMode = true;
    this.pushIssue({ message: 'Syntax error: ' + message, offset, exprId: 0 });
  }

  private countRecovery(): void {
    if (this.recoveries === this.o.errorRecoveryLimit) {
      this.recoveries++;
      const msg = `error recovery attempt limit exceeded: ${this.o.errorRecoveryLimit}`;
      this.pushIssue({ message: 'Syntax error: ' + msg, offset: this.offset(), exprId: 0 });
      throw ABORT;
    }
    this.recoveries++;
  }

  private inFollow(k: T): boolean {
    if (k === T.EOF) return true;
    switch (k) {
      case T.RPAREN: if (this.fParen > 0) return true; break;
      case T.RBRACKET: if (this.fBracket > 0) return true; break;
      case T.RBRACE: if (this.fBrace > 0) return true; break;
      case T.COMMA: if (this.fComma > 0) return true; break;
      case T.COLON: if (this.fColon > 0) return true; break;
    }
    return FOLLOW_ANY.includes(k);
  }

  /** ANTLR recover(): skip tokens until one that can follow. */
  private recover(): void {
    this.countRecovery();
    let skipped = 0;
    while (!this.inFollow(this.la())) {
      if (++skipped > this.o.errorRecoveryLookaheadLimit) this.lookaheadExceeded();
      this.pos++;
    }
  }

  /** Reports an unexpected token where `expected` was wanted, then recovers; returns a placeholder. */
  private mismatch(expected: readonly T[]): Expr {
    this.syntaxError(this.offset(), `mismatched input '${this.tokenText()}' expecting ${expectingText(expected)}`);
    const at = this.offset();
    this.recover();
    return { kind: 'const', id: this.newId(at), value: { type: 'null' } };
  }

  /**
   * ANTLR sync() before an optional part: when the token is not in `expected`
   * but the next one is, report the extraneous token and drop it. Returns
   * false when neither fits (the caller reports the mismatch).
   */
  private sync(expected: readonly T[]): boolean {
    const k = this.la();
    if (expected.includes(k)) return true;
    if (k !== T.EOF && expected.includes(this.la(1))) {
      this.syntaxError(this.offset(), `extraneous input '${this.tokenText()}' expecting ${expectingText(expected)}`);
      this.pos++;
      this.errorMode = false;
      return true;
    }
    return false;
  }

  /** ANTLR match(): the token, or single-token deletion / insertion, or a mismatch. */
  private match(kind: T): boolean {
    if (this.la() === kind) {
      this.consume();
      return true;
    }
    this.countRecovery();
    if (this.la() !== T.EOF && this.la(1) === kind) {
      this.syntaxError(this.offset(), `extraneous input '${this.tokenText()}' expecting ${expectingText([kind])}`);
      this.pos++;
      this.consume();
      return true;
    }
    if (this.canFollow(kind, this.la())) {
      this.syntaxError(this.offset(), `missing ${expectingText([kind])} at '${this.tokenText()}'`);
      return true;
    }
    this.syntaxError(this.offset(), `mismatched input '${this.tokenText()}' expecting ${expectingText([kind])}`);
    this.recoverInRule();
    return false;
  }

  /** Recovery after a failed match (the rule's catch): skip to a token that can follow. */
  private recoverInRule(): void {
    this.countRecovery();
    let skipped = 0;
    while (!this.inFollow(this.la())) {
      if (++skipped > this.o.errorRecoveryLookaheadLimit) this.lookaheadExceeded();
      this.pos++;
    }
  }

  /** Whether `next` could come right after a missing `kind` (single-token insertion). */
  private canFollow(kind: T, next: T): boolean {
    switch (kind) {
      case T.RPAREN: case T.RBRACKET: case T.RBRACE:
        return next === T.EOF || FOLLOW_ANY.includes(next) || next === T.RPAREN || next === T.RBRACKET
          || next === T.RBRACE || next === T.COMMA || next === T.COLON;
      case T.COLON:
        return startsUnary(next);
      default:
        return false;
    }
  }

  private matchEnd(): void {
    const k = this.la(1);
    if (k === T.EOF) {
      this.syntaxError(this.offset(), `extraneous input '${this.tokenText()}' expecting <EOF>`);
      return;
    }
    this.countRecovery();
    this.syntaxError(this.offset(), `mismatched input '${this.tokenText()}' expecting <EOF>`);
    this.countRecovery();
    let skipped = 0;
    while (this.pos < this.kinds.length) {
      if (++skipped > this.o.errorRecoveryLookaheadLimit) this.lookaheadExceeded();
      this.pos++;
      if (this.pos > this.seen) this.seen = this.pos;
    }
  }

  private lookaheadExceeded(): never {
    this.pushIssue({
      message: `error recovery token lookahead limit exceeded: ${this.o.errorRecoveryLookaheadLimit}`,
      offset: -1,
      exprId: 0,
    });
    throw ABORT;
  }

  private depthCheck(d: number): void {
    if (d > this.o.maxRecursionDepth) this.depthExceeded = true;
  }
  private ruleDepthExceeded(): never {
    this.pushIssue({
      message: `expression recursion limit exceeded: ${this.o.maxRecursionDepth}`,
      offset: -1,
      exprId: 0,
    });
    throw ABORT;
  }

  // ---- macros ------------------------------------------------------------------------------

  private callOrMacro(id: number, fn: string, target: Expr | undefined, args: Expr[]): Expr {
    const ms = this.o.macros;
    if (this.o.macroNames.has(fn)) {
      const m: Macro | undefined = ms.get(macroKey(fn, args.length, target !== undefined)) ?? ms.get(macroKey(fn, -1, target !== undefined));
      if (m) {
        const saved = this.macroOffset;
        this.macroOffset = this.positionOf(id, 0);
        const out = m.expand(this, target, args);
        this.macroOffset = saved;
        if (out instanceof MacroError) {
          const at = this.positionOf(out.exprId, this.positionOf(id, -1));
          this.deleteId(id);
          return this.errorAt(at, out.message);
        }
        if (out) {
          if (this.o.populateMacroCalls) this.macroCalls.set(out.id, macroCallOf(this.macroCalls, fn, target, args));
          this.deleteId(id);
          return out;
        }
      }
    }
    if (target) return { kind: 'call', id, fn, target, args };
    return { kind: 'call', id, fn, args };
  }

  // ---- grammar -----------------------------------------------------------------------------

  private parseExpr(): Expr {
    if (++this.exprDepth > this.o.maxRecursionDepth) this.ruleDepthExceeded();
    const cond = this.parseOr();
    if (this.la() !== T.QUESTIONMARK) {
      this.exprDepth--;
      return cond;
    }
    let vd = this.vd;
    const opOffset = this.offset();
    this.consume();
    const opId = this.newId(opOffset);
    this.fColon++;
    const e1 = this.parseOr();
    this.fColon--;
    if (this.vd > vd) vd = this.vd;
    if (!this.match(T.COLON)) {
      this.exprDepth--;
      return cond;
    }
    const e2 = this.parseExpr();
    if (this.vd > vd) vd = this.vd;
    const out = this.callOrMacro(opId, '_?_:_', undefined, [cond, e1, e2]);
    this.vd = vd + 1;
    this.depthCheck(this.vd);
    this.exprDepth--;
    return out;
  }

  private parseOr(): Expr {
    const first = this.parseAnd();
    if (this.la() !== T.LOGICAL_OR) return first;
    return this.logical(first, T.LOGICAL_OR, '_||_');
  }

  private parseAnd(): Expr {
    const first = this.parseRelation();
    if (this.la() !== T.LOGICAL_AND) return first;
    return this.logical(first, T.LOGICAL_AND, '_&&_');
  }

  private logical(first: Expr, op: T, fn: string): Expr {
    const terms = [first];
    const ops: number[] = [];
    let vd = this.vd;
    while (this.la() === op) {
      const opOffset = this.offset();
      this.consume();
      const next = op === T.LOGICAL_OR ? this.parseAnd() : this.parseRelation();
      if (this.vd > vd) vd = this.vd;
      ops.push(this.newId(opOffset));
      terms.push(next);
    }
    this.vd = vd;
    if (this.o.variadicLogicalOperators) return { kind: 'call', id: ops[0], fn, args: terms };
    return balanced(fn, terms, ops, 0, ops.length - 1);
  }

  private parseRelation(): Expr {
    if (++this.relDepth > this.o.maxRecursionDepth) this.ruleDepthExceeded();
    let lhs = this.parseCalc(0);
    let fn: string | undefined;
    while ((fn = RELATION_OPS[this.la()]) !== undefined) {
      const lvd = this.vd;
      const opOffset = this.offset();
      this.consume();
      const opId = this.newId(opOffset);
      if (++this.relDepth > this.o.maxRecursionDepth) this.ruleDepthExceeded();
      const rhs = this.parseCalc(0);
      this.relDepth--;
      const vd = (lvd > this.vd ? lvd : this.vd) + 1;
      lhs = this.callOrMacro(opId, fn, undefined, [lhs, rhs]);
      this.vd = vd;
      this.depthCheck(vd);
    }
    this.relDepth--;
    return lhs;
  }

  /** ANTLR's precedence climbing for calc: p is 0 (all), 2 (multiplicative only) or 3 (none). */
  private parseCalc(p: number): Expr {
    if (++this.calcDepth > this.o.maxRecursionDepth) this.ruleDepthExceeded();
    let lhs = this.parseUnary();
    for (;;) {
      const k = this.la();
      let fn: string;
      let rhsPrec: number;
      if ((k === T.STAR || k === T.SLASH || k === T.PERCENT) && p <= 2) {
        fn = k === T.STAR ? '_*_' : k === T.SLASH ? '_/_' : '_%_';
        rhsPrec = 3;
      } else if ((k === T.PLUS || k === T.MINUS) && p <= 1) {
        fn = k === T.PLUS ? '_+_' : '_-_';
        rhsPrec = 2;
      } else break;
      const lvd = this.vd;
      const opOffset = this.offset();
      this.consume();
      const opId = this.newId(opOffset);
      const rhs = this.parseCalc(rhsPrec);
      const vd = (lvd > this.vd ? lvd : this.vd) + 1;
      lhs = this.callOrMacro(opId, fn, undefined, [lhs, rhs]);
      this.vd = vd;
      this.depthCheck(vd);
    }
    this.calcDepth--;
    return lhs;
  }

  private parseUnary(): Expr {
    const k = this.la();
    if (k === T.EXCLAM || (k === T.MINUS && this.la(1) !== T.NUM_INT && this.la(1) !== T.NUM_FLOAT)) {
      const opOffset = this.offset();
      let count = 0;
      while (this.la() === k) {
        // ANTLR's prediction for `-`: another `-` or a primary must follow, else
        // "no viable alternative"; the input stays at this `-`, which the
        // caller then reads as a binary minus.
        if (k === T.MINUS && !startsPrimary(this.la(1))) {
          this.noViable(this.pos, this.pos + 1);
          const at = this.offset();
          this.recover();
          this.vd = 0;
          return { kind: 'const', id: this.newId(at), value: { type: 'null' } };
        }
        this.consume();
        count++;
      }
      if (count % 2 === 0) return this.parseMember();
      const opId = this.newId(opOffset);
      const operand = this.parseMember();
      const vd = this.vd;
      const out = this.callOrMacro(opId, k === T.EXCLAM ? '!_' : '-_', undefined, [operand]);
      this.vd = vd;
      return out;
    }
    if (!startsUnary(k) && !this.sync(UNARY_START)) {
      this.vd = 0;
      return this.mismatch(UNARY_START);
    }
    return this.parseMember();
  }

  private parseMember(): Expr {
    let e = this.parsePrimary();
    for (;;) {
      const k = this.la();
      if (k === T.DOT) {
        const opOffset = this.offset();
        let k2 = this.la(1);
        let optional = false;
        if (k2 === T.QUESTIONMARK) {
          optional = true;
          k2 = this.la(2);
        }
        if (k2 === T.IDENTIFIER && !optional && this.la(2) === T.LPAREN) {
          // Receiver call a.f(args).
          const name = this.tokenText(this.pos + 1);
          this.consume();
          this.consume();
          const parenOffset = this.offset();
          this.consume();
          const lvd = this.vd;
          const opId = this.newId(parenOffset);
          const args = this.parseArgs();
          const vd = (lvd > this.vd ? lvd : this.vd) + 1;
          e = this.callOrMacro(opId, name, e, args);
          this.vd = vd;
          this.depthCheck(vd);
          continue;
        }
        if (k2 === T.IDENTIFIER || k2 === T.ESC_IDENTIFIER) {
          this.consume();
          if (optional) this.consume();
          const nameIndex = this.pos;
          const field = this.fieldName(nameIndex, -1);
          this.consume();
          const vd = this.vd + 1;
          if (optional) {
            if (!this.o.optionalSyntax) {
              e = this.errorAt(opOffset, "unsupported syntax '.?'");
            } else {
              const lit: Expr = { kind: 'const', id: this.newId(this.offset(nameIndex)), value: { type: 'string', value: field } };
              e = { kind: 'call', id: this.newId(opOffset), fn: '_?._', args: [e, lit] };
            }
          } else {
            e = { kind: 'select', id: this.newId(opOffset), operand: e, field, testOnly: false };
          }
          this.vd = vd;
          this.depthCheck(vd);
          continue;
        }
        // No alternative fits after '.' (ANTLR "no viable alternative").
        this.noViable(this.pos, this.pos + (optional ? 2 : 1));
        this.recover();
        return e;
      }
      if (k === T.LBRACKET) {
        const opOffset = this.offset();
        this.consume();
        let optional = false;
        if (this.la() === T.QUESTIONMARK) {
          optional = true;
          this.consume();
        }
        const lvd = this.vd;
        const opId = this.newId(opOffset);
        this.fBracket++;
        const index = this.parseExpr();
        this.fBracket--;
        const vd = (lvd > this.vd ? lvd : this.vd) + 1;
        this.match(T.RBRACKET);
        if (optional && !this.o.optionalSyntax) {
          e = this.errorAt(opOffset, "unsupported syntax '[?'");
        } else {
          e = this.callOrMacro(opId, optional ? '_[?_]' : '_[_]', undefined, [e, index]);
        }
        this.vd = vd;
        this.depthCheck(vd);
        continue;
      }
      return e;
    }
  }

  /** "no viable alternative at input '…'" from token `from` through `bad`, at `bad`. */
  private noViable(from: number, bad: number): void {
    let input = '';
    for (let i = from; i <= bad && i < this.kinds.length; i++) input += this.tokenText(i);
    let msg = `no viable alternative at input '${input}'`;
    const m = /^no viable alternative at input '\.(true|false|null)'$/.exec(msg);
    if (m) msg = `mismatched input '${m[1]}' expecting IDENTIFIER`;
    this.syntaxError(this.offset(bad), msg);
  }

  /** A field name token (identifier or escaped identifier); reports escapes when disabled. */
  private fieldName(index: number, errorOffset: number): string {
    const raw = this.tokenText(index);
    if (this.kinds[index] !== T.ESC_IDENTIFIER) return raw;
    if (!this.o.identEscapeSyntax) {
      this.errorAt(errorOffset >= 0 ? errorOffset : this.offset(index), "unsupported syntax: '`'");
    }
    return raw.slice(1, -1);
  }

  /** Arguments after '(' through ')'. */
  private parseArgs(): Expr[] {
    const args: Expr[] = [];
    let vd = 0;
    if (this.la() !== T.RPAREN) {
      if (!startsUnary(this.la()) && !this.sync(ARGS_START)) {
        this.mismatch(ARGS_START);
        this.vd = 0;
        if (this.la() === T.RPAREN) this.consume();
        return args;
      }
      this.fParen++;
      this.fComma++;
      if (this.la() !== T.RPAREN) {
        for (;;) {
          args.push(this.parseExpr());
          if (this.vd > vd) vd = this.vd;
          if (this.la() !== T.COMMA) break;
          this.consume();
        }
      }
      this.fParen--;
      this.fComma--;
    }
    this.match(T.RPAREN);
    this.vd = vd;
    return args;
  }

  private parsePrimary(): Expr {
    const k = this.la();
    switch (k) {
      case T.IDENTIFIER:
        return this.parseIdentish(false);
      case T.DOT:
        if (this.la(1) === T.IDENTIFIER) return this.parseIdentish(true);
        this.noViable(this.pos, this.pos + 1);
        this.vd = 0;
        return this.recoverQuiet();
      case T.LPAREN: {
        this.consume();
        this.fParen++;
        const e = this.parseExpr();
        this.fParen--;
        const vd = this.vd;
        this.match(T.RPAREN);
        this.vd = vd;
        return e;
      }
      case T.LBRACKET:
        return this.parseList();
      case T.LBRACE:
        return this.parseMap();
      default:
        this.vd = 0;
        return this.parseLiteral();
    }
  }

  private recoverQuiet(): Expr {
    const at = this.offset();
    this.recover();
    return { kind: 'const', id: this.newId(at), value: { type: 'null' } };
  }

  /** '.'? IDENT, '.'? IDENT '(' args ')', or '.'? IDENT ('.' IDENT)* '{' fields '}'. */
  private parseIdentish(leadingDot: boolean): Expr {
    const startOffset = this.offset();
    const identIndex = this.pos + (leadingDot ? 1 : 0);
    // Message construction: a qualified name followed by '{'.
    let j = identIndex + 1;
    while (this.kinds[j] === T.DOT && this.kinds[j + 1] === T.IDENTIFIER) j += 2;
    if (this.kinds[j] === T.LBRACE) return this.parseMessage(leadingDot, identIndex, j);
    const name = this.tokenText(identIndex);
    this.pos = identIndex;
    this.consume();
    if (this.la() === T.LPAREN) {
      const parenOffset = this.offset();
      this.consume();
      if (RESERVED.has(name)) {
        this.parseArgs();
        this.vd = 0;
        return this.errorAt(startOffset, `reserved identifier: ${name}`);
      }
      const opId = this.newId(parenOffset);
      const args = this.parseArgs();
      const vd = this.vd;
      const out = this.callOrMacro(opId, leadingDot ? '.' + name : name, undefined, args);
      this.vd = vd;
      return out;
    }
    this.vd = 0;
    if (RESERVED.has(name)) return this.errorAt(startOffset, `reserved identifier: ${name}`);
    return { kind: 'ident', id: this.newId(this.offset(identIndex)), name: leadingDot ? '.' + name : name };
  }

  private parseMessage(leadingDot: boolean, first: number, brace: number): Expr {
    let typeName = '';
    for (let i = first; i < brace; i += 2) typeName += (i > first ? '.' : '') + this.tokenText(i);
    if (leadingDot) typeName = '.' + typeName;
    this.pos = brace;
    const braceOffset = this.offset();
    this.consume();
    const id = this.newId(braceOffset);
    const fields: StructField[] = [];
    let vd = 0;
    let ok = true;
    const listStart = this.offset();
    if (this.la() !== T.RBRACE && !this.sync(FIELDS_START)) {
      this.mismatch(FIELDS_START);
      ok = false;
    }
    this.fBrace++;
    this.fComma++;
    while (ok && this.la() !== T.RBRACE && this.la() !== T.COMMA) {
      const fieldStart = this.offset();
      let optional = false;
      if (this.la() === T.QUESTIONMARK) {
        optional = true;
        this.consume();
      }
      const nk = this.la();
      let nameIndex = -1;
      if (nk === T.IDENTIFIER || nk === T.ESC_IDENTIFIER) {
        nameIndex = this.pos;
        this.consume();
      } else {
        this.mismatch(FIELD_NAME);
      }
      const colonOffset = this.offset();
      this.fColon++;
      const matched = this.match(T.COLON);
      this.fColon--;
      if (!matched) break;
      const fid = this.newId(colonOffset);
      const mark = this.semantic.length;
      const name = nameIndex >= 0 ? this.fieldName(nameIndex, listStart) : '';
      const value = this.parseExpr();
      if (optional && !this.o.optionalSyntax) {
        // cel-go skips the whole field: nothing inside it is reported.
        this.semantic.length = mark;
        this.errorAt(fieldStart, "unsupported syntax '?'");
      }
      if (this.vd > vd) vd = this.vd;
      fields.push({ id: fid, name, value, optional });
      if (this.la() !== T.COMMA) break;
      if (this.la(1) === T.RBRACE) break;
      this.consume();
    }
    this.fBrace--;
    this.fComma--;
    if (this.la() === T.COMMA) this.consume();
    this.match(T.RBRACE);
    this.vd = vd;
    return { kind: 'struct', id, typeName, fields };
  }

  private parseList(): Expr {
    const open = this.offset();
    this.consume();
    const id = this.newId(open);
    const list: ListExpr = { kind: 'list', id, elements: [], optionalIndices: [] };
    let vd = 0;
    if (this.la() !== T.RBRACKET && !startsUnary(this.la()) && !this.sync(LIST_START)) {
      this.mismatch(LIST_START);
    } else {
      this.fBracket++;
      this.fComma++;
      while (this.la() !== T.RBRACKET && this.la() !== T.COMMA) {
        let optOffset = -1;
        if (this.la() === T.QUESTIONMARK) {
          optOffset = this.offset();
          this.consume();
        }
        const e = this.parseExpr();
        if (this.vd > vd) vd = this.vd;
        if (optOffset >= 0) {
          if (!this.o.optionalSyntax) this.errorAt(optOffset, "unsupported syntax '?'");
          else list.optionalIndices.push(list.elements.length);
        }
        list.elements.push(e);
        if (this.la() !== T.COMMA || this.la(1) === T.RBRACKET) break;
        this.consume();
      }
      this.fBracket--;
      this.fComma--;
      if (this.la() === T.COMMA) this.consume();
    }
    this.match(T.RBRACKET);
    this.vd = vd;
    return list;
  }

  private parseMap(): Expr {
    const open = this.offset();
    this.consume();
    const id = this.newId(open);
    const entries: MapEntry[] = [];
    let vd = 0;
    if (this.la() !== T.RBRACE && !startsUnary(this.la()) && !this.sync(MAP_START)) {
      this.mismatch(MAP_START);
    } else {
      this.fBrace++;
      this.fComma++;
      while (this.la() !== T.RBRACE && this.la() !== T.COMMA) {
        let optOffset = -1;
        if (this.la() === T.QUESTIONMARK) {
          optOffset = this.offset();
          this.consume();
        }
        // cel-go allocates the entry's id (at its ':') before visiting the key.
        const entryId = this.newId(0);
        const mark = this.semantic.length;
        this.fColon++;
        const key = this.parseExpr();
        this.fColon--;
        if (this.vd > vd) vd = this.vd;
        this.positions[entryId] = this.offset();
        if (!this.match(T.COLON)) break;
        const value = this.parseExpr();
        if (this.vd > vd) vd = this.vd;
        if (optOffset >= 0 && !this.o.optionalSyntax) {
          // cel-go skips the whole entry: nothing inside it is reported.
          this.semantic.length = mark;
          this.errorAt(optOffset, "unsupported syntax '?'");
        }
        entries.push({ id: entryId, key, value, optional: optOffset >= 0 });
        if (this.la() !== T.COMMA || this.la(1) === T.RBRACE) break;
        this.consume();
      }
      this.fBrace--;
      this.fComma--;
      if (this.la() === T.COMMA) this.consume();
    }
    this.match(T.RBRACE);
    this.vd = vd;
    return { kind: 'map', id, entries };
  }

  private parseLiteral(): Expr {
    const k = this.la();
    const start = this.offset();
    let sign = '';
    let tk = k;
    if (k === T.MINUS) {
      sign = '-';
      this.consume();
      tk = this.la();
    }
    const text = this.tokenText();
    switch (tk) {
      case T.NUM_INT: {
        this.consume();
        let v: bigint;
        try {
          v = BigInt(text);
        } catch {
          return this.errorAt(start, 'invalid int literal');
        }
        if (sign) v = -v;
        if (v < INT64_MIN || v > INT64_MAX) return this.errorAt(start, 'invalid int literal');
        return { kind: 'const', id: this.newId(start), value: { type: 'int', value: v } };
      }
      case T.NUM_UINT: {
        this.consume();
        const v = BigInt(text.slice(0, -1));
        if (v > UINT64_MAX) return this.errorAt(start, 'invalid uint literal');
        return { kind: 'const', id: this.newId(start), value: { type: 'uint', value: v } };
      }
      case T.NUM_FLOAT: {
        this.consume();
        const v = Number(sign + text);
        if (!Number.isFinite(v)) return this.errorAt(start, 'invalid double literal');
        return { kind: 'const', id: this.newId(start), value: { type: 'double', value: v } };
      }
      case T.STRING: {
        this.consume();
        try {
          return { kind: 'const', id: this.newId(start), value: { type: 'string', value: unescapeString(text) } };
        } catch (e) {
          if (e instanceof UnescapeError) return this.errorAt(start, e.message);
          throw e;
        }
      }
      case T.BYTES: {
        this.consume();
        try {
          return { kind: 'const', id: this.newId(start), value: { type: 'bytes', value: unescapeBytes(text.slice(1)) } };
        } catch (e) {
          if (e instanceof UnescapeError) return this.errorAt(start, e.message);
          throw e;
        }
      }
      case T.TRUE:
        this.consume();
        return { kind: 'const', id: this.newId(start), value: { type: 'bool', value: true } };
      case T.FALSE:
        this.consume();
        return { kind: 'const', id: this.newId(start), value: { type: 'bool', value: false } };
      case T.NULL:
        this.consume();
        return { kind: 'const', id: this.newId(start), value: { type: 'null' } };
    }
    return this.mismatch(UNARY_START);
  }
}

function balanced(fn: string, terms: Expr[], ops: number[], lo: number, hi: number): Expr {
  const mid = (lo + hi + 1) >> 1;
  const left = mid === lo ? terms[mid] : balanced(fn, terms, ops, lo, mid - 1);
  const right = mid === hi ? terms[mid + 1] : balanced(fn, terms, ops, mid + 1, hi);
  return { kind: 'call', id: ops[mid], fn, args: [left, right] };
}

/**
 * SourceInfo whose line offsets and id → position Map are built on first
 * use: evaluating a parsed rule needs neither, only error reporting does.
 * Both are accessors on the prototype: copy a SourceInfo field by field,
 * not with a spread.
 */
class LazySourceInfo implements SourceInfo {
  private lines: number[] | undefined;
  private map: Map<number, number> | undefined;
  constructor(
    readonly text: string,
    private readonly surrogates: boolean,
    private readonly offsets: number[],
    readonly macroCalls: Map<number, Expr>,
  ) {}
  get lineOffsets(): number[] {
    return (this.lines ??= lineOffsetsOf(this.text, this.surrogates));
  }
  set lineOffsets(v: number[]) {
    this.lines = v;
  }
  get positions(): Map<number, number> {
    if (!this.map) {
      this.map = new Map();
      const o = this.offsets;
      for (let id = 1; id < o.length; id++) if (o[id] !== undefined && o[id] >= 0) this.map.set(id, o[id]);
    }
    return this.map;
  }
  set positions(v: Map<number, number>) {
    this.map = v;
  }
}
