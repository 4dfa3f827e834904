// rbac.authorization.svc.io/v1 defaulting (v1.27 behaviour, svc.io spelling).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Json } from '../../core/v1/defaults.js';
import { defaulters } from './defaults.js';

const G = 'rbac.authorization.svc.io';
const rows: [kind: string, input: Json, want: Json][] = [
  ['RoleBinding', {
    roleRef: { kind: 'Role', name: 'r' },
    subjects: [{ kind: 'ServiceAccount', name: 's', namespace: 'n' }, { kind: 'User', name: 'u' }, { kind: 'Group', name: 'g' }, { kind: 'Other', name: 'o' }, { kind: 'User', name: 'v', apiGroup: 'x' }],
  }, {
    roleRef: { kind: 'Role', name: 'r', apiGroup: G },
    subjects: [{ kind: 'ServiceAccount', name: 's', namespace: 'n', apiGroup: '' }, { kind: 'User', name: 'u', apiGroup: G }, { kind: 'Group', name: 'g', apiGroup: G }, { kind: 'Other', name: 'o' }, { kind: 'User', name: 'v', apiGroup: 'x' }],
  }],
  ['ClusterRoleBinding', { roleRef: { kind: 'ClusterRole', name: 'r', apiGroup: 'rbac.authorization.k8s.io' } }, { roleRef: { kind: 'ClusterRole', name: 'r', apiGroup: 'rbac.authorization.k8s.io' } }],
];

describe('rbac.authorization.svc.io/v1 defaults', () => {
  for (const [kind, input, want] of rows) {
    it(kind, () => {
      const obj = structuredClone(input);
      defaulters[kind]!(obj, { enabled: () => false });
      assert.deepEqual(obj, want);
    });
  }
});
