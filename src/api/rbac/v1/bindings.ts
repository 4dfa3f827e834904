// rbac/v1 bindings: who (subjects) gets the rules of which role (roleRef).
import { kind, list, obj, ref, str } from '../../../schema/index.js';

const PKG = 'io.k8s.api.rbac.v1';

export const RoleRef = obj({
  apiGroup: str().required().proto(1, { keepZero: true }).desc('The API group of the role.'),
  kind: str().required().proto(2, { keepZero: true }).desc('Role or ClusterRole.'),
  name: str().required().proto(3, { keepZero: true }).desc('The name of the role.'),
})
  .atomic()
  .id(`${PKG}.RoleRef`)
  .desc('The role a binding grants.');

export const Subject = obj({
  kind: str().required().proto(1, { keepZero: true }).desc('User, Group or ServiceAccount.'),
  apiGroup: str().proto(2).desc('The API group of the subject: empty for service accounts, the RBAC group for users and groups.'),
  name: str().required().proto(3, { keepZero: true }).desc('The name of the user, group or service account.'),
  namespace: str().proto(4).desc('The namespace of a service account; empty for users and groups.'),
})
  .atomic()
  .id(`${PKG}.Subject`)
  .desc('A user, group or service account a binding applies to.');

export const RoleBinding = kind({
  subjects: list(Subject).proto(2).desc('Who the role is granted to.'),
  roleRef: ref(RoleRef).required().proto(3).desc('A Role in this namespace or a ClusterRole; immutable.'),
})
  .id(`${PKG}.RoleBinding`)
  .desc('Grants a role to subjects within one namespace.');

export const ClusterRoleBinding = kind({
  subjects: list(Subject).proto(2).desc('Who the role is granted to.'),
  roleRef: ref(RoleRef).required().proto(3).desc('A ClusterRole; immutable.'),
})
  .id(`${PKG}.ClusterRoleBinding`)
  .desc('Grants a ClusterRole to subjects across the cluster.');
