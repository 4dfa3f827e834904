// The default Roles and RoleBindings in svc-system and svc-public (kube
// v1.27's bootstrappolicy/namespace_policy.go; testdata/namespace-roles.yaml
// and namespace-role-bindings.yaml). Leader election still locks a ConfigMap
// in 1.27, named after the component (svc-controller-manager, svc-scheduler).
import {
  CORE, PUBLIC_NS, READ, SYSTEM_NS, eventsRule, role, roleBinding, rule, serviceAccount, user,
  type BootstrapBinding, type BootstrapRole,
} from './build.js';

const leaderLocking = (component: string) => [
  rule('watch').groups(CORE).resources('configmaps'),
  rule('get', 'update').groups(CORE).resources('configmaps').names(component),
];

/** Roles in svc-public first, then svc-system, each sorted by name (as kube's testdata lists them). */
export function namespaceRoles(): BootstrapRole[] {
  return [
    role(PUBLIC_NS, 'system:controller:bootstrap-signer', [
      rule(...READ).groups(CORE).resources('configmaps'),
      rule('update').groups(CORE).resources('configmaps').names('cluster-info'),
      eventsRule(),
    ]),
    // the authentication configuration extension API servers read
    role(SYSTEM_NS, 'extension-apiserver-authentication-reader', [
      rule(...READ).groups(CORE).resources('configmaps').names('extension-apiserver-authentication'),
    ]),
    role(SYSTEM_NS, 'system::leader-locking-svc-controller-manager', leaderLocking('svc-controller-manager')),
    role(SYSTEM_NS, 'system::leader-locking-svc-scheduler', leaderLocking('svc-scheduler')),
    role(SYSTEM_NS, 'system:controller:bootstrap-signer', [rule(...READ).groups(CORE).resources('secrets')]),
    role(SYSTEM_NS, 'system:controller:cloud-provider', [rule('create', 'get', 'list', 'watch').groups(CORE).resources('configmaps')]),
    role(SYSTEM_NS, 'system:controller:token-cleaner', [
      rule('delete', ...READ).groups(CORE).resources('secrets'),
      eventsRule(),
    ]),
  ];
}

export function namespaceRoleBindings(): BootstrapBinding[] {
  return [
    roleBinding(PUBLIC_NS, 'system:controller:bootstrap-signer', 'system:controller:bootstrap-signer', [serviceAccount(SYSTEM_NS, 'bootstrap-signer')]),
    roleBinding(SYSTEM_NS, 'system::extension-apiserver-authentication-reader', 'extension-apiserver-authentication-reader', [
      user('system:svc-controller-manager'), user('system:svc-scheduler'),
    ]),
    roleBinding(SYSTEM_NS, 'system::leader-locking-svc-controller-manager', 'system::leader-locking-svc-controller-manager', [
      user('system:svc-controller-manager'), serviceAccount(SYSTEM_NS, 'svc-controller-manager'),
    ]),
    roleBinding(SYSTEM_NS, 'system::leader-locking-svc-scheduler', 'system::leader-locking-svc-scheduler', [
      user('system:svc-scheduler'), serviceAccount(SYSTEM_NS, 'svc-scheduler'),
    ]),
    roleBinding(SYSTEM_NS, 'system:controller:bootstrap-signer', 'system:controller:bootstrap-signer', [serviceAccount(SYSTEM_NS, 'bootstrap-signer')]),
    roleBinding(SYSTEM_NS, 'system:controller:cloud-provider', 'system:controller:cloud-provider', [serviceAccount(SYSTEM_NS, 'cloud-provider')]),
    roleBinding(SYSTEM_NS, 'system:controller:token-cleaner', 'system:controller:token-cleaner', [serviceAccount(SYSTEM_NS, 'token-cleaner')]),
  ];
}
