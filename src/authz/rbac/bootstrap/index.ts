// kube-apiserver v1.27's bootstrap RBAC policy, as data: what the
// rbac/bootstrap-roles post-start hook creates and reconciles
// (src/authz/rbac/reconcile.ts).
import type { BootstrapBinding, BootstrapRole } from './build.js';
import { controllerRoleBindings, controllerRoles } from './controllers.js';
import { namespaceRoleBindings, namespaceRoles } from './namespaced.js';
import { clusterRoleBindings, clusterRoles, type PolicyGates } from './policy.js';

export * from './build.js';
export type { PolicyGates } from './policy.js';

export interface BootstrapPolicy {
  readonly clusterRoles: readonly BootstrapRole[];
  readonly clusterRoleBindings: readonly BootstrapBinding[];
  readonly roles: readonly BootstrapRole[];
  readonly roleBindings: readonly BootstrapBinding[];
}

/** The whole policy under these feature gates: the default roles then the controllers', as kube's hook reconciles them. */
export function bootstrapPolicy(gates: PolicyGates): BootstrapPolicy {
  return {
    clusterRoles: [...clusterRoles(gates), ...controllerRoles(gates)],
    clusterRoleBindings: [...clusterRoleBindings(), ...controllerRoleBindings(gates)],
    roles: namespaceRoles(),
    roleBindings: namespaceRoleBindings(),
  };
}
