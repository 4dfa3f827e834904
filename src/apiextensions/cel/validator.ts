// x-kubernetes-validations evaluated on a custom resource, as kube v1.27's
// apiextensions pkg/apiserver/schema/cel/validation.go Validator does:
//
//   compileCrdRules(schema)   once per CRD version (cached per schema object);
//                             null when no node has rules. Only the nodes on
//                             the way to a rule are kept.
//   validator.validate(obj, old, { budget })
//     at each node: the node's rules with `self` = the value, then its
//     properties / additionalProperties / items. `oldSelf` is bound when an
//     old value correlates: by property name, by map key (maps of
//     x-kubernetes-map-type granular or atomic), by the key fields of
//     x-kubernetes-list-type=map items; never through other lists. Transition
//     rules are skipped without an old value.
//     A failing rule reports `<path>: Invalid value: "<schema type>": <message>`
//     with the message, the evaluated messageExpression, or "failed rule: <rule>";
//     the root's path is `<nil>` as kube prints a nil field path.
//     Runtime cost: every evaluation's actual cost is taken from the budget
//     (RUNTIME_CEL_COST_BUDGET by default); running out, or one evaluation
//     passing the per-call limit, stops all further rules.
import { invalid, type FieldError } from '../../api/meta/field.js';
import { CelError, type Program } from '../../cel/index.js';
import type { Converter, Schema } from '../../cel/k8s/index.js';
import {
  COST_LIMIT_EXCEEDED, MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES, MESSAGE_EXPRESSION_OUT_OF_BUDGET, OUT_OF_BUDGET, RUNTIME_CEL_COST_BUDGET,
  messageExpressionCostLimitMessage, ruleCostLimitMessage,
} from '../../cel/cost/limits.js';
import type { JSONSchemaProps, ValidationRule } from '../types.js';
import { compileRules, nodeEnv, type CompiledRule } from './compile.js';

/** The field kube prints for the root of the object (a nil field.Path). */
export const ROOT_FIELD = '<nil>';

export interface ValidateOptions {
  /** Runtime cost budget for this object (default RUNTIME_CEL_COST_BUDGET). */
  budget?: number;
}

export interface ValidateResult {
  errors: FieldError[];
  /** What is left of the budget; negative once validation was cut short. */
  remainingBudget: number;
}

export interface CrdRuleValidator {
  validate(obj: unknown, old: unknown, opts?: ValidateOptions): ValidateResult;
}

/** Our engine's text for a call no overload accepts at runtime. */
const ENGINE_NO_OVERLOAD = 'no matching overload for ';

/** kube's rule for a schema-invalid object: its rules are skipped and this error is added. */
export function rulesNotCheckedError(): FieldError {
  return invalid(ROOT_FIELD, 'null', 'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation');
}

interface Node {
  /** The schema's `type`, the "invalid value" of the node's errors. */
  type: string;
  rules: CompiledRule[];
  /** rule compiler initialization error (the node has rules but no CEL type). */
  compileError?: string;
  convert?: Converter;
  transition: boolean;
  props?: [string, Node][];
  additional?: Node;
  items?: Node;
  /** x-kubernetes-list-type=map keys, for correlating old items. */
  mapKeys?: string[];
  mapCorrelatable: boolean;
}

const isSchema = (v: unknown): v is JSONSchemaProps => typeof v === 'object' && v !== null && !Array.isArray(v);
const hasCelType = (s: JSONSchemaProps, resourceRoot: boolean) => nodeEnv(s as Schema, resourceRoot) !== undefined;

function hasRules(s: JSONSchemaProps | undefined): boolean {
  if (!s) return false;
  if ((s['x-kubernetes-validations']?.length ?? 0) > 0) return true;
  if (isSchema(s.items) && hasRules(s.items)) return true;
  if (isSchema(s.additionalProperties) && hasRules(s.additionalProperties)) return true;
  for (const p of Object.values(s.properties ?? {})) if (hasRules(p)) return true;
  return false;
}

function build(s: JSONSchemaProps, resourceRoot: boolean): Node | undefined {
  if (!hasRules(s)) return undefined;
  const rules = s['x-kubernetes-validations'] ?? [];
  const node: Node = {
    type: typeof s.type === 'string' ? s.type : '',
    rules: [],
    transition: false,
    mapCorrelatable: s['x-kubernetes-map-type'] === undefined || s['x-kubernetes-map-type'] === 'granular' || s['x-kubernetes-map-type'] === 'atomic',
  };
  if (rules.length > 0) {
    const ne = nodeEnv(s as Schema, resourceRoot);
    if (!ne) {
      node.compileError = `rule declared on schema that does not support validation rules type: '${node.type}' x-kubernetes-preserve-unknown-fields: '${s['x-kubernetes-preserve-unknown-fields'] === true}'`;
    } else {
      node.rules = compileRules(rules, ne);
      if (ne.convert) node.convert = ne.convert;
      node.transition = node.rules.some((r) => r.transitionRule);
    }
  }
  // Children without a CEL type are left out of their parent's type, and so
  // out of validation (kube skips them).
  if (isSchema(s.items) && hasCelType(s.items, s.items['x-kubernetes-embedded-resource'] === true)) {
    const items = build(s.items, s.items['x-kubernetes-embedded-resource'] === true);
    if (items) {
      node.items = items;
      if (s['x-kubernetes-list-type'] === 'map' && (s['x-kubernetes-list-map-keys']?.length ?? 0) > 0) node.mapKeys = [...s['x-kubernetes-list-map-keys']!];
    }
  }
  if (isSchema(s.additionalProperties) && hasCelType(s.additionalProperties, s.additionalProperties['x-kubernetes-embedded-resource'] === true)) {
    const ap = build(s.additionalProperties, s.additionalProperties['x-kubernetes-embedded-resource'] === true);
    if (ap) node.additional = ap;
  }
  if (s.properties) {
    const props: [string, Node][] = [];
    for (const [k, p] of Object.entries(s.properties)) {
      const embedded = p['x-kubernetes-embedded-resource'] === true;
      if (!hasCelType(p, embedded)) continue;
      const v = build(p, embedded);
      if (v) props.push([k, v]);
    }
    if (props.length > 0) node.props = props;
  }
  return node;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const ruleErrorString = (r: ValidationRule): string => (r.message ? r.message.trim() : (r.rule ?? '').trim());
const ruleMessageOrDefault = (r: ValidationRule): string => (r.message ? r.message.trim() : `failed rule: ${ruleErrorString(r)}`);

/** One validation's state: the errors so far and the budget left. */
class Run {
  readonly errors: FieldError[] = [];
  constructor(public budget: number) {}

  node(n: Node, path: string, obj: unknown, old: unknown): void {
    if (obj === null || obj === undefined) return;
    if (old === null) old = undefined;
    if (n.rules.length > 0 || n.compileError !== undefined) {
      this.expressions(n, path, obj, old);
      if (this.budget < 0) return;
    }
    if (Array.isArray(obj)) {
      const items = n.items;
      if (!items) return;
      const olds = n.mapKeys && Array.isArray(old) ? correlator(n.mapKeys, old) : undefined;
      for (let i = 0; i < obj.length; i++) {
        this.node(items, `${path}[${i}]`, obj[i], olds?.(obj[i]));
        if (this.budget < 0) return;
      }
      return;
    }
    if (!isObject(obj)) return;
    const oldMap = n.mapCorrelatable && isObject(old) ? old : undefined;
    if (n.additional) {
      for (const k of Object.keys(obj)) {
        this.node(n.additional, `${path}[${k}]`, obj[k], oldMap?.[k]);
        if (this.budget < 0) return;
      }
    }
    if (n.props) {
      for (const [k, child] of n.props) {
        if (!(k in obj)) continue;
        this.node(child, path === '' ? k : `${path}.${k}`, obj[k], oldMap?.[k]);
        if (this.budget < 0) return;
      }
    }
  }

  private fail(n: Node, path: string, detail: string): void {
    this.errors.push(invalid(path === '' ? ROOT_FIELD : path, n.type, detail));
  }

  private expressions(n: Node, path: string, obj: unknown, old: unknown): void {
    if (n.compileError !== undefined) {
      this.fail(n, path, `rule compiler initialization error: ${n.compileError}`);
      return;
    }
    if (this.budget <= 0) {
      this.fail(n, path, OUT_OF_BUDGET);
      this.budget = -1;
      return;
    }
    let activation: Record<string, unknown>;
    try {
      activation = { self: n.convert ? n.convert(obj) : obj };
      if (n.transition && old !== undefined) activation.oldSelf = n.convert ? n.convert(old) : old;
    } catch (e) {
      if (!(e instanceof CelError)) throw e;
      for (const r of n.rules) if (r.program) this.fail(n, path, `${e.message} evaluating rule: ${ruleErrorString(r.rule)}`);
      return;
    }
    for (const r of n.rules) {
      if (r.error) {
        this.fail(n, path, `rule compile error: ${r.error.detail}`);
        continue;
      }
      const program = r.program;
      if (!program) continue;
      if (r.transitionRule && old === undefined) continue;
      const { value, err } = evaluate(program, activation);
      const cost = program.actualCost;
      if (cost > this.budget) {
        this.fail(n, path, OUT_OF_BUDGET);
        this.budget = -1;
        return;
      }
      this.budget -= cost;
      if (err !== undefined) {
        if (err.startsWith('no such overload') || err.startsWith(ENGINE_NO_OVERLOAD)) {
          // cel-go v0.12 (kube v1.27) reports a failed dynamic dispatch as "no such overload"
          const goErr = err.startsWith(ENGINE_NO_OVERLOAD) ? 'no such overload' : err;
          this.fail(n, path, `'${goErr}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleErrorString(r.rule)}`);
        } else if (err.startsWith(COST_LIMIT_EXCEEDED)) {
          this.fail(n, path, ruleCostLimitMessage(ruleErrorString(r.rule)));
          this.budget = -1;
          return;
        } else {
          this.fail(n, path, `${err} evaluating rule: ${ruleErrorString(r.rule)}`);
        }
        continue;
      }
      if (value === true) continue;
      if (r.messageExpression) {
        const m = this.message(r.messageExpression, r.rule.messageExpression ?? '', activation);
        if (m.stop !== undefined) {
          this.fail(n, path, m.stop);
          this.budget = -1;
          return;
        }
        this.fail(n, path, m.message ?? ruleMessageOrDefault(r.rule));
      } else {
        this.fail(n, path, ruleMessageOrDefault(r.rule));
      }
    }
  }

  /** kube's evalMessageExpression: the message, or undefined for the fallback, or `stop` (an error that ends validation). */
  private message(program: Program, source: string, activation: Record<string, unknown>): { message?: string; stop?: string } {
    const { value, err } = evaluate(program, activation);
    const cost = program.actualCost;
    if (cost > this.budget) return { stop: MESSAGE_EXPRESSION_OUT_OF_BUDGET };
    if (err !== undefined && err.startsWith(COST_LIMIT_EXCEEDED)) return { stop: messageExpressionCostLimitMessage(source) };
    this.budget -= cost;
    // Evaluation errors, non-strings, over-long, multi-line or blank
    // messages fall back to the rule's message (kube logs why).
    if (err !== undefined || typeof value !== 'string') return {};
    const trimmed = value.trim();
    if (Buffer.byteLength(trimmed) > MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES || trimmed.includes('\n') || trimmed === '') return {};
    return { message: trimmed };
  }
}

/** A scalar key field as part of a composite key; undefined when absent or not a scalar (kube's CompositeKeyFor). */
function keyPart(v: unknown): string | undefined {
  switch (typeof v) {
    case 'string':
      return `s${JSON.stringify(v)}`;
    case 'number':
    case 'bigint':
      return `n${String(v)}`;
    case 'boolean':
      return `b${v}`;
  }
  return undefined;
}

/** The key of a map-list item from its key fields; undefined: the item cannot be correlated. */
function itemKey(keys: readonly string[], item: unknown): string | undefined {
  if (!isObject(item)) return undefined;
  let key = '';
  for (const k of keys) {
    const part = keyPart(item[k]);
    if (part === undefined) return undefined;
    key += `\u0000${part}`;
  }
  return key;
}

/** The old item with the same key fields as a new one (kube's mapList.Get). */
function correlator(keys: readonly string[], old: readonly unknown[]): (item: unknown) => unknown {
  const byKey = new Map<string, unknown>();
  for (const o of old) {
    const k = itemKey(keys, o);
    if (k !== undefined && !byKey.has(k)) byKey.set(k, o);
  }
  return (item) => {
    const k = itemKey(keys, item);
    return k === undefined ? undefined : byKey.get(k);
  };
}

class Validator implements CrdRuleValidator {
  constructor(private readonly root: Node) {}
  validate(obj: unknown, old: unknown, opts?: ValidateOptions): ValidateResult {
    const run = new Run(opts?.budget ?? RUNTIME_CEL_COST_BUDGET);
    run.node(this.root, '', obj, old);
    return { errors: run.errors, remainingBudget: run.budget };
  }
}

const cache = new WeakMap<JSONSchemaProps, CrdRuleValidator | null>();

/**
 * The rules of a CRD version's openAPIV3Schema, compiled once (cached per
 * schema object); null when the schema has no x-kubernetes-validations.
 */
export function compileCrdRules(schema: JSONSchemaProps): CrdRuleValidator | null {
  let v = cache.get(schema);
  if (v === undefined) {
    const root = build(schema, true);
    v = root ? new Validator(root) : null;
    cache.set(schema, v);
  }
  return v;
}

/** A program's value, or the message of the CEL error it ended with (other errors are thrown on). */
function evaluate(program: Program, activation: Record<string, unknown>): { value?: unknown; err?: string } {
  try {
    return { value: program.eval(activation) };
  } catch (e) {
    if (!(e instanceof CelError)) throw e;
    return { err: e.message };
  }
}
