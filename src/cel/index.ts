// The CEL engine's public API.
//
//   const env = new Env({ variables: { self: selfType }, libraries: ['strings'] });
//   const { ast, issues } = env.compile('self.replicas <= self.maxReplicas');
//   const program = env.program(ast!, { costLimit: 1_000_000 });
//   program.eval({ self: obj });        // value, or throws CelError
//   program.actualCost;                 // runtime cost of that evaluation
//
// An Env is built once (its function tables and planning environment are
// prepared then); compile, parseOnly and program are cheap per expression.

import type { ParsedExpr } from './ast.js';
import { buildCheckEnv, check, type CheckEnv, type CheckedExpr } from './checker/index.js';
import type { CostModel } from './cost/constants.js';
import type { Library, OverloadImpl } from './decls.js';
import { callCostsOf, type CallCosts } from './interpreter/cost.js';
import { plan, type PlanEnv } from './interpreter/planner.js';
import { Program } from './interpreter/program.js';
import type { Issue } from './issues.js';
import { parse, type ParseOptions } from './parser/index.js';
import { blockMacros, comprehensionsLibrary, extensionLibraries, mathMacros, standardLibrary } from './stdlib/index.js';
import type { Type } from './types.js';

export { Program } from './interpreter/program.js';
export type { Activation, EvalResult } from './interpreter/program.js';
export { CostLimitExceeded, COST_LIMIT_MESSAGE } from './interpreter/frame.js';
export type { CheckedExpr } from './checker/index.js';
export type { ParsedExpr } from './ast.js';
export type { Issue } from './issues.js';
export { formatIssues } from './issues.js';
export { formatType } from './checker/index.js';
export { CelError } from './values.js';

export interface EnvOptions {
  /** Libraries besides the standard one: extension names (`strings`, `math`,
   * `encoders`, `optional`) or Library objects (e.g. Kubernetes'). */
  libraries?: readonly (string | Library)[];
  /** Declared variables. */
  variables?: Readonly<Record<string, Type>> | Iterable<readonly [string, Type]>;
  /** Namespace for name resolution (cel-go container). */
  container?: string;
  /** Object types by name (a schema's types). */
  findType?(name: string): Type | undefined;
  /** Standard macros (default true). */
  macros?: boolean;
  /** cel.bind (default false). */
  bindings?: boolean;
  /** cel.block / cel.index / cel.iterVar / cel.accuVar, the form cel-go's
   * common-subexpression optimizer writes (default false). */
  block?: boolean;
  /** Two-variable comprehension macros (default false). */
  twoVarComprehensions?: boolean;
  /** `a.?b`, `a[?b]`, `[?x]`, `{?k: v}` (default: on when the optional library is enabled). */
  optionalSyntax?: boolean;
  /** `1 < 1.5`, `1u <= 2`: ordering across int, uint and double (cel-go
   * CrossTypeNumericComparisons; default false as Kubernetes v1.27). */
  crossTypeNumericComparisons?: boolean;
  /** List and map literals of one element type (cel-go
   * HomogeneousAggregateLiterals; Kubernetes enables it). */
  homogeneousAggregateLiterals?: boolean;
  /** Which runtime call costs apply (default 'kubernetes'). */
  costModel?: CostModel;
}

export interface CompileResult {
  ast?: CheckedExpr;
  issues: Issue[];
  type?: Type;
}

export interface ParseOnlyResult {
  ast?: ParsedExpr;
  issues: Issue[];
}

export interface ProgramOptions {
  /** Halt evaluation once the runtime cost exceeds this (cel-go CostLimit);
   * implies cost tracking. */
  costLimit?: number;
  /** Count the runtime cost (Program.actualCost) without a limit. */
  trackCost?: boolean;
  /** cel-go's OptOptimize (Kubernetes plans CRD rules and admission
   * expressions with it): constant list/map literals, set membership in a
   * constant list and conversions of constants are folded, at cost 0. */
  optimize?: boolean;
}

export class UnknownLibraryError extends Error {}

export class Env {
  readonly checkEnv: CheckEnv;
  private readonly planEnv: PlanEnv;
  private readonly parseOptions: ParseOptions;
  private readonly costs: CallCosts;

  constructor(opts: EnvOptions = {}) {
    const libs: Library[] = [standardLibrary];
    for (const l of opts.libraries ?? []) {
      if (typeof l !== 'string') libs.push(l);
      else {
        const lib = extensionLibraries.get(l);
        if (lib === undefined) throw new UnknownLibraryError(`unknown CEL library: ${l}`);
        libs.push(lib);
      }
    }
    if (opts.twoVarComprehensions) libs.push(comprehensionsLibrary);
    this.checkEnv = buildCheckEnv({
      crossTypeNumericComparisons: opts.crossTypeNumericComparisons,
      homogeneousAggregateLiterals: opts.homogeneousAggregateLiterals,
      libraries: libs,
      variables: opts.variables,
      container: opts.container,
      findType: opts.findType,
    });
    const impls = new Map<string, OverloadImpl>();
    for (const lib of libs) for (const i of lib.impls) impls.set(i.id, i);
    this.planEnv = {
      functions: this.checkEnv.functions,
      impls,
      variables: this.checkEnv.variables,
      container: opts.container,
      findType: opts.findType,
    };
    const optional = libs.some((l) => l.name === 'optional');
    this.parseOptions = {
      macros: opts.macros ?? true,
      bindings: opts.bindings ?? false,
      twoVarComprehensions: opts.twoVarComprehensions ?? false,
      optionalMacros: optional,
      optionalSyntax: opts.optionalSyntax ?? optional,
    };
    const extra = [
      ...(libs.some((l) => l.name === 'math') ? mathMacros : []),
      ...(opts.block ? blockMacros : []),
    ];
    if (extra.length > 0) this.parseOptions.extraMacros = extra;
    this.costs = callCostsOf(opts.costModel ?? 'kubernetes');
  }

  /** Parses and type-checks. */
  compile(text: string): CompileResult {
    const p = parse(text, this.parseOptions);
    if (p.parsed === undefined) return { issues: p.issues };
    const c = check(p.parsed, this.checkEnv);
    if (c.checked === undefined) return { issues: c.issues };
    return { ast: c.checked, issues: c.issues, type: c.checked.type };
  }

  /** Parses without checking (the program then dispatches every call by its
   * argument values). */
  parseOnly(text: string): ParseOnlyResult {
    const p = parse(text, this.parseOptions);
    return p.parsed === undefined ? { issues: p.issues } : { ast: p.parsed, issues: p.issues };
  }

  /** Plans an evaluable program from a checked (or parsed) expression. */
  program(ast: CheckedExpr | ParsedExpr, opts: ProgramOptions = {}): Program {
    const tracking = opts.costLimit !== undefined || opts.trackCost === true;
    const checked = 'refs' in ast ? (ast as CheckedExpr) : undefined;
    const p = plan(
      checked ? { expr: checked.expr, types: checked.types, refs: checked.refs } : { expr: ast.expr },
      this.planEnv,
      { cost: tracking ? this.costs : undefined, optimize: opts.optimize === true },
    );
    return new Program(p, opts.costLimit ?? Infinity);
  }
}
