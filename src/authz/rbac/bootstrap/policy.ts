// The default ClusterRoles and ClusterRoleBindings of kube-apiserver v1.27
// (plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go; the expected
// output is its testdata/cluster-roles.yaml and cluster-role-bindings.yaml),
// with svc's names: a `kube-` that names a component becomes `svc-`
// (system:kube-scheduler → system:svc-scheduler, user system:kube-proxy →
// system:svc-proxy…), kube-system is svc-system, and groups are written in
// the svc.io spelling (rules match either).
import {
  CORE, READ, RW, SYSTEM_NS, WRITE, aggregateLabel, clusterRole, clusterRoleBinding, eventsRule, group, rule, serviceAccount, user,
  type BootstrapBinding, type BootstrapRole, type RuleBuilder,
} from './build.js';

/** Feature gates the policy depends on (src/features/gates.ts FeatureGates satisfies this). */
export interface PolicyGates {
  enabled(name: string): boolean;
}

const AUTHN = 'authentication.svc.io';
const AUTHZ = 'authorization.svc.io';
const RBAC = 'rbac.authorization.svc.io';
const CERTS = 'certificates.svc.io';
const COORD = 'coordination.svc.io';
const STORAGE = 'storage.svc.io';
const NETWORKING = 'networking.svc.io';
const DISCOVERY = 'discovery.svc.io';

const approver = (signer: string) => rule('approve').groups(CERTS).resources('signers').names(`kubernetes.io/${signer}`);

function basicUserRules(gates: PolicyGates): RuleBuilder[] {
  return [
    rule('create').groups(AUTHZ).resources('selfsubjectaccessreviews', 'selfsubjectrulesreviews'),
    ...(gates.enabled('APISelfSubjectReview') ? [rule('create').groups(AUTHN).resources('selfsubjectreviews')] : []),
  ];
}

const editRules = (): RuleBuilder[] => [
  rule(...READ).groups(CORE).resources('pods/attach', 'pods/proxy', 'pods/exec', 'pods/portforward', 'secrets', 'services/proxy'),
  rule('impersonate').groups(CORE).resources('serviceaccounts'),
  rule(...WRITE).groups(CORE).resources('pods', 'pods/attach', 'pods/proxy', 'pods/exec', 'pods/portforward'),
  rule('create').groups(CORE).resources('pods/eviction'),
  rule(...WRITE).groups(CORE).resources('replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts',
    'services', 'services/proxy', 'persistentvolumeclaims', 'configmaps', 'secrets', 'events'),
  rule('create').groups(CORE).resources('serviceaccounts/token'),
  rule(...WRITE).groups('apps').resources('statefulsets', 'statefulsets/scale', 'daemonsets', 'deployments', 'deployments/scale',
    'deployments/rollback', 'replicasets', 'replicasets/scale'),
  rule(...WRITE).groups('autoscaling').resources('horizontalpodautoscalers'),
  rule(...WRITE).groups('batch').resources('jobs', 'cronjobs'),
  rule(...WRITE).groups('extensions').resources('daemonsets', 'deployments', 'deployments/scale', 'deployments/rollback', 'ingresses',
    'replicasets', 'replicasets/scale', 'replicationcontrollers/scale', 'networkpolicies'),
  rule(...WRITE).groups('policy').resources('poddisruptionbudgets'),
  rule(...WRITE).groups(NETWORKING).resources('ingresses', 'networkpolicies'),
  rule(...RW).groups(COORD).resources('leases'),
];

const viewRules = (): RuleBuilder[] => [
  rule(...READ).groups(CORE).resources('pods', 'replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts',
    'services', 'services/status', 'endpoints', 'persistentvolumeclaims', 'persistentvolumeclaims/status', 'configmaps'),
  rule(...READ).groups(CORE).resources('limitranges', 'resourcequotas', 'bindings', 'events', 'pods/status',
    'resourcequotas/status', 'namespaces/status', 'replicationcontrollers/status', 'pods/log'),
  // a user bound to view in a namespace may see that namespace
  rule(...READ).groups(CORE).resources('namespaces'),
  rule(...READ).groups(DISCOVERY).resources('endpointslices'),
  rule(...READ).groups('apps').resources('controllerrevisions', 'statefulsets', 'statefulsets/status', 'statefulsets/scale', 'daemonsets',
    'daemonsets/status', 'deployments', 'deployments/status', 'deployments/scale', 'replicasets', 'replicasets/status', 'replicasets/scale'),
  rule(...READ).groups('autoscaling').resources('horizontalpodautoscalers', 'horizontalpodautoscalers/status'),
  rule(...READ).groups('batch').resources('jobs', 'cronjobs', 'cronjobs/status', 'jobs/status'),
  rule(...READ).groups('extensions').resources('daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status',
    'ingresses', 'ingresses/status', 'replicasets', 'replicasets/scale', 'replicasets/status', 'replicationcontrollers/scale', 'networkpolicies'),
  rule(...READ).groups('policy').resources('poddisruptionbudgets', 'poddisruptionbudgets/status'),
  rule(...READ).groups(NETWORKING).resources('ingresses', 'ingresses/status', 'networkpolicies'),
];

/** kube's NodeRules(): the system:node ClusterRole, and what the Node authorizer allows for resources it does not subdivide. */
export const nodeRuleBuilders = (gates: PolicyGates): RuleBuilder[] => [
  // the kubelet's authenticating and authorizing webhooks
  rule('create').groups(AUTHN).resources('tokenreviews'),
  rule('create').groups(AUTHZ).resources('subjectaccessreviews', 'localsubjectaccessreviews'),
  rule(...READ).groups(CORE).resources('services'),
  rule('create', 'get', 'list', 'watch').groups(CORE).resources('nodes'),
  rule('update', 'patch').groups(CORE).resources('nodes/status'),
  rule('update', 'patch').groups(CORE).resources('nodes'),
  rule('create', 'update', 'patch').groups(CORE).resources('events'),
  rule(...READ).groups(CORE).resources('pods'),
  // mirror pods
  rule('create', 'delete').groups(CORE).resources('pods'),
  rule('update', 'patch').groups(CORE).resources('pods/status'),
  rule('create').groups(CORE).resources('pods/eviction'),
  rule(...READ).groups(CORE).resources('secrets', 'configmaps'),
  rule('get').groups(CORE).resources('persistentvolumeclaims', 'persistentvolumes'),
  rule('get').groups(CORE).resources('endpoints'),
  rule('create', 'get', 'list', 'watch').groups(CERTS).resources('certificatesigningrequests'),
  rule('get', 'create', 'update', 'patch', 'delete').groups(COORD).resources('leases'),
  rule('get').groups(STORAGE).resources('volumeattachments'),
  rule('create').groups(CORE).resources('serviceaccounts/token'),
  rule('get', 'update', 'patch').groups(CORE).resources('persistentvolumeclaims/status'),
  rule(...READ).groups(STORAGE).resources('csidrivers'),
  rule('get', 'create', 'update', 'patch', 'delete').groups(STORAGE).resources('csinodes'),
  rule(...READ).groups('node.svc.io').resources('runtimeclasses'),
  ...(gates.enabled('DynamicResourceAllocation') ? [rule('get').groups('resource.svc.io').resources('resourceclaims')] : []),
];

const schedulerRules = (): RuleBuilder[] => [
  eventsRule(),
  rule('create').groups(COORD).resources('leases'),
  rule('get', 'update').groups(COORD).resources('leases').names('svc-scheduler'),
  rule(...READ).groups(CORE).resources('nodes'),
  rule('get', 'list', 'watch', 'delete').groups(CORE).resources('pods'),
  rule('create').groups(CORE).resources('pods/binding', 'bindings'),
  rule('patch', 'update').groups(CORE).resources('pods/status'),
  rule(...READ).groups(CORE).resources('replicationcontrollers', 'services'),
  rule(...READ).groups('apps', 'extensions').resources('replicasets'),
  rule(...READ).groups('apps').resources('statefulsets'),
  rule(...READ).groups('policy').resources('poddisruptionbudgets'),
  rule(...READ).groups(CORE).resources('persistentvolumeclaims', 'persistentvolumes'),
  // the scheduler's authentication and authorization delegation
  rule('create').groups(AUTHN).resources('tokenreviews'),
  rule('create').groups(AUTHZ).resources('subjectaccessreviews'),
  rule(...READ).groups(STORAGE).resources('csinodes'),
  rule(...READ).groups(CORE).resources('namespaces'),
  rule(...READ).groups(STORAGE).resources('csidrivers'),
  rule(...READ).groups(STORAGE).resources('csistoragecapacities'),
];

const controllerManagerRules = (): RuleBuilder[] => [
  eventsRule(),
  rule('create').groups(COORD).resources('leases'),
  rule('get', 'update').groups(COORD).resources('leases').names('svc-controller-manager'),
  // the service-account credentials the controllers run with
  rule('create').groups(CORE).resources('secrets', 'serviceaccounts'),
  rule('delete').groups(CORE).resources('secrets'),
  rule('get').groups(CORE).resources('namespaces', 'secrets', 'serviceaccounts', 'configmaps'),
  rule('update').groups(CORE).resources('secrets', 'serviceaccounts'),
  rule('create').groups(AUTHN).resources('tokenreviews'),
  rule('create').groups(AUTHZ).resources('subjectaccessreviews'),
  // the shared informers
  rule('list', 'watch').groups('*').resources('*'),
  rule('create').groups(CORE).resources('serviceaccounts/token'),
];

/** The default ClusterRoles (kube's ClusterRoles()), by name as kube sorts them. */
export function clusterRoles(gates: PolicyGates): BootstrapRole[] {
  const roles = [
    clusterRole('cluster-admin', [rule('*').groups('*').resources('*'), rule('*').urls('*')]),
    clusterRole('system:discovery', [rule('get').urls('/livez', '/readyz', '/healthz', '/version', '/version/', '/openapi', '/openapi/*', '/api', '/api/*', '/apis', '/apis/*')]),
    clusterRole('system:monitoring', [rule('get').urls('/metrics', '/metrics/slis', '/livez', '/readyz', '/healthz', '/livez/*', '/readyz/*', '/healthz/*')]),
    clusterRole('system:basic-user', basicUserRules(gates)),
    clusterRole('system:public-info-viewer', [rule('get').urls('/livez', '/readyz', '/healthz', '/version', '/version/')]),
    clusterRole('admin', [], { aggregateFrom: 'admin' }),
    clusterRole('edit', [], { aggregateFrom: 'edit', labels: { [aggregateLabel('admin')]: 'true' } }),
    clusterRole('view', [], { aggregateFrom: 'view', labels: { [aggregateLabel('edit')]: 'true' } }),
    clusterRole('system:aggregate-to-admin', [
      rule('create').groups(AUTHZ).resources('localsubjectaccessreviews'),
      rule(...RW).groups(RBAC).resources('roles', 'rolebindings'),
    ], { labels: { [aggregateLabel('admin')]: 'true' } }),
    clusterRole('system:aggregate-to-edit', editRules(), { labels: { [aggregateLabel('edit')]: 'true' } }),
    clusterRole('system:aggregate-to-view', viewRules(), { labels: { [aggregateLabel('view')]: 'true' } }),
    clusterRole('system:heapster', [
      rule(...READ).groups(CORE).resources('events', 'pods', 'nodes', 'namespaces'),
      rule(...READ).groups('extensions').resources('deployments'),
    ]),
    clusterRole('system:node', nodeRuleBuilders(gates)),
    clusterRole('system:node-problem-detector', [
      rule('get').groups(CORE).resources('nodes'),
      rule('patch').groups(CORE).resources('nodes/status'),
      eventsRule(),
    ]),
    clusterRole('system:kubelet-api-admin', [
      rule(...READ).groups(CORE).resources('nodes'),
      rule('proxy').groups(CORE).resources('nodes'),
      rule('*').groups(CORE).resources('nodes/proxy', 'nodes/metrics', 'nodes/stats', 'nodes/log'),
    ]),
    clusterRole('system:node-bootstrapper', [rule('create', 'get', 'list', 'watch').groups(CERTS).resources('certificatesigningrequests')]),
    clusterRole('system:auth-delegator', [
      rule('create').groups(AUTHN).resources('tokenreviews'),
      rule('create').groups(AUTHZ).resources('subjectaccessreviews'),
    ]),
    clusterRole('system:svc-aggregator', [rule(...READ).groups(CORE).resources('services', 'endpoints')]),
    clusterRole('system:svc-controller-manager', controllerManagerRules()),
    clusterRole('system:svc-dns', [rule('list', 'watch').groups(CORE).resources('endpoints', 'services')]),
    clusterRole('system:persistent-volume-provisioner', [
      rule('get', 'list', 'watch', 'create', 'delete').groups(CORE).resources('persistentvolumes'),
      rule('get', 'list', 'watch', 'update').groups(CORE).resources('persistentvolumeclaims'),
      rule(...READ).groups(STORAGE).resources('storageclasses'),
      // watching events to see the provisioning progress of the external provisioner
      rule('watch').groups(CORE).resources('events'),
      eventsRule(),
    ]),
    clusterRole('system:certificates.k8s.io:certificatesigningrequests:nodeclient', [
      rule('create').groups(CERTS).resources('certificatesigningrequests/nodeclient'),
    ]),
    clusterRole('system:certificates.k8s.io:certificatesigningrequests:selfnodeclient', [
      rule('create').groups(CERTS).resources('certificatesigningrequests/selfnodeclient'),
    ]),
    clusterRole('system:volume-scheduler', [
      rule(...READ, 'update', 'patch').groups(CORE).resources('persistentvolumes'),
      rule(...READ).groups(STORAGE).resources('storageclasses'),
      rule(...READ, 'update', 'patch').groups(CORE).resources('persistentvolumeclaims'),
    ]),
    clusterRole('system:certificates.k8s.io:legacy-unknown-approver', [approver('legacy-unknown')]),
    clusterRole('system:certificates.k8s.io:kubelet-serving-approver', [approver('kubelet-serving')]),
    clusterRole('system:certificates.k8s.io:kube-apiserver-client-approver', [approver('kube-apiserver-client')]),
    clusterRole('system:certificates.k8s.io:kube-apiserver-client-kubelet-approver', [approver('kube-apiserver-client-kubelet')]),
    clusterRole('system:service-account-issuer-discovery', [rule('get').urls('/.well-known/openid-configuration', '/openid/v1/jwks')]),
    clusterRole('system:node-proxier', [
      rule('list', 'watch').groups(CORE).resources('services', 'endpoints'),
      rule(...READ).groups(CORE).resources('nodes'),
      eventsRule(),
      rule('list', 'watch').groups(DISCOVERY).resources('endpointslices'),
    ]),
    clusterRole('system:svc-scheduler', schedulerRules()),
  ];
  return roles.sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0));
}

/** The default ClusterRoleBindings (kube's ClusterRoleBindings()). */
export function clusterRoleBindings(): BootstrapBinding[] {
  const bindings = [
    clusterRoleBinding('cluster-admin', 'cluster-admin', [group('system:masters')]),
    clusterRoleBinding('system:monitoring', 'system:monitoring', [group('system:monitoring')]),
    clusterRoleBinding('system:discovery', 'system:discovery', [group('system:authenticated')]),
    clusterRoleBinding('system:basic-user', 'system:basic-user', [group('system:authenticated')]),
    clusterRoleBinding('system:public-info-viewer', 'system:public-info-viewer', [group('system:authenticated'), group('system:unauthenticated')]),
    clusterRoleBinding('system:node-proxier', 'system:node-proxier', [user('system:svc-proxy')]),
    clusterRoleBinding('system:svc-controller-manager', 'system:svc-controller-manager', [user('system:svc-controller-manager')]),
    clusterRoleBinding('system:svc-dns', 'system:svc-dns', [serviceAccount(SYSTEM_NS, 'svc-dns')]),
    clusterRoleBinding('system:svc-scheduler', 'system:svc-scheduler', [user('system:svc-scheduler')]),
    clusterRoleBinding('system:volume-scheduler', 'system:volume-scheduler', [user('system:svc-scheduler')]),
    // kept without subjects: the Node authorizer grants nodes what they need
    clusterRoleBinding('system:node', 'system:node', []),
    clusterRoleBinding('system:service-account-issuer-discovery', 'system:service-account-issuer-discovery', [group('system:serviceaccounts')]),
  ];
  return bindings.sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0));
}
