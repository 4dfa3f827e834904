// The quota evaluators of a server (kube's quota/v1/install and core.NewEvaluators):
// pods, services and persistentvolumeclaims have their own; every other served
// resource that can be created is counted by a generic object-count
// evaluator — with its legacy name for the four core resources quota counted
// before `count/` existed. Virtual resources (reviews) and events are not
// quota'd. A function of what is served, so served CRDs join when the
// registry serves them.
import { canonicalGroup } from '../endpoints/requestinfo.js';
import { KNOWN_GATES } from '../features/gates.js';
import type { Registry, ServedResource } from '../registry/registry.js';
import type { UsageEvaluator } from './evaluator.js';
import { objectCountEvaluator } from './evaluators/objectcount.js';
import { persistentVolumeClaimEvaluator } from './evaluators/persistentvolumeclaims.js';
import { podEvaluator } from './evaluators/pods.js';
import { serviceEvaluator } from './evaluators/services.js';

/** kube's legacy object-count names (core resources counted before `count/<resource>`). */
export const LEGACY_COUNT_NAMES: Readonly<Record<string, string>> = {
  configmaps: 'configmaps',
  resourcequotas: 'resourcequotas',
  replicationcontrollers: 'replicationcontrollers',
  secrets: 'secrets',
};

/** kube's DefaultIgnoredResources (groups in the svc.io spelling): never quota'd. */
export const IGNORED_RESOURCES: ReadonlySet<string> = new Set([
  '/bindings', '/componentstatuses', '/events', 'events.svc.io/events',
  'authentication.svc.io/tokenreviews', 'authentication.svc.io/selfsubjectreviews',
  'authorization.svc.io/subjectaccessreviews', 'authorization.svc.io/selfsubjectaccessreviews',
  'authorization.svc.io/localsubjectaccessreviews', 'authorization.svc.io/selfsubjectrulesreviews',
]);

export const isIgnoredResource = (group: string, resource: string): boolean => IGNORED_RESOURCES.has(`${canonicalGroup(group)}/${resource}`);

export interface EvaluatorOptions {
  /** Feature gates (src/features/gates.ts): InPlacePodVerticalScaling, RecoverVolumeExpansionFailure. */
  readonly gates?: { enabled(name: string): boolean };
}

const quotable = (r: ServedResource): boolean =>
  !r.virtual && r.verbs.includes('create') && !isIgnoredResource(r.group, r.resource);

/** One evaluator per quotable served resource (each group/resource once, whatever its versions). */
export function quotaEvaluators(registry: Pick<Registry, 'resources'>, opts: EvaluatorOptions = {}): UsageEvaluator[] {
  // InPlacePodVerticalScaling is not among the server's gates yet (so off, as in v1.27 by default).
  const gate = (name: string) => KNOWN_GATES.has(name) && opts.gates?.enabled(name) === true;
  const specific: UsageEvaluator[] = [
    podEvaluator({ inPlacePodVerticalScaling: gate('InPlacePodVerticalScaling') }),
    serviceEvaluator(),
    persistentVolumeClaimEvaluator({ recoverVolumeExpansionFailure: gate('RecoverVolumeExpansionFailure') }),
  ];
  const out = new Map<string, UsageEvaluator>();
  for (const e of specific) out.set(`${e.group}/${e.resource}`, e);
  for (const r of registry.resources()) {
    const key = `${canonicalGroup(r.group)}/${r.resource}`;
    if (out.has(key) || !quotable(r)) continue;
    out.set(key, objectCountEvaluator(r.group, r.resource, r.group === '' ? LEGACY_COUNT_NAMES[r.resource] : undefined));
  }
  return [...out.values()];
}

const indexes = new WeakMap<readonly UsageEvaluator[], Map<string, UsageEvaluator>>();
/** evaluatorFor's answers by group as asked and resource (null: ignored): admission asks on every namespaced write. */
const answers = new WeakMap<readonly UsageEvaluator[], Map<string, Map<string, UsageEvaluator | null>>>();

/**
 * The evaluator of a resource (group in either spelling). Like kube's
 * admission, a resource without one — served since the list was built (a
 * CRD) — gets a fresh object-count evaluator, unless quota ignores it.
 */
export function evaluatorFor(evals: readonly UsageEvaluator[], group: string, resource: string): UsageEvaluator | undefined {
  let byGroup = answers.get(evals);
  if (!byGroup) answers.set(evals, (byGroup = new Map()));
  let byResource = byGroup.get(group);
  if (!byResource) byGroup.set(group, (byResource = new Map()));
  let answer = byResource.get(resource);
  if (answer === undefined) byResource.set(resource, (answer = lookUp(evals, group, resource) ?? null));
  return answer ?? undefined;
}

function lookUp(evals: readonly UsageEvaluator[], group: string, resource: string): UsageEvaluator | undefined {
  let index = indexes.get(evals);
  if (!index) {
    index = new Map(evals.map((e) => [`${e.group}/${e.resource}`, e]));
    indexes.set(evals, index);
  }
  const g = canonicalGroup(group);
  const found = index.get(`${g}/${resource}`);
  if (found) return found;
  if (isIgnoredResource(g, resource)) return undefined;
  const made = objectCountEvaluator(g, resource);
  index.set(`${g}/${resource}`, made);
  return made;
}
