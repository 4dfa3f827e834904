// The rule resolver kube-apiserver's RBAC storage uses for escalation checks
// (pkg/registry/rbac/validation DefaultRuleResolver over the RBAC registries,
// not the authorizer's informers): bindings and roles are read from the
// registry at the time of the write, so a binding created a moment ago
// already counts. Role-reference errors are the registry's own (a missing
// role is the store's NotFound).
import type { UserInfo } from '../../authn/user.js';
import { isStatusError, newBadRequest } from '../../api/meta/index.js';
import type { Registry } from '../../registry/registry.js';
import type { ApiObject } from '../../registry/object.js';
import { subjectMatches, type Binding, type RoleRef } from './authorizer.js';
import type { RuleResolver } from './escalation.js';
import type { PolicyRule } from './rules.js';

import { RBAC_GROUP } from '../../api/rbac/v1/validation.js';

export interface RegistryRuleResolver extends RuleResolver {
  /**
   * kube's GetRoleReferenceRules: the rules of a binding's roleRef (namespace:
   * the binding's, '' for a ClusterRoleBinding). Throws the store's NotFound
   * for a missing role, a plain Error for an unsupported kind (kube answers 500).
   */
  roleReferenceRules(ref: RoleRef, namespace: string): Promise<readonly PolicyRule[]>;
}

const errorText = (err: unknown): string => (isStatusError(err) ? err.status.message ?? '' : err instanceof Error ? err.message : String(err));

export function registryRuleResolver(registry: Registry): RegistryRuleResolver {
  const rulesOf = (o: ApiObject): readonly PolicyRule[] => (o.rules as PolicyRule[] | null | undefined) ?? [];

  async function roleReferenceRules(ref: RoleRef, namespace: string): Promise<readonly PolicyRule[]> {
    switch (ref.kind) {
      case 'Role':
        // A Role outside a namespace (a ClusterRoleBinding's roleRef): the namespaced store's answer.
        if (namespace === '') throw newBadRequest('Namespace parameter required.');
        return rulesOf(await registry.store(RBAC_GROUP, 'roles').get(namespace, ref.name));
      case 'ClusterRole':
        return rulesOf(await registry.store(RBAC_GROUP, 'clusterroles').get('', ref.name));
      default:
        throw new Error(`unsupported role reference kind: ${JSON.stringify(ref.kind)}`);
    }
  }

  /** Visits each rule of each binding naming the user; false from visit stops. */
  async function visitBindings(user: UserInfo, bindings: readonly ApiObject[], namespace: string, visit: Parameters<RuleResolver['visitRulesFor']>[2]): Promise<boolean> {
    for (const o of bindings) {
      const b = o as unknown as Binding;
      if (!(b.subjects ?? []).some((s) => subjectMatches(user, s, namespace))) continue;
      let rules: readonly PolicyRule[];
      try {
        rules = await roleReferenceRules(b.roleRef ?? { kind: '', name: '' }, namespace);
      } catch (err) {
        if (!visit('', undefined, errorText(err))) return false;
        continue;
      }
      for (const r of rules) if (!visit('', r, undefined)) return false;
    }
    return true;
  }

  return {
    roleReferenceRules,
    async visitRulesFor(user, namespace, visit) {
      const cluster = await registry.store(RBAC_GROUP, 'clusterrolebindings').list('');
      if (!(await visitBindings(user, cluster.items, '', visit))) return;
      if (namespace === '') return;
      const local = await registry.store(RBAC_GROUP, 'rolebindings').list(namespace);
      await visitBindings(user, local.items, namespace, visit);
    },
  };
}
