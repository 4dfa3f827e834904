// Per-kind validation of rbac.authorization.svc.io/v1 (Role, ClusterRole,
// RoleBinding, ClusterRoleBinding) with kube-apiserver v1.27's paths and
// messages (pkg/apis/rbac/validation), spelled with this server's group.
import { type FieldError, type FieldPath, fieldPath, invalid, notSupported, required } from '../../meta/field.js';
import { dns1123SubdomainErrors, pathSegmentNameErrors } from '../../meta/validation.js';
import { type Obj, arr, isObj, obj, semanticEqual, str, validateLabelSelector } from '../../meta/checks.js';
import { GoValue } from '../../meta/govalue.js';
import type { KindValidator } from '../../core/v1/validation.js';

export const RBAC_GROUP = 'rbac.authorization.svc.io';
/** Manifests written for Kubernetes name the k8s.io spelling; both mean this group (DESIGN §2). */
const RBAC_GROUPS = new Set([RBAC_GROUP, 'rbac.authorization.k8s.io']);

function validatePolicyRule(rule: Obj, namespaced: boolean, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (arr(rule.verbs).length === 0) errs.push(required(path.child('verbs'), 'verbs must contain at least one value'));
  const urls = arr(rule.nonResourceURLs);
  if (urls.length > 0) {
    if (namespaced) errs.push(invalid(path.child('nonResourceURLs'), urls, 'namespaced rules cannot apply to non-resource URLs'));
    if (arr(rule.apiGroups).length > 0 || arr(rule.resources).length > 0 || arr(rule.resourceNames).length > 0) {
      errs.push(invalid(path.child('nonResourceURLs'), urls, 'rules cannot apply to both regular resources and non-resource URLs'));
    }
    return errs;
  }
  if (arr(rule.apiGroups).length === 0) errs.push(required(path.child('apiGroups'), 'resource rules must supply at least one api group'));
  if (arr(rule.resources).length === 0) errs.push(required(path.child('resources'), 'resource rules must supply at least one resource'));
  return errs;
}

const rules = (o: Obj, namespaced: boolean) => arr(o.rules).flatMap((r, i) => validatePolicyRule(obj(r), namespaced, fieldPath('rules').index(i)));

export const validateRole = (role: Obj): FieldError[] => rules(role, true);

export function validateClusterRole(role: Obj): FieldError[] {
  const errs = rules(role, false);
  if (isObj(role.aggregationRule)) {
    const p = fieldPath('aggregationRule').child('clusterRoleSelectors');
    const sels = arr(role.aggregationRule.clusterRoleSelectors);
    if (sels.length === 0) errs.push(required(p, 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
    sels.forEach((s, i) => errs.push(...validateLabelSelector(s, p.index(i))));
  }
  return errs;
}

function validateSubject(s: Obj, namespaced: boolean, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(s.name);
  const apiGroup = str(s.apiGroup);
  if (!name) errs.push(required(path.child('name')));
  switch (str(s.kind)) {
    case 'ServiceAccount':
      if (name) for (const m of dns1123SubdomainErrors(name)) errs.push(invalid(path.child('name'), name, m));
      if (apiGroup) errs.push(notSupported(path.child('apiGroup'), apiGroup, ['']));
      if (!namespaced && !str(s.namespace)) errs.push(required(path.child('namespace')));
      break;
    case 'User':
    case 'Group':
      if (!RBAC_GROUPS.has(apiGroup)) errs.push(notSupported(path.child('apiGroup'), apiGroup, [RBAC_GROUP]));
      break;
    default:
      errs.push(notSupported(path.child('kind'), str(s.kind), ['ServiceAccount', 'User', 'Group']));
  }
  return errs;
}

function validateBinding(b: Obj, namespaced: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const ref = obj(b.roleRef);
  const rp = fieldPath('roleRef');
  if (!RBAC_GROUPS.has(str(ref.apiGroup))) errs.push(notSupported(rp.child('apiGroup'), str(ref.apiGroup), [RBAC_GROUP]));
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  if (!kinds.includes(str(ref.kind))) errs.push(notSupported(rp.child('kind'), str(ref.kind), kinds));
  const name = str(ref.name);
  if (!name) errs.push(required(rp.child('name')));
  else for (const m of pathSegmentNameErrors(name, false)) errs.push(invalid(rp.child('name'), name, m));
  arr(b.subjects).forEach((s, i) => errs.push(...validateSubject(obj(s), namespaced, fieldPath('subjects').index(i))));
  return errs;
}

function roleRefUnchanged(b: Obj, old: Obj): FieldError[] {
  if (semanticEqual(b.roleRef, old.roleRef)) return [];
  const r = obj(b.roleRef);
  const q = (k: string) => JSON.stringify(str(r[k]));
  return [invalid('roleRef', new GoValue(b.roleRef, `rbac.RoleRef{APIGroup:${q('apiGroup')}, Kind:${q('kind')}, Name:${q('name')}}`), 'cannot change roleRef')];
}

export const validateRoleBinding = (b: Obj) => validateBinding(b, true);
export const validateClusterRoleBinding = (b: Obj) => validateBinding(b, false);

export function rbacValidators(): Record<string, KindValidator> {
  return {
    Role: { validate: validateRole, validateUpdate: (o) => validateRole(o) },
    ClusterRole: { validate: validateClusterRole, validateUpdate: (o) => validateClusterRole(o) },
    RoleBinding: { validate: validateRoleBinding, validateUpdate: (o, old) => [...validateRoleBinding(o), ...roleRefUnchanged(o, old)] },
    ClusterRoleBinding: { validate: validateClusterRoleBinding, validateUpdate: (o, old) => [...validateClusterRoleBinding(o), ...roleRefUnchanged(o, old)] },
  };
}
