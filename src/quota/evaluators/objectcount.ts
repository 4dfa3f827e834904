// The generic object-count evaluator (apiserver's quota/v1/generic
// objectCountEvaluator): one object of a resource uses one
// `count/<resource>[.<group>]` (both group spellings) and, for the few core
// resources quota counted before count/ existed, one of its legacy name
// (`configmaps`, `secrets`…). Only creates are measured; it knows no scopes.
import type { UsageEvaluator } from '../evaluator.js';
import type { ResourceList } from '../resources.js';
import { canonicalGroup } from '../../endpoints/requestinfo.js';
import { NO_SCOPES, count, intersect, objectCountNames } from './common.js';

export function objectCountEvaluator(group: string, resource: string, legacyName?: string): UsageEvaluator {
  const names = [...objectCountNames(group, resource), ...(legacyName ? [legacyName] : [])];
  const known = new Set(names);
  return {
    group: canonicalGroup(group),
    resource,
    ...NO_SCOPES,
    handles: (operation, subresource) => operation === 'CREATE' && subresource === '',
    matchingResources: (input) => intersect(input, known),
    usage() {
      const out: ResourceList = {};
      for (const n of names) out[n] = count(1);
      return out;
    },
    counts: () => true,
  };
}
