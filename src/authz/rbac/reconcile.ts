// Reconciliation of the bootstrap RBAC policy at start (kube's
// pkg/registry/rbac/rest/storage_rbac.go post-start hook rbac/bootstrap-roles
// over pkg/registry/rbac/reconciliation): a missing object is created; an
// existing one is brought up to the default by union — missing labels,
// annotations, rules (as kube adds them: the uncovered permissions broken
// down one by one), aggregationRule selectors and binding subjects are added,
// nothing is removed (kubectl auth reconcile without
// --remove-extra-permissions). A binding whose roleRef differs is deleted and
// created again. An object annotated autoupdate "false" (either spelling) is
// protected and left alone. A second run writes nothing.
import type { Registry } from '../../registry/registry.js';
import type { GenericStore } from '../../registry/store.js';
import type { ApiObject } from '../../registry/object.js';
import { schemaFor } from '../../api/schemas.js';
import { trackWrite } from '../../endpoints/fieldmanager.js';
import { isStatusError } from '../../api/meta/index.js';
import { canonicalGroup } from '../../endpoints/requestinfo.js';
import { covers, policyRuleOf } from './escalation.js';
import type { PolicyRule } from './rules.js';
import { AUTOUPDATE_ANNOTATIONS, RBAC_API_VERSION, bootstrapPolicy, type PolicyGates } from './bootstrap/index.js';
import { RBAC_GROUP } from '../../api/rbac/v1/validation.js';

/** The field manager of the server's own writes. */
export const APISERVER_MANAGER = 'svc-apiserver';
const ATTEMPTS = 10;

export type Operation = 'none' | 'update' | 'recreate';

export interface Reconciled {
  /** autoupdate is "false": the object is left as it is whatever the operation says. */
  readonly protected: boolean;
  readonly operation: Operation;
  /** The object to write (the existing one when the operation is none). */
  readonly object: ApiObject;
}

/** Whether the object opted out of reconciliation (kube: annotation rbac.authorization.kubernetes.io/autoupdate "false"). */
export function isProtected(obj: ApiObject): boolean {
  const ann = obj.metadata.annotations ?? {};
  return AUTOUPDATE_ANNOTATIONS.some((k) => ann[k] === 'false');
}

const clone = <T>(v: T): T => structuredClone(v);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Labels and annotations: the expected ones added, the existing values kept where both have a key. */
function mergeMetadata(out: ApiObject, expected: ApiObject): boolean {
  let changed = false;
  for (const field of ['labels', 'annotations'] as const) {
    const have = out.metadata[field] ?? {};
    const merged = { ...(expected.metadata[field] ?? {}), ...have };
    if (!same(Object.keys(merged).sort(), Object.keys(have).sort())) {
      out.metadata[field] = merged;
      changed = true;
    }
  }
  return changed;
}

interface AggregationRule {
  clusterRoleSelectors?: unknown[] | null;
}

const rulesOf = (o: ApiObject): PolicyRule[] => (Array.isArray(o.rules) ? (o.rules as PolicyRule[]) : []);
const aggregationOf = (o: ApiObject): AggregationRule | undefined =>
  o.aggregationRule && typeof o.aggregationRule === 'object' ? (o.aggregationRule as AggregationRule) : undefined;

/** kube's computeReconciledRole with removeExtraPermissions false. */
export function reconcileRole(existing: ApiObject, expected: ApiObject): Reconciled {
  const out = clone(existing);
  let changed = mergeMetadata(out, expected);
  const uncovered = covers(rulesOf(existing), rulesOf(expected)).map(policyRuleOf);
  if (uncovered.length > 0) {
    out.rules = [...rulesOf(existing), ...uncovered];
    changed = true;
  }
  const want = aggregationOf(expected);
  const have = aggregationOf(existing);
  if (!want && have) {
    // not an aggregated role by default: the aggregation goes (kube does this even without removing extras)
    delete out.aggregationRule;
    changed = true;
  } else if (want) {
    const haveSelectors = have?.clusterRoleSelectors ?? [];
    const missing = (want.clusterRoleSelectors ?? []).filter((s) => !haveSelectors.some((h) => same(h, s)));
    if (missing.length > 0) {
      out.aggregationRule = { ...(have ?? {}), clusterRoleSelectors: [...haveSelectors, ...missing] };
      changed = true;
    }
  }
  return { protected: isProtected(existing), operation: changed ? 'update' : 'none', object: changed ? out : existing };
}

interface SubjectLike {
  kind?: string;
  apiGroup?: string;
  name?: string;
  namespace?: string;
}
const subjectsOf = (o: ApiObject): SubjectLike[] => (Array.isArray(o.subjects) ? (o.subjects as SubjectLike[]) : []);
const sameSubject = (a: SubjectLike, b: SubjectLike) =>
  a.kind === b.kind && a.name === b.name && (a.namespace ?? '') === (b.namespace ?? '') && canonicalGroup(a.apiGroup ?? '') === canonicalGroup(b.apiGroup ?? '');

function sameRoleRef(a: unknown, b: unknown): boolean {
  const x = (a ?? {}) as SubjectLike;
  const y = (b ?? {}) as SubjectLike;
  return x.kind === y.kind && x.name === y.name && canonicalGroup(x.apiGroup ?? '') === canonicalGroup(y.apiGroup ?? '');
}

/** kube's computeReconciledRoleBinding with removeExtraSubjects false. */
export function reconcileBinding(existing: ApiObject, expected: ApiObject): Reconciled {
  if (!sameRoleRef(existing.roleRef, expected.roleRef)) return { protected: isProtected(existing), operation: 'recreate', object: clone(expected) };
  const out = clone(existing);
  let changed = mergeMetadata(out, expected);
  const have = subjectsOf(existing);
  const missing = subjectsOf(expected).filter((s) => !have.some((h) => sameSubject(h, s)));
  if (missing.length > 0) {
    out.subjects = [...have, ...missing];
    changed = true;
  }
  return { protected: isProtected(existing), operation: changed ? 'update' : 'none', object: changed ? out : existing };
}

const isReason = (err: unknown, reason: string) => isStatusError(err) && err.status.reason === reason;

/** Creates or reconciles one object, again from a fresh read when a write races another. */
async function reconcileOne(store: GenericStore, expected: ApiObject, reconcile: (existing: ApiObject, expected: ApiObject) => Reconciled): Promise<void> {
  const kind = expected.kind!;
  const schema = schemaFor(RBAC_GROUP, 'v1', kind);
  const track = (live: ApiObject | undefined, next: ApiObject) => trackWrite({ manager: APISERVER_MANAGER, apiVersion: RBAC_API_VERSION, kind, schema }, live, next);
  const namespace = expected.metadata.namespace ?? '';
  const name = expected.metadata.name!;
  for (let attempt = 1; ; attempt++) {
    try {
      let existing: ApiObject | undefined;
      try {
        existing = await store.get(namespace, name);
      } catch (err) {
        if (!isReason(err, 'NotFound')) throw err;
      }
      if (!existing) {
        await store.create(namespace, clone(expected), { dryRun: false, track });
        return;
      }
      const r = reconcile(existing, expected);
      if (r.protected || r.operation === 'none') return;
      if (r.operation === 'recreate') {
        await store.delete(namespace, name, { dryRun: false, preconditions: { uid: existing.metadata.uid, resourceVersion: existing.metadata.resourceVersion } });
        await store.create(namespace, clone(expected), { dryRun: false, track });
        return;
      }
      // the existing resourceVersion makes a concurrent write a Conflict
      await store.update(namespace, name, r.object, { dryRun: false, track });
      return;
    } catch (err) {
      const retry = isReason(err, 'Conflict') || isReason(err, 'AlreadyExists') || isReason(err, 'NotFound');
      if (!retry || attempt >= ATTEMPTS) throw err;
    }
  }
}

/**
 * The rbac/bootstrap-roles hook: the default ClusterRoles, ClusterRoleBindings,
 * Roles and RoleBindings created or reconciled through the registry, in that
 * order. The namespaced ones need svc-system and svc-public (the server makes
 * them first).
 */
export async function reconcileBootstrapPolicy(registry: Registry, gates: PolicyGates): Promise<void> {
  const policy = bootstrapPolicy(gates);
  const steps: [string, readonly object[], typeof reconcileRole][] = [
    ['clusterroles', policy.clusterRoles, reconcileRole],
    ['clusterrolebindings', policy.clusterRoleBindings, reconcileBinding],
    ['roles', policy.roles, reconcileRole],
    ['rolebindings', policy.roleBindings, reconcileBinding],
  ];
  for (const [resource, objects, reconcile] of steps) {
    const store = registry.store(RBAC_GROUP, resource);
    // the objects of one kind are independent: written together, they share the storage's commits
    await Promise.all(objects.map(async (obj) => {
      try {
        await reconcileOne(store, obj as unknown as ApiObject, reconcile);
      } catch (err) {
        throw new Error(`unable to reconcile ${resource} ${(obj as ApiObject).metadata.name}: ${(err as Error).message}`, { cause: err });
      }
    }));
  }
}
