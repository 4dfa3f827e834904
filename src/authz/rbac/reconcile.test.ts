// kube's computeReconciledRole / computeReconciledRoleBinding (union, no removal).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../registry/object.js';
import { reconcileBinding, reconcileRole } from './reconcile.js';

const role = (extra: Partial<ApiObject> & { labels?: Record<string, string>; annotations?: Record<string, string> } = {}): ApiObject => {
  const { labels, annotations, ...rest } = extra;
  return { kind: 'ClusterRole', metadata: { name: 'r', ...(labels ? { labels } : {}), ...(annotations ? { annotations } : {}) }, ...rest };
};
const expectedRole = role({
  labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' },
  annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'true' },
  rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }],
});

describe('reconcileRole', () => {
  it('changes nothing when the role already has everything', () => {
    const existing = role({ ...expectedRole, labels: expectedRole.metadata.labels, annotations: expectedRole.metadata.annotations, rules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }] });
    const r = reconcileRole(existing, expectedRole);
    assert.equal(r.operation, 'none');
    assert.equal(r.object, existing);
  });

  it('adds missing labels, annotations and the uncovered permissions, keeping extra rules and existing values', () => {
    const existing = role({
      labels: { 'kubernetes.io/bootstrapping': 'mine', team: 'a' },
      rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }, { verbs: ['delete'], apiGroups: [''], resources: ['secrets'] }],
    });
    const r = reconcileRole(existing, expectedRole);
    assert.equal(r.operation, 'update');
    assert.equal(r.protected, false);
    assert.deepEqual(r.object.metadata.labels, { 'kubernetes.io/bootstrapping': 'mine', team: 'a' });
    assert.deepEqual(r.object.metadata.annotations, { 'rbac.authorization.kubernetes.io/autoupdate': 'true' });
    assert.deepEqual(r.object.rules, [
      { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
      { verbs: ['delete'], apiGroups: [''], resources: ['secrets'] },
      { verbs: ['list'], apiGroups: [''], resources: ['pods'] },
    ]);
  });

  it('reports autoupdate "false" (either spelling) as protected', () => {
    for (const k of ['rbac.authorization.kubernetes.io/autoupdate', 'rbac.authorization.svc.io/autoupdate']) {
      assert.equal(reconcileRole(role({ annotations: { [k]: 'false' } }), expectedRole).protected, true);
    }
    assert.equal(reconcileRole(role({ annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'yes' } }), expectedRole).protected, false);
  });

  it('adds missing aggregation selectors, keeps the others, and leaves aggregated rules alone', () => {
    const want = role({ aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'true' } }, { matchLabels: { b: 'true' } }] } });
    const existing = role({ aggregationRule: { clusterRoleSelectors: [{ matchLabels: { mine: 'true' } }, { matchLabels: { a: 'true' } }] }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['x'] }] });
    const r = reconcileRole(existing, want);
    assert.equal(r.operation, 'update');
    assert.deepEqual(r.object.aggregationRule, { clusterRoleSelectors: [{ matchLabels: { mine: 'true' } }, { matchLabels: { a: 'true' } }, { matchLabels: { b: 'true' } }] });
    assert.deepEqual(r.object.rules, existing.rules);
  });

  it('removes an aggregation the default role does not have', () => {
    const r = reconcileRole(role({ aggregationRule: { clusterRoleSelectors: [] }, rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }] }), role({ rules: [] }));
    assert.equal(r.operation, 'update');
    assert.equal(r.object.aggregationRule, undefined);
  });
});

describe('reconcileBinding', () => {
  const binding = (roleName: string, subjects: unknown[]): ApiObject => ({
    kind: 'ClusterRoleBinding', metadata: { name: 'b' }, roleRef: { apiGroup: 'rbac.authorization.svc.io', kind: 'ClusterRole', name: roleName }, subjects,
  });
  const alice = { kind: 'User', apiGroup: 'rbac.authorization.svc.io', name: 'alice' };
  const bob = { kind: 'User', apiGroup: 'rbac.authorization.svc.io', name: 'bob' };

  it('adds missing subjects after the existing ones', () => {
    const r = reconcileBinding(binding('r', [bob]), binding('r', [alice, bob]));
    assert.equal(r.operation, 'update');
    assert.deepEqual(r.object.subjects, [bob, alice]);
  });

  it('takes a subject in the k8s.io spelling as the same subject', () => {
    const r = reconcileBinding(binding('r', [{ ...alice, apiGroup: 'rbac.authorization.k8s.io' }]), binding('r', [alice]));
    assert.equal(r.operation, 'none');
  });

  it('recreates a binding whose roleRef differs', () => {
    const r = reconcileBinding(binding('other', [alice]), binding('r', [alice]));
    assert.equal(r.operation, 'recreate');
    assert.equal((r.object.roleRef as { name: string }).name, 'r');
  });
});
