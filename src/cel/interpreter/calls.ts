// Binding a call to its overloads once its arguments are planned: the
// candidates the checker's references (or the arity) allow, folding calls on
// constants, a direct call when one overload is certain, dispatch on the
// argument values otherwise, and non-strict functions that see errors as
// values. With cost tracking each closure adds cel-go's call cost.
import type { FunctionDecl, OverloadDecl, OverloadImpl } from '../decls.js';
import { CelError } from '../values.js';
import { type CallCosts, type SizedCost, sizedCostOf, type BinarySizedCost, binarySizedCostOf } from './cost.js';
import { type Candidate, candidate, type Pred } from './dispatch.js';
import { absorbable, type Interp, noSuchOverload } from './frame.js';
import { constants, costFree, foldedCost } from './constfold.js';
import type { PlanEnv } from './planner.js';

const byId = new WeakMap<FunctionDecl, Map<string, OverloadDecl>>();

/** A function's overloads by id (built once per declaration). */
function overloadsById(f: FunctionDecl): Map<string, OverloadDecl> {
  let m = byId.get(f);
  if (m === undefined) byId.set(f, (m = new Map(f.overloads.map((o) => [o.id, o]))));
  return m;
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

export class CallBinder {
  constructor(
    private readonly env: PlanEnv,
    private readonly cost: CallCosts | undefined,
    private readonly optimize: boolean,
  ) {}

  candidatesFor(
    decl: FunctionDecl | undefined,
    ids: readonly string[] | undefined,
    arity: number,
    receiverStyle: boolean,
  ): Candidate[] {
    let decls: OverloadDecl[];
    if (ids !== undefined && ids.length > 0) {
      decls = [];
      for (const id of ids) {
        const d = decl === undefined ? undefined : overloadsById(decl).get(id);
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

  /** A call whose arguments are all literals (or folded calls) is evaluated
   * once, when planning: CEL functions are pure. The result is a constant
   * whose evaluation still adds the cost cel-go would count for the calls. */
  fold(args: Interp[], cands: Candidate[], free = false): Interp | undefined {
    if (args.length === 0 || !args.every((a) => constants.has(a))) return undefined;
    const vals = args.map((a) => constants.get(a));
    let argCost = 0;
    for (const a of args) argCost += foldedCost.get(a) ?? 0;
    const c = cands.find((x) => x.preds.every((p, i) => p(vals[i])));
    if (c === undefined) return undefined;
    let v: unknown;
    try {
      v = callOf(c.impl)(vals);
    } catch (e) {
      if (e instanceof CelError) return undefined; // raised at evaluation
      throw e;
    }
    const k = this.cost === undefined || free ? 0 : argCost + sizedCostOf(this.cost, c.decl.id)(vals, v);
    const out: Interp =
      k === 0
        ? () => v
        : (f) => {
            f.c += k;
            return v;
          };
    constants.set(out, v);
    foldedCost.set(out, k);
    return out;
  }

  /** One overload, argument types known: call it. */
  planDirect(c: Candidate, args: Interp[]): Interp {
    const id = c.decl.id;
    const k = this.callCostOf(id);
    const cost = this.cost;
    if (args.length === 1) {
      const fn = unaryOf(c.impl);
      const a = args[0];
      if (cost === undefined) return (f) => fn(a(f));
      // A constant cost is charged first: cel-go charges a call that fails,
      // or whose argument failed, as one that succeeds.
      if (k !== undefined)
        return (f) => {
          f.c += k;
          return fn(a(f));
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
      if (costFree(b) && (cost === undefined || k !== undefined)) {
        const y = constants.get(b);
        const kk = k ?? 0;
        return cost === undefined
          ? (f) => fn(a(f), y)
          : (f) => {
              f.c += kk;
              return fn(a(f), y);
            };
      }
      if (cost === undefined) return (f) => fn(a(f), b(f));
      if (k !== undefined)
        return (f) => {
          f.c += k;
          return fn(a(f), b(f));
        };
      const sized = binarySizedCostOf(cost, id);
      return (f) => {
        const x = a(f);
        const y = b(f);
        const r = fn(x, y);
        f.c += sized(x, y, r);
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
  planDispatch(fnName: string, args: Interp[], cands: Candidate[]): Interp {
    const cost = this.cost;
    const ks = cands.map((c) => (cost === undefined ? undefined : sizedCostOf(cost, c.decl.id)));
    const err = `no matching overload for '${fnName}'`;
    if (args.length === 1) {
      const a = args[0];
      const fns = cands.map((c) => unaryOf(c.impl));
      const ps = cands.map((c) => c.preds[0]);
      const n = cands.length;
      let last = 0;
      return (f) => {
        const x = a(f);
        let i = last;
        if (!ps[i](x)) {
          for (i = 0; i < n; i++) if (ps[i](x)) break;
          if (i === n) {
            if (cost !== undefined) f.c += 1;
            throw new CelError(err);
          }
          last = i;
        }
        const r = fns[i](x);
        if (cost !== undefined) f.c += (ks[i] as SizedCost)([x], r);
        return r;
      };
    }
    if (args.length === 2 && costFree(args[1])) {
      // `x op literal`: only the overloads taking the literal remain.
      const y = constants.get(args[1]);
      const kept = cands.filter((c) => c.preds[1](y));
      const a = args[0];
      const fns = kept.map((c) => binaryOf(c.impl));
      const p0 = kept.map((c) => c.preds[0]);
      const bks = kept.map((c) => (cost === undefined ? undefined : binarySizedCostOf(cost, c.decl.id)));
      const n = kept.length;
      if (n === 1) {
        const p = p0[0];
        const fn = fns[0];
        const bk = bks[0];
        const k = cost === undefined ? 0 : cost.constantCallCost(kept[0].decl.id);
        if (k !== undefined) {
          // A constant cost (0 without tracking) is added, never a call.
          return (f) => {
            f.c += k;
            const x = a(f);
            if (!p(x)) throw new CelError(err);
            return fn(x, y);
          };
        }
        return (f) => {
          const x = a(f);
          if (!p(x)) {
            if (bk !== undefined) f.c += 1;
            throw new CelError(err);
          }
          const r = fn(x, y);
          if (bk !== undefined) f.c += bk(x, y, r);
          return r;
        };
      }
      let last = 0;
      return (f) => {
        const x = a(f);
        let i = last;
        if (n === 0 || !p0[i](x)) {
          for (i = 0; i < n; i++) if (p0[i](x)) break;
          if (i === n) {
            if (cost !== undefined) f.c += 1;
            throw new CelError(err);
          }
          last = i;
        }
        const r = fns[i](x, y);
        if (cost !== undefined) f.c += (bks[i] as BinarySizedCost)(x, y, r);
        return r;
      };
    }
    if (args.length === 2) {
      const a = args[0];
      const b = args[1];
      const fns = cands.map((c) => binaryOf(c.impl));
      const p0 = cands.map((c) => c.preds[0]);
      const p1 = cands.map((c) => c.preds[1]);
      const bks = cands.map((c) => (cost === undefined ? undefined : binarySizedCostOf(cost, c.decl.id)));
      // Constant costs as numbers (-1: ask the cost function).
      const kn = cands.map((c) => (cost === undefined ? 0 : (cost.constantCallCost(c.decl.id) ?? -1)));
      const n = cands.length;
      // The overload the last call took is tried first (a call site mostly
      // sees one kind of argument).
      let last = 0;
      return (f) => {
        const x = a(f);
        const y = b(f);
        let i = last;
        if (!p0[i](x) || !p1[i](y)) {
          for (i = 0; i < n; i++) if (p0[i](x) && p1[i](y)) break;
          if (i === n) {
            if (cost !== undefined) f.c += 1;
            throw new CelError(err);
          }
          last = i;
        }
        const r = fns[i](x, y);
        const k = kn[i];
        f.c += k >= 0 ? k : (bks[i] as BinarySizedCost)(x, y, r);
        return r;
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
      if (cost !== undefined) f.c += 1;
      throw new CelError(err);
    };
  }

  /** Overloads that receive errors as arguments. */
  planNonStrict(fnName: string, args: Interp[], cands: Candidate[]): Interp {
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
