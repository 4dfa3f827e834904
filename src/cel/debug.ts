// cel-go's debug rendering of an AST (common/debug.ToAdornedDebugString):
//
//   _&&_(
//     a^#1:*expr.Expr_IdentExpr#,
//     b.c~test-only~^#3:*expr.Expr_SelectExpr#
//   )^#2:*expr.Expr_CallExpr#
//
// An adorner appends text after each node and each map entry / struct field
// (the checker's adorner prints `~type^reference`). Literals print as Go
// does: strings with strconv.Quote, doubles with %v.

import type { Expr, MapEntry, StructField, Constant, SourceInfo } from './ast.js';
import { goQuote, goQuoteBytes } from './goquote.js';

export { goQuote, goQuoteBytes };

/** Text to print after a node (an Expr) or an entry (MapEntry / StructField: no `kind`). */
export type Adorner = (node: Expr | MapEntry | StructField) => string;

export function toDebugString(expr: Expr, adorn?: Adorner): string {
  const w = new Writer(adorn);
  w.expr(expr);
  return w.out;
}

class Writer {
  out = '';
  private indent = 0;
  private lineStart = true;
  constructor(private readonly adorner: Adorner | undefined) {}

  private append(s: string): void {
    if (this.lineStart) {
      this.lineStart = false;
      this.out += '  '.repeat(this.indent);
    }
    this.out += s;
  }
  private line(): void {
    this.out += '\n';
    this.lineStart = true;
  }
  private adorn(node: Expr | MapEntry | StructField): void {
    if (this.adorner) this.append(this.adorner(node));
  }

  expr(e: Expr): void {
    switch (e.kind) {
      case 'const':
        this.append(formatConstant(e.value));
        break;
      case 'ident':
        this.append(e.name);
        break;
      case 'select':
        this.expr(e.operand);
        this.append(e.optional ? '.?' : '.');
        this.append(e.field);
        if (e.testOnly) this.append('~test-only~');
        break;
      case 'call':
        if (e.target) {
          this.expr(e.target);
          this.append('.');
        }
        this.append(e.fn + '(');
        if (e.args.length > 0) {
          this.indent++;
          this.line();
          e.args.forEach((a, i) => {
            if (i > 0) {
              this.append(',');
              this.line();
            }
            this.expr(a);
          });
          this.indent--;
          this.line();
        }
        this.append(')');
        break;
      case 'list':
        this.append('[');
        if (e.elements.length > 0) {
          this.line();
          this.indent++;
          e.elements.forEach((a, i) => {
            if (i > 0) {
              this.append(',');
              this.line();
            }
            this.expr(a);
          });
          this.indent--;
          this.line();
        }
        this.append(']');
        break;
      case 'map':
        this.append('{');
        if (e.entries.length > 0) {
          this.line();
          this.indent++;
          e.entries.forEach((en, i) => {
            if (i > 0) {
              this.append(',');
              this.line();
            }
            if (en.optional) this.append('?');
            this.expr(en.key);
            this.append(':');
            this.expr(en.value);
            this.adorn(en);
          });
          this.indent--;
          this.line();
        }
        this.append('}');
        break;
      case 'struct':
        this.append(e.typeName + '{');
        if (e.fields.length > 0) {
          this.line();
          this.indent++;
          e.fields.forEach((f, i) => {
            if (i > 0) {
              this.append(',');
              this.line();
            }
            if (f.optional) this.append('?');
            this.append(f.name + ':');
            this.expr(f.value);
            this.adorn(f);
          });
          this.indent--;
          this.line();
        }
        this.append('}');
        break;
      case 'comprehension':
        this.append('__comprehension__(');
        this.indent++;
        this.line();
        this.append('// Variable');
        this.line();
        this.append(e.iterVar + ',');
        this.line();
        if (e.iterVar2 !== undefined) {
          this.append(e.iterVar2 + ',');
          this.line();
        }
        this.section('// Target', e.iterRange);
        this.append('// Accumulator');
        this.line();
        this.append(e.accuVar + ',');
        this.line();
        this.section('// Init', e.accuInit);
        this.section('// LoopCondition', e.loopCondition);
        this.section('// LoopStep', e.loopStep);
        this.append('// Result');
        this.line();
        this.expr(e.result);
        this.append(')');
        this.indent--;
        break;
    }
    this.adorn(e);
  }

  private section(title: string, e: Expr): void {
    this.append(title);
    this.line();
    this.expr(e);
    this.append(',');
    this.line();
  }
}

export function formatConstant(c: Constant): string {
  switch (c.type) {
    case 'null':
      return 'null';
    case 'bool':
      return c.value ? 'true' : 'false';
    case 'int':
      return c.value.toString();
    case 'uint':
      return c.value.toString() + 'u';
    case 'double':
      return formatGoFloat(c.value);
    case 'string':
      return goQuote(c.value);
    case 'bytes':
      return 'b' + goQuoteBytes(c.value);
  }
}

/** Go's %v of a float64 (%g, shortest digits): exponent form when exp < -4 or ≥ 6. */
export function formatGoFloat(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  const [mant, expText] = v.toExponential().split('e');
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) {
    const e = Math.abs(exp);
    return `${mant}e${exp < 0 ? '-' : '+'}${e < 10 ? '0' + e : e}`;
  }
  // Fixed notation with the shortest digits.
  const neg = mant.startsWith('-');
  const digits = mant.replace('-', '').replace('.', '');
  let s: string;
  if (exp >= 0) {
    s = digits.length <= exp + 1 ? digits + '0'.repeat(exp + 1 - digits.length) : digits.slice(0, exp + 1) + '.' + digits.slice(exp + 1);
  } else {
    s = '0.' + '0'.repeat(-exp - 1) + digits;
  }
  return neg ? '-' + s : s;
}

// ---- adorners --------------------------------------------------------------------------------

function kindName(node: Expr | MapEntry | StructField): string {
  if (!('kind' in node)) return '*expr.Expr_CreateStruct_Entry';
  switch (node.kind) {
    case 'call': return '*expr.Expr_CallExpr';
    case 'comprehension': return '*expr.Expr_ComprehensionExpr';
    case 'ident': return '*expr.Expr_IdentExpr';
    case 'list': return '*expr.Expr_ListExpr';
    case 'map': case 'struct': return '*expr.Expr_StructExpr';
    case 'select': return '*expr.Expr_SelectExpr';
    case 'const':
      switch (node.value.type) {
        case 'bool': return '*expr.Constant_BoolValue';
        case 'bytes': return '*expr.Constant_BytesValue';
        case 'double': return '*expr.Constant_DoubleValue';
        case 'int': return '*expr.Constant_Int64Value';
        case 'null': return '*expr.Constant_NullValue';
        case 'string': return '*expr.Constant_StringValue';
        case 'uint': return '*expr.Constant_Uint64Value';
      }
  }
}

/** `^#*expr.Expr_IdentExpr#` — the cel-spec parsing suite's `ast` strings. */
export const kindAdorner: Adorner = (node) => `^#${kindName(node)}#`;

/**
 * `^#3:*expr.Expr_IdentExpr#` — cel-go's parser tests. With the source info,
 * macro expansions print as `^#3:has#` (cel-go's rendering of macro calls).
 */
export function idKindAdorner(info?: SourceInfo): Adorner {
  return (node) => {
    if (info && 'kind' in node) {
      const call = info.macroCalls.get(node.id);
      if (call && call.kind === 'call') return `^#${node.id}:${call.fn}#`;
    }
    return `^#${node.id}:${kindName(node)}#`;
  };
}

/** `@id:3 ` after each node (cel-go ToDebugStringWithIDs). */
export const idAdorner: Adorner = (node) => ('kind' in node ? `@id:${node.id} ` : '');
