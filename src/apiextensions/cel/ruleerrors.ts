// A CRD write's checks of its x-kubernetes-validations (kube v1.27
// apiextensions validation.go ValidateCustomResourceDefinitionOpenAPISchema's
// rule part, cel_validation.go's CELSchemaContext and TotalCost):
//
//   schema errors (every node the walk reaches, allOf/not/… included):
//     empty rule → Required "rule is not specified"; blank, multi-line message;
//     a multi-line rule without message; a blank messageExpression
//   CEL errors (nodes under properties/items/additionalProperties only, and only
//   when no schema error was found at the node or below it):
//     per rule: estimated cost × cardinality over the per-rule limit (Forbidden),
//     the compile error (Invalid, value printed as Go's %#v of the rule),
//     the messageExpression's error or cost, oldSelf below an atomic list or an
//     uncorrelatable map (Invalid, value the rule text)
//   then the whole-schema total over the CRD limit (the 4 most expensive rules
//   and one error on the schema path).
//
// Children are walked before the node's own rules, as kube does; the errors
// come out schema errors first, then CEL errors, then the total's.
import { forbidden, invalid, required, type FieldError } from '../../api/meta/field.js';
import { GoValue } from '../../api/meta/govalue.js';
import { goQuote } from '../../cel/goquote.js';
import type { Schema } from '../../cel/k8s/index.js';
import {
  ESTIMATED_MESSAGE_EXPRESSION_COST, ESTIMATED_RULE_COST, STATIC_ESTIMATED_COST_LIMIT, ROOT_CARDINALITY, TotalCost,
  childCardinality, costErrorMessage, ruleCost,
} from '../../cel/cost/index.js';
import type { JSONSchemaProps, ValidationRule } from '../types.js';
import { compileRules, nodeEnv } from './compile.js';
import { minSerializedSize } from './minsize.js';

/** Options of ruleErrors (kube's validationOptions play no part in the rule checks today). */
export type RuleErrorsOptions = object;

/** Go's %#v of a rule in "Invalid value: …" (as kube v1.26 printed it; MessageExpression shown when set). */
export function goRuleValue(rule: ValidationRule): GoValue {
  const mx = rule.messageExpression ? `, MessageExpression:${goQuote(rule.messageExpression)}` : '';
  return new GoValue(rule, `apiextensions.ValidationRule{Rule:${goQuote(rule.rule ?? '')}, Message:${goQuote(rule.message ?? '')}${mx}}`);
}

/** How the walk reaches a node: the CEL context (absent under allOf/not/…). */
interface Cel {
  /** How many times the node can occur in one object; undefined: unbounded. */
  cardinality: number | undefined;
}

interface Ctx {
  cel: Cel | undefined;
  /** The outermost atomic list / uncorrelatable map above the node, where oldSelf is refused. */
  forbidOldSelf: string | undefined;
  isRoot: boolean;
}

interface Out {
  schema: FieldError[];
  cel: FieldError[];
  total: TotalCost;
}

/** kube's field.InternalError. */
export const internal = (field: string, detail: string): FieldError => ({ type: 'Internal', field, detail });

const hasNewlines = (s: string) => s.includes('\n');
const mapIsCorrelatable = (t: unknown) => t === undefined || t === null || t === 'granular' || t === 'atomic';

/** The x-kubernetes-validations errors of a CRD version's schema at `path` (`spec.validation.openAPIV3Schema`). */
export function ruleErrors(schema: JSONSchemaProps, path: string, _opts?: RuleErrorsOptions): FieldError[] {
  const out: Out = { schema: [], cel: [], total: new TotalCost() };
  visit(schema, path, { cel: { cardinality: ROOT_CARDINALITY }, forbidOldSelf: undefined, isRoot: true }, out);
  const errs = [...out.schema, ...out.cel];
  for (const e of out.total.errors(path)) errs.push(forbidden(e.path, e.detail));
  return errs;
}

/**
 * Only the checks kube makes without compiling (empty rule, message and
 * messageExpression shape): what kube still reports when the schema is not
 * structural or its defaults are invalid (no CEL context), where ruleErrors
 * is not called.
 */
export function ruleShapeErrors(schema: JSONSchemaProps, path: string): FieldError[] {
  const out: Out = { schema: [], cel: [], total: new TotalCost() };
  visit(schema, path, { cel: undefined, forbidOldSelf: undefined, isRoot: true }, out);
  return out.schema;
}

function childCel(parent: Ctx, parentSchema: JSONSchemaProps): Cel | undefined {
  if (!parent.cel) return undefined;
  return { cardinality: childCardinality(parent.cel.cardinality, parentSchema) };
}

const isSchema = (v: unknown): v is JSONSchemaProps => typeof v === 'object' && v !== null && !Array.isArray(v);

function visit(s: JSONSchemaProps, path: string, ctx: Ctx, out: Out): void {
  const schemaErrsBefore = out.schema.length;
  if (isSchema(s.additionalProperties)) {
    visit(s.additionalProperties, `${path}.additionalProperties`, { cel: childCel(ctx, s), forbidOldSelf: ctx.forbidOldSelf, isRoot: false }, out);
  }
  if (s.properties) {
    const forbid = ctx.forbidOldSelf ?? (mapIsCorrelatable(s['x-kubernetes-map-type']) ? undefined : path);
    for (const [name, p] of Object.entries(s.properties)) {
      if (isSchema(p)) visit(p, `${path}.properties[${name}]`, { cel: childCel(ctx, s), forbidOldSelf: forbid, isRoot: false }, out);
    }
  }
  const plain = (child: JSONSchemaProps, at: string) => visit(child, at, { cel: undefined, forbidOldSelf: ctx.forbidOldSelf, isRoot: false }, out);
  if (isSchema(s.not)) plain(s.not, `${path}.not`);
  for (const [key, list] of [['allOf', s.allOf], ['oneOf', s.oneOf], ['anyOf', s.anyOf]] as const) {
    if (Array.isArray(list)) list.forEach((c, i) => isSchema(c) && plain(c, `${path}.${key}[${i}]`));
  }
  if (s.definitions) for (const [k, d] of Object.entries(s.definitions)) if (isSchema(d)) plain(d, `${path}.definitions[${k}]`);
  if (s.items !== undefined && s.items !== null) {
    const forbid = ctx.forbidOldSelf ?? (s['x-kubernetes-list-type'] === 'map' ? undefined : path);
    const itemCtx = (): Ctx => ({ cel: childCel(ctx, s), forbidOldSelf: forbid, isRoot: false });
    if (Array.isArray(s.items)) s.items.forEach((it, i) => isSchema(it) && visit(it, `${path}.items[${i}]`, itemCtx(), out));
    else if (isSchema(s.items)) visit(s.items, `${path}.items`, itemCtx(), out);
  }
  if (s.dependencies) for (const [k, d] of Object.entries(s.dependencies)) if (isSchema(d)) plain(d, `${path}.dependencies[${k}]`);

  const rules = s['x-kubernetes-validations'];
  if (!Array.isArray(rules) || rules.length === 0) return;
  const at = (i: number, f: string) => `${path}.x-kubernetes-validations[${i}].${f}`;
  rules.forEach((r, i) => {
    const rule = typeof r.rule === 'string' ? r.rule : '';
    const message = typeof r.message === 'string' ? r.message : '';
    const mx = typeof r.messageExpression === 'string' ? r.messageExpression : '';
    const trimmedRule = rule.trim();
    const trimmedMsg = message.trim();
    if (trimmedRule === '') out.schema.push(required(at(i, 'rule'), 'rule is not specified'));
    else if (message.length > 0 && trimmedMsg === '') out.schema.push(invalid(at(i, 'message'), message, 'message must be non-empty if specified'));
    else if (hasNewlines(trimmedMsg)) out.schema.push(invalid(at(i, 'message'), message, 'message must not contain line breaks'));
    else if (hasNewlines(trimmedRule) && trimmedMsg === '') out.schema.push(required(at(i, 'message'), 'message must be specified if rule contains line breaks'));
    if (mx.length > 0 && mx.trim() === '') out.schema.push(required(at(i, 'messageExpression'), 'messageExpression must be non-empty if specified'));
  });
  if (out.schema.length > schemaErrsBefore || !ctx.cel) return;
  celErrors(s, rules, path, ctx, ctx.cel, out);
}

function celErrors(s: JSONSchemaProps, rules: ValidationRule[], path: string, ctx: Ctx, cel: Cel, out: Out): void {
  const node = s as Schema;
  const resourceRoot = ctx.isRoot || s['x-kubernetes-embedded-resource'] === true;
  const ne = nodeEnv(node, resourceRoot);
  const minSize = minSerializedSize(node);
  if (!ne || minSize === undefined) {
    out.cel.push(internal(`${path}.x-kubernetes-validations`, 'internal error: failed to construct type information for x-kubernetes-validations rules: unable to convert structural schema to CEL declarations'));
    return;
  }
  const at = (i: number, f: string) => `${path}.x-kubernetes-validations[${i}].${f}`;
  compileRules(rules, ne).forEach((cr, i) => {
    const cost = ruleCost(cr.maxCost, cel.cardinality, minSize);
    if (cost > STATIC_ESTIMATED_COST_LIMIT) out.cel.push(forbidden(at(i, 'rule'), costErrorMessage(ESTIMATED_RULE_COST, cost, STATIC_ESTIMATED_COST_LIMIT)));
    out.total.observe(at(i, 'rule'), cost);
    if (cr.error) {
      out.cel.push(cr.error.type === 'Internal' ? internal(at(i, 'rule'), cr.error.detail) : invalid(at(i, 'rule'), goRuleValue(rules[i]!), cr.error.detail));
    }
    if (cr.messageExpressionError) {
      out.cel.push(invalid(at(i, 'messageExpression'), goRuleValue(rules[i]!), cr.messageExpressionError.detail));
    } else if (cr.messageExpression) {
      const mcost = cr.messageExpressionMaxCost;
      if (mcost > STATIC_ESTIMATED_COST_LIMIT) {
        out.cel.push(forbidden(at(i, 'messageExpression'), costErrorMessage(ESTIMATED_MESSAGE_EXPRESSION_COST, mcost, STATIC_ESTIMATED_COST_LIMIT)));
      }
      out.total.observe(at(i, 'messageExpression'), mcost);
    }
    if (cr.transitionRule && ctx.forbidOldSelf !== undefined) {
      out.cel.push(invalid(at(i, 'rule'), rules[i]!.rule, `oldSelf cannot be used on the uncorrelatable portion of the schema within ${ctx.forbidOldSelf}`));
    }
  });
}
