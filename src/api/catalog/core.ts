// The core (legacy) group: /api/v1. Verbs, short names, categories and
// subresources as kube-apiserver v1.27 lists them in /api/v1 discovery.
import { CREATE, GET_PATCH_UPDATE, defineGroup, scale, status } from './define.js';
import type { SubresourceInfo, Verb } from './types.js';

/** proxy on nodes, pods and services: a connecter answering every method. */
const proxy = (kind: string): SubresourceInfo => ({
  name: 'proxy', kind, verbs: ['create', 'delete', 'get', 'patch', 'update'], connect: true,
});
const stream = (name: string, kind: string): SubresourceInfo => ({ name, kind, verbs: ['create', 'get'], connect: true });
const NAMESPACE_VERBS: readonly Verb[] = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];

export const core = defineGroup({
  name: '',
  groupPriorityMinimum: 18000,
  versions: [{
    version: 'v1',
    enabledByDefault: true,
    versionPriority: 1,
    resources: [
      // Creates a pod's binding to a node (writes the pod); nothing stored of its own.
      { resource: 'bindings', kind: 'Binding', namespaced: true, verbs: CREATE, virtual: true },
      // Computed from health probes of the control-plane components.
      {
        resource: 'componentstatuses', kind: 'ComponentStatus', namespaced: false, verbs: ['get', 'list'],
        shortNames: ['cs'], virtual: true, lifecycle: { introduced: '1.0', deprecated: '1.19' },
      },
      { resource: 'configmaps', kind: 'ConfigMap', namespaced: true, shortNames: ['cm'] },
      { resource: 'endpoints', kind: 'Endpoints', namespaced: true, shortNames: ['ep'] },
      { resource: 'events', kind: 'Event', namespaced: true, shortNames: ['ev'] },
      { resource: 'limitranges', kind: 'LimitRange', namespaced: true, shortNames: ['limits'] },
      {
        resource: 'namespaces', kind: 'Namespace', namespaced: false, verbs: NAMESPACE_VERBS, shortNames: ['ns'],
        subresources: [{ name: 'finalize', kind: 'Namespace', verbs: ['update'] }, status('Namespace')],
      },
      {
        resource: 'nodes', kind: 'Node', namespaced: false, shortNames: ['no'],
        subresources: [proxy('NodeProxyOptions'), status('Node')],
      },
      {
        resource: 'persistentvolumeclaims', kind: 'PersistentVolumeClaim', namespaced: true, shortNames: ['pvc'],
        subresources: [status('PersistentVolumeClaim')],
      },
      {
        resource: 'persistentvolumes', kind: 'PersistentVolume', namespaced: false, shortNames: ['pv'],
        subresources: [status('PersistentVolume')],
      },
      {
        resource: 'pods', kind: 'Pod', namespaced: true, shortNames: ['po'], categories: ['all'],
        subresources: [
          stream('attach', 'PodAttachOptions'),
          { name: 'binding', kind: 'Binding', verbs: CREATE },
          { name: 'ephemeralcontainers', kind: 'Pod', verbs: GET_PATCH_UPDATE },
          { name: 'eviction', kind: 'Eviction', group: 'policy', version: 'v1', verbs: CREATE },
          stream('exec', 'PodExecOptions'),
          { name: 'log', kind: 'Pod', verbs: ['get'] },
          stream('portforward', 'PodPortForwardOptions'),
          proxy('PodProxyOptions'),
          status('Pod'),
        ],
      },
      { resource: 'podtemplates', kind: 'PodTemplate', namespaced: true },
      {
        resource: 'replicationcontrollers', kind: 'ReplicationController', namespaced: true,
        shortNames: ['rc'], categories: ['all'], subresources: [scale, status('ReplicationController')],
      },
      {
        resource: 'resourcequotas', kind: 'ResourceQuota', namespaced: true, shortNames: ['quota'],
        subresources: [status('ResourceQuota')],
      },
      { resource: 'secrets', kind: 'Secret', namespaced: true },
      {
        resource: 'serviceaccounts', kind: 'ServiceAccount', namespaced: true, shortNames: ['sa'],
        subresources: [{ name: 'token', kind: 'TokenRequest', group: 'authentication.svc.io', version: 'v1', verbs: CREATE }],
      },
      {
        resource: 'services', kind: 'Service', namespaced: true, shortNames: ['svc'], categories: ['all'],
        subresources: [proxy('ServiceProxyOptions'), status('Service')],
      },
    ],
  }],
});
