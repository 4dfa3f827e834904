// The audit annotations a policy produces (kube's auditAnnotationCollector
// and publishValidationFailureAnnotation):
// - each auditAnnotation's value under `<policy>/<key>`, values of several
//   bindings joined with ", " (duplicates once), cut at 10 KiB;
// - a failed validation with the Audit action:
//   `validation.policy.admission.k8s.io/validation_failure` = the JSON list
//   [{message, policy, binding, expressionIndex, validationActions}].
import type { AdmissionAttributes } from '../../../registry/admission.js';

export const VALIDATION_FAILURE_KEY = 'validation.policy.admission.k8s.io/validation_failure';
const MAX_AUDIT_ANNOTATION_VALUE_LENGTH = 10 * 1024;

/** Go's json.Marshal of a string list's HTML-sensitive characters. */
const goJSON = (v: unknown) => JSON.stringify(v).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');

export function publishValidationFailure(a: AdmissionAttributes, f: { policy: string; binding: string; index: number; message: string; actions: readonly string[] }): void {
  a.annotate?.(VALIDATION_FAILURE_KEY, goJSON([{ message: f.message, policy: f.policy, binding: f.binding, expressionIndex: f.index, validationActions: f.actions }]));
}

/** One policy's audit annotation values over its bindings. */
export class AuditAnnotationCollector {
  private readonly values = new Map<string, string[]>();

  add(key: string, value: string): void {
    // cut in bytes, as Go slices a string (a character cut in two becomes U+FFFD here)
    const bytes = Buffer.byteLength(value, 'utf8');
    const v = bytes > MAX_AUDIT_ANNOTATION_VALUE_LENGTH ? Buffer.from(value, 'utf8').subarray(0, MAX_AUDIT_ANNOTATION_VALUE_LENGTH).toString('utf8') : value;
    const list = this.values.get(key);
    if (!list) this.values.set(key, [v]);
    else if (!list.includes(v)) list.push(v);
  }

  publish(policy: string, a: AdmissionAttributes): void {
    for (const [key, list] of this.values) a.annotate?.(`${policy}/${key}`, list.join(', '));
  }
}
