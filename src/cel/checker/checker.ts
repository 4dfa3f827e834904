// The CEL type checker, after cel-go's checker/checker.go: one walk over the
// parsed AST that gives every node a type and every identifier/call a
// reference (resolved name, or the overload ids that may apply), with
// gradual typing (dyn), type parameters unified through a substitution, and
// cel-go's error wording. The walk returns the checked AST: selects that
// name a qualified identifier (`a.b.c`) become identifiers, receiver calls
// that name a namespaced function (`base64.encode(x)`) become global calls,
// and identifiers carry the name the container resolved them to; other
// nodes are shared with the parsed AST.

import type { CallExpr, ComprehensionExpr, Expr, ListExpr, MapExpr, ParsedExpr, SelectExpr, StructExpr } from '../ast.js';
import type { FunctionDecl } from '../decls.js';
import type { Issue } from '../issues.js';
import type { FieldType, Type } from '../types.js';
import { T, listOf, mapOf, optionalOf, typeParam } from '../types.js';
import {
  Substitution,
  isAssignable,
  isDyn,
  isDynOrError,
  mostGeneral,
  optionalElem,
  hasTypeParam,
  substitute,
} from './assign.js';
import type { CheckEnv } from './env.js';
import { candidateNames, lookupGlobal } from './env.js';
import { resolveOverload } from './overloads.js';
import { formatType } from './format.js';

/** What an identifier or call resolved to. */
export interface Reference {
  /** The identifier's resolved name (container applied; a leading `.` when a
   * local variable of the same name had to be bypassed). */
  name?: string;
  /** The overloads the call may dispatch to (one when statically known). */
  overloadIds?: string[];
}

export type CheckedExpr = ParsedExpr & {
  types: Map<number, Type>;
  refs: Map<number, Reference>;
  /** The type of the whole expression. */
  type: Type;
};

/** A type-checking error: issues.ts's Issue (format with formatIssues). */
export type CheckIssue = Issue;

export interface CheckResult {
  checked?: CheckedExpr;
  issues: CheckIssue[];
}

/** The schema field a checked select reads (for its wire name and value
 * conversion), or undefined when the operand is not an object type. */
export function selectedField(checked: CheckedExpr, e: SelectExpr): FieldType | undefined {
  const t = checked.types.get(e.operand.id);
  const target = t && (optionalElem(t) ?? t);
  return target?.kind === 'object' ? target.fields.get(e.field) : undefined;
}

export function check(parsed: ParsedExpr, env: CheckEnv): CheckResult {
  const c = new Checker(env, parsed);
  const expr = c.check(parsed.expr);
  const types = c.types;
  // Type parameters enter through fresh variables and generic declared
  // identifiers only; without either, every type is final already.
  if (c.generic || c.freeVarCount > 0) {
    for (const [id, t] of types) {
      if (t.kind === 'list' || t.kind === 'map' || t.kind === 'type' || t.kind === 'opaque' || t.kind === 'typeParam') {
        const s = substitute(c.subst, t, true);
        if (s !== t) types.set(id, s);
      }
    }
  }
  if (c.issues.length > 0) return { issues: c.issues };
  const type = types.get(expr.id) ?? T.error;
  return { checked: { expr, sourceInfo: parsed.sourceInfo, types, refs: c.refs, type }, issues: c.issues };
}

interface Resolved {
  name: string;
  type: Type;
}

/** First segments of the dotted variable names of an env: a select chain
 * whose root is not among them cannot name a qualified identifier. */
const dottedRoots = new WeakMap<CheckEnv, Set<string>>();
function rootsOf(env: CheckEnv): Set<string> {
  let s = dottedRoots.get(env);
  if (!s) {
    s = new Set();
    for (const name of env.variables.keys()) {
      const i = name.indexOf('.');
      if (i > 0) s.add(name.slice(0, i));
    }
    dottedRoots.set(env, s);
  }
  return s;
}

class Checker {
  readonly types = new Map<number, Type>();
  readonly refs = new Map<number, Reference>();
  readonly issues: CheckIssue[] = [];
  readonly subst = new Substitution();
  private freeVars = 0;
  /** Set when a declared identifier's type has type parameters. */
  generic = false;
  /** Comprehension variables in scope, innermost last. */
  private readonly locals: Resolved[] = [];
  private readonly container: string;

  constructor(
    private readonly env: CheckEnv,
    private readonly parsed: ParsedExpr,
  ) {
    this.container = env.container ?? '';
  }

  check(e: Expr): Expr {
    switch (e.kind) {
      case 'const':
        this.types.set(e.id, constType(e.value.type));
        return e;
      case 'ident':
        return this.checkIdent(e.id, e.name, e);
      case 'select':
        return this.checkSelect(e);
      case 'call':
        return this.checkCall(e);
      case 'list':
        return this.checkList(e);
      case 'map':
        return this.checkMap(e);
      case 'struct':
        return this.checkStruct(e);
      case 'comprehension':
        return this.checkComprehension(e);
    }
  }

  // ---- identifiers and selection ------------------------------------------------

  private lookupLocal(name: string): Type | undefined {
    for (let i = this.locals.length - 1; i >= 0; i--) {
      const l = this.locals[i]!;
      if (l.name === name) return l.type;
    }
    return undefined;
  }

  private resolveName(name: string, local: Type | undefined): Resolved | undefined {
    for (const cand of candidateNames(this.container, name)) {
      const t = lookupGlobal(this.env, cand);
      if (t !== undefined) return { name: local !== undefined ? `.${cand}` : cand, type: t };
    }
    return undefined;
  }

  private checkIdent(id: number, name: string, e: Expr): Expr {
    const local = this.lookupLocal(name);
    if (local === undefined && !this.container && name.charCodeAt(0) !== 46) {
      const t = lookupGlobal(this.env, name);
      if (t !== undefined) {
        if (t.kind !== 'object' && hasTypeParam(t)) this.generic = true;
        this.types.set(id, t);
        this.refs.set(id, { name });
        return e;
      }
    }
    let r: Resolved | undefined;
    if (local !== undefined && name.charCodeAt(0) !== 46) r = { name, type: local };
    else r = this.resolveName(name, local);
    if (!r) {
      this.types.set(id, T.error);
      this.report(id, `undeclared reference to '${name}' (in container '${this.container}')`);
      return e;
    }
    if (hasTypeParam(r.type)) this.generic = true;
    this.types.set(id, r.type);
    this.refs.set(id, { name: r.name });
    return e.kind === 'ident' && e.name === r.name ? e : { kind: 'ident', id, name: r.name };
  }

  /** `a.b.c` when the select chain is made of plain selections over an identifier. */
  private qualifiedName(e: Expr): string | undefined {
    let name = '';
    while (e.kind === 'select') {
      if (e.testOnly) return undefined;
      name = name === '' ? e.field : `${e.field}.${name}`;
      e = e.operand;
    }
    if (e.kind !== 'ident') return undefined;
    return name === '' ? e.name : `${e.name}.${name}`;
  }

  private maybeQualifiedIdent(e: SelectExpr): Resolved | undefined {
    let root: Expr = e;
    while (root.kind === 'select') {
      if (root.testOnly) return undefined;
      root = root.operand;
    }
    if (root.kind !== 'ident') return undefined;
    const rootName = root.name;
    if (!this.container && !this.env.findType && !rootsOf(this.env).has(rootName.charCodeAt(0) === 46 ? rootName.slice(1) : rootName)) {
      return undefined;
    }
    const local = this.lookupLocal(rootName);
    if (local !== undefined && rootName.charCodeAt(0) !== 46) return undefined;
    return this.resolveName(this.qualifiedName(e)!, local);
  }

  private checkSelect(e: SelectExpr): Expr {
    if (e.optional) {
      // operand.?field written as a select rather than cel-go's `_?._` call
      const [operand, t] = this.checkSelectField(e.id, e.operand, e.field, true);
      this.types.set(e.id, substitute(this.subst, t, false));
      this.refs.set(e.id, { overloadIds: ['select_optional_field'] });
      return operand === e.operand ? e : { ...e, operand };
    }
    const q = this.maybeQualifiedIdent(e);
    if (q) {
      if (hasTypeParam(q.type)) this.generic = true;
      this.types.set(e.id, q.type);
      this.refs.set(e.id, { name: q.name });
      return { kind: 'ident', id: e.id, name: q.name };
    }
    const [operand, fieldType] = this.checkSelectField(e.id, e.operand, e.field, false);
    this.types.set(e.id, e.testOnly ? T.bool : substitute(this.subst, fieldType, false));
    return operand === e.operand ? e : { ...e, operand };
  }

  private checkSelectField(id: number, operandExpr: Expr, field: string, optional: boolean): [Expr, Type] {
    const operand = this.check(operandExpr);
    const operandType = substitute(this.subst, this.types.get(operand.id)!, false);
    const elem = optionalElem(operandType);
    const target = elem ?? operandType;
    let result: Type;
    switch (target.kind) {
      case 'map':
        result = target.value;
        break;
      case 'object': {
        const f = target.fields.get(field);
        if (f) result = f.type;
        else {
          this.report(id, `undefined field '${field}'`);
          result = T.error;
        }
        break;
      }
      case 'typeParam':
        isAssignable(this.subst, T.dyn, target);
        result = T.dyn;
        break;
      default:
        if (!isDynOrError(target)) this.report(id, `type '${formatType(target)}' does not support field selection`);
        result = T.dyn;
    }
    return [operand, elem !== undefined || optional ? optionalOf(result) : result];
  }

  // ---- calls --------------------------------------------------------------------

  private lookupFunction(name: string): FunctionDecl | undefined {
    const fns = this.env.functions;
    if (!this.container && name.charCodeAt(0) !== 46) return fns.get(name);
    for (const cand of candidateNames(this.container, name)) {
      const f = fns.get(cand);
      if (f) return f;
    }
    return undefined;
  }

  private checkArgs(args: Expr[]): Expr[] {
    let out: Expr[] | undefined;
    for (let i = 0; i < args.length; i++) {
      const a = this.check(args[i]!);
      if (a !== args[i] && !out) out = args.slice(0, i);
      if (out) out.push(a);
    }
    return out ?? args;
  }

  private checkCall(e: CallExpr): Expr {
    if (e.fn === '_?._') return this.checkOptSelect(e);
    const args = this.checkArgs(e.args);
    if (!e.target) {
      const f = this.lookupFunction(e.fn);
      if (!f) {
        this.report(e.id, `undeclared reference to '${e.fn}' (in container '${this.container}')`);
        this.types.set(e.id, T.error);
        return args === e.args ? e : { ...e, args };
      }
      this.resolveOverload(e.id, f, undefined, args);
      return args === e.args && f.name === e.fn ? e : { kind: 'call', id: e.id, fn: f.name, args };
    }
    const prefix = this.qualifiedName(e.target);
    if (prefix !== undefined) {
      const f = this.lookupFunction(`${prefix}.${e.fn}`);
      if (f) {
        this.resolveOverload(e.id, f, undefined, args);
        return { kind: 'call', id: e.id, fn: f.name, args };
      }
    }
    const target = this.check(e.target);
    const f = this.lookupFunction(e.fn);
    if (!f) {
      this.types.set(e.id, T.error);
      this.report(e.id, `undeclared reference to '${e.fn}' (in container '${this.container}')`);
    } else {
      this.resolveOverload(e.id, f, target, args);
    }
    return target === e.target && args === e.args ? e : { ...e, target, args };
  }

  get freeVarCount(): number {
    return this.freeVars;
  }

  newTypeVar(): Type {
    return typeParam(`_var${this.freeVars++}`);
  }

  private resolveOverload(id: number, fn: FunctionDecl, target: Expr | undefined, args: Expr[]): void {
    const argTypes: Type[] = [];
    const argIds: number[] = [];
    if (target) {
      argTypes.push(this.types.get(target.id)!);
      argIds.push(target.id);
    }
    for (const a of args) {
      argTypes.push(this.types.get(a.id)!);
      argIds.push(a.id);
    }
    const r = resolveOverload(this, {
      id,
      fn,
      argTypes,
      argIds,
      receiver: target !== undefined,
      crossTypeNumeric: this.env.crossTypeNumericComparisons === true,
    });
    if (!r) {
      this.types.set(id, T.error);
      return;
    }
    this.types.set(id, r.type);
    this.refs.set(id, { overloadIds: r.overloadIds });
  }

  private checkOptSelect(e: CallExpr): Expr {
    if (e.args.length !== 2 || e.target) {
      const member = e.target ? ' member call with' : '';
      this.report(e.id, `unsupported optional field selection: incorrect signature.${member} argument count: ${e.args.length}`);
      this.types.set(e.id, T.error);
      return e;
    }
    const field = e.args[1]!;
    if (field.kind !== 'const' || field.value.type !== 'string') {
      this.report(field.id, `unsupported optional field selection: ${field.kind}`);
      this.types.set(e.id, T.error);
      return e;
    }
    this.types.set(field.id, T.string);
    const [operand, t] = this.checkSelectField(e.id, e.args[0]!, field.value.value, true);
    this.types.set(e.id, substitute(this.subst, t, false));
    this.refs.set(e.id, { overloadIds: ['select_optional_field'] });
    return operand === e.args[0] ? e : { ...e, args: [operand, field] };
  }

  // ---- literals -----------------------------------------------------------------

  /** cel-go joinTypes: mixed element types give dyn, or an error with
   * homogeneous aggregate literals. */
  private join(id: number, prev: Type | undefined, cur: Type): Type {
    if (prev === undefined) return cur;
    if (isAssignable(this.subst, prev, cur)) return mostGeneral(prev, cur);
    if (!this.env.homogeneousAggregateLiterals) return T.dyn;
    this.report(id, `expected type '${formatType(prev)}' but found '${formatType(cur)}'`);
    return T.error;
  }

  /** The value type of an optional entry (`?x`): must be optional_type(T) or dyn. */
  private optionalEntry(valueId: number, t: Type): Type {
    const elem = optionalElem(t);
    if (elem !== undefined) return elem;
    if (!isDyn(t)) this.report(valueId, `expected type '${formatType(optionalOf(t))}' but found '${formatType(t)}'`);
    return t;
  }

  private checkList(e: ListExpr): Expr {
    const elements = this.checkArgs(e.elements);
    let elemType: Type | undefined;
    for (let i = 0; i < elements.length; i++) {
      const el = elements[i]!;
      let t = this.types.get(el.id)!;
      if (e.optionalIndices.length > 0 && e.optionalIndices.includes(i)) t = this.optionalEntry(el.id, t);
      elemType = this.join(el.id, elemType, t);
    }
    this.types.set(e.id, listOf(elemType ?? this.newTypeVar()));
    return elements === e.elements ? e : { ...e, elements };
  }

  private checkMap(e: MapExpr): Expr {
    let keyType: Type | undefined;
    let valueType: Type | undefined;
    let entries: MapExpr['entries'] | undefined;
    for (let i = 0; i < e.entries.length; i++) {
      const entry = e.entries[i]!;
      const key = this.check(entry.key);
      keyType = this.join(key.id, keyType, this.types.get(key.id)!);
      const value = this.check(entry.value);
      let vt = this.types.get(value.id)!;
      if (entry.optional) vt = this.optionalEntry(value.id, vt);
      valueType = this.join(value.id, valueType, vt);
      if ((key !== entry.key || value !== entry.value) && !entries) entries = e.entries.slice(0, i);
      if (entries) entries.push(key === entry.key && value === entry.value ? entry : { ...entry, key, value });
    }
    this.types.set(e.id, mapOf(keyType ?? this.newTypeVar(), valueType ?? this.newTypeVar()));
    return entries ? { ...e, entries } : e;
  }

  private checkStruct(e: StructExpr): Expr {
    let resolved: Resolved | undefined;
    for (const cand of candidateNames(this.container, e.typeName)) {
      const v = this.env.variables.get(cand);
      if (v !== undefined) {
        resolved = { name: cand, type: v };
        break;
      }
      const t = this.env.findType?.(cand);
      if (t !== undefined) {
        resolved = { name: cand, type: { kind: 'type', param: t } };
        break;
      }
    }
    if (!resolved) {
      this.report(e.id, `undeclared reference to '${e.typeName}' (in container '${this.container}')`);
      this.types.set(e.id, T.error);
      return e;
    }
    this.refs.set(e.id, { name: resolved.name });
    if (hasTypeParam(resolved.type)) this.generic = true;
    let objType: Type = T.error;
    const rt = resolved.type;
    if (rt.kind !== 'error') {
      if (rt.kind !== 'type') this.report(e.id, `'${formatType(rt)}' is not a type`);
      else if (rt.param?.kind === 'object') objType = rt.param;
      else this.report(e.id, `'${rt.param ? formatType(rt.param) : 'type'}' is not a message type`);
    }
    this.types.set(e.id, objType);
    let fields: StructExpr['fields'] | undefined;
    for (let i = 0; i < e.fields.length; i++) {
      const f = e.fields[i]!;
      const value = this.check(f.value);
      let fieldType: Type = T.error;
      if (objType.kind === 'object') {
        const ft = objType.fields.get(f.name);
        if (ft) fieldType = ft.type;
        else this.report(f.id, `undefined field '${f.name}'`);
      } else {
        this.report(f.id, `unexpected failed resolution of '${resolved.name}'`);
      }
      let vt = this.types.get(value.id)!;
      if (f.optional) vt = this.optionalEntry(value.id, vt);
      if (!isAssignable(this.subst, fieldType, vt)) {
        this.report(
          f.id,
          `expected type of field '${f.name}' is '${formatType(fieldType)}' but provided type is '${formatType(vt)}'`,
        );
      }
      if (value !== f.value && !fields) fields = e.fields.slice(0, i);
      if (fields) fields.push(value === f.value ? f : { ...f, value });
    }
    if (fields || resolved.name !== e.typeName) return { ...e, typeName: resolved.name, fields: fields ?? e.fields };
    return e;
  }

  // ---- comprehensions -----------------------------------------------------------

  private checkComprehension(e: ComprehensionExpr): Expr {
    const iterRange = this.check(e.iterRange);
    const accuInit = this.check(e.accuInit);
    const rangeType = substitute(this.subst, this.types.get(iterRange.id)!, false);
    const accuType = this.types.get(accuInit.id)!;
    this.locals.push({ name: e.accuVar, type: accuType });
    let varType: Type;
    let var2Type: Type | undefined;
    switch (rangeType.kind) {
      case 'list':
        varType = rangeType.elem;
        if (e.iterVar2 !== undefined) {
          var2Type = varType;
          varType = T.int;
        }
        break;
      case 'map':
        varType = rangeType.key;
        if (e.iterVar2 !== undefined) var2Type = rangeType.value;
        break;
      case 'dyn':
      case 'any':
      case 'error':
      case 'typeParam':
        isAssignable(this.subst, T.dyn, rangeType);
        varType = T.dyn;
        var2Type = T.dyn;
        break;
      default:
        this.report(
          iterRange.id,
          `expression of type '${formatType(rangeType)}' cannot be range of a comprehension (must be list, map, or dynamic)`,
        );
        varType = T.error;
        var2Type = T.error;
    }
    const depth = this.locals.length;
    this.locals.push({ name: e.iterVar, type: varType });
    if (e.iterVar2 !== undefined) this.locals.push({ name: e.iterVar2, type: var2Type! });
    const loopCondition = this.check(e.loopCondition);
    this.assertType(loopCondition.id, T.bool);
    const loopStep = this.check(e.loopStep);
    this.assertType(loopStep.id, accuType);
    this.locals.length = depth;
    const result = this.check(e.result);
    this.locals.length = depth - 1;
    this.types.set(e.id, substitute(this.subst, this.types.get(result.id)!, false));
    if (
      iterRange === e.iterRange &&
      accuInit === e.accuInit &&
      loopCondition === e.loopCondition &&
      loopStep === e.loopStep &&
      result === e.result
    ) {
      return e;
    }
    return { ...e, iterRange, accuInit, loopCondition, loopStep, result };
  }

  private assertType(id: number, t: Type): void {
    const actual = this.types.get(id)!;
    if (!isAssignable(this.subst, t, actual)) {
      this.report(id, `expected type '${formatType(t)}' but found '${formatType(actual)}'`);
    }
  }

  report(id: number, message: string): void {
    this.issues.push({ message, offset: this.parsed.sourceInfo.positions.get(id) ?? -1, exprId: id });
  }
}

function constType(kind: string): Type {
  switch (kind) {
    case 'null':
      return T.null;
    case 'bool':
      return T.bool;
    case 'int':
      return T.int;
    case 'uint':
      return T.uint;
    case 'double':
      return T.double;
    case 'string':
      return T.string;
    default:
      return T.bytes;
  }
}
