// apps: the workload controllers' objects. apps/v1 only (v1beta1/v1beta2
// were removed in 1.16).
import { defineGroup, scale, status } from './define.js';

export const apps = defineGroup({
  name: 'apps',
  groupPriorityMinimum: 17800,
  versions: [{
    version: 'v1',
    enabledByDefault: true,
    versionPriority: 15,
    resources: [
      { resource: 'controllerrevisions', kind: 'ControllerRevision', namespaced: true },
      {
        resource: 'daemonsets', kind: 'DaemonSet', namespaced: true, shortNames: ['ds'], categories: ['all'],
        subresources: [status('DaemonSet')],
      },
      {
        resource: 'deployments', kind: 'Deployment', namespaced: true, shortNames: ['deploy'], categories: ['all'],
        subresources: [scale, status('Deployment')],
      },
      {
        resource: 'replicasets', kind: 'ReplicaSet', namespaced: true, shortNames: ['rs'], categories: ['all'],
        subresources: [scale, status('ReplicaSet')],
      },
      {
        resource: 'statefulsets', kind: 'StatefulSet', namespaced: true, shortNames: ['sts'], categories: ['all'],
        subresources: [scale, status('StatefulSet')],
      },
    ],
  }],
});
