// The planner: a checked (or unchecked) AST becomes a tree of closures over a
// Frame, decided once per program. Constants are built once, identifiers are
// slots, calls resolved by the checker to one overload call it directly,
// others dispatch on argument values. With cost tracking, each step adds
// cel-go's runtime cost to the frame (decided at plan time: without tracking
// the closures carry no cost code at all).

import type { CallExpr, ComprehensionExpr, Constant, Expr, ListExpr, MapExpr, SelectExpr } from '../ast.js';
import type { FunctionDecl, OverloadDecl, OverloadImpl } from '../decls.js';
import type { Type } from '../types.js';
import { celEquals } from '../runtime/equality.js';
import { TYPE_BY_NAME } from '../runtime/typeof.js';
import { CelError, CelMap, Double, Optional, TypeValue, Uint, intOf } from '../values.js';
import {
  hasKey,
  index,
  inheritedName,
  isPlainObject,
  mapSet,
  optionalIndex,
  optionalSelect,
  present,
  select,
  typeName,
} from './access.js';
import { type CallCosts, LIST_CREATE_COST, MAP_CREATE_COST, SELECT_AND_IDENT_COST, type SizedCost, sizedCostOf } from './cost.js';
import { type Candidate, candidate, needsGuard, predicateOf, type Pred } from './dispatch.js';
import { absorbable, checkCost, type Frame, type Interp, noSuchOverload } from './frame.js';

/** What the checker says about a node (the checker's Reference). */
export interface PlanReference {
  /** The resolved identifier, qualified by the container when it applies. */
  name?: string;
  /** The overloads a call may select. */
  overloadIds?: string[];
}

export interface PlanEnv {
  functions: ReadonlyMap<string, FunctionDecl>;
  impls: ReadonlyMap<string, OverloadImpl>;
  /** Declared variables (checked programs read only these from the activation). */
  variables: ReadonlyMap<string, Type>;
  container?: string;
  /** Object and extension types by name (type identifiers as values). */
  findType?(name: string): Type | undefined;
}

export interface PlanInput {
  expr: Expr;
  /** The checker's results; absent for an unchecked program. */
  types?: ReadonlyMap<number, Type>;
  refs?: ReadonlyMap<number, PlanReference>;
}

export interface PlanOptions {
  /** Per-call costs; cost tracking is planned in only when given. */
  cost?: CallCosts;
}

export interface Plan {
  root: Interp;
  /** Activation names read into nameSlots before evaluation. */
  names: string[];
  nameSlots: number[];
  /** Frame size. */
  slots: number;
  tracksCost: boolean;
}

/** A slot read of a variable the activation did not bind. */
const UNBOUND = undefined;

interface Scope {
  name: string;
  slot: number;
}

export function plan(input: PlanInput, env: PlanEnv, opts: PlanOptions = {}): Plan {
  return new Planner(input, env, opts).run();
}

class Planner {
  private readonly types?: ReadonlyMap<number, Type>;
  private readonly refs?: ReadonlyMap<number, PlanReference>;
  private readonly checked: boolean;
  private readonly cost?: CallCosts;
  private readonly names: string[] = [];
  private readonly nameSlots = new Map<string, number>();
  private readonly locals: Scope[] = [];
  private nextSlot = 0;
  private readonly localSet = new Set<number>();
  private readonly accuSet = new Set<number>();
  /** Slots of comprehension accumulators currently safe to append to in place. */
  private readonly appendable = new Set<number>();

  constructor(
    private readonly input: PlanInput,
    private readonly env: PlanEnv,
    opts: PlanOptions,
  ) {
    this.types = input.types;
    this.refs = input.refs;
    this.checked = input.refs !== undefined;
    this.cost = opts.cost;
  }

  run(): Plan {
    const root = this.plan(this.input.expr);
    return {
      root,
      names: this.names,
      nameSlots: this.names.map((n) => this.nameSlots.get(n) as number),
      slots: this.nextSlot,
      tracksCost: this.cost !== undefined,
    };
  }

  // ---- slots ----------------------------------------------------------------

  private nameSlot(name: string): number {
    let s = this.nameSlots.get(name);
    if (s === undefined) {
      s = this.nextSlot++;
      this.names.push(name);
      this.nameSlots.set(name, s);
    }
    return s;
  }

  private newLocal(): number {
    const s = this.nextSlot++;
    this.localSet.add(s);
    return s;
  }

  private local(name: string): Scope | undefined {
    for (let i = this.locals.length - 1; i >= 0; i--) if (this.locals[i].name === name) return this.locals[i];
    return undefined;
  }

  // ---- nodes ----------------------------------------------------------------

  private plan(e: Expr): Interp {
    switch (e.kind) {
      case 'const': {
        const v = constantValue(e.value);
        return () => v;
      }
      case 'ident':
        return this.planIdent(e.id, e.name);
      case 'select':
        return this.planSelect(e);
      case 'call':
        return this.planCall(e);
      case 'list':
        return this.planList(e);
      case 'map':
        return this.planMap(e);
      case 'struct':
        return this.planStruct(e.typeName);
      case 'comprehension':
        return this.planComprehension(e);
    }
  }

  private withCost(f: Interp, k: number): Interp {
    if (this.cost === undefined || k === 0) return f;
    return (fr) => {
      const v = f(fr);
      fr.c += k;
      return v;
    };
  }

  private readSlot(slot: number, name: string): Interp {
    const tracking = this.cost !== undefined;
    if (this.accuSet.has(slot)) {
      // An accumulator may hold the error a step produced: reading it raises it.
      return tracking
        ? (f) => {
            const v = f.s[slot];
            if (v instanceof CelError) throw v;
            f.c += SELECT_AND_IDENT_COST;
            return v;
          }
        : (f) => {
            const v = f.s[slot];
            if (v instanceof CelError) throw v;
            return v;
          };
    }
    if (this.localSet.has(slot)) {
      // Comprehension variables are always bound.
      return tracking
        ? (f) => {
            f.c += SELECT_AND_IDENT_COST;
            return f.s[slot];
          }
        : (f) => f.s[slot];
    }
    const missing = `no such attribute(s): ${name}`;
    return tracking
      ? (f) => {
          const v = f.s[slot];
          if (v === UNBOUND) throw new CelError(missing);
          f.c += SELECT_AND_IDENT_COST;
          return v;
        }
      : (f) => {
          const v = f.s[slot];
          if (v === UNBOUND) throw new CelError(missing);
          return v;
        };
  }

  private planIdent(id: number, name: string): Interp {
    const loc = this.local(name);
    if (loc !== undefined) return this.readSlot(loc.slot, name);
    if (this.checked) {
      const resolved = this.refs?.get(id)?.name ?? name;
      return this.planResolvedName(resolved, id);
    }
    return this.planMaybeName(name, []);
  }

  /** A name the checker resolved: a declared variable or a type. */
  private planResolvedName(name: string, id: number): Interp {
    const abs = name.startsWith('.') ? name.slice(1) : name;
    const declared = this.env.variables.get(abs);
    // Type identifiers (`int`, `list`, a schema's object types) are declared
    // as variables of type type(T) by their library: they are constants.
    if (declared === undefined || declared.kind === 'type') {
      const tv = this.typeValue(abs, declared === undefined ? id : undefined);
      if (tv !== undefined) return () => tv;
    }
    if (declared !== undefined) return this.readSlot(this.nameSlot(abs), abs);
    // Declared by no one the planner knows: read it from the activation.
    return this.readSlot(this.nameSlot(abs), abs);
  }

  private typeValue(name: string, id?: number): TypeValue | undefined {
    const builtin = TYPE_BY_NAME.get(name);
    if (builtin !== undefined) return builtin;
    if (this.env.findType?.(name) !== undefined) return new TypeValue(name);
    if (id !== undefined) {
      const t = this.types?.get(id);
      if (t?.kind === 'type') return new TypeValue(name);
    }
    return undefined;
  }

  /** The names a (possibly qualified) identifier may denote in the
   * container, most qualified first, as cel-go resolves them. */
  private candidates(name: string): string[] {
    if (name.startsWith('.')) return [name.slice(1)];
    const out: string[] = [];
    let c = this.env.container ?? '';
    while (c !== '') {
      out.push(`${c}.${name}`);
      const dot = c.lastIndexOf('.');
      c = dot < 0 ? '' : c.slice(0, dot);
    }
    out.push(name);
    return out;
  }

  /** Unchecked: `a.b.c` may be the variable `a.b.c`, or `a.b` with field c,
   * or `a` with fields b, c — the longest name bound in the activation wins;
   * a type name is a type value; else the attribute is missing. */
  private planMaybeName(name: string, fields: string[]): Interp {
    interface Alt {
      slot: number;
      fields: string[];
    }
    const alts: Alt[] = [];
    const parts = name.split('.');
    // Drop an absolute marker's empty first part but keep the leading dot for candidates.
    const absolute = name.startsWith('.');
    const segs = absolute ? parts.slice(1) : parts;
    const all = [...segs, ...fields];
    for (let n = all.length; n >= 1; n--) {
      if (n < segs.length) break; // the ident itself is one name
      const head = (absolute ? '.' : '') + all.slice(0, n).join('.');
      for (const c of this.candidates(head)) alts.push({ slot: this.nameSlot(c), fields: all.slice(n) });
    }
    const typeNames = this.candidates(name + (fields.length ? '.' + fields.join('.') : ''));
    let tv: TypeValue | undefined;
    for (const t of typeNames) {
      tv = this.typeValue(t);
      if (tv !== undefined) break;
    }
    const tracking = this.cost !== undefined;
    const missing = `no such attribute(s): ${typeNames.join(', ')}`;
    if (alts.length === 1 && alts[0].fields.length === 0 && tv === undefined) return this.readSlot(alts[0].slot, name);
    return (f) => {
      for (let i = 0; i < alts.length; i++) {
        const a = alts[i];
        let v = f.s[a.slot];
        if (v === UNBOUND) continue;
        if (tracking) f.c += SELECT_AND_IDENT_COST;
        for (let j = 0; j < a.fields.length; j++) {
          v = select(v, a.fields[j]);
          if (tracking) f.c += SELECT_AND_IDENT_COST;
        }
        return v;
      }
      if (tv !== undefined) return tv;
      throw new CelError(missing);
    };
  }

  /** The dotted name of an ident/select chain, or undefined. */
  private qualifiedName(e: Expr): string | undefined {
    if (e.kind === 'ident') return this.local(e.name) === undefined ? e.name : undefined;
    if (e.kind === 'select' && !e.testOnly && !e.optional) {
      const op = this.qualifiedName(e.operand);
      return op === undefined ? undefined : `${op}.${e.field}`;
    }
    return undefined;
  }

  private planSelect(e: SelectExpr): Interp {
    if (this.checked) {
      const ref = this.refs?.get(e.id);
      if (ref?.name !== undefined && !e.testOnly) return this.planResolvedName(ref.name, e.id);
    } else if (!e.testOnly && !e.optional) {
      // A chain of selects over an identifier: a maybe-qualified name.
      const fields: string[] = [];
      let cur: Expr = e;
      while (cur.kind === 'select' && !cur.testOnly && !cur.optional) {
        fields.unshift(cur.field);
        cur = cur.operand;
      }
      if (cur.kind === 'ident' && this.local(cur.name) === undefined) return this.planMaybeName(cur.name, fields);
    }
    const op = this.plan(e.operand);
    const field = e.field;
    // A presence test costs its operand only (cel-go v0.12: evalTestOnly is
    // neither an attribute nor a call).
    if (e.testOnly) return (f) => present(op(f), field);
    if (e.optional) return this.withCost((f) => optionalSelect(op(f), field), SELECT_AND_IDENT_COST);
    const opType = this.types?.get(e.operand.id);
    if (opType?.kind === 'object') {
      const ft = opType.fields.get(field);
      if (ft !== undefined) return this.withCost(objectField(op, field, ft.wireName, ft.convert), SELECT_AND_IDENT_COST);
    }
    return this.withCost((f) => select(op(f), field), SELECT_AND_IDENT_COST);
  }

  private planStruct(typeName: string): Interp {
    const msg = `unknown type: ${typeName}`;
    return () => {
      throw new CelError(msg);
    };
  }

  private planList(e: ListExpr): Interp {
    const elems = e.elements.map((x) => this.plan(x));
    const n = elems.length;
    let f: Interp;
    if (e.optionalIndices.length > 0) {
      const opt = new Set(e.optionalIndices);
      const isOpt = elems.map((_, i) => opt.has(i));
      f = (fr) => {
        const out: unknown[] = [];
        for (let i = 0; i < n; i++) {
          const v = elems[i](fr);
          if (!isOpt[i]) out.push(v);
          else if (v instanceof Optional) {
            if (v.hasValue) out.push(v.value);
          } else throw noSuchOverload();
        }
        return out;
      };
    } else if (n === 0) f = () => [];
    else if (n === 1) {
      const a = elems[0];
      f = (fr) => [a(fr)];
    } else if (n === 2) {
      const a = elems[0];
      const b = elems[1];
      f = (fr) => [a(fr), b(fr)];
    } else {
      f = (fr) => {
        const out = new Array<unknown>(n);
        for (let i = 0; i < n; i++) out[i] = elems[i](fr);
        return out;
      };
    }
    return this.withCost(f, LIST_CREATE_COST);
  }

  private planMap(e: MapExpr): Interp {
    const keys = e.entries.map((x) => this.plan(x.key));
    const vals = e.entries.map((x) => this.plan(x.value));
    const opt = e.entries.map((x) => x.optional);
    const n = keys.length;
    return this.withCost((fr) => {
      const m = new CelMap();
      for (let i = 0; i < n; i++) {
        const k = keys[i](fr);
        let v = vals[i](fr);
        if (opt[i]) {
          if (!(v instanceof Optional)) throw noSuchOverload();
          if (!v.hasValue) continue;
          v = v.value;
        }
        mapSet(m, k, v);
      }
      return m;
    }, MAP_CREATE_COST);
  }

  private planComprehension(e: ComprehensionExpr): Interp {
    const range = this.plan(e.iterRange);
    const init = this.plan(e.accuInit);
    const accu = this.newLocal();
    this.accuSet.add(accu);
    const it1 = this.newLocal();
    const it2 = e.iterVar2 !== undefined ? this.newLocal() : -1;
    // A fresh empty list accumulator may be appended to in place (cel-go's
    // mutable accumulator): `accu + [x]` then costs O(1).
    const freshList = e.accuInit.kind === 'list' && e.accuInit.elements.length === 0;
    this.locals.push({ name: e.accuVar, slot: accu });
    this.locals.push({ name: e.iterVar, slot: it1 });
    if (e.iterVar2 !== undefined) this.locals.push({ name: e.iterVar2, slot: it2 });
    if (freshList) this.appendable.add(accu);
    const cond = isTrueConst(e.loopCondition) ? undefined : this.plan(e.loopCondition);
    const step = this.plan(e.loopStep);
    this.appendable.delete(accu);
    this.locals.length -= e.iterVar2 !== undefined ? 2 : 1;
    const result = this.plan(e.result);
    this.locals.length -= 1;
    const tracking = this.cost !== undefined;
    const two = e.iterVar2 !== undefined;
    return (f) => {
      const r = range(f);
      const s = f.s;
      s[accu] = init(f);
      if (Array.isArray(r)) {
        for (let i = 0; i < r.length; i++) {
          if (two) {
            s[it1] = i;
            s[it2] = r[i];
          } else s[it1] = r[i];
          if (cond !== undefined && cond(f) === false) break;
          try {
            s[accu] = step(f);
          } catch (x) {
            s[accu] = absorbable(x);
          }
          if (tracking) checkCost(f);
        }
      } else if (r instanceof CelMap) {
        for (const [k, v] of r.entries.values()) {
          s[it1] = k;
          if (two) s[it2] = v;
          if (cond !== undefined && cond(f) === false) break;
          try {
            s[accu] = step(f);
          } catch (x) {
            s[accu] = absorbable(x);
          }
          if (tracking) checkCost(f);
        }
      } else if (isPlainObject(r)) {
        for (const k in r) {
          s[it1] = k;
          if (two) s[it2] = r[k];
          if (cond !== undefined && cond(f) === false) break;
          try {
            s[accu] = step(f);
          } catch (x) {
            s[accu] = absorbable(x);
          }
          if (tracking) checkCost(f);
        }
      } else {
        throw new CelError(
          `expression of type '${typeName(r)}' cannot be range of a comprehension (must be list, map, or dynamic)`,
        );
      }
      const out = result(f);
      s[accu] = undefined;
      s[it1] = undefined;
      if (two) s[it2] = undefined;
      return out;
    };
  }

  // ---- calls ----------------------------------------------------------------

  private planCall(e: CallExpr): Interp {
    switch (e.fn) {
      case '_&&_':
        if (e.args.length === 2) return this.planAnd(this.plan(e.args[0]), this.plan(e.args[1]));
        break;
      case '_||_':
        if (e.args.length === 2) return this.planOr(this.plan(e.args[0]), this.plan(e.args[1]));
        break;
      case '_?_:_':
        if (e.args.length === 3) return this.planConditional(e);
        break;
      case '@not_strictly_false':
      case '__not_strictly_false__':
        if (e.args.length === 1) return this.planNotStrictlyFalse(this.plan(e.args[0]));
        break;
      case '_[_]':
        if (e.args.length === 2) return this.planIndex(e, false);
        break;
      case '_[?_]':
        if (e.args.length === 2) return this.planIndex(e, true);
        break;
      case '_?._':
        if (e.args.length === 2 && e.args[1].kind === 'const' && e.args[1].value.type === 'string') {
          const op = this.plan(e.args[0]);
          const field = e.args[1].value.value;
          return this.withCost((f) => optionalSelect(op(f), field), SELECT_AND_IDENT_COST);
        }
        break;
      case '@in':
        if (e.args.length === 2) return this.planIn(e);
        break;
      case '_+_':
        if (e.args.length === 2) {
          const fast = this.planAppend(e);
          if (fast !== undefined) return fast;
        }
        break;
    }
    return this.planFunction(e);
  }

  private planAnd(a: Interp, b: Interp): Interp {
    return (f) => {
      let err: CelError | undefined;
      try {
        const l = a(f);
        if (l === false) return false;
        if (l !== true) err = noSuchOverload('_&&_');
      } catch (e) {
        err = absorbable(e);
      }
      try {
        const r = b(f);
        if (r === false) return false;
        if (r !== true && err === undefined) err = noSuchOverload('_&&_');
      } catch (e) {
        const x = absorbable(e);
        if (err === undefined) err = x;
      }
      if (err !== undefined) throw err;
      return true;
    };
  }

  private planOr(a: Interp, b: Interp): Interp {
    return (f) => {
      let err: CelError | undefined;
      try {
        const l = a(f);
        if (l === true) return true;
        if (l !== false) err = noSuchOverload('_||_');
      } catch (e) {
        err = absorbable(e);
      }
      try {
        const r = b(f);
        if (r === true) return true;
        if (r !== false && err === undefined) err = noSuchOverload('_||_');
      } catch (e) {
        const x = absorbable(e);
        if (err === undefined) err = x;
      }
      if (err !== undefined) throw err;
      return false;
    };
  }

  private planConditional(e: CallExpr): Interp {
    const c = this.plan(e.args[0]);
    const t = this.plan(e.args[1]);
    const o = this.plan(e.args[2]);
    return (f) => {
      const v = c(f);
      if (v === true) return t(f);
      if (v === false) return o(f);
      throw noSuchOverload('_?_:_');
    };
  }

  private planNotStrictlyFalse(a: Interp): Interp {
    const k = this.constCost('not_strictly_false');
    const tracking = this.cost !== undefined;
    return (f) => {
      let r: boolean;
      try {
        r = a(f) !== false;
      } catch (e) {
        absorbable(e);
        r = true;
      }
      if (tracking) f.c += k;
      return r;
    };
  }

  private planIndex(e: CallExpr, optional: boolean): Interp {
    const c = this.plan(e.args[0]);
    const k = this.plan(e.args[1]);
    if (optional) return this.withCost((f) => optionalIndex(c(f), k(f)), SELECT_AND_IDENT_COST);
    const kc = e.args[1].kind === 'const' ? constantValue(e.args[1].value) : undefined;
    if (typeof kc === 'string') {
      // m['key'] on a map of strings, the common case.
      const inherited = inheritedName(kc);
      return this.withCost((f) => {
        const m = c(f);
        if (!inherited && isPlainObject(m)) {
          const v = m[kc];
          if (v !== undefined) return v;
        }
        return index(m, kc);
      }, SELECT_AND_IDENT_COST);
    }
    return this.withCost((f) => index(c(f), k(f)), SELECT_AND_IDENT_COST);
  }

  /** `x in c`: map keys, list elements by CEL equality. */
  private planIn(e: CallExpr): Interp {
    const x = this.plan(e.args[0]);
    const c = this.plan(e.args[1]);
    const kMap = this.constCost('in_map');
    const cost = this.cost;
    const inListCost = cost === undefined ? undefined : sizedCostOf(cost, 'in_list');
    return (f) => {
      const v = x(f);
      const m = c(f);
      if (Array.isArray(m)) {
        let r = false;
        for (let i = 0; i < m.length; i++) {
          if (celEquals(v, m[i])) {
            r = true;
            break;
          }
        }
        if (inListCost !== undefined) f.c += inListCost([v, m], r);
        return r;
      }
      if (m instanceof CelMap || isPlainObject(m)) {
        const r = hasKey(m as object, v);
        if (cost !== undefined) f.c += kMap;
        return r;
      }
      throw noSuchOverload('@in');
    };
  }

  /** `@result + [x]` inside a comprehension whose accumulator started as a
   * fresh `[]`: push in place (same result and cost as the copy). */
  private planAppend(e: CallExpr): Interp | undefined {
    const [l, r] = e.args;
    if (l.kind !== 'ident' || r.kind !== 'list' || r.elements.length !== 1 || r.optionalIndices.length > 0) return undefined;
    const loc = this.local(l.name);
    if (loc === undefined || !this.appendable.has(loc.slot)) return undefined;
    const slot = loc.slot;
    const x = this.plan(r.elements[0]);
    if (this.cost === undefined)
      return (f) => {
        const a = f.s[slot] as unknown[];
        if (a instanceof CelError) throw a;
        a.push(x(f));
        return a;
      };
    const k = SELECT_AND_IDENT_COST + LIST_CREATE_COST + this.constCost('add_list');
    return (f) => {
      const a = f.s[slot] as unknown[];
      if (a instanceof CelError) throw a;
      a.push(x(f));
      f.c += k;
      return a;
    };
  }

  private constCost(id: string): number {
    return this.cost?.constantCallCost(id) ?? 1;
  }

  /** Global calls of a namespaced function written as `a.b.f(x)`. */
  private namespacedFunction(e: CallExpr): string | undefined {
    if (e.target === undefined) return undefined;
    const q = this.qualifiedName(e.target);
    if (q === undefined) return undefined;
    for (const c of this.candidates(`${q}.${e.fn}`)) if (this.env.functions.has(c)) return c;
    return undefined;
  }

  private planFunction(e: CallExpr): Interp {
    let fnName = e.fn;
    let argExprs: Expr[];
    let receiverStyle: boolean;
    const ns = this.namespacedFunction(e);
    if (ns !== undefined && !(e.target?.kind === 'ident' && this.env.variables.has(e.target.name))) {
      fnName = ns;
      argExprs = e.args;
      receiverStyle = false;
    } else {
      argExprs = e.target !== undefined ? [e.target, ...e.args] : e.args;
      receiverStyle = e.target !== undefined;
      if (!this.env.functions.has(fnName)) {
        for (const c of this.candidates(fnName)) if (this.env.functions.has(c)) fnName = c;
      }
    }
    const args = argExprs.map((a) => this.plan(a));
    const decl = this.env.functions.get(fnName);
    const ref = this.refs?.get(e.id);
    const cands = this.candidatesFor(decl, ref?.overloadIds, args.length, receiverStyle);
    if (cands.length === 0) {
      const msg = `no matching overload for '${fnName}'`;
      return (f) => {
        for (const a of args) a(f);
        throw new CelError(msg);
      };
    }
    const guard = !this.checked || cands.length > 1 || argExprs.some((a) => needsGuard(this.types?.get(a.id)));
    if (cands.some((c) => c.impl.nonStrict)) return this.planNonStrict(fnName, args, cands);
    if (!guard) return this.planDirect(cands[0], args);
    return this.planDispatch(fnName, args, cands);
  }

  private candidatesFor(
    decl: FunctionDecl | undefined,
    ids: readonly string[] | undefined,
    arity: number,
    receiverStyle: boolean,
  ): Candidate[] {
    let decls: OverloadDecl[];
    if (ids !== undefined && ids.length > 0) {
      decls = [];
      for (const id of ids) {
        const d = decl?.overloads.find((o) => o.id === id);
        if (d !== undefined) decls.push(d);
        else {
          // The checker knows an overload this function table lacks: call it
          // with unchecked arguments.
          const impl = this.env.impls.get(id);
          if (impl !== undefined) decls.push({ id, params: new Array(arity).fill({ kind: 'dyn' }), result: { kind: 'dyn' }, receiver: receiverStyle });
        }
      }
    } else {
      const all = decl?.overloads.filter((o) => o.params.length === arity) ?? [];
      const same = all.filter((o) => o.receiver === receiverStyle);
      decls = same.length > 0 ? same : all;
    }
    const out: Candidate[] = [];
    for (const d of decls) {
      const impl = this.env.impls.get(d.id);
      if (impl !== undefined) out.push(candidate(d, impl));
    }
    return out;
  }

  private callCostOf(id: string): number | undefined {
    return this.cost === undefined ? 0 : this.cost.constantCallCost(id);
  }

  /** One overload, argument types known: call it. */
  private planDirect(c: Candidate, args: Interp[]): Interp {
    const id = c.decl.id;
    const k = this.callCostOf(id);
    const cost = this.cost;
    if (args.length === 1) {
      const fn = unaryOf(c.impl);
      const a = args[0];
      if (cost === undefined) return (f) => fn(a(f));
      if (k !== undefined)
        return (f) => {
          const r = fn(a(f));
          f.c += k;
          return r;
        };
      const sized = sizedCostOf(cost, id);
      return (f) => {
        const x = a(f);
        const r = fn(x);
        f.c += sized([x], r);
        return r;
      };
    }
    if (args.length === 2) {
      const fn = binaryOf(c.impl);
      const a = args[0];
      const b = args[1];
      if (cost === undefined) return (f) => fn(a(f), b(f));
      if (k !== undefined)
        return (f) => {
          const r = fn(a(f), b(f));
          f.c += k;
          return r;
        };
      const sized = sizedCostOf(cost, id);
      return (f) => {
        const x = a(f);
        const y = b(f);
        const r = fn(x, y);
        f.c += sized([x, y], r);
        return r;
      };
    }
    const fn = callOf(c.impl);
    const n = args.length;
    const sized = cost === undefined ? undefined : sizedCostOf(cost, id);
    return (f) => {
      const vs = new Array<unknown>(n);
      for (let i = 0; i < n; i++) vs[i] = args[i](f);
      const r = fn(vs);
      if (sized !== undefined) f.c += sized(vs, r);
      return r;
    };
  }

  /** Several overloads or dynamic arguments: pick by argument values. */
  private planDispatch(fnName: string, args: Interp[], cands: Candidate[]): Interp {
    const cost = this.cost;
    const ks = cands.map((c) => (cost === undefined ? undefined : sizedCostOf(cost, c.decl.id)));
    const err = `no matching overload for '${fnName}'`;
    if (args.length === 1) {
      const a = args[0];
      const fns = cands.map((c) => unaryOf(c.impl));
      const ps = cands.map((c) => c.preds[0]);
      const n = cands.length;
      return (f) => {
        const x = a(f);
        for (let i = 0; i < n; i++) {
          if (!ps[i](x)) continue;
          const r = fns[i](x);
          if (cost !== undefined) f.c += (ks[i] as SizedCost)([x], r);
          return r;
        }
        throw new CelError(err);
      };
    }
    if (args.length === 2) {
      const a = args[0];
      const b = args[1];
      const fns = cands.map((c) => binaryOf(c.impl));
      const p0 = cands.map((c) => c.preds[0]);
      const p1 = cands.map((c) => c.preds[1]);
      const n = cands.length;
      return (f) => {
        const x = a(f);
        const y = b(f);
        for (let i = 0; i < n; i++) {
          if (!p0[i](x) || !p1[i](y)) continue;
          const r = fns[i](x, y);
          if (cost !== undefined) f.c += (ks[i] as SizedCost)([x, y], r);
          return r;
        }
        throw new CelError(err);
      };
    }
    const fns = cands.map((c) => callOf(c.impl));
    const n = args.length;
    return (f) => {
      const vs = new Array<unknown>(n);
      for (let i = 0; i < n; i++) vs[i] = args[i](f);
      outer: for (let i = 0; i < cands.length; i++) {
        const ps: Pred[] = cands[i].preds;
        for (let j = 0; j < n; j++) if (!ps[j](vs[j])) continue outer;
        const r = fns[i](vs);
        if (cost !== undefined) f.c += (ks[i] as SizedCost)(vs, r);
        return r;
      }
      throw new CelError(err);
    };
  }

  /** Overloads that receive errors as arguments. */
  private planNonStrict(fnName: string, args: Interp[], cands: Candidate[]): Interp {
    const cost = this.cost;
    const err = `no matching overload for '${fnName}'`;
    const n = args.length;
    return (f) => {
      const vs = new Array<unknown>(n);
      let first: CelError | undefined;
      for (let i = 0; i < n; i++) {
        try {
          vs[i] = args[i](f);
        } catch (e) {
          vs[i] = absorbable(e);
          first ??= vs[i] as CelError;
        }
      }
      for (const c of cands) {
        if (!c.impl.nonStrict && first !== undefined) continue;
        if (!vs.every((v, j) => v instanceof CelError || c.preds[j](v))) continue;
        const r = callOf(c.impl)(vs);
        if (cost !== undefined) f.c += sizedCostOf(cost, c.decl.id)(vs, r);
        return r;
      }
      if (first !== undefined) throw first;
      throw new CelError(err);
    };
  }
}

function isTrueConst(e: Expr): boolean {
  return e.kind === 'const' && e.value.type === 'bool' && e.value.value === true;
}

/** The runtime value of a literal. */
export function constantValue(c: Constant): unknown {
  switch (c.type) {
    case 'null':
      return null;
    case 'bool':
    case 'string':
    case 'bytes':
      return c.value;
    case 'int':
      return intOf(c.value);
    case 'uint':
      return new Uint(intOf(c.value));
    case 'double':
      return new Double(c.value);
  }
}

/** Reads an object-typed field: the wire name, converted when the schema says so. */
function objectField(
  op: Interp,
  field: string,
  wire: string,
  convert: ((raw: unknown) => unknown) | undefined,
): Interp {
  const missing = `no such key: ${field}`;
  if (inheritedName(wire)) {
    return (f) => {
      const o = op(f);
      if (!isPlainObject(o) || !Object.prototype.hasOwnProperty.call(o, wire) || o[wire] === undefined) {
        return select(o, field);
      }
      return convert ? convert(o[wire]) : o[wire];
    };
  }
  if (convert !== undefined)
    return (f) => {
      const o = op(f) as Record<string, unknown>;
      if (typeof o === 'object' && o !== null) {
        const v = o[wire];
        if (v !== undefined) return convert(v);
        if (isPlainObject(o)) throw new CelError(missing);
      }
      return select(o, field);
    };
  return (f) => {
    const o = op(f) as Record<string, unknown>;
    if (typeof o === 'object' && o !== null) {
      const v = o[wire];
      if (v !== undefined) return v;
      if (isPlainObject(o)) throw new CelError(missing);
    }
    return select(o, field);
  };
}

function unaryOf(impl: OverloadImpl): (a: unknown) => unknown {
  if (impl.unary) return impl.unary;
  const call = impl.call;
  if (call) return (a) => call([a]);
  return () => {
    throw noSuchOverload(impl.id);
  };
}

function binaryOf(impl: OverloadImpl): (a: unknown, b: unknown) => unknown {
  if (impl.binary) return impl.binary;
  const call = impl.call;
  if (call) return (a, b) => call([a, b]);
  return () => {
    throw noSuchOverload(impl.id);
  };
}

function callOf(impl: OverloadImpl): (args: unknown[]) => unknown {
  if (impl.call) return impl.call;
  const { unary, binary } = impl;
  return (args) => {
    if (args.length === 1 && unary) return unary(args[0]);
    if (args.length === 2 && binary) return binary(args[0], args[1]);
    throw noSuchOverload(impl.id);
  };
}

export { predicateOf };
