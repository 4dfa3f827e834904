// Names: metadata.name (`<plural>.<group>`), spec.group, and spec.names /
// status.acceptedNames (ValidateCustomResourceDefinitionNames).
import { type FieldError, type FieldPath, invalid, required } from '../../api/meta/field.js';
import { dns1035LabelErrors, dns1123SubdomainErrors } from '../../api/meta/validation.js';
import { subdomainName } from '../../registry/strategies/names.js';
import type { CustomResourceDefinitionNames, CustomResourceDefinitionSpec } from '../types.js';

/**
 * The CRD's name rule for metadata validation (a Strategy's validateName):
 * NameIsDNSSubdomain, then "must be spec.names.plural+"."+spec.group".
 */
export function crdNameErrors(name: string, prefix: boolean, spec: Pick<CustomResourceDefinitionSpec, 'group' | 'names'> | undefined): string[] {
  const msgs = subdomainName(name, prefix);
  if (name !== `${spec?.names?.plural ?? ''}.${spec?.group ?? ''}`) msgs.push('must be spec.names.plural+"."+spec.group');
  return msgs;
}

export function validateGroup(group: string | undefined, path: FieldPath): FieldError[] {
  if (!group) return [required(path, '')];
  const errs = dns1123SubdomainErrors(group);
  if (errs.length) return [invalid(path, group, errs.join(','))];
  if (group.split('.').length < 2) return [invalid(path, group, 'should be a domain with at least one dot')];
  return [];
}

const MIXED_CASE = 'may have mixed case, but should otherwise match: ';

/** ValidateCustomResourceDefinitionNames (spec.names and status.acceptedNames). */
export function validateNames(names: Partial<CustomResourceDefinitionNames> | undefined, path: FieldPath): FieldError[] {
  const n = names ?? {};
  const errs: FieldError[] = [];
  const label = (field: string, v: string | undefined, prefix = '', lower = false) => {
    if (!v) return;
    const msgs = dns1035LabelErrors(lower ? v.toLowerCase() : v);
    if (msgs.length) errs.push(invalid(path.child(field), v, prefix + msgs.join(',')));
  };
  label('plural', n.plural);
  label('singular', n.singular);
  label('kind', n.kind, MIXED_CASE, true);
  label('listKind', n.listKind, MIXED_CASE, true);
  (n.shortNames ?? []).forEach((s, i) => {
    const msgs = dns1035LabelErrors(s);
    if (msgs.length) errs.push(invalid(path.child('shortNames').index(i), s, msgs.join(',')));
  });
  if (n.kind && n.kind === n.listKind) errs.push(invalid(path.child('listKind'), n.listKind, 'kind and listKind may not be the same'));
  (n.categories ?? []).forEach((c, i) => {
    const msgs = dns1035LabelErrors(c);
    if (msgs.length) errs.push(invalid(path.child('categories').index(i), c, msgs.join(',')));
  });
  return errs;
}

/** The names spec requires (status.acceptedNames may leave them empty). */
export function requiredNames(names: Partial<CustomResourceDefinitionNames> | undefined, path: FieldPath): FieldError[] {
  const n = names ?? {};
  const errs: FieldError[] = [];
  for (const f of ['plural', 'singular', 'kind', 'listKind'] as const) if (!n[f]) errs.push(required(path.child(f), ''));
  return errs;
}
