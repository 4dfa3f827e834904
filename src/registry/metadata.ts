// Metadata rules common to every kind: name (per kind), generateName, labels,
// annotations, finalizers and ownerReferences on create; immutable fields
// and the no-new-finalizers-while-terminating rule on update.
import { validateObjectMeta, fieldPath, forbidden, invalid, type FieldError } from '../api/meta/index.js';
import type { ApiObject } from './object.js';
import type { Strategy } from './strategy.js';

export function validateMetadata(obj: ApiObject, strategy: Strategy): FieldError[] {
  return validateObjectMeta(obj.metadata, { namespaced: strategy.namespaced, validateName: (name, prefix) => strategy.validateName(name, prefix, obj) });
}

const IMMUTABLE = ['uid', 'creationTimestamp'] as const;

export function validateMetadataUpdate(obj: ApiObject, old: ApiObject, strategy: Strategy): FieldError[] {
  const errs = validateMetadata(obj, strategy);
  for (const f of IMMUTABLE) {
    const now = obj.metadata[f];
    if (now !== undefined && now !== old.metadata[f]) errs.push(invalid(fieldPath(`metadata.${f}`), now, 'field is immutable'));
  }
  if (old.metadata.deletionTimestamp) {
    const before = new Set(old.metadata.finalizers ?? []);
    const added = (obj.metadata.finalizers ?? []).filter((f) => !before.has(f));
    if (added.length > 0) {
      errs.push(forbidden(fieldPath('metadata.finalizers'), `no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map((f) => JSON.stringify(f)).join(', ')}}`));
    }
  }
  return errs;
}
