// The bootstrap policy against facts from kube v1.27's bootstrappolicy
// testdata (cluster-roles.yaml, controller-roles.yaml, namespace-roles.yaml
// and the bindings files): every object by name with its rule count, a few
// rules in full, and the svc renames.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bootstrapPolicy, type BootstrapRole } from './index.js';

const gates = (on: string[] = []) => ({ enabled: (n: string) => on.includes(n) });
const policy = bootstrapPolicy(gates());
const count = (r: BootstrapRole) => r.rules?.length ?? 0;

// name → rule count (aggregated roles: 0, their rules come from the aggregation controller)
const CLUSTER_ROLES: Record<string, number> = {
  admin: 0, 'cluster-admin': 2, edit: 0, view: 0,
  'system:aggregate-to-admin': 2, 'system:aggregate-to-edit': 13, 'system:aggregate-to-view': 10,
  'system:auth-delegator': 2, 'system:basic-user': 1,
  'system:certificates.k8s.io:certificatesigningrequests:nodeclient': 1,
  'system:certificates.k8s.io:certificatesigningrequests:selfnodeclient': 1,
  'system:certificates.k8s.io:kube-apiserver-client-approver': 1,
  'system:certificates.k8s.io:kube-apiserver-client-kubelet-approver': 1,
  'system:certificates.k8s.io:kubelet-serving-approver': 1,
  'system:certificates.k8s.io:legacy-unknown-approver': 1,
  'system:discovery': 1, 'system:heapster': 2, 'system:kubelet-api-admin': 3, 'system:monitoring': 1,
  'system:node': 22, 'system:node-bootstrapper': 1, 'system:node-problem-detector': 3, 'system:node-proxier': 4,
  'system:persistent-volume-provisioner': 5, 'system:public-info-viewer': 1, 'system:service-account-issuer-discovery': 1,
  'system:svc-aggregator': 1, 'system:svc-controller-manager': 11, 'system:svc-dns': 1, 'system:svc-scheduler': 18,
  'system:volume-scheduler': 3,
};
const CONTROLLER_ROLES: Record<string, number> = {
  'attachdetach-controller': 8, 'certificate-controller': 6, 'clusterrole-aggregation-controller': 1, 'cronjob-controller': 6,
  'daemon-set-controller': 8, 'deployment-controller': 6, 'disruption-controller': 9, 'endpoint-controller': 4,
  'endpointslice-controller': 5, 'endpointslicemirroring-controller': 6, 'ephemeral-volume-controller': 4, 'expand-controller': 7,
  'generic-garbage-collector': 2, 'horizontal-pod-autoscaler': 8, 'job-controller': 5, 'namespace-controller': 3,
  'node-controller': 5, 'persistent-volume-binder': 12, 'pod-garbage-collector': 3, 'pv-protection-controller': 2,
  'pvc-protection-controller': 3, 'replicaset-controller': 5, 'replication-controller': 5, 'resourcequota-controller': 3,
  'root-ca-cert-publisher': 2, 'route-controller': 3, 'service-account-controller': 2, 'service-controller': 4,
  'statefulset-controller': 8, 'ttl-after-finished-controller': 2, 'ttl-controller': 2,
};
const NAMESPACE_ROLES: Record<string, number> = {
  'svc-public/system:controller:bootstrap-signer': 3,
  'svc-system/extension-apiserver-authentication-reader': 1,
  'svc-system/system::leader-locking-svc-controller-manager': 2,
  'svc-system/system::leader-locking-svc-scheduler': 2,
  'svc-system/system:controller:bootstrap-signer': 1,
  'svc-system/system:controller:cloud-provider': 1,
  'svc-system/system:controller:token-cleaner': 2,
};
// binding name → subjects as kind:namespace/name
const CLUSTER_ROLE_BINDINGS: Record<string, string[]> = {
  'cluster-admin': ['Group:system:masters'],
  'system:basic-user': ['Group:system:authenticated'],
  'system:discovery': ['Group:system:authenticated'],
  'system:monitoring': ['Group:system:monitoring'],
  'system:node': [],
  'system:node-proxier': ['User:system:svc-proxy'],
  'system:public-info-viewer': ['Group:system:authenticated', 'Group:system:unauthenticated'],
  'system:service-account-issuer-discovery': ['Group:system:serviceaccounts'],
  'system:svc-controller-manager': ['User:system:svc-controller-manager'],
  'system:svc-dns': ['ServiceAccount:svc-system/svc-dns'],
  'system:svc-scheduler': ['User:system:svc-scheduler'],
  'system:volume-scheduler': ['User:system:svc-scheduler'],
};
const NAMESPACE_ROLE_BINDINGS: Record<string, string[]> = {
  'svc-public/system:controller:bootstrap-signer': ['ServiceAccount:svc-system/bootstrap-signer'],
  'svc-system/system::extension-apiserver-authentication-reader': ['User:system:svc-controller-manager', 'User:system:svc-scheduler'],
  'svc-system/system::leader-locking-svc-controller-manager': ['User:system:svc-controller-manager', 'ServiceAccount:svc-system/svc-controller-manager'],
  'svc-system/system::leader-locking-svc-scheduler': ['User:system:svc-scheduler', 'ServiceAccount:svc-system/svc-scheduler'],
  'svc-system/system:controller:bootstrap-signer': ['ServiceAccount:svc-system/bootstrap-signer'],
  'svc-system/system:controller:cloud-provider': ['ServiceAccount:svc-system/cloud-provider'],
  'svc-system/system:controller:token-cleaner': ['ServiceAccount:svc-system/token-cleaner'],
};

const key = (m: { name: string; namespace?: string }) => (m.namespace ? `${m.namespace}/${m.name}` : m.name);
const subjects = (b: { subjects?: readonly { kind: string; name: string; namespace?: string }[] }) =>
  (b.subjects ?? []).map((s) => `${s.kind}:${s.namespace ? `${s.namespace}/` : ''}${s.name}`);

describe('bootstrap policy', () => {
  it('has every default ClusterRole (and the controllers\') with kube\'s rule count, sorted by name', () => {
    const want = { ...CLUSTER_ROLES, ...Object.fromEntries(Object.entries(CONTROLLER_ROLES).map(([n, c]) => [`system:controller:${n}`, c])) };
    const got = Object.fromEntries(policy.clusterRoles.map((r) => [r.metadata.name, count(r)]));
    assert.deepEqual(got, want);
    const defaults = policy.clusterRoles.filter((r) => !r.metadata.name.startsWith('system:controller:')).map((r) => r.metadata.name);
    assert.deepEqual(defaults, [...defaults].sort());
  });

  it('has the namespaced Roles', () => {
    assert.deepEqual(Object.fromEntries(policy.roles.map((r) => [key(r.metadata), count(r)])), NAMESPACE_ROLES);
  });

  it('binds as kube does (svc names for the components)', () => {
    const crb = policy.clusterRoleBindings.filter((b) => !b.metadata.name.startsWith('system:controller:'));
    assert.deepEqual(Object.fromEntries(crb.map((b) => [b.metadata.name, subjects(b)])), CLUSTER_ROLE_BINDINGS);
    const controllers = policy.clusterRoleBindings.filter((b) => b.metadata.name.startsWith('system:controller:'));
    assert.deepEqual(
      Object.fromEntries(controllers.map((b) => [b.metadata.name, [b.roleRef.name, ...subjects(b)]])),
      Object.fromEntries(Object.keys(CONTROLLER_ROLES).map((n) => [`system:controller:${n}`, [`system:controller:${n}`, `ServiceAccount:svc-system/${n}`]])),
    );
    assert.deepEqual(Object.fromEntries(policy.roleBindings.map((b) => [key(b.metadata), subjects(b)])), NAMESPACE_ROLE_BINDINGS);
  });

  it('refers only to roles it defines', () => {
    const cluster = new Set(policy.clusterRoles.map((r) => r.metadata.name));
    const ns = new Set(policy.roles.map((r) => key(r.metadata)));
    for (const b of policy.clusterRoleBindings) assert.ok(cluster.has(b.roleRef.name), b.metadata.name);
    for (const b of policy.roleBindings) assert.ok(ns.has(`${b.metadata.namespace}/${b.roleRef.name}`), b.metadata.name);
  });

  it('labels and annotates every object in both spellings, and spells groups svc.io', () => {
    const all = [...policy.clusterRoles, ...policy.clusterRoleBindings, ...policy.roles, ...policy.roleBindings];
    for (const o of all) {
      assert.equal(o.metadata.labels['kubernetes.io/bootstrapping'], 'rbac-defaults');
      assert.equal(o.metadata.labels['svc.io/bootstrapping'], 'rbac-defaults');
      assert.equal(o.metadata.annotations['rbac.authorization.kubernetes.io/autoupdate'], 'true');
      assert.equal(o.metadata.annotations['rbac.authorization.svc.io/autoupdate'], 'true');
    }
    for (const r of [...policy.clusterRoles, ...policy.roles]) {
      for (const rule of r.rules ?? []) for (const g of rule.apiGroups ?? []) assert.ok(!g.endsWith('.k8s.io'), `${r.metadata.name}: ${g}`);
    }
  });

  it('writes rules as kube\'s builder does: verbs, resources and URLs sorted', () => {
    const role = (n: string) => policy.clusterRoles.find((r) => r.metadata.name === n)!;
    assert.deepEqual(role('cluster-admin').rules, [
      { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
      { verbs: ['*'], nonResourceURLs: ['*'] },
    ]);
    assert.deepEqual(role('system:discovery').rules, [{
      verbs: ['get'], nonResourceURLs: ['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi', '/openapi/*', '/readyz', '/version', '/version/'],
    }]);
    assert.deepEqual(role('system:certificates.k8s.io:kube-apiserver-client-approver').rules, [
      { verbs: ['approve'], apiGroups: ['certificates.svc.io'], resources: ['signers'], resourceNames: ['kubernetes.io/kube-apiserver-client'] },
    ]);
    assert.deepEqual(role('system:svc-controller-manager').rules![2], {
      verbs: ['get', 'update'], apiGroups: ['coordination.svc.io'], resources: ['leases'], resourceNames: ['svc-controller-manager'],
    });
    assert.deepEqual(role('system:node-proxier').rules![2], { verbs: ['create', 'patch', 'update'], apiGroups: ['', 'events.svc.io'], resources: ['events'] });
  });

  it('aggregates admin, edit and view by the k8s.io label stock operators use, and the svc.io one', () => {
    const role = (n: string) => policy.clusterRoles.find((r) => r.metadata.name === n)!;
    assert.deepEqual(role('view').aggregationRule, { clusterRoleSelectors: [
      { matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } },
      { matchLabels: { 'rbac.authorization.svc.io/aggregate-to-view': 'true' } },
    ] });
    assert.equal(role('view').metadata.labels['rbac.authorization.k8s.io/aggregate-to-edit'], 'true');
    assert.equal(role('edit').metadata.labels['rbac.authorization.k8s.io/aggregate-to-admin'], 'true');
    assert.equal(role('system:aggregate-to-view').metadata.labels['rbac.authorization.k8s.io/aggregate-to-view'], 'true');
    assert.equal(role('admin').rules, undefined);
  });

  it('follows the feature gates kube\'s policy reads', () => {
    const on = bootstrapPolicy(gates(['APISelfSubjectReview', 'StatefulSetAutoDeletePVC']));
    const role = (n: string) => on.clusterRoles.find((r) => r.metadata.name === n)!;
    assert.deepEqual(role('system:basic-user').rules![1], { verbs: ['create'], apiGroups: ['authentication.svc.io'], resources: ['selfsubjectreviews'] });
    assert.deepEqual(role('system:controller:statefulset-controller').rules![8], { verbs: ['delete', 'update'], apiGroups: [''], resources: ['persistentvolumeclaims'] });
  });
});
