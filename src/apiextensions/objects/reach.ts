// Whether a structural schema has anything a walk over objects would check:
// list types (set/map) for the uniqueness check, embedded resources for the
// objectmeta check. Remembered per schema, so a custom resource whose schema
// has neither costs no walk per write. ObjectMeta (the root's metadata and an
// embedded resource's) is not looked into: kube runs neither check there.
import { ObjectMeta } from '../../schema/common.js';
import type { Schema } from '../../schema/model.js';

type Feature = 'listType' | 'embedded';

const memo: Record<Feature, WeakMap<Schema, boolean>> = { listType: new WeakMap(), embedded: new WeakMap() };

const has: Record<Feature, (s: Schema) => boolean> = {
  listType: (s) => s['x-kubernetes-list-type'] === 'set' || s['x-kubernetes-list-type'] === 'map',
  embedded: (s) => s['x-kubernetes-embedded-resource'] === true,
};

export function reaches(s: Schema | undefined, feature: Feature): boolean {
  if (s === undefined) return false;
  const known = memo[feature].get(s);
  if (known !== undefined) return known;
  memo[feature].set(s, false); // cycles (hand-built schemas) count as nothing more
  const found = has[feature](s)
    || Object.values(s.properties ?? {}).some((p) => p !== ObjectMeta.schema && reaches(p, feature))
    || (typeof s.additionalProperties === 'object' && reaches(s.additionalProperties, feature))
    || (s.items !== undefined && reaches(s.items, feature));
  memo[feature].set(s, found);
  return found;
}
