// Static cost estimation of a checked expression: cel-go's checker/cost.go
// (v0.12.7, as Kubernetes v1.27 vendors it) with, in the 'kubernetes'
// model, Kubernetes' library estimator (apiserver pkg/cel/library/cost.go)
// and its schema size estimator (apiextensions schema/cel/compilation.go).
//
// The walk returns a [min, max] interval of cost units:
//   constant 0; identifier 1; select 1 on a map/object (0 on dyn, 0 for
//   has()); list/map/message literal 10/30/40 plus their parts;
//   call = its arguments (and receiver) + the function's cost, where most
//   functions cost 1 and string/regex/list functions scale with the size
//   estimates of their arguments; comprehension = range + init + result +
//   size(range) × (condition + step).
//
// Sizes come, in order, from what the expression itself shows (literals,
// concatenations and other call results), from the size estimator, and
// else 1 for fixed-size scalars and [0, 2^64) for the rest. The default
// size estimator is Kubernetes': only a node reachable from a variable by
// fields, `@items` (list elements, map values by index), `@keys` (map keys
// of a comprehension) has a size, and it is [0, bound] where bound is the
// Type's maxLength (primitives) or maxElements (lists, maps, objects) — the
// value of kube's DeclType.MaxElements, which the schema mapping puts there:
// for a string with a schema maxLength that is 4 × maxLength (kube counts
// a code point as up to 4 bytes), otherwise kube's per-request estimate
// (see k8s/schema.ts); a type without a bound (scalars, objects, map keys)
// has size [0, 0], exactly as kube's zero MaxElements gives.

import { ACCU_VAR, type Expr, type CallExpr, type ComprehensionExpr } from '../ast.js';
import type { Type } from '../types.js';
import {
  CONST_COST,
  LIST_CREATE_BASE_COST,
  MAP_CREATE_BASE_COST,
  REGEX_STRING_LENGTH_COST_FACTOR as REGEX_FACTOR,
  SELECT_AND_IDENT_COST,
  STRING_TRAVERSAL_COST_FACTOR as STR_FACTOR,
  STRUCT_CREATE_BASE_COST,
  type CostModel,
} from './constants.js';
import { type CostEstimate, type SizeEstimate, MAX_UINT64, ONE, UNBOUNDED, ZERO, addE, est, factorE, mulE, unionE } from './arith.js';
import { KUBE_ESTIMATED, kubeCallEstimate } from './kubeestimate.js';

export type { CostEstimate, SizeEstimate } from './arith.js';

/** What the estimator needs of a checked expression (the checker's
 * CheckedExpr has this shape): types and overload references by node id. */
export interface CheckedForCost {
  expr: Expr;
  types: ReadonlyMap<number, Type>;
  refs: ReadonlyMap<number, { overloadIds?: readonly string[] }>;
}

/** A node as the size and call estimators see it (cel-go's AstNode). */
export interface CostNode {
  /** Absent for a list element node made up by an estimator. */
  readonly expr: Expr | undefined;
  readonly type: Type | undefined;
  /** Variable name, then field names, `@items`, `@keys`, `@values`; absent
   * when the node is not reached from a variable (or from the accumulator). */
  readonly path: readonly string[] | undefined;
  /** The Type reached by walking path from the variable's type (kube's
   * sizeEstimator walk); absent when there is no path or the walk fails. */
  readonly pathType: Type | undefined;
  /** The size the expression itself shows (literals, call results). */
  readonly computedSize: SizeEstimate | undefined;
}

export interface CallEstimate {
  cost: CostEstimate;
  resultSize?: SizeEstimate;
}

export type SizeEstimator = (node: CostNode) => SizeEstimate | undefined;
export type CallEstimator = (
  fn: string,
  overloadId: string,
  target: CostNode | undefined,
  args: readonly CostNode[],
) => CallEstimate | undefined;

export interface EstimateOptions {
  /** 'kubernetes' (default) adds Kubernetes' library estimator; 'cel' is
   * cel-go's alone. */
  model?: CostModel;
  /** Sizes of nodes the expression does not size itself; default
   * schemaSizes (the bounds on the Types, Kubernetes' way). */
  sizes?: SizeEstimator;
  /** Extra call estimates, consulted before the built-in ones. */
  calls?: CallEstimator;
}

/** Kubernetes' size estimator over Type bounds (see the module comment). */
export const schemaSizes: SizeEstimator = (node) => {
  // pathType is set only on nodes with a path (reading path would build it)
  const t = node.pathType;
  return t === undefined ? undefined : est(0, boundOf(t));
};

/** kube's DeclType.MaxElements: 0 where no bound was set (scalars,
 * objects, map keys — kube's shared StringType). */
function boundOf(t: Type): number {
  switch (t.kind) {
    case 'list':
    case 'map':
    case 'object':
      return t.maxElements ?? 0;
    case 'typeParam':
    case 'type':
    case 'opaque':
      return 0;
    default:
      return t.maxLength ?? 0;
  }
}

/** cel-go's isScalar: known to be of constant size (not string/bytes, not
 * dyn/any, not null, not an aggregate). */
export function isScalar(t: Type | undefined): boolean {
  if (t === undefined) return false;
  switch (t.kind) {
    case 'bool':
    case 'int':
    case 'uint':
    case 'double':
    case 'timestamp':
    case 'duration':
      return true;
    default:
      return false;
  }
}

/** Estimates the cost of evaluating a checked expression. */
export function estimateCost(checked: CheckedForCost, options: EstimateOptions = {}): CostEstimate {
  return new Coster(checked, options).cost(checked.expr);
}

/** A field path as a linked list (materialised only when an estimator
 * reads CostNode.path): the root variable, then segments. */
class PathInfo {
  constructor(
    readonly parent: PathInfo | undefined,
    readonly seg: string,
    /** The Type kube's walk reaches (pathType). */
    readonly type: Type | undefined,
  ) {}
  get root(): string {
    let p: PathInfo = this;
    while (p.parent !== undefined) p = p.parent;
    return p.seg;
  }
  toArray(): string[] {
    const out: string[] = [];
    for (let p: PathInfo | undefined = this; p !== undefined; p = p.parent) out.push(p.seg);
    return out.reverse();
  }
}

/** cel-go's AstNode for one expression node. */
class Node implements CostNode {
  private p: string[] | undefined;
  constructor(
    readonly expr: Expr,
    readonly type: Type | undefined,
    private readonly info: PathInfo | undefined,
    readonly computedSize: SizeEstimate | undefined,
  ) {}
  get path(): readonly string[] | undefined {
    if (this.info === undefined) return undefined;
    return (this.p ??= this.info.toArray());
  }
  get pathType(): Type | undefined {
    return this.info?.type;
  }
}

const ACCU_NAMES = new Set([ACCU_VAR, '__result__']);

class Coster {
  /** By node id (ids are small and dense). */
  private readonly paths: (PathInfo | undefined)[] = [];
  private readonly computedSizes: (SizeEstimate | undefined)[] = [];
  /** iterVar → stack of the iterRange nodes (shadowing). */
  private iterRanges: Map<string, Expr[]> | undefined;
  private readonly sizes: SizeEstimator;
  private readonly calls: CallEstimator | undefined;
  private readonly kube: boolean;

  constructor(
    private readonly checked: CheckedForCost,
    options: EstimateOptions,
  ) {
    this.sizes = options.sizes ?? schemaSizes;
    this.calls = options.calls;
    this.kube = (options.model ?? 'kubernetes') === 'kubernetes';
  }

  cost(e: Expr): CostEstimate {
    switch (e.kind) {
      case 'const':
        return CONST;
      case 'ident':
        return this.costIdent(e.id, e.name);
      case 'select': {
        if (e.testOnly) return ZERO;
        let sum = this.cost(e.operand);
        const k = this.typeOf(e.operand)?.kind;
        if (k === 'map' || k === 'object' || k === 'typeParam') sum = addE(sum, SELECT);
        const op = this.paths[e.operand.id];
        const ot = op?.type;
        this.paths[e.id] = new PathInfo(op, e.field, ot?.kind === 'object' ? ot.fields.get(e.field)?.type : undefined);
        return sum;
      }
      case 'call':
        return this.costCall(e);
      case 'list': {
        let sum = est(LIST_CREATE_BASE_COST, LIST_CREATE_BASE_COST);
        for (const el of e.elements) sum = addE(this.cost(el), sum);
        return sum;
      }
      case 'map': {
        let sum = ZERO;
        for (const ent of e.entries) sum = addE(addE(sum, this.cost(ent.key)), this.cost(ent.value));
        return addE(sum, est(MAP_CREATE_BASE_COST, MAP_CREATE_BASE_COST));
      }
      case 'struct': {
        let sum = ZERO;
        for (const f of e.fields) sum = addE(sum, this.cost(f.value));
        return addE(sum, est(STRUCT_CREATE_BASE_COST, STRUCT_CREATE_BASE_COST));
      }
      case 'comprehension':
        return this.costComprehension(e);
    }
  }

  private typeOf(e: Expr): Type | undefined {
    return this.checked.types.get(e.id);
  }

  private costIdent(id: number, name: string): CostEstimate {
    const stack = this.iterRanges?.get(name);
    if (stack !== undefined && stack.length > 0) {
      const range = stack[stack.length - 1];
      const rt = this.typeOf(range);
      const rp = this.paths[range.id];
      const pt = rp?.type;
      if (rt?.kind === 'list') {
        this.paths[id] = new PathInfo(rp, '@items', pt?.kind === 'list' || pt?.kind === 'map' ? elemOf(pt) : undefined);
      } else if (rt?.kind === 'map') {
        this.paths[id] = new PathInfo(rp, '@keys', pt?.kind === 'map' ? pt.key : undefined);
      }
    } else {
      this.paths[id] = new PathInfo(undefined, name, this.checked.types.get(id));
    }
    return SELECT;
  }

  private costCall(e: CallExpr): CostEstimate {
    const args = e.args;
    const argCosts: CostEstimate[] = new Array(args.length);
    const argNodes: CostNode[] = new Array(args.length);
    for (let i = 0; i < args.length; i++) {
      argCosts[i] = this.cost(args[i]);
      argNodes[i] = this.node(args[i]);
    }
    const overloadIds = this.checked.refs.get(e.id)?.overloadIds;
    if (overloadIds === undefined || overloadIds.length === 0) return ZERO;
    let sum = ZERO;
    let target: CostNode | undefined;
    if (e.target !== undefined) {
      sum = this.cost(e.target);
      target = this.node(e.target);
    }
    // A range covering every candidate overload.
    let fnCost = est(MAX_UINT64, 0);
    let resultSize: SizeEstimate | undefined;
    let argTotal = ZERO;
    for (let i = 0; i < argCosts.length; i++) argTotal = addE(argTotal, argCosts[i]);
    for (const id of overloadIds) {
      const c = this.functionCost(e.fn, id, target, argNodes, argCosts, argTotal);
      fnCost = unionE(fnCost, c.cost);
      if (c.resultSize !== undefined) resultSize = resultSize === undefined ? c.resultSize : unionE(resultSize, c.resultSize);
      // field paths through index operations
      if (args.length > 0 && (id === 'index_list' || id === 'index_map')) {
        const base = this.paths[args[0].id];
        const bt = base?.type;
        this.paths[e.id] = new PathInfo(base, id === 'index_list' ? '@items' : '@values', bt?.kind === 'list' || bt?.kind === 'map' ? elemOf(bt) : undefined);
      }
    }
    if (resultSize !== undefined) this.computedSizes[e.id] = resultSize;
    return addE(sum, fnCost);
  }

  private costComprehension(e: ComprehensionExpr): CostEstimate {
    let sum = addE(this.cost(e.iterRange), this.cost(e.accuInit));
    const ranges = (this.iterRanges ??= new Map());
    let stack = ranges.get(e.iterVar);
    if (stack === undefined) ranges.set(e.iterVar, (stack = []));
    stack.push(e.iterRange);
    const loopCost = this.cost(e.loopCondition);
    const stepCost = this.cost(e.loopStep);
    stack.pop();
    sum = addE(sum, this.cost(e.result));
    const rangeCnt = this.sizeEstimate(this.node(e.iterRange));
    return addE(sum, mulE(rangeCnt, addE(stepCost, loopCost)));
  }

  /** The coster's size: computed, estimated, 1 for scalars, else unbounded. */
  private sizeEstimate(n: CostNode): SizeEstimate {
    if (n.computedSize !== undefined) return n.computedSize;
    const s = this.sizes(n);
    if (s !== undefined) return s;
    return isScalar(n.type) ? ONE : UNBOUNDED;
  }

  node(e: Expr): CostNode {
    let p = this.paths[e.id];
    // only paths from variables: not from the accumulator
    if (p !== undefined && ACCU_NAMES.has(p.root)) p = undefined;
    return new Node(e, this.typeOf(e), p, this.computedSizes[e.id] ?? literalSize(e));
  }

  private functionCost(
    fn: string,
    id: string,
    target: CostNode | undefined,
    args: readonly CostNode[],
    argCosts: readonly CostEstimate[],
    argTotal: CostEstimate,
  ): CallEstimate {
    const argSum = (): CostEstimate => argTotal;
    const custom =
      this.calls?.(fn, id, target, args) ?? (this.kube && KUBE_ESTIMATED.has(fn) ? kubeCallEstimate(fn, target, args, this.sizes) : undefined);
    if (custom !== undefined) return { cost: addE(custom.cost, argTotal), resultSize: custom.resultSize };
    // O(1) functions: everything cel-go does not size
    if (!SIZED.has(id)) return { cost: addE(ONE, argTotal) };
    switch (id) {
      case 'string_to_bytes':
        if (args.length === 1) {
          const sz = this.sizeEstimate(args[0]);
          // each code point is up to 4 bytes
          return { cost: addE(factorE(sz, STR_FACTOR), argSum()), resultSize: est(sz.min, mulNum(sz.max, 4)) };
        }
        break;
      case 'bytes_to_string':
        if (args.length === 1) {
          const sz = this.sizeEstimate(args[0]);
          return { cost: addE(factorE(sz, STR_FACTOR), argSum()), resultSize: est(Math.floor(sz.min / 4), sz.max) };
        }
        break;
      case 'starts_with_string':
      case 'ends_with_string':
        if (args.length === 1) return { cost: addE(factorE(this.sizeEstimate(args[0]), STR_FACTOR), argSum()) };
        break;
      case 'in_list':
        if (args.length === 2) return { cost: addE(factorE(this.sizeEstimate(args[1]), 1), argSum()) };
        break;
      case 'matches_string':
        if (target !== undefined && args.length === 1) {
          const strCost = factorE(addE(this.sizeEstimate(target), ONE), STR_FACTOR);
          const regexCost = factorE(this.sizeEstimate(args[0]), REGEX_FACTOR);
          return { cost: addE(mulE(strCost, regexCost), argSum()) };
        }
        break;
      case 'contains_string':
        if (target !== undefined && args.length === 1) {
          const strCost = factorE(this.sizeEstimate(target), STR_FACTOR);
          const subCost = factorE(this.sizeEstimate(args[0]), STR_FACTOR);
          return { cost: addE(mulE(strCost, subCost), argSum()) };
        }
        break;
      case 'logical_or':
      case 'logical_and': {
        // the left side alone when it short-circuits
        const lhs = argCosts[0];
        const rhs = argCosts[1];
        return { cost: est(lhs.min, addE(lhs, rhs).max) };
      }
      case 'conditional': {
        const size = unionE(this.sizeEstimate(args[1]), this.sizeEstimate(args[2]));
        return { cost: addE(argCosts[0], unionE(argCosts[1], argCosts[2])), resultSize: size };
      }
      case 'add_string':
      case 'add_bytes':
      case 'add_list':
        if (args.length === 2) {
          const resultSize = addE(this.sizeEstimate(args[0]), this.sizeEstimate(args[1]));
          // list concatenation is O(1); strings and bytes are copied
          const c = id === 'add_list' ? ONE : factorE(resultSize, STR_FACTOR);
          return { cost: addE(c, argSum()), resultSize };
        }
        break;
      case 'less_string':
      case 'greater_string':
      case 'less_equals_string':
      case 'greater_equals_string':
      case 'less_bytes':
      case 'greater_bytes':
      case 'less_equals_bytes':
      case 'greater_equals_bytes':
      case 'equals':
      case 'not_equals': {
        const l = this.sizeEstimate(args[0]);
        const r = this.sizeEstimate(args[1]);
        const smallestMax = r.max < l.max ? r.max : l.max;
        // two scalars compare for 1
        return { cost: addE(factorE(est(smallestMax > 0 ? 1 : 0, smallestMax), STR_FACTOR), argSum()) };
      }
    }
    return { cost: addE(ONE, argSum()) };
  }
}

/** The overloads cel-go's coster sizes (functionCost's switch). */
const SIZED = new Set([
  'string_to_bytes', 'bytes_to_string', 'starts_with_string', 'ends_with_string', 'in_list', 'matches_string',
  'contains_string', 'logical_or', 'logical_and', 'conditional', 'add_string', 'add_bytes', 'add_list',
  'less_string', 'greater_string', 'less_equals_string', 'greater_equals_string',
  'less_bytes', 'greater_bytes', 'less_equals_bytes', 'greater_equals_bytes', 'equals', 'not_equals',
]);

const CONST: Readonly<CostEstimate> = Object.freeze(est(CONST_COST, CONST_COST));
const SELECT: Readonly<CostEstimate> = Object.freeze(est(SELECT_AND_IDENT_COST, SELECT_AND_IDENT_COST));

const mulNum = (x: number, y: number): number => {
  const p = x * y;
  return p >= MAX_UINT64 ? MAX_UINT64 : p;
};

/** Element type of a list, value type of a map (kube's DeclType.ElemType). */
function elemOf(t: Type): Type | undefined {
  if (t.kind === 'list') return t.elem;
  if (t.kind === 'map') return t.value;
  return undefined;
}

/** cel-go's ComputedSize of a literal: a string's UTF-8 length, a bytes
 * literal's length, 1 for other constants, element counts of list and map
 * literals, 0 for a message literal. */
function literalSize(e: Expr): SizeEstimate | undefined {
  switch (e.kind) {
    case 'const': {
      const c = e.value;
      if (c.type === 'string') {
        const n = Buffer.byteLength(c.value, 'utf8');
        return est(n, n);
      }
      if (c.type === 'bytes') return est(c.value.length, c.value.length);
      return ONE;
    }
    case 'list':
      return est(e.elements.length, e.elements.length);
    case 'map':
      return est(e.entries.length, e.entries.length);
    case 'struct':
      return ZERO;
    default:
      return undefined;
  }
}
