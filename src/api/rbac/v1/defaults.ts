// Server-side defaulting for rbac.authorization.svc.io/v1 as kube-apiserver
// v1.27 applies it: a binding's roleRef.apiGroup, and each subject's apiGroup
// from its kind. The group is written in the stored svc.io spelling. In place.
import { each, emptyStr, orStr, struct, type Gates, type Json } from '../../core/v1/defaults.js';

/** This group, in the stored (svc.io) spelling. */
import { RBAC_GROUP } from './validation.js';

function defaultSubjects(binding: Json): void {
  for (const subject of each(binding, 'subjects')) {
    if (!emptyStr(subject, 'apiGroup')) continue;
    if (subject.kind === 'ServiceAccount') subject.apiGroup = '';
    else if (subject.kind === 'User' || subject.kind === 'Group') subject.apiGroup = RBAC_GROUP;
  }
}

/** RoleBinding and ClusterRoleBinding. */
export function defaultBinding(binding: Json): void {
  const roleRef = struct(binding, 'roleRef');
  if (roleRef) orStr(roleRef, 'apiGroup', RBAC_GROUP);
  defaultSubjects(binding);
}

/** The rbac.authorization.svc.io/v1 defaulters by kind (Role and ClusterRole have none). */
export const defaulters: Readonly<Record<string, (obj: Json, gates: Gates) => void>> = {
  RoleBinding: defaultBinding,
  ClusterRoleBinding: defaultBinding,
};
