// The write rules of RBAC objects (kube-apiserver v1.27's
// pkg/registry/rbac/{role,clusterrole,rolebinding,clusterrolebinding}/policybased
// and escalation_check.go), as write hooks on the four stores. They run
// before the strategy and validation, as kube's policybased storage runs
// before the inner store; dry runs are checked too.
//
//   Role / ClusterRole: allowed for system:masters, or with `escalate` on the
//     role (the request's group, resource, name and namespace); otherwise the
//     user must hold every rule it grants. A ClusterRole with an
//     aggregationRule (new or old, on update) needs full authority as well.
//   RoleBinding / ClusterRoleBinding: allowed for system:masters, or with
//     `bind` on the referenced role (resourceName = roleRef.name, in the
//     binding's namespace); otherwise the user must hold every rule of the
//     referenced role (read from the registry: a missing role is 404).
//   Updates that change only ownerReferences and finalizers (the garbage
//     collector's) are not checked.
//
// A write without a user is the server's own (controllers, bootstrap): kube's
// loopback client is system:masters there, so it passes too.
import { MASTERS, type UserInfo } from '../../authn/user.js';
import { isStatusError, newForbidden, newInternalError, newNotFound } from '../../api/meta/index.js';
import { semanticEqual } from '../../api/meta/checks.js';
import { canonicalGroup, groupSpelling, spellGroup } from '../../endpoints/requestinfo.js';
import type { HookContext, WriteHooks } from '../../registry/hooks.js';
import type { ApiObject } from '../../registry/object.js';
import type { Registry } from '../../registry/registry.js';
import type { Authorizer } from '../authorizer.js';
import type { RoleRef } from './authorizer.js';
import { confirmNoEscalation, type RuleResolver } from './escalation.js';
import { registryRuleResolver, type RegistryRuleResolver } from './registryresolver.js';
import { RBAC_GROUP } from '../../api/rbac/v1/validation.js';
import type { PolicyRule } from './rules.js';

export interface EscalationCheckDeps {
  /** Decides `escalate` and `bind` (the server's authorizer). */
  readonly authorizer: Authorizer;
  /** The user's rules; by default read from the registry, as kube's RBAC storage does. */
  readonly resolver?: RuleResolver;
}

interface Checks {
  readonly authorizer: Authorizer;
  readonly resolver: RuleResolver;
  readonly refs: RegistryRuleResolver;
}

/** `*` on everything: what using an aggregationRule requires. */
const FULL_AUTHORITY: readonly PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
];

/** Installs the escalation checks on the four RBAC stores (their only write hooks). */
export function installEscalationChecks(registry: Registry, deps: EscalationCheckDeps): void {
  const refs = registryRuleResolver(registry);
  const c: Checks = { authorizer: deps.authorizer, resolver: deps.resolver ?? refs, refs };
  registry.store(RBAC_GROUP, 'roles').useHooks(roleHooks(c, 'roles'));
  registry.store(RBAC_GROUP, 'clusterroles').useHooks(roleHooks(c, 'clusterroles'));
  registry.store(RBAC_GROUP, 'rolebindings').useHooks(bindingHooks(c, 'rolebindings'));
  registry.store(RBAC_GROUP, 'clusterrolebindings').useHooks(bindingHooks(c, 'clusterrolebindings'));
}

/** kube's EscalationAllowed: system:masters (and, here, the server's own writes, which carry no user). */
export function escalationAllowed(user: UserInfo | undefined): boolean {
  return !user || user.groups.includes(MASTERS);
}

/** kube's RoleEscalationAuthorized: `escalate` on the role the request names (POST names none). */
export async function roleEscalationAuthorized(authorizer: Authorizer, user: UserInfo, ctx: HookContext): Promise<boolean> {
  const info = ctx.requestInfo;
  if (!info || canonicalGroup(info.apiGroup) !== RBAC_GROUP || (info.resource !== 'roles' && info.resource !== 'clusterroles')) return false;
  const d = await authorizer.authorize({
    user, verb: 'escalate', isResourceRequest: true, path: info.path,
    apiGroup: info.apiGroup, apiVersion: '*', resource: info.resource, subresource: '', name: info.name, namespace: info.namespace,
  });
  return d.decision === 'allow';
}

/** kube's BindingAuthorized: `bind` on the referenced role, in the binding's namespace ('' for a ClusterRoleBinding). */
export async function bindingAuthorized(authorizer: Authorizer, user: UserInfo, ref: RoleRef, namespace: string): Promise<boolean> {
  const resource = ref.kind === 'ClusterRole' ? 'clusterroles' : ref.kind === 'Role' ? 'roles' : undefined;
  if (!resource) return false;
  const d = await authorizer.authorize({
    user, verb: 'bind', isResourceRequest: true, path: '',
    apiGroup: ref.apiGroup ?? '', apiVersion: '*', resource, subresource: '', name: ref.name, namespace,
  });
  return d.decision === 'allow';
}

/** kube's IsOnlyMutatingGCFields: nothing but ownerReferences and finalizers changed (the resourceVersion is the store's concern). */
export function onlyGCFieldsChange(obj: ApiObject, old: ApiObject): boolean {
  const meta = { ...obj.metadata };
  for (const k of ['ownerReferences', 'finalizers', 'selfLink', 'resourceVersion'] as const) {
    if (old.metadata[k] === undefined) delete meta[k];
    else (meta as Record<string, unknown>)[k] = old.metadata[k];
  }
  return semanticEqual({ ...obj, metadata: meta }, old);
}

const hasAggregationRule = (o: ApiObject): boolean => {
  const a = o.aggregationRule as { clusterRoleSelectors?: unknown[] } | null | undefined;
  return Array.isArray(a?.clusterRoleSelectors) && a.clusterRoleSelectors.length > 0;
};

/** The RBAC group as the request spelled it (svc.io for the server's own writes). */
const spelledGroup = (ctx: HookContext): string => spellGroup(RBAC_GROUP, groupSpelling(ctx.requestInfo?.apiGroup ?? RBAC_GROUP));

function forbidden(ctx: HookContext, resource: string, obj: ApiObject, message: string): Error {
  return newForbidden({ group: spelledGroup(ctx), resource }, obj.metadata.name ?? '', message);
}

function roleHooks(c: Checks, resource: 'roles' | 'clusterroles'): WriteHooks {
  const check = async (obj: ApiObject, old: ApiObject | undefined, ctx: HookContext): Promise<void> => {
    const user = ctx.user;
    if (escalationAllowed(user) || (await roleEscalationAuthorized(c.authorizer, user!, ctx))) return;
    if (old && onlyGCFieldsChange(obj, old)) return;
    const namespace = obj.metadata.namespace ?? '';
    const msg = await confirmNoEscalation(c.resolver, user!, namespace, (obj.rules as PolicyRule[] | null | undefined) ?? []);
    if (msg) throw forbidden(ctx, resource, obj, msg);
    // An aggregationRule gathers anything (and, removed, stops tightening): it takes * on *.
    if (resource === 'clusterroles' && (hasAggregationRule(obj) || (old !== undefined && hasAggregationRule(old)))) {
      if (await confirmNoEscalation(c.resolver, user!, namespace, FULL_AUTHORITY)) {
        throw forbidden(ctx, resource, obj, 'must have cluster-admin privileges to use the aggregationRule');
      }
    }
  };
  return {
    beforeCreate: (obj, ctx) => check(obj, undefined, ctx),
    beforeUpdate: (obj, old, ctx) => check(obj, old, ctx),
  };
}

function bindingHooks(c: Checks, resource: 'rolebindings' | 'clusterrolebindings'): WriteHooks {
  const check = async (obj: ApiObject, old: ApiObject | undefined, ctx: HookContext): Promise<void> => {
    const user = ctx.user;
    if (escalationAllowed(user)) return;
    if (old && onlyGCFieldsChange(obj, old)) return;
    const namespace = resource === 'rolebindings' ? obj.metadata.namespace ?? '' : '';
    const ref = (obj.roleRef ?? { kind: '', name: '' }) as RoleRef;
    if (await bindingAuthorized(c.authorizer, user!, ref, namespace)) return;
    const rules = await referencedRules(c, ref, namespace, ctx);
    const msg = await confirmNoEscalation(c.resolver, user!, namespace, rules);
    if (msg) throw forbidden(ctx, resource, obj, msg);
  };
  return {
    beforeCreate: (obj, ctx) => check(obj, undefined, ctx),
    beforeUpdate: (obj, old, ctx) => check(obj, old, ctx),
  };
}

/** The referenced role's rules; a missing role is 404 in the request's spelling, an unsupported kind a 500 (as kube). */
async function referencedRules(c: Checks, ref: RoleRef, namespace: string, ctx: HookContext): Promise<readonly PolicyRule[]> {
  try {
    return await c.refs.roleReferenceRules(ref, namespace);
  } catch (err) {
    if (isStatusError(err) && err.status.code === 404) {
      throw newNotFound({ group: spelledGroup(ctx), resource: ref.kind === 'Role' ? 'roles' : 'clusterroles' }, ref.name);
    }
    if (isStatusError(err)) throw err;
    throw newInternalError(err instanceof Error ? err : new Error(String(err)));
  }
}
