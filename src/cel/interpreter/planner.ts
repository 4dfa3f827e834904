// The planner: a checked (or unchecked) AST becomes a tree of closures over a
// Frame, decided once per program. Constants are built once, identifiers are
// slots, calls resolved by the checker to one overload call it directly,
// others dispatch on argument values. With cost tracking, each step adds
// cel-go's runtime cost to the frame (decided at plan time: without tracking
// the closures carry no cost code at all).

import type { CallExpr, ComprehensionExpr, Expr, ListExpr, MapExpr, SelectExpr } from '../ast.js';
import type { FunctionDecl, OverloadImpl } from '../decls.js';
import type { Type } from '../types.js';
import { k8sListConcat, k8sListEquals, type K8sList } from '../k8s/lists.js';
import { celEquals } from '../runtime/equality.js';
import { TYPE_BY_NAME } from '../runtime/typeof.js';
import { CelError, CelMap, Optional, TypeValue } from '../values.js';
import { hasKey, index, inheritedName, isPlainObject, mapSet, optionalIndex, optionalSelect, present, select, typeName } from './access.js';
import { type CallCosts, LIST_CREATE_COST, MAP_CREATE_COST, SELECT_AND_IDENT_COST, sizedCostOf, binarySizedCostOf } from './cost.js';
import { needsGuard, predicateOf } from './dispatch.js';
import { absorbable, checkCost, type Frame, type Interp, noSuchOverload } from './frame.js';
import { CallBinder } from './calls.js';
import { constantOf, constants, CONVERSIONS, costFree, isPrimitive } from './constfold.js';
import { constantValue, isAttribute, isTrueConst, quantifierOf, type Quantifier } from './shapes.js';

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
  /** cel-go's OptOptimize, as Kubernetes plans CRD rules and admission
   * programs: list and map literals of constants are constants (cost 0),
   * `x in <constant list of primitives>` is a set lookup that is not a call
   * (cost 0; false without evaluating x when the list is empty), and a type
   * conversion of a constant is folded (cost 0). */
  optimize?: boolean;
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
  private readonly optimize: boolean;
  private readonly names: string[] = [];
  private readonly nameSlots = new Map<string, number>();
  private readonly locals: Scope[] = [];
  private nextSlot = 0;
  private readonly localSet = new Set<number>();
  private readonly accuSet = new Set<number>();
  /** Slots of comprehension accumulators currently safe to append to in place. */
  private readonly appendable = new Set<number>();
  /** Binds calls to their overloads once their arguments are planned (calls.ts). */
  private readonly calls: CallBinder;

  constructor(
    private readonly input: PlanInput,
    private readonly env: PlanEnv,
    opts: PlanOptions,
  ) {
    this.types = input.types;
    this.refs = input.refs;
    this.checked = input.refs !== undefined;
    this.cost = opts.cost;
    this.optimize = opts.optimize === true;
    this.calls = new CallBinder(env, opts.cost, this.optimize);
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

  /** Plans e; with drop, an attribute's base charge is left out (cel-go
   * resolves the attributes of `?:` branches and of index keys without
   * observing them: only their qualifiers and operands are charged). */
  private plan(e: Expr, drop = false): Interp {
    switch (e.kind) {
      case 'const': {
        const v = constantValue(e.value);
        const c = (): unknown => v;
        constants.set(c, v);
        return c;
      }
      case 'ident':
        return this.planIdent(e.id, e.name, drop);
      case 'select':
        return this.planSelect(e, drop);
      case 'call':
        return this.planCall(e, drop);
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

  /** A step charged before it runs: also when it fails (cel-go observes a
   * failed qualifier like a successful one). */
  private chargeFirst(f: Interp, k: number): Interp {
    if (this.cost === undefined || k === 0) return f;
    return (fr) => {
      fr.c += k;
      return f(fr);
    };
  }

  private readSlot(slot: number, name: string, drop = false): Interp {
    const tracking = this.cost !== undefined && !drop;
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

  private planIdent(id: number, name: string, drop = false): Interp {
    const loc = this.local(name);
    if (loc !== undefined) return this.readSlot(loc.slot, name, drop);
    if (this.checked) {
      const resolved = this.refs?.get(id)?.name ?? name;
      return this.planResolvedName(resolved, id, drop);
    }
    return this.planMaybeName(name, [], drop);
  }

  /** A name the checker resolved: a declared variable or a type. */
  private planResolvedName(name: string, id: number, drop = false): Interp {
    const abs = name.startsWith('.') ? name.slice(1) : name;
    const declared = this.env.variables.get(abs);
    // Type identifiers (`int`, `list`, a schema's object types) are declared
    // as variables of type type(T) by their library: they are constants.
    if (declared === undefined || declared.kind === 'type') {
      const tv = this.typeValue(abs, declared === undefined ? id : undefined);
      if (tv !== undefined) return () => tv;
    }
    if (declared !== undefined) return this.readSlot(this.nameSlot(abs), abs, drop);
    // Declared by no one the planner knows: read it from the activation.
    return this.readSlot(this.nameSlot(abs), abs, drop);
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
  private planMaybeName(name: string, fields: string[], drop = false): Interp {
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
    if (alts.length === 1 && alts[0].fields.length === 0 && tv === undefined) return this.readSlot(alts[0].slot, name, drop);
    const base = drop ? 0 : SELECT_AND_IDENT_COST;
    return (f) => {
      for (let i = 0; i < alts.length; i++) {
        const a = alts[i];
        let v = f.s[a.slot];
        if (v === UNBOUND) continue;
        if (tracking) f.c += base;
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

  private planSelect(e: SelectExpr, drop = false): Interp {
    if (this.checked) {
      const ref = this.refs?.get(e.id);
      if (ref?.name !== undefined && !e.testOnly) return this.planResolvedName(ref.name, e.id, drop);
    } else if (!e.testOnly && !e.optional) {
      // A chain of selects over an identifier: a maybe-qualified name.
      const fields: string[] = [];
      let cur: Expr = e;
      while (cur.kind === 'select' && !cur.testOnly && !cur.optional) {
        fields.unshift(cur.field);
        cur = cur.operand;
      }
      if (cur.kind === 'ident' && this.local(cur.name) === undefined) return this.planMaybeName(cur.name, fields, drop);
    }
    // The operand of a selection is an attribute (its base charge dropped
    // with this one's), or a value that becomes a relative attribute (1 more).
    const opAttr = isAttribute(e.operand);
    const op = this.plan(e.operand, drop && opAttr && !e.testOnly);
    const selCost = e.testOnly ? 0 : SELECT_AND_IDENT_COST + (opAttr || drop ? 0 : SELECT_AND_IDENT_COST);
    const field = e.field;
    // A presence test costs its operand only (cel-go v0.12: evalTestOnly is
    // neither an attribute nor a call).
    if (e.testOnly) {
      const wire = this.wireName(e.operand, field);
      // a null member of a schema object (one with properties) is absent, as
      // Kubernetes' unstructuredMap.Find reads it; maps and dyn keep nulls
      if (this.types?.get(e.operand.id)?.kind === 'object') {
        return (f) => {
          const o = op(f);
          return present(o, wire) && (o as Record<string, unknown>)[wire] !== null;
        };
      }
      return (f) => present(op(f), wire);
    }
    if (e.optional) {
      const wire = this.wireName(e.operand, field);
      return this.chargeFirst((f) => optionalSelect(op(f), wire), selCost);
    }
    const opType = this.types?.get(e.operand.id);
    if (opType?.kind === 'object') {
      const ft = opType.fields.get(field);
      if (ft !== undefined) return this.chargeFirst(objectField(op, field, ft.wireName, ft.convert), selCost);
    }
    const tracking = this.cost !== undefined;
    if (inheritedName(field)) return this.chargeFirst((f) => select(op(f), field), selCost);
    // `x.f` on a comprehension variable: one closure reads the slot.
    const operand = e.operand;
    const loc = operand.kind === 'ident' ? this.local(operand.name) : undefined;
    if (loc !== undefined && !this.accuSet.has(loc.slot)) {
      const slot = loc.slot;
      const both = selCost + (drop ? 0 : SELECT_AND_IDENT_COST);
      return (f) => {
        const o = f.s[slot] as Record<string, unknown>;
        if (tracking) f.c += both;
        if (typeof o === 'object' && o !== null && o.constructor === Object) {
          const v = o[field];
          if (v !== undefined) return v;
        }
        return select(o, field);
      };
    }
    return (f) => {
      const o = op(f) as Record<string, unknown>;
      if (tracking) f.c += selCost;
      if (typeof o === 'object' && o !== null && o.constructor === Object) {
        const v = o[field];
        if (v !== undefined) return v;
      }
      return select(o, field);
    };
  }

  /** The data's property name of a field of an object-typed operand (its
   * CEL name may be escaped); the name itself for maps and dyn. */
  private wireName(operand: Expr, field: string): string {
    const t = this.types?.get(operand.id);
    return t?.kind === 'object' ? (t.fields.get(field)?.wireName ?? field) : field;
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
    if (this.optimize && e.optionalIndices.length === 0 && elems.every(costFree)) {
      return constantOf(elems.map((x) => constants.get(x)));
    }
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
    if (this.optimize && !opt.includes(true) && keys.every(costFree) && vals.every(costFree)) {
      const m = new CelMap();
      try {
        for (let i = 0; i < n; i++) mapSet(m, constants.get(keys[i]), constants.get(vals[i]));
        return constantOf(m);
      } catch (x) {
        absorbable(x); // a duplicate or invalid key: raised at evaluation
      }
    }
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
    const q = quantifierOf(e);
    if (q !== undefined) return this.planQuantifier(e, q.kind, q.pred);
    const range = this.plan(e.iterRange);
    // A fresh empty list accumulator may be appended to in place (cel-go's
    // mutable accumulator): `accu + [x]` then costs O(1).
    const freshList = e.accuInit.kind === 'list' && e.accuInit.elements.length === 0;
    // Optimized, `[]` is a shared constant: the accumulator gets its own.
    const init = freshList && this.optimize ? () => [] : this.plan(e.accuInit);
    const accu = this.newLocal();
    this.accuSet.add(accu);
    const it1 = this.newLocal();
    const it2 = e.iterVar2 !== undefined ? this.newLocal() : -1;
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

  /** all / exists / exists_one as one loop over the predicate, with the
   * fold's semantics (errors absorbed when another element decides) and its
   * exact cost (the condition and accumulator reads the fold would make). */
  private planQuantifier(e: ComprehensionExpr, kind: Quantifier, predExpr: Expr): Interp {
    const range = this.plan(e.iterRange);
    const it1 = this.newLocal();
    const it2 = e.iterVar2 !== undefined ? this.newLocal() : -1;
    this.locals.push({ name: e.iterVar, slot: it1 });
    if (e.iterVar2 !== undefined) this.locals.push({ name: e.iterVar2, slot: it2 });
    const pred = this.plan(predExpr);
    this.locals.length -= e.iterVar2 !== undefined ? 2 : 1;
    const two = e.iterVar2 !== undefined;
    const tracking = this.cost !== undefined;
    const A = SELECT_AND_IDENT_COST;
    // Per iteration: the condition (all: @not_strictly_false(accu); exists:
    // @not_strictly_false(!accu); exists_one: `true`) and the step's read of
    // the accumulator; then the result's read (exists_one: accu == 1).
    const kCond =
      kind === 'all'
        ? A + this.constCost('not_strictly_false')
        : kind === 'exists'
          ? A + this.constCost('logical_not') + this.constCost('not_strictly_false')
          : 0;
    const kIter = kCond + A;
    const kCount = this.constCost('add_int64');
    const kResult = kind === 'existsOne' ? A + this.constCost('equals') : A;
    const decides = kind === 'all' ? false : true;
    const op = kind === 'all' ? '_&&_' : kind === 'exists' ? '_||_' : '_?_:_';
    const rangeError = (r: unknown): CelError =>
      new CelError(`expression of type '${typeName(r)}' cannot be range of a comprehension (must be list, map, or dynamic)`);
    return (f) => {
      const r = range(f);
      const s = f.s;
      let keys: readonly unknown[];
      let vals: readonly unknown[] | undefined;
      if (Array.isArray(r)) keys = r;
      else if (r instanceof CelMap) {
        const ks: unknown[] = [];
        const vs: unknown[] = [];
        for (const [k, v] of r.entries.values()) {
          ks.push(k);
          vs.push(v);
        }
        keys = ks;
        vals = vs;
      } else if (isPlainObject(r)) {
        keys = Object.keys(r);
        if (two) vals = (keys as string[]).map((k) => r[k]);
      } else throw rangeError(r);
      const n = keys.length;
      const list = vals === undefined;
      let err: CelError | undefined;
      let count = 0;
      for (let i = 0; i < n; i++) {
        if (two) {
          s[it1] = list ? i : keys[i];
          s[it2] = list ? keys[i] : (vals as unknown[])[i];
        } else s[it1] = keys[i];
        let v: unknown;
        try {
          v = pred(f);
        } catch (x) {
          v = absorbable(x);
        }
        if (kind === 'existsOne') {
          if (v === true) {
            count++;
            if (tracking) f.c += A + kCount;
          } else {
            if (v !== false) err = v instanceof CelError ? v : noSuchOverload(op);
            if (tracking) f.c += A;
          }
        } else {
          if (tracking) f.c += kIter;
          if (v === decides) {
            // The next condition sees the decided accumulator and stops.
            if (tracking) {
              if (i + 1 < n) f.c += kCond;
              f.c += kResult;
              checkCost(f);
            }
            return decides;
          }
          if (v !== !decides && err === undefined) err = v instanceof CelError ? v : noSuchOverload(op);
        }
        if (f.c > f.limit) checkCost(f);
      }
      if (tracking) f.c += kResult;
      s[it1] = undefined;
      if (two) s[it2] = undefined;
      if (err !== undefined) throw err;
      return kind === 'existsOne' ? count === 1 : !decides;
    };
  }

  // ---- calls ----------------------------------------------------------------

  private planCall(e: CallExpr, drop = false): Interp {
    switch (e.fn) {
      case '_&&_':
        if (e.args.length === 2) return this.planLogical(this.plan(e.args[0]), this.plan(e.args[1]), false, '_&&_');
        break;
      case '_||_':
        if (e.args.length === 2) return this.planLogical(this.plan(e.args[0]), this.plan(e.args[1]), true, '_||_');
        break;
      case '_?_:_':
        if (e.args.length === 3) return this.planConditional(e);
        break;
      case '@not_strictly_false':
      case '__not_strictly_false__':
        if (e.args.length === 1) return this.planNotStrictlyFalse(this.plan(e.args[0]));
        break;
      case '_[_]':
        if (e.args.length === 2) return this.planIndex(e, false, drop);
        break;
      case '_[?_]':
        if (e.args.length === 2) return this.planIndex(e, true, drop);
        break;
      case '_?._':
        if (e.args.length === 2 && e.args[1].kind === 'const' && e.args[1].value.type === 'string') {
          const opAttr = isAttribute(e.args[0]);
          const op = this.plan(e.args[0], drop && opAttr);
          const field = this.wireName(e.args[0], e.args[1].value.value);
          const k = SELECT_AND_IDENT_COST + (opAttr || drop ? 0 : SELECT_AND_IDENT_COST);
          return this.chargeFirst((f) => optionalSelect(op(f), field), k);
        }
        break;
      case '@in':
        if (e.args.length === 2) return this.planIn(e);
        break;
      case '_+_':
        if (e.args.length === 2) {
          const fast = this.planAppend(e);
          if (fast !== undefined) return fast;
          const k = this.k8sListOf(e.args[0]);
          if (k !== undefined)
            return this.planK8sList(e, 'add_list', (x, y) => k8sListConcat(k, x, y), () => {
              throw noSuchOverload('_+_');
            });
        }
        break;
      case '_==_':
      case '_!=_':
        if (e.args.length === 2) {
          const k = this.k8sListOf(e.args[0]);
          const ne = e.fn === '_!=_';
          if (k !== undefined)
            return this.planK8sList(
              e,
              ne ? 'not_equals' : 'equals',
              (x, y) => k8sListEquals(k, x, y) !== ne,
              (x, y) => celEquals(x, y) !== ne,
            );
        }
        break;
    }
    return this.planFunction(e);
  }

  /** `&&` (decides on false) and `||` (decides on true): either side that
   * decides wins, errors and non-bools on either side absorbed by it (CEL's
   * commutative logic); otherwise the first error, else the other value. */
  private planLogical(a: Interp, b: Interp, decides: boolean, op: '_&&_' | '_||_'): Interp {
    return (f) => {
      let err: CelError | undefined;
      try {
        const l = a(f);
        if (l === decides) return decides;
        if (l !== !decides) err = noSuchOverload(op);
      } catch (e) {
        err = absorbable(e);
      }
      try {
        const r = b(f);
        if (r === decides) return decides;
        if (r !== !decides && err === undefined) err = noSuchOverload(op);
      } catch (e) {
        const x = absorbable(e);
        if (err === undefined) err = x;
      }
      if (err !== undefined) throw err;
      return !decides;
    };
  }

  /** cel-go v0.12 plans `?:` as a conditional attribute: it costs nothing
   * itself, and a branch that is an attribute is resolved without its base
   * charge (its qualifiers and operands are charged). */
  private planConditional(e: CallExpr): Interp {
    const c = this.plan(e.args[0]);
    const t = this.plan(e.args[1], isAttribute(e.args[1]));
    const o = this.plan(e.args[2], isAttribute(e.args[2]));
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

  private planIndex(e: CallExpr, optional: boolean, drop = false): Interp {
    // cel-go: the operand is an attribute (its base charge dropped with
    // this one's) or a value that becomes a relative attribute (charged 1
    // more); a key that is an attribute is resolved as a qualifier, without
    // its base charge.
    const opAttr = isAttribute(e.args[0]);
    const c = this.plan(e.args[0], drop && opAttr);
    const k = this.plan(e.args[1], isAttribute(e.args[1]));
    const k0 = SELECT_AND_IDENT_COST + (opAttr || drop ? 0 : SELECT_AND_IDENT_COST);
    if (optional) return this.chargeFirst((f) => optionalIndex(c(f), k(f)), k0);
    const kc = e.args[1].kind === 'const' ? constantValue(e.args[1].value) : undefined;
    if (typeof kc === 'string') {
      // m['key'] on a map of strings, the common case.
      if (inheritedName(kc)) return this.chargeFirst((f) => index(c(f), kc), k0);
      return this.chargeFirst((f) => {
        const m = c(f) as Record<string, unknown>;
        if (typeof m === 'object' && m !== null && m.constructor === Object) {
          const v = m[kc];
          if (v !== undefined) return v;
        }
        return index(m, kc);
      }, k0);
    }
    return this.chargeFirst((f) => index(c(f), k(f)), k0);
  }

  /** The x-kubernetes-list-type of a list-typed operand (set or map lists
   * compare and concatenate by their own rules). */
  private k8sListOf(e: Expr): K8sList | undefined {
    const t = this.types?.get(e.id);
    if (t?.kind === 'list' && t.k8sList !== undefined) return t.k8sList;
    // the checker types `x + y` as a plain list; kube's result keeps x's list type
    if (e.kind === 'call' && e.fn === '_+_' && e.target === undefined && e.args.length === 2) return this.k8sListOf(e.args[0]!);
    return undefined;
  }

  /** `==`, `!=`, `+` whose left operand is a Kubernetes set or map list: two
   * lists go through the list type's rule, anything else through the
   * standard overloads. Costs as the standard overload's. */
  private planK8sList(
    e: CallExpr,
    id: string,
    onLists: (x: readonly unknown[], y: readonly unknown[]) => unknown,
    otherwise: (x: unknown, y: unknown) => unknown,
  ): Interp {
    const a = this.plan(e.args[0]);
    const b = this.plan(e.args[1]);
    const cost = this.cost;
    const sized = cost === undefined ? undefined : binarySizedCostOf(cost, id);
    return (f) => {
      const x = a(f);
      const y = b(f);
      const r = Array.isArray(x) && Array.isArray(y) ? onLists(x, y) : otherwise(x, y);
      if (sized !== undefined) f.c += sized(x, y, r);
      return r;
    };
  }

  /** `x in c`: map keys, list elements by CEL equality. */
  private planIn(e: CallExpr): Interp {
    const x = this.plan(e.args[0]);
    const c = this.plan(e.args[1]);
    const emptyLiteral = e.args[1].kind === 'list' && e.args[1].elements.length === 0;
    if (this.optimize && (costFree(c) || emptyLiteral)) {
      const list = emptyLiteral ? [] : constants.get(c);
      if (Array.isArray(list) && list.every(isPrimitive)) {
        // cel-go's set membership: not a call, so not charged.
        if (list.length === 0) return constantOf(false);
        const n = list.length;
        return (f) => {
          const v = x(f);
          for (let i = 0; i < n; i++) if (celEquals(v, list[i])) return true;
          return false;
        };
      }
    }
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
    const cands = this.calls.candidatesFor(decl, ref?.overloadIds, args.length, receiverStyle);
    if (cands.length === 0) {
      const msg = `no matching overload for '${fnName}'`;
      return (f) => {
        for (const a of args) a(f);
        throw new CelError(msg);
      };
    }
    const guard = !this.checked || cands.length > 1 || argExprs.some((a) => needsGuard(this.types?.get(a.id)));
    if (cands.some((c) => c.impl.nonStrict)) return this.calls.planNonStrict(fnName, args, cands);
    const folded = this.calls.fold(args, cands, this.optimize && args.length === 1 && CONVERSIONS.has(fnName) && costFree(args[0]));
    if (folded !== undefined) return folded;
    if (!guard) return this.calls.planDirect(cands[0], args);
    return this.calls.planDispatch(fnName, args, cands);
  }

}

/** Reads an object-typed field: the wire name, converted when the schema says so.
 * A null member is absent (Kubernetes' unstructuredMap.Find: a nullable
 * field set to null reads as an unset optional field). */
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
      if (isPlainObject(o) && Object.prototype.hasOwnProperty.call(o, wire) && o[wire] === null) throw new CelError(missing);
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
        if (v !== undefined && v !== null) return convert(v);
        if (isPlainObject(o)) throw new CelError(missing);
      }
      return select(o, field);
    };
  return (f) => {
    const o = op(f) as Record<string, unknown>;
    if (typeof o === 'object' && o !== null) {
      const v = o[wire];
      if (v !== undefined && v !== null) return v;
      if (isPlainObject(o)) throw new CelError(missing);
    }
    return select(o, field);
  };
}

export { constantValue, predicateOf };
