// The review versions a callback lists (admission webhooks'
// admissionReviewVersions, conversion webhooks' conversionReviewVersions),
// checked as kube checks both: at least one, no duplicates, each a DNS-1035
// label, and — when required — one the server speaks.
import { invalid, required, type FieldError, type FieldPath } from './field.js';
import { dns1035LabelErrors } from './validation.js';

export function validateReviewVersions(versions: readonly string[], accepted: readonly string[], requireRecognized: boolean, path: FieldPath, emptyDetail: string): FieldError[] {
  if (versions.length === 0) return [required(path, emptyDetail)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let recognized = false;
  versions.forEach((v, i) => {
    if (seen.has(v)) {
      errs.push(invalid(path.index(i), v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const m of dns1035LabelErrors(v)) errs.push(invalid(path.index(i), v, m));
    if (accepted.includes(v)) recognized = true;
  });
  if (requireRecognized && !recognized) errs.push(invalid(path, [...versions], `must include at least one of ${accepted.join(', ')}`));
  return errs;
}
