// status: acceptedNames (ValidateCustomResourceDefinitionStatus) and
// storedVersions against spec.versions (ValidateCustomResourceDefinitionStoredVersions).
import { type FieldError, fieldPath, invalid } from '../../api/meta/field.js';
import { goStringSlice } from '../../api/meta/govalue.js';
import type { CustomResourceDefinitionStatus } from '../types.js';
import type { InternalVersion } from './internal.js';
import { goVersion } from './gotext.js';
import { validateNames } from './names.js';

export function validateStatus(status: CustomResourceDefinitionStatus | undefined | null): FieldError[] {
  return validateNames(status?.acceptedNames, fieldPath('status').child('acceptedNames'));
}

export function validateStoredVersions(stored: readonly string[] | undefined | null, versions: readonly InternalVersion[]): FieldError[] {
  const path = fieldPath('status').child('storedVersions');
  if (!stored || stored.length === 0) return [invalid(path, goStringSlice('string', stored ?? null), 'must have at least one stored version')];
  const errs: FieldError[] = [];
  const pending = new Map<string, number>();
  stored.forEach((v, i) => pending.set(v, i));
  for (const v of versions) {
    const known = pending.has(v.name);
    if (v.storage && !known) errs.push(invalid(path, goVersion(v), `must have the storage version ${v.name}`));
    if (known) pending.delete(v.name);
  }
  // (kube ranges over a Go map here, in no fixed order; ours is the list's order)
  for (const [v, i] of [...pending].sort((a, b) => a[1] - b[1])) errs.push(invalid(path.index(i), v, 'must appear in spec.versions'));
  return errs;
}
