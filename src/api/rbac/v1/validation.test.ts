// rbac.authorization.svc.io/v1 validation causes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderCause } from '../../meta/govalue.js';
import { rbacValidators } from './validation.js';

const v = rbacValidators();
const ref = { apiGroup: 'rbac.authorization.svc.io', kind: 'Role', name: 'r' };
describe('RBAC', () => {
  const rows: [string, () => ReturnType<typeof v.Role.validate>, string[]][] = [
    ['rule needs verbs, groups, resources', () => v.Role!.validate({ rules: [{}] }), ['rules[0].verbs: Required value: verbs must contain at least one value', 'rules[0].apiGroups: Required value: resource rules must supply at least one api group', 'rules[0].resources: Required value: resource rules must supply at least one resource']],
    ['namespaced rules and URLs', () => v.Role!.validate({ rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }] }), ['rules[0].nonResourceURLs: Invalid value: []string{"/healthz"}: namespaced rules cannot apply to non-resource URLs']],
    ['cluster role URLs', () => v.ClusterRole!.validate({ rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }] }), []],
    ['subject kinds', () => v.RoleBinding!.validate({ roleRef: ref, subjects: [{ kind: 'Robot', name: 'x' }, { kind: 'User', name: 'u' }] }), [
      'subjects[0].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"',
      'subjects[1].apiGroup: Unsupported value: "": supported values: "rbac.authorization.svc.io"',
    ]],
    ['cluster binding: ClusterRole only, service account namespace', () => v.ClusterRoleBinding!.validate({ roleRef: ref, subjects: [{ kind: 'ServiceAccount', name: 'sa' }] }), [
      'roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"',
      'subjects[0].namespace: Required value',
    ]],
    ['roleRef immutable', () => v.RoleBinding!.validateUpdate({ roleRef: { ...ref, name: 'other' } }, { roleRef: ref }), ['roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.svc.io", Kind:"Role", Name:"other"}: cannot change roleRef']],
  ];
  for (const [name, errs, want] of rows) it(name, () => assert.deepEqual(errs().map(renderCause), want));
});
