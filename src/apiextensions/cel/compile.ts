// One schema node's x-kubernetes-validations compiled as kube v1.27 compiles
// them (apiextensions pkg/apiserver/schema/cel/compilation.go): `self` and
// `oldSelf` typed from the node's structural schema (cel/k8s/schema.ts), the
// standard library, the strings extension and Kubernetes' lists, regex and
// URL libraries, homogeneous aggregate literals. Each rule yields a program
// (optimized, cost-tracked, halted past the per-call limit), its estimated
// max cost, whether it names oldSelf (a transition rule), and the same for
// its messageExpression; or the error kube words for it.
import { Env, formatIssues, type CheckedExpr, type Program } from '../../cel/index.js';
import { k8sLibraries, schemaTypeAndConverter, type Converter, type Schema } from '../../cel/k8s/index.js';
import { estimateCost } from '../../cel/cost/estimate.js';
import { PER_CALL_LIMIT } from '../../cel/cost/limits.js';
import type { Type } from '../../cel/types.js';
import type { ValidationRule } from '../types.js';

/** kube's apiservercel.Error types as a rule's compile result carries them. */
export type RuleErrorType = 'Invalid' | 'Internal';

export interface RuleError {
  type: RuleErrorType;
  detail: string;
}

export interface CompiledRule {
  rule: ValidationRule;
  /** Absent for an empty rule (kube skips it) or when compilation failed. */
  program?: Program;
  error?: RuleError;
  /** The rule names oldSelf: it runs only on updates with a correlatable old value. */
  transitionRule: boolean;
  /** Estimated max cost of one evaluation (0 when not compiled). */
  maxCost: number;
  messageExpression?: Program;
  messageExpressionError?: RuleError;
  messageExpressionMaxCost: number;
}

/** The rules' environment of one node: its `self` type and JSON→value converter. */
export interface NodeEnv {
  env: Env;
  selfType: Type;
  convert?: Converter;
}

/** kube names the root type of each compilation uniquely ("selfType<ns>"); ours is fixed. */
export const SELF_TYPE_NAME = 'selfType0';

const LIBRARIES = ['strings', ...k8sLibraries] as const;

/**
 * The environment for the rules at a schema node; undefined when the node has
 * no CEL type (kube: "unable to convert structural schema to CEL declarations").
 */
export function nodeEnv(schema: Schema, resourceRoot: boolean): NodeEnv | undefined {
  const tc = schemaTypeAndConverter(schema, { name: SELF_TYPE_NAME, resourceRoot });
  if (!tc) return undefined;
  const env = new Env({ libraries: LIBRARIES, variables: { self: tc.type, oldSelf: tc.type }, homogeneousAggregateLiterals: true });
  return tc.convert ? { env, selfType: tc.type, convert: tc.convert } : { env, selfType: tc.type };
}

const namesOldSelf = (ast: CheckedExpr): boolean => {
  for (const r of ast.refs.values()) if (r.name === 'oldSelf') return true;
  return false;
};

function programOf(env: Env, ast: CheckedExpr): Program {
  return env.program(ast, { costLimit: PER_CALL_LIMIT, optimize: true });
}

/** kube's compileRule. */
export function compileRule(rule: ValidationRule, ne: NodeEnv): CompiledRule {
  const out: CompiledRule = { rule, transitionRule: false, maxCost: 0, messageExpressionMaxCost: 0 };
  const text = typeof rule.rule === 'string' ? rule.rule : '';
  if (text.trim() === '') return out;
  const c = ne.env.compile(text);
  if (!c.ast || c.issues.length > 0) {
    out.error = { type: 'Invalid', detail: `compilation failed: ${formatIssues(c.issues, text)}` };
    return out;
  }
  if (c.type?.kind !== 'bool') {
    out.error = { type: 'Invalid', detail: 'cel expression must evaluate to a bool' };
    return out;
  }
  out.transitionRule = namesOldSelf(c.ast);
  out.program = programOf(ne.env, c.ast);
  out.maxCost = estimateCost(c.ast).max;
  const mx = typeof rule.messageExpression === 'string' ? rule.messageExpression : '';
  if (mx !== '') {
    const m = ne.env.compile(mx);
    if (!m.ast || m.issues.length > 0) {
      out.messageExpressionError = { type: 'Invalid', detail: `messageExpression compilation failed: ${formatIssues(m.issues, mx)}` };
      return out;
    }
    if (m.type?.kind !== 'string') {
      out.messageExpressionError = { type: 'Invalid', detail: 'messageExpression must evaluate to a string' };
      return out;
    }
    out.messageExpression = programOf(ne.env, m.ast);
    out.messageExpressionMaxCost = estimateCost(m.ast).max;
  }
  return out;
}

/** All the rules of a node (kube's Compile). */
export function compileRules(rules: readonly ValidationRule[], ne: NodeEnv): CompiledRule[] {
  return rules.map((r) => compileRule(r, ne));
}
