// rbac.authorization.svc.io: roles and bindings, v1 only.
import { defineGroup } from './define.js';

export const rbac = defineGroup({
  name: 'rbac.authorization.svc.io',
  groupPriorityMinimum: 17000,
  versions: [{
    version: 'v1',
    enabledByDefault: true,
    versionPriority: 15,
    resources: [
      { resource: 'clusterrolebindings', kind: 'ClusterRoleBinding', namespaced: false },
      { resource: 'clusterroles', kind: 'ClusterRole', namespaced: false },
      { resource: 'rolebindings', kind: 'RoleBinding', namespaced: true },
      { resource: 'roles', kind: 'Role', namespaced: true },
    ],
  }],
});
