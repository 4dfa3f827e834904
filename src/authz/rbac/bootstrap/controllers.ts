// The system:controller:* ClusterRoles and their bindings to each
// controller's service account in svc-system (kube v1.27's
// bootstrappolicy/controller_policy.go; testdata/controller-roles.yaml and
// controller-role-bindings.yaml are its expected output).
import {
  CORE, READ, SYSTEM_NS, clusterRole, clusterRoleBinding, eventsRule, rule, serviceAccount,
  type BootstrapBinding, type BootstrapRole, type RuleBuilder,
} from './build.js';
import type { PolicyGates } from './policy.js';

export const CONTROLLER_ROLE_PREFIX = 'system:controller:';

const STORAGE = 'storage.svc.io';
const CERTS = 'certificates.svc.io';
const DISCOVERY = 'discovery.svc.io';
const RBAC = 'rbac.authorization.svc.io';

/** Each controller's rules, by the controller's (and its service account's) name. */
function controllerRules(gates: PolicyGates): Record<string, RuleBuilder[]> {
  return {
    'attachdetach-controller': [
      rule('list', 'watch').groups(CORE).resources('persistentvolumes', 'persistentvolumeclaims'),
      rule(...READ).groups(CORE).resources('nodes'),
      rule('patch', 'update').groups(CORE).resources('nodes/status'),
      rule('list', 'watch').groups(CORE).resources('pods'),
      eventsRule(),
      rule('get', 'create', 'delete', 'list', 'watch').groups(STORAGE).resources('volumeattachments'),
      rule(...READ).groups(STORAGE).resources('csidrivers'),
      rule(...READ).groups(STORAGE).resources('csinodes'),
    ],
    'clusterrole-aggregation-controller': [
      // escalate: the controller grants the union of roles it may not hold itself
      rule('escalate', 'get', 'list', 'watch', 'update', 'patch').groups(RBAC).resources('clusterroles'),
    ],
    'cronjob-controller': [
      rule('get', 'list', 'watch', 'update').groups('batch').resources('cronjobs'),
      rule('get', 'list', 'watch', 'create', 'update', 'delete', 'patch').groups('batch').resources('jobs'),
      rule('update').groups('batch').resources('cronjobs/status'),
      rule('update').groups('batch').resources('cronjobs/finalizers'),
      rule('list', 'delete').groups(CORE).resources('pods'),
      eventsRule(),
    ],
    'daemon-set-controller': [
      rule(...READ).groups('apps', 'extensions').resources('daemonsets'),
      rule('update').groups('apps', 'extensions').resources('daemonsets/status'),
      rule('update').groups('apps', 'extensions').resources('daemonsets/finalizers'),
      rule('list', 'watch').groups(CORE).resources('nodes'),
      rule('list', 'watch', 'create', 'delete', 'patch').groups(CORE).resources('pods'),
      rule('create').groups(CORE).resources('pods/binding'),
      rule('get', 'list', 'watch', 'create', 'delete', 'update', 'patch').groups('apps').resources('controllerrevisions'),
      eventsRule(),
    ],
    'deployment-controller': [
      rule('get', 'list', 'watch', 'update').groups('apps', 'extensions').resources('deployments'),
      rule('update').groups('apps', 'extensions').resources('deployments/status'),
      rule('update').groups('apps', 'extensions').resources('deployments/finalizers'),
      rule('get', 'list', 'watch', 'create', 'update', 'patch', 'delete').groups('apps', 'extensions').resources('replicasets'),
      // pods are listed and updated to move them between replica sets
      rule('get', 'list', 'watch', 'update').groups(CORE).resources('pods'),
      eventsRule(),
    ],
    'disruption-controller': [
      rule(...READ).groups('apps', 'extensions').resources('deployments'),
      rule(...READ).groups('apps', 'extensions').resources('replicasets'),
      rule(...READ).groups(CORE).resources('replicationcontrollers'),
      rule(...READ).groups('policy').resources('poddisruptionbudgets'),
      rule(...READ).groups('apps').resources('statefulsets'),
      rule('update').groups('policy').resources('poddisruptionbudgets/status'),
      rule('patch', 'update').groups(CORE).resources('pods/status'),
      rule('get').groups('*').resources('*/scale'),
      eventsRule(),
    ],
    'endpoint-controller': [
      rule(...READ).groups(CORE).resources('services', 'pods'),
      rule('get', 'list', 'create', 'update', 'delete').groups(CORE).resources('endpoints'),
      rule('create').groups(CORE).resources('endpoints/restricted'),
      eventsRule(),
    ],
    'endpointslice-controller': [
      rule(...READ).groups(CORE).resources('services', 'pods', 'nodes'),
      // services/finalizers: owner references with blockOwnerDeletion on endpoint slices
      rule('update').groups(CORE).resources('services/finalizers'),
      rule('get', 'list', 'create', 'update', 'delete').groups(DISCOVERY).resources('endpointslices'),
      rule('create').groups(DISCOVERY).resources('endpointslices/restricted'),
      eventsRule(),
    ],
    'endpointslicemirroring-controller': [
      rule(...READ).groups(CORE).resources('services', 'endpoints'),
      rule('update').groups(CORE).resources('services/finalizers'),
      rule('update').groups(CORE).resources('endpoints/finalizers'),
      rule('get', 'list', 'create', 'update', 'delete').groups(DISCOVERY).resources('endpointslices'),
      rule('create').groups(DISCOVERY).resources('endpointslices/restricted'),
      eventsRule(),
    ],
    'expand-controller': [
      rule('get', 'list', 'watch', 'update', 'patch').groups(CORE).resources('persistentvolumes'),
      rule('update', 'patch').groups(CORE).resources('persistentvolumeclaims/status'),
      rule(...READ).groups(CORE).resources('persistentvolumeclaims'),
      // the volume plugins read storage classes, and glusterfs endpoints, services and secrets
      rule(...READ).groups(STORAGE).resources('storageclasses'),
      rule('get').groups(CORE).resources('services', 'endpoints'),
      rule('get').groups(CORE).resources('secrets'),
      eventsRule(),
    ],
    'ephemeral-volume-controller': [
      rule(...READ).groups(CORE).resources('pods'),
      rule('update').groups(CORE).resources('pods/finalizers'),
      rule('get', 'list', 'watch', 'create').groups(CORE).resources('persistentvolumeclaims'),
      eventsRule(),
    ],
    'generic-garbage-collector': [
      rule('get', 'list', 'watch', 'patch', 'update', 'delete').groups('*').resources('*'),
      eventsRule(),
    ],
    'horizontal-pod-autoscaler': [
      rule(...READ).groups('autoscaling').resources('horizontalpodautoscalers'),
      rule('update').groups('autoscaling').resources('horizontalpodautoscalers/status'),
      rule('get', 'update').groups('*').resources('*/scale'),
      rule('list').groups(CORE).resources('pods'),
      // the resource metrics API (metrics-server)
      rule('list').groups('metrics.svc.io').resources('pods'),
      // the custom and external metrics APIs
      rule('get', 'list').groups('custom.metrics.svc.io').resources('*'),
      rule('get', 'list').groups('external.metrics.svc.io').resources('*'),
      eventsRule(),
    ],
    'job-controller': [
      rule('get', 'list', 'watch', 'update', 'patch').groups('batch').resources('jobs'),
      rule('update').groups('batch').resources('jobs/status'),
      rule('update').groups('batch').resources('jobs/finalizers'),
      rule('list', 'watch', 'create', 'delete', 'patch').groups(CORE).resources('pods'),
      eventsRule(),
    ],
    'namespace-controller': [
      rule('get', 'list', 'watch', 'delete').groups(CORE).resources('namespaces'),
      rule('update').groups(CORE).resources('namespaces/finalize', 'namespaces/status'),
      rule('get', 'list', 'delete', 'deletecollection').groups('*').resources('*'),
    ],
    'node-controller': [
      rule('get', 'list', 'update', 'delete', 'patch').groups(CORE).resources('nodes'),
      rule('patch', 'update').groups(CORE).resources('nodes/status'),
      // taint-based eviction marks pods' status
      rule('patch', 'update').groups(CORE).resources('pods/status'),
      rule('list', 'get', 'delete').groups(CORE).resources('pods'),
      eventsRule(),
    ],
    'persistent-volume-binder': [
      rule('get', 'list', 'watch', 'update', 'create', 'delete').groups(CORE).resources('persistentvolumes'),
      rule('update').groups(CORE).resources('persistentvolumes/status'),
      rule(...READ, 'update').groups(CORE).resources('persistentvolumeclaims'),
      rule('update').groups(CORE).resources('persistentvolumeclaims/status'),
      rule('list', 'watch', 'get', 'create', 'delete').groups(CORE).resources('pods'),
      // the volume plugins
      rule(...READ).groups(STORAGE).resources('storageclasses'),
      rule('get', 'create', 'update', 'delete').groups(CORE).resources('endpoints'),
      rule('get', 'create', 'delete').groups(CORE).resources('services'),
      rule('get').groups(CORE).resources('secrets'),
      rule('get', 'list').groups(CORE).resources('nodes'),
      // watching events to see the provisioning progress of external provisioners
      rule('watch').groups(CORE).resources('events'),
      eventsRule(),
    ],
    'pod-garbage-collector': [
      rule('list', 'watch', 'delete').groups(CORE).resources('pods'),
      rule('get', 'list').groups(CORE).resources('nodes'),
      rule('patch').groups(CORE).resources('pods/status'),
    ],
    'pv-protection-controller': [
      rule('get', 'list', 'watch', 'update').groups(CORE).resources('persistentvolumes'),
      eventsRule(),
    ],
    'pvc-protection-controller': [
      rule('get', 'list', 'watch', 'update').groups(CORE).resources('persistentvolumeclaims'),
      rule('list', 'watch', 'get').groups(CORE).resources('pods'),
      eventsRule(),
    ],
    'replicaset-controller': [
      rule('get', 'list', 'watch', 'update').groups('apps', 'extensions').resources('replicasets'),
      rule('update').groups('apps', 'extensions').resources('replicasets/status'),
      rule('update').groups('apps', 'extensions').resources('replicasets/finalizers'),
      rule('list', 'watch', 'patch', 'create', 'delete').groups(CORE).resources('pods'),
      eventsRule(),
    ],
    'replication-controller': [
      // 1.0 controllers needed get, update, so without these old controllers break on new servers
      rule('get', 'list', 'watch', 'update').groups(CORE).resources('replicationcontrollers'),
      rule('update').groups(CORE).resources('replicationcontrollers/status'),
      rule('update').groups(CORE).resources('replicationcontrollers/finalizers'),
      rule('list', 'watch', 'patch', 'create', 'delete').groups(CORE).resources('pods'),
      eventsRule(),
    ],
    'resourcequota-controller': [
      // quota can count quota on anything for reconciliation, so it needs full viewing powers
      rule('list', 'watch').groups('*').resources('*'),
      rule('update').groups(CORE).resources('resourcequotas/status'),
      eventsRule(),
    ],
    'root-ca-cert-publisher': [
      rule('create', 'update').groups(CORE).resources('configmaps'),
      eventsRule(),
    ],
    'route-controller': [
      rule('list', 'watch').groups(CORE).resources('nodes'),
      rule('patch').groups(CORE).resources('nodes/status'),
      eventsRule(),
    ],
    'service-account-controller': [
      rule('create').groups(CORE).resources('serviceaccounts'),
      eventsRule(),
    ],
    'service-controller': [
      rule(...READ).groups(CORE).resources('services'),
      rule('patch', 'update').groups(CORE).resources('services/status'),
      rule('list', 'watch').groups(CORE).resources('nodes'),
      eventsRule(),
    ],
    'statefulset-controller': [
      rule('list', 'watch').groups(CORE).resources('pods'),
      rule(...READ).groups('apps').resources('statefulsets'),
      rule('update').groups('apps').resources('statefulsets/status'),
      rule('update').groups('apps').resources('statefulsets/finalizers'),
      rule('get', 'create', 'delete', 'update', 'patch').groups(CORE).resources('pods'),
      rule('get', 'create', 'delete', 'update', 'patch', 'list', 'watch').groups('apps').resources('controllerrevisions'),
      rule('get', 'create').groups(CORE).resources('persistentvolumeclaims'),
      eventsRule(),
      ...(gates.enabled('StatefulSetAutoDeletePVC') ? [rule('update', 'delete').groups(CORE).resources('persistentvolumeclaims')] : []),
    ],
    'ttl-controller': [
      rule('update', 'patch', 'list', 'watch').groups(CORE).resources('nodes'),
      eventsRule(),
    ],
    'certificate-controller': [
      rule('get', 'list', 'watch', 'delete').groups(CERTS).resources('certificatesigningrequests'),
      rule('update').groups(CERTS).resources('certificatesigningrequests/status', 'certificatesigningrequests/approval'),
      // the built-in signers in kube's spelling and in ours (svc.io/…), which this server's signer also serves
      rule('approve').groups(CERTS).resources('signers').names('kubernetes.io/kube-apiserver-client-kubelet', 'svc.io/kube-apiserver-client-kubelet'),
      rule('sign').groups(CERTS).resources('signers').names('kubernetes.io/legacy-unknown', 'kubernetes.io/kube-apiserver-client',
        'kubernetes.io/kube-apiserver-client-kubelet', 'kubernetes.io/kubelet-serving',
        'svc.io/legacy-unknown', 'svc.io/kube-apiserver-client', 'svc.io/kube-apiserver-client-kubelet', 'svc.io/kubelet-serving'),
      rule('create').groups('authorization.svc.io').resources('subjectaccessreviews'),
      eventsRule(),
    ],
    'ttl-after-finished-controller': [
      rule('get', 'list', 'watch', 'delete').groups('batch').resources('jobs'),
      eventsRule(),
    ],
  };
}

const byName = <T extends { metadata: { name: string } }>(a: T, b: T) => (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0);

/** The controllers' ClusterRoles (kube's ControllerRoles()), sorted by name. */
export function controllerRoles(gates: PolicyGates): BootstrapRole[] {
  return Object.entries(controllerRules(gates)).map(([name, rules]) => clusterRole(CONTROLLER_ROLE_PREFIX + name, rules)).sort(byName);
}

/** Each controller role bound to the controller's service account in svc-system (kube's ControllerRoleBindings()). */
export function controllerRoleBindings(gates: PolicyGates): BootstrapBinding[] {
  return Object.keys(controllerRules(gates))
    .map((name) => clusterRoleBinding(CONTROLLER_ROLE_PREFIX + name, CONTROLLER_ROLE_PREFIX + name, [serviceAccount(SYSTEM_NS, name)]))
    .sort(byName);
}
