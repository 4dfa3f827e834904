// The CEL abstract syntax tree, as cel-go shapes it (google.api.expr Expr) and
// after macro expansion: has() is a test-only Select, all/exists/exists_one/
// map/filter are Comprehensions. Every node has an id unique within one parse;
// positions and the original macro calls live in SourceInfo, keyed by id.
//
// Owned by: parser (produces), checker (annotates types/references by id),
// interpreter (plans closures), cost estimator (walks). Keep it plain data.

export type Expr =
  | ConstExpr
  | IdentExpr
  | SelectExpr
  | CallExpr
  | ListExpr
  | MapExpr
  | StructExpr
  | ComprehensionExpr;

/** A literal. int/uint literals carry bigint so no precision is lost; the
 * interpreter turns them into runtime values (see values.ts). */
export interface ConstExpr {
  kind: 'const';
  id: number;
  value: Constant;
}

export type Constant =
  | { type: 'null' }
  | { type: 'bool'; value: boolean }
  | { type: 'int'; value: bigint }
  | { type: 'uint'; value: bigint }
  | { type: 'double'; value: number }
  | { type: 'string'; value: string }
  | { type: 'bytes'; value: Uint8Array };

export interface IdentExpr {
  kind: 'ident';
  id: number;
  name: string;
}

/** operand.field; testOnly marks has(operand.field). optional marks
 * operand.?field (optional syntax, only when enabled). */
export interface SelectExpr {
  kind: 'select';
  id: number;
  operand: Expr;
  field: string;
  testOnly: boolean;
  optional?: boolean;
}

/** A function call. Operators use cel-go's internal names: `_+_`, `_-_`,
 * `_*_`, `_/_`, `_%_`, `_==_`, `_!=_`, `_<_`, `_<=_`, `_>_`, `_>=_`, `_&&_`,
 * `_||_`, `!_`, `-_`, `_?_:_`, `_[_]`, `_[?_]`, `@in`, `@not_strictly_false`,
 * `_?._` (optional select). A receiver-style call `a.f(b)` has target `a`. */
export interface CallExpr {
  kind: 'call';
  id: number;
  fn: string;
  target?: Expr;
  args: Expr[];
}

/** [a, b, ?c] — optionalIndices lists the positions written with `?`. */
export interface ListExpr {
  kind: 'list';
  id: number;
  elements: Expr[];
  optionalIndices: number[];
}

/** {k: v, ?k2: v2} */
export interface MapExpr {
  kind: 'map';
  id: number;
  entries: MapEntry[];
}
export interface MapEntry {
  id: number;
  key: Expr;
  value: Expr;
  optional: boolean;
}

/** TypeName{field: value}. No protobuf messages are served, but the grammar
 * has them and the checker reports them. */
export interface StructExpr {
  kind: 'struct';
  id: number;
  typeName: string;
  fields: StructField[];
}
export interface StructField {
  id: number;
  name: string;
  value: Expr;
  optional: boolean;
}

/** The fold every macro expands to (cel-go Comprehension):
 *   accu = accuInit
 *   for iterVar (and iterVar2) in iterRange:
 *     if !loopCondition(accu): break
 *     accu = loopStep
 *   return result
 * iterVar2 is set only by the two-variable forms (cel-go ext). */
export interface ComprehensionExpr {
  kind: 'comprehension';
  id: number;
  iterVar: string;
  iterVar2?: string;
  iterRange: Expr;
  accuVar: string;
  accuInit: Expr;
  loopCondition: Expr;
  loopStep: Expr;
  result: Expr;
}

/** The accumulator name cel-go's macros use. */
export const ACCU_VAR = '@result';

/** Where each node came from: character offsets by id, line starts for
 * line:column, and the macro call each expansion replaced (by the id of the
 * expansion's root). */
export interface SourceInfo {
  /** The expression text, as parsed. */
  text: string;
  /** Offsets (in code points) where lines start; lineOffsets[0] is 0. */
  lineOffsets: number[];
  /** Node id → offset (code points) of the node's token. */
  positions: Map<number, number>;
  /** Expansion root id → the call as written (target/args before expansion). */
  macroCalls: Map<number, Expr>;
}

export interface ParsedExpr {
  expr: Expr;
  sourceInfo: SourceInfo;
}
