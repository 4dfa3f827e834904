// kube's naming controller: which of a CRD's requested names it may be
// served under (names another CRD of the group — or a built-in resource of
// it — already serves conflict), the NamesAccepted condition, and the
// initial Established condition once every name is accepted.
import type { CustomResourceDefinition, CustomResourceDefinitionCondition, CustomResourceDefinitionNames } from '../types.js';
import { findCondition, setCondition } from '../conditions.js';

/** Names already served in the group by others: resource names (plural, singular, short) and kinds (kind, list kind). */
export interface UsedNames {
  readonly resources: ReadonlySet<string>;
  readonly kinds: ReadonlySet<string>;
}

/** The names others in the CRD's group serve: the accepted names of the other CRDs, and built-in resources. */
export function usedNames(others: readonly CustomResourceDefinition[], builtin: readonly { resource: string; singularName?: string; shortNames?: readonly string[]; kind: string }[]): UsedNames {
  const resources = new Set<string>();
  const kinds = new Set<string>();
  for (const o of others) {
    const n = o.status?.acceptedNames;
    if (!n) continue;
    for (const r of [n.plural, n.singular ?? '', ...(n.shortNames ?? [])]) if (r) resources.add(r);
    for (const k of [n.kind, n.listKind ?? '']) if (k) kinds.add(k);
  }
  for (const b of builtin) {
    for (const r of [b.resource, b.singularName ?? '', ...(b.shortNames ?? [])]) if (r) resources.add(r);
    for (const k of [b.kind, `${b.kind}List`]) kinds.add(k);
  }
  return { resources, kinds };
}

/** A requested name is fine when it is what was accepted already, or when nobody else uses it. */
function conflict(requested: string, accepted: string | undefined, used: ReadonlySet<string>): string | undefined {
  if (requested === accepted) return undefined;
  return used.has(requested) ? `${JSON.stringify(requested)} is already in use` : undefined;
}

/** The accepted names and conditions the naming controller computes for a CRD. */
export function namingStatus(crd: CustomResourceDefinition, used: UsedNames, now = Date.now()): { acceptedNames: CustomResourceDefinitionNames; conditions: CustomResourceDefinitionCondition[] } {
  const requested = crd.spec.names;
  const accepted: Partial<CustomResourceDefinitionNames> = crd.status?.acceptedNames ?? {};
  const next: CustomResourceDefinitionNames = { plural: accepted.plural ?? '', kind: accepted.kind ?? '' };
  if (accepted.singular !== undefined) next.singular = accepted.singular;
  if (accepted.shortNames !== undefined) next.shortNames = accepted.shortNames;
  if (accepted.listKind !== undefined) next.listKind = accepted.listKind;
  let failed: { reason: string; message: string } | undefined;
  const check = (requestedName: string, acceptedName: string | undefined, set: ReadonlySet<string>, reason: string, take: () => void) => {
    const err = conflict(requestedName, acceptedName, set);
    if (err) failed = { reason, message: err };
    else take();
  };
  check(requested.plural, accepted.plural, used.resources, 'PluralConflict', () => (next.plural = requested.plural));
  check(requested.singular ?? '', accepted.singular, used.resources, 'SingularConflict', () => (next.singular = requested.singular ?? ''));
  const shortConflict = (requested.shortNames ?? []).map((s) => (accepted.shortNames ?? []).includes(s) ? undefined : conflict(s, undefined, used.resources)).find((e) => e);
  if (shortConflict) failed = { reason: 'ShortNamesConflict', message: shortConflict };
  else if (requested.shortNames !== undefined) next.shortNames = requested.shortNames;
  check(requested.kind, accepted.kind, used.kinds, 'KindConflict', () => (next.kind = requested.kind));
  check(requested.listKind ?? '', accepted.listKind, used.kinds, 'ListKindConflict', () => (next.listKind = requested.listKind ?? ''));
  if (requested.categories !== undefined) next.categories = requested.categories;
  const names: Omit<CustomResourceDefinitionCondition, 'lastTransitionTime'> = failed
    ? { type: 'NamesAccepted', status: 'False', ...failed }
    : { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' };
  let conditions = setCondition(crd.status?.conditions ?? [], names, now);
  const established = findCondition(crd, 'Established');
  if (established?.status !== 'True') {
    conditions = setCondition(conditions, names.status === 'True'
      ? { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' }
      : { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' }, now);
  }
  return { acceptedNames: ordered(next), conditions };
}

/** Names in the order kube's JSON writes them. */
function ordered(n: CustomResourceDefinitionNames): CustomResourceDefinitionNames {
  return {
    plural: n.plural,
    ...(n.singular ? { singular: n.singular } : {}),
    ...(n.shortNames?.length ? { shortNames: n.shortNames } : {}),
    kind: n.kind,
    ...(n.listKind ? { listKind: n.listKind } : {}),
    ...(n.categories?.length ? { categories: n.categories } : {}),
  };
}
