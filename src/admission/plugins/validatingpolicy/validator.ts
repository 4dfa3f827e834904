// One binding of a policy against one request (kube's validator.Validate):
// matchConditions first (an error decides by failurePolicy; a false one
// skips the policy), then every validation under one cost budget, the
// messageExpressions under what is left, then the audit annotations.
//   validation true                → admit
//   false                          → deny with reason (default Invalid) and the message:
//                                    messageExpression's string (trimmed; not when empty, over
//                                    5 KiB or multi-line), else message, else
//                                    "failed expression: <expression>"
//   error, or a messageExpression that ran out of budget
//                                  → deny under Fail, admit under Ignore, with the error
// An audit annotation is published when its value is a non-empty string,
// left out when null or empty, and an error (a denial under Fail) otherwise.
import { evaluateAll, OUT_OF_BUDGET, type FilterOutcome } from '../../matchconditions/filter.js';
import type { AdmissionActivation } from '../../matchconditions/engine.js';
import { MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES, PER_CALL_LIMIT } from '../../matchconditions/limits.js';
import type { CompiledPolicy } from './policy.js';

export interface Decision {
  readonly action: 'admit' | 'deny';
  readonly evaluation: 'admit' | 'deny' | 'error';
  readonly message: string;
  /** For a denial by a validation: its reason (default Invalid). */
  readonly reason?: string;
}

export type AuditAnnotationResult =
  | { readonly action: 'publish'; readonly key: string; readonly value: string }
  | { readonly action: 'exclude' }
  | { readonly action: 'error'; readonly key: string; readonly error: string };

export interface ValidateResult {
  readonly decisions: readonly Decision[];
  readonly auditAnnotations: readonly AuditAnnotationResult[];
  /** An authorizer check waits: validate again once settled (nothing else counts). */
  readonly pending?: Promise<void>;
}

const NO_MESSAGES: FilterOutcome = { results: [], remainingBudget: 0 };
/** Every validation passed and there are no audit annotations: nothing to enforce (admissions are left out). */
const ALL_ADMITTED: ValidateResult = { decisions: [], auditAnnotations: [] };

const utf8Length = (s: string) => Buffer.byteLength(s, 'utf8');

function typeNameOf(v: unknown): string {
  if (v === null) return 'null_type';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number' || typeof v === 'bigint') return 'int';
  if (Array.isArray(v)) return 'list';
  return typeof v === 'object' ? 'map' : typeof v;
}

/**
 * The common case without allocating: every validation compiles, evaluates
 * to true, within the budget. Otherwise (false) the caller evaluates in full
 * (the evaluation is deterministic; an authorizer's decisions are kept).
 */
function allPass(p: CompiledPolicy, vars: AdmissionActivation, budget: number): boolean | Promise<void> {
  const list = p.validationPrograms;
  let remaining = budget;
  for (let i = 0; i < list.length; i++) {
    const c = list[i]!;
    if (c.error) return false;
    const out = c.program!.eval(vars, PER_CALL_LIMIT);
    if (out.ok === 'pending') return out.settled;
    if (out.ok !== true || out.value !== true || out.cost > remaining) return false;
    remaining -= out.cost;
  }
  return true;
}

export function validate(p: CompiledPolicy, vars: AdmissionActivation, budget: number): ValidateResult {
  const onError: Decision['action'] = p.failurePolicy === 'Ignore' ? 'admit' : 'deny';
  const failed = (message: string): ValidateResult => ({ decisions: [{ action: onError, evaluation: 'error', message }], auditAnnotations: [] });

  if (p.matchConditions) {
    const m = p.matchConditions.match(vars);
    if ('pending' in m) return { decisions: [], auditAnnotations: [], pending: m.pending };
    if ('error' in m) return failed(m.error);
    if (!m.matches) return { decisions: [], auditAnnotations: [] };
  }

  if (p.auditAnnotations.length === 0) {
    const pass = allPass(p, vars, budget);
    if (pass === true) return ALL_ADMITTED;
    if (pass !== false) return { decisions: [], auditAnnotations: [], pending: pass };
  }
  const checks = evaluateAll(p.validationPrograms, vars, budget);
  if (checks.pending) return { decisions: [], auditAnnotations: [], pending: checks.pending };
  if (checks.error !== undefined) return failed(checks.error);
  const noAuthorizer: AdmissionActivation = { object: vars.object, oldObject: vars.oldObject, params: vars.params, request: vars.request };
  // kube evaluates every messageExpression; only a failed validation shows its message, so they are
  // evaluated only when one failed (a passing validation whose messageExpression would exhaust the
  // remaining budget is not reported as "failed messageExpression" here, as it would be in kube)
  const anyFailed = checks.results.some((r) => r !== undefined && r.error === undefined && r.value !== true);
  if (!anyFailed && p.auditAnnotations.length === 0 && checks.results.every((r) => r !== undefined && r.error === undefined)) return ALL_ADMITTED;
  const messages = anyFailed ? evaluateAll(p.messagePrograms, noAuthorizer, checks.remainingBudget) : NO_MESSAGES;

  const decisions: Decision[] = p.validations.map((v, i): Decision => {
    const r = checks.results[i]!;
    if (r.error !== undefined) return { action: onError, evaluation: 'error', message: r.error };
    if (messages.error === OUT_OF_BUDGET) return { action: onError, evaluation: 'error', message: `failed messageExpression: ${messages.error}` };
    if (r.value === true) return { action: 'admit', evaluation: 'admit', message: '' };
    let message = '';
    const m = messages.results[i];
    if (m && m.error === undefined && typeof m.value === 'string') {
      message = m.value.trim();
      if (utf8Length(message) > MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES || message.includes('\n')) message = '';
    }
    if (message === '' && v.message !== '') message = v.message.trim();
    if (message === '') message = `failed expression: ${v.expression.trim()}`;
    return { action: 'deny', evaluation: 'deny', message, reason: v.reason ?? 'Invalid' };
  });

  if (p.auditAnnotations.length === 0) return { decisions, auditAnnotations: [] };
  const annotations = evaluateAll(p.annotationPrograms, noAuthorizer, budget);
  if (annotations.error !== undefined) return failed(annotations.error);
  const auditAnnotations = p.auditAnnotations.map((a, i): AuditAnnotationResult => {
    const r = annotations.results[i]!;
    if (r.error !== undefined) return onError === 'admit' ? { action: 'exclude' } : { action: 'error', key: a.key, error: r.error };
    if (r.value === null) return { action: 'exclude' };
    if (typeof r.value === 'string') {
      const value = r.value.trim();
      return value === '' ? { action: 'exclude' } : { action: 'publish', key: a.key, value };
    }
    return {
      action: 'error', key: a.key,
      error: `valueExpression '${a.valueExpression}' resulted in unsupported return type: ${typeNameOf(r.value)}. Return type must be either string or null.`,
    };
  });
  return { decisions, auditAnnotations };
}
